"""A diffusion UNet block (sinusoidal timestep embedding, GroupNorm+SiLU, nearest upsample) and DDPM training
steps with a linear beta schedule (linspace, cumprod, gather) and randn_like noise; the denoiser also compiled."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, channels, out_channels, emb_dim):
        super().__init__()
        self.in_layers = nn.Sequential(nn.GroupNorm(4, channels), nn.SiLU(), nn.Conv2d(channels, out_channels, 3,
                                                                                       padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_dim, out_channels))
        self.out_layers = nn.Sequential(nn.GroupNorm(4, out_channels), nn.SiLU(), nn.Dropout(0.0),
                                        nn.Conv2d(out_channels, out_channels, 3, padding=1))
        self.skip = nn.Identity() if channels == out_channels else nn.Conv2d(channels, out_channels, 1)

    def forward(self, x, emb):
        h = self.in_layers(x)
        h = h + self.emb_layers(emb)[..., None, None]
        return self.skip(x) + self.out_layers(h)


class TinyUNet(nn.Module):
    def __init__(self, ch=8, emb_dim=16):
        super().__init__()
        self.emb_dim = emb_dim
        self.time_embed = nn.Sequential(nn.Linear(emb_dim, emb_dim * 2), nn.SiLU(), nn.Linear(emb_dim * 2, emb_dim))
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.down = ResBlock(ch, ch, emb_dim)
        self.downsample = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.mid = ResBlock(ch, 2 * ch, emb_dim)
        self.up = ResBlock(3 * ch, ch, emb_dim)
        self.out = nn.Sequential(nn.GroupNorm(4, ch), nn.SiLU(), nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, x, t):
        emb = self.time_embed(timestep_embedding(t, self.emb_dim))
        h0 = self.down(self.inp(x), emb)
        h = self.mid(self.downsample(h0), emb)
        h = F.interpolate(h, scale_factor=2, mode="nearest")
        h = self.up(torch.cat([h, h0], dim=1), emb)
        return self.out(h)


T = 50
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
sqrt_ac = alphas_cumprod.sqrt()
sqrt_1m_ac = (1.0 - alphas_cumprod).sqrt()
print("alphas_cumprod", alphas_cumprod[[0, 10, 49]])


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


def q_sample(x0, t, noise):
    return extract(sqrt_ac, t, x0.shape) * x0 + extract(sqrt_1m_ac, t, x0.shape) * noise


model = TinyUNet()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
data = torch.rand(4, 1, 8, 8) * 2 - 1
print("emb", timestep_embedding(torch.tensor([0, 7]), 8).round(decimals=4))
for step in range(4):
    t = torch.randint(0, T, (data.shape[0],))
    noise = torch.randn_like(data)
    x_t = q_sample(data, t, noise)
    loss = F.mse_loss(model(x_t, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} t {t.tolist()} loss {loss.item():.5f}")

compiled = torch.compile(model, backend="aot_eager")
t = torch.full((4,), 10, dtype=torch.long)
x_t = q_sample(data, t, torch.randn_like(data))
eager = model(x_t, t)
out = compiled(x_t, t)
print("compiled close", torch.allclose(out, eager, atol=1e-5), out.shape)
loss = F.mse_loss(out, torch.zeros_like(out))
loss.backward()
print("grad norm", round(model.inp.weight.grad.norm().item(), 4))

with torch.no_grad():
    x = torch.randn(1, 1, 8, 8)
    for i in reversed(range(0, T, 10)):
        tt = torch.full((1,), i, dtype=torch.long)
        eps = model(x, tt)
        x = (x - betas[i] / sqrt_1m_ac[i] * eps) / alphas[i].sqrt()
        if i > 0:
            x = x + betas[i].sqrt() * torch.randn_like(x)
    print("sample", x.mean().item().__round__(4), x.std().item().__round__(4))
