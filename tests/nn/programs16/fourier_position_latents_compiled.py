"""A Perceiver-style classifier in the manner of lucidrains/perceiver-pytorch: a pixel grid's positions built with
torch.linspace per axis, Fourier-encoded over frequency bands from a second linspace, cross-attended by learned
latents; trained compiled with the default backend (the inductor), losses printed."""
import math

import torch
import torch.nn.functional as F
from torch import nn


def fourier_features(pos, max_freq, bands):
    pos = pos.unsqueeze(-1)
    scales = torch.linspace(1.0, max_freq / 2, bands, dtype=pos.dtype)
    angles = pos * scales * math.pi
    return torch.cat([angles.sin(), angles.cos(), pos], dim=-1)


class LatentClassifier(nn.Module):
    def __init__(self, channels=3, latents=4, dim=16, bands=3, classes=5):
        super().__init__()
        self.bands = bands
        self.latents = nn.Parameter(torch.randn(latents, dim))
        self.to_kv = nn.Linear(channels + 2 * (2 * bands + 1), 2 * dim)
        self.to_q = nn.Linear(dim, dim)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, classes))

    def forward(self, img):
        b, h, w, _ = img.shape
        axes = [torch.linspace(-1.0, 1.0, steps=n) for n in (h, w)]
        grid = torch.stack(torch.meshgrid(*axes, indexing="ij"), dim=-1)
        enc = fourier_features(grid, 8.0, self.bands).flatten(-2)
        data = torch.cat([img, enc.expand(b, h, w, -1)], dim=-1).flatten(1, 2)
        k, v = self.to_kv(data).chunk(2, dim=-1)
        q = self.to_q(self.latents).expand(b, -1, -1)
        attn = (q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])).softmax(dim=-1)
        return self.head((attn @ v).mean(dim=1))


torch.manual_seed(0)
model = LatentClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
images, labels = torch.randn(4, 5, 6, 3), torch.randint(0, 5, (4,))
compiled = torch.compile(model)
for step in range(3):
    loss = F.cross_entropy(compiled(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
