import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d=64, h=32, z=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU())
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return torch.sigmoid(self.dec(z)), mu, logvar


def loss_function(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x.view(-1, 64), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld


data = (torch.rand(64, 1, 8, 8) > 0.5).float()
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    total = 0.0
    for i in range(0, 64, 16):
        x = data[i:i + 16]
        opt.zero_grad()
        recon, mu, logvar = model(x)
        loss, bce, kld = loss_function(recon, x, mu, logvar)
        loss.backward()
        total += loss.item()
        opt.step()
    print(f"epoch {epoch} loss {total / 64:.4f} bce {bce.item():.3f} kld {kld.item():.3f}")

model.eval()
with torch.no_grad():
    z = torch.randn(4, 8)
    sample = torch.sigmoid(model.dec(z)).view(4, 1, 8, 8)
    print("sample", sample.shape, f"{sample.mean().item():.4f}")
    recon, mu, logvar = model(data[:4])
    print("recon err", f"{F.mse_loss(recon, data[:4].view(-1, 64)).item():.4f}")

for backend in ("inductor", "aot_eager"):
    torch.manual_seed(1)
    m = VAE()
    cm = torch.compile(m, backend=backend)
    o = torch.optim.SGD(m.parameters(), lr=1e-3)
    for step in range(3):
        recon, mu, logvar = cm(data[:16])
        loss, _, _ = loss_function(recon, data[:16], mu, logvar)
        o.zero_grad()
        loss.backward()
        o.step()
        print(backend, step, f"{loss.item():.4f}")
