import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint
from torch.nn.utils.parametrizations import weight_norm, orthogonal

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.ln(x))))


class Net(nn.Module):
    def __init__(self, d=16, use_ckpt=True, orth=True):
        super().__init__()
        self.stem = weight_norm(nn.Linear(8, d))
        self.blocks = nn.ModuleList([Block(d) for _ in range(2)])
        self.rot = orthogonal(nn.Linear(d, d, bias=False)) if orth else nn.Linear(d, d, bias=False)
        self.head = nn.Linear(d, 3)
        self.use_ckpt = use_ckpt

    def forward(self, x):
        x = self.stem(x)
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.use_ckpt else b(x)
        return self.head(self.rot(x))


def init_fn(m):
    if isinstance(m, nn.Linear) and not hasattr(m, "parametrizations"):
        nn.init.xavier_uniform_(m.weight)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LayerNorm):
        nn.init.ones_(m.weight)
        nn.init.constant_(m.bias, 0.01)


model = Net()
model.apply(init_fn)
features = {}


def save_hook(name):
    def hook(module, inp, out):
        features[name] = out.detach()
    return hook


handles = [model.blocks[i].register_forward_hook(save_hook(f"block{i}")) for i in range(2)]
model.stem.requires_grad_(False)
decay, no_decay = [], []
for n, p in model.named_parameters():
    if not p.requires_grad:
        continue
    (no_decay if p.ndim < 2 or "ln" in n or n.endswith(".bias") else decay).append(p)
print("groups", len(decay), len(no_decay), [n for n, p in model.named_parameters() if not p.requires_grad])
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-2)
x = torch.randn(32, 8)
y = torch.randint(0, 3, (32,))
accum = 4
for step in range(3):
    opt.zero_grad()
    total = 0.0
    for micro in range(accum):
        xb, yb = x[micro * 8:(micro + 1) * 8], y[micro * 8:(micro + 1) * 8]
        loss = F.cross_entropy(model(xb), yb) / accum
        loss.backward()
        total += loss.item()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(step, f"{total:.5f} gn {gn.item():.5f}", {k: f"{v.norm().item():.4f}" for k, v in features.items()})
for h in handles:
    h.remove()
W = model.rot.weight
print("orth", torch.allclose(W @ W.T, torch.eye(16), atol=1e-4))
print("wn", sorted(k for k in model.state_dict().keys() if "stem" in k or "rot" in k))
print("stem grad", model.stem.parametrizations.weight.original0.grad)

for backend in ("inductor", "aot_eager"):
    torch.manual_seed(4)
    m = Net(use_ckpt=False, orth=False)  # (orthogonal's matrix_exp compiled: see orthogonal_compiled.py)
    cm = torch.compile(m, backend=backend)
    o = torch.optim.SGD(m.parameters(), lr=0.05)
    for step in range(3):
        o.zero_grad()
        for micro in range(2):
            loss = F.cross_entropy(cm(x[micro * 16:(micro + 1) * 16]), y[micro * 16:(micro + 1) * 16]) / 2
            loss.backward()
        o.step()
        print(backend, step, f"{loss.item():.5f}")
