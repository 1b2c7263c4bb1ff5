"""An SN-GAN in the style of GAN tutorial repositories: a discriminator whose layers carry spectral norm (the
hook-based torch.nn.utils.spectral_norm on the convolutions, the parametrization on the head), trained eagerly
with the hinge loss, then compiled in eval mode to score samples under no_grad (sigma read from the stored u, v:
torch.mv and torch.vdot in Dynamo's graph), and a cosine-similarity classifier (F.normalize on features and class
weights) trained compiled."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import spectral_norm
from torch.nn.utils.parametrizations import spectral_norm as sn_param

torch.manual_seed(7)

D = nn.Sequential(spectral_norm(nn.Conv2d(1, 4, 3, 2, 1)), nn.LeakyReLU(0.2),
                  spectral_norm(nn.Conv2d(4, 8, 3, 2, 1)), nn.LeakyReLU(0.2), nn.Flatten(),
                  sn_param(nn.Linear(8 * 2 * 2, 1)))
G = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 64), nn.Tanh())
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
real = torch.rand(8, 1, 8, 8) * 2 - 1

for it in range(4):
    fake = G(torch.randn(8, 5)).view(8, 1, 8, 8)
    scores = D(torch.cat([real, fake.detach()]))
    d_loss = F.relu(1 - scores[:8]).mean() + F.relu(1 + scores[8:]).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"iter {it}: D {d_loss.item():.5f}  G {g_loss.item():.5f}  u0 {D[0].weight_u[:3].tolist()}")

D.eval()
score = torch.compile(D)
with torch.no_grad():
    s = score(real)
    print("real scores", s.squeeze(1))
    print("fake scores", score(G(torch.randn(8, 5)).view(8, 1, 8, 8)).squeeze(1))
    print("sigma of layer 0", torch.dot(D[0].weight_u, torch.mv(D[0].weight_orig.flatten(1), D[0].weight_v)))
print(sorted(k for k in D.state_dict() if "_u" in k or "_v" in k))


class CosineHead(nn.Module):
    """Logits = scale * cos(feature, class weight), as in metric-learning and few-shot code."""

    def __init__(self, dim, classes, scale=10.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(classes, dim) * 0.1)
        self.scale = scale

    def forward(self, x):
        return self.scale * F.normalize(x, dim=1) @ F.normalize(self.weight, dim=1).t()


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), CosineHead(16, 3))
cmodel = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
x, y = torch.randn(24, 6), torch.randint(0, 3, (24,))
for step in range(5):
    loss = F.cross_entropy(cmodel(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"cosine step {step}: {loss.item():.5f}")
with torch.no_grad():
    print("accuracy", (cmodel(x).argmax(1) == y).float().mean().item())
