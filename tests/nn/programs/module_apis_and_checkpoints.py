import os, tempfile, io
import torch
from torch import nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2)
        self.b = nn.Linear(2, 2)
        self.b.weight = self.a.weight
        self.register_buffer("rb", torch.ones(1))
        self.register_parameter("extra", None)
        self.scale = 3.0
    def forward(self, x):
        return self.b(self.a(x)) * self.scale
n = Net()
print([k for k, _ in n.named_parameters()], len(list(n.parameters())))
print([k for k, _ in n.named_parameters(remove_duplicate=False)])
print(list(n.state_dict().keys()))
print(n.extra, "extra" in dict(n.named_parameters()))
n.double()
print(n.a.weight.dtype, n.rb.dtype)
n.float()
n.to(torch.float64)
print(n.rb.dtype)
n.to(dtype=torch.float32)
try:
    n.a = 3
except TypeError as e:
    print("TypeError:", e)
try:
    n.register_buffer("a", torch.ones(1))
except KeyError as e:
    print("KeyError:", e)
try:
    n.register_buffer("x.y", torch.ones(1))
except KeyError as e:
    print("KeyError:", e)
try:
    n.register_parameter("p", torch.ones(1))
except TypeError as e:
    print("TypeError:", e)
try:
    n.nope
except AttributeError as e:
    print("AttributeError:", e)
n.rb = torch.zeros(1)
print(dict(n.named_buffers()))
del n.scale
print(hasattr(n, "scale"))
print(n.a.weight is n.b.weight)
n.register_module("c", nn.ReLU())
print(n)
print(nn.Linear(2, 3).extra_repr(), nn.Conv2d(1, 2, 3, bias=False).extra_repr())
print(repr(nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU(), nn.Dropout(0.1)))))
print(nn.ModuleList([nn.Linear(1, 1)] * 3))
class Bad(nn.Module):
    def __init__(self):
        self.x = nn.Linear(1, 1)
try:
    Bad()
except AttributeError as e:
    print("AttributeError:", e)
m = nn.Linear(2, 2)
m.weight.requires_grad = False
print([p.requires_grad for p in m.parameters()])
try:
    m.weight = torch.ones(2, 2)
except TypeError as e:
    print("TypeError:", e)
m.weight = nn.Parameter(torch.ones(2, 2))
print(m(torch.ones(1, 2)))
print(sum(1 for _ in nn.Sequential(nn.Linear(1, 1), nn.ReLU()).modules()))
print(nn.Module().training, torch.nn.Module.__call__ is not None)
lin = nn.Linear(3, 3)
torch.nn.init.kaiming_normal_(lin.weight, mode='fan_out', nonlinearity='relu')
torch.nn.init.trunc_normal_(lin.bias, std=0.02)
print(lin.weight.std() > 0, torch.nn.init.calculate_gain('leaky_relu', 0.2), torch.nn.init.orthogonal_(torch.empty(2, 2)).shape)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
opt = torch.optim.Adam(model.parameters())
model(torch.randn(5, 3)).sum().backward(); opt.step()
d = tempfile.mkdtemp()
path = os.path.join(d, "ckpt.pt")
torch.save({"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(), "loss": 0.5, "t": torch.arange(3)}, path)
ck = torch.load(path, weights_only=True)
print(sorted(ck), ck["epoch"], ck["t"])
m2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
o2 = torch.optim.Adam(m2.parameters())
print(m2.load_state_dict(ck["model_state_dict"]))
o2.load_state_dict(ck["optimizer_state_dict"])
print(o2.state_dict()["state"][0]["step"], o2.state_dict()["state"][0]["exp_avg"].shape)
m2.eval()
x = torch.randn(2, 3)
model.eval()
print(torch.equal(model(x), m2(x)))
torch.save(model, os.path.join(d, "full.pt"))
m3 = torch.load(os.path.join(d, "full.pt"), weights_only=False)
print(type(m3).__name__, torch.equal(m3(x), model(x)))
base = torch.arange(10.)
torch.save([base[2:5], base], os.path.join(d, "views.pt"))
v, b = torch.load(os.path.join(d, "views.pt"))
v[0] = 100
print(b[:4])
torch.save(torch.tensor([1, 2], dtype=torch.int16), os.path.join(d, "i16.pt"))
print(torch.load(os.path.join(d, "i16.pt")))
sm = torch.jit if False else None
import io
buf = io.BytesIO(); torch.save({"a": [1, 2, {"b": torch.ones(1)}]}, buf); buf.seek(0)
print(torch.load(buf))
print(torch.load(path, map_location="cpu")["loss"], torch.load(path, map_location=torch.device("cpu"))["epoch"])
