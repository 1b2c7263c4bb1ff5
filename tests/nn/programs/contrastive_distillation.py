import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, d_in=20, d=32, proj=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d_in, d), nn.BatchNorm1d(d), nn.ReLU(), nn.Linear(d, d))
        self.projector = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, proj))

    def forward(self, x):
        return self.projector(self.backbone(x))


def info_nce(z1, z2, temperature=0.5):
    z1, z2 = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    z = torch.cat([z1, z2], dim=0)
    sim = torch.matmul(z, z.T) / temperature
    n = z1.shape[0]
    sim.fill_diagonal_(float("-inf"))
    labels = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, labels)


def clip_loss(a, b, logit_scale):
    a, b = a / a.norm(dim=-1, keepdim=True), b / b.norm(dim=-1, keepdim=True)
    logits = logit_scale.exp() * a @ b.t()
    labels = torch.arange(a.shape[0])
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def augment(x):
    return x + 0.1 * torch.randn_like(x) * (torch.rand(x.shape[0], 1) > 0.2)


enc = Encoder()
logit_scale = nn.Parameter(torch.ones([]) * 2.659)
opt = torch.optim.Adam(list(enc.parameters()) + [logit_scale], lr=3e-3)
data = torch.randn(64, 20)
for step in range(4):
    x = data[torch.randperm(64)[:16]]
    z1, z2 = enc(augment(x)), enc(augment(x))
    loss = info_nce(z1, z2) + 0.5 * clip_loss(z1, z2, logit_scale)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        acc = (F.normalize(z1, dim=1) @ F.normalize(z2, dim=1).T).argmax(1).eq(torch.arange(16)).float().mean()
    print(step, f"{loss.item():.5f} acc {acc.item():.3f} scale {logit_scale.item():.4f}")

teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
student = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 5))
teacher.eval()
for p in teacher.parameters():
    p.requires_grad = False
kl = nn.KLDivLoss(reduction="batchmean")
T, alpha = 4.0, 0.7
labels = torch.randint(0, 5, (64,))
sopt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9, nesterov=True)


def kd_loss(s_logits, t_logits, y):
    soft = kl(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * (T * T)
    return alpha * soft + (1 - alpha) * F.cross_entropy(s_logits, y, label_smoothing=0.1)


for step in range(4):
    with torch.no_grad():
        t_logits = teacher(data)
    loss = kd_loss(student(data), t_logits, labels)
    sopt.zero_grad()
    loss.backward()
    sopt.step()
    print("kd", step, f"{loss.item():.5f}")
print(f"{F.kl_div(F.log_softmax(student(data), 1), F.log_softmax(t_logits, 1), reduction='batchmean', log_target=True).item():.5f}")

for backend in ("inductor", "aot_eager"):
    torch.manual_seed(5)
    s = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 5))
    cs = torch.compile(s, backend=backend)
    closs = torch.compile(kd_loss, backend=backend)
    o = torch.optim.SGD(s.parameters(), lr=0.1)
    for step in range(3):
        loss = closs(cs(data), t_logits, labels)
        o.zero_grad()
        loss.backward()
        o.step()
        print(backend, step, f"{loss.item():.5f}")
    e = Encoder()
    ce = torch.compile(e, backend=backend)
    z1, z2 = ce(data[:16]), ce(data[16:32])
    l = info_nce(z1, z2)
    l.backward()
    print(backend, "nce", f"{l.item():.5f}", f"{e.projector[2].weight.grad.norm().item():.5f}")
