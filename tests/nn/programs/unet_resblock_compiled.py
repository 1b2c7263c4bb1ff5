"""A diffusion UNet's residual block (GroupNorm, SiLU, conv, a time embedding added per channel) trained compiled
with the inductor and Adam: torch keeps GroupNorm as aten.native_group_norm in its traced graphs and decomposes it for
the inductor; the Dynamo, joint, forward and backward graphs are compared op by op with torch's."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, c, t):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(4, c), nn.Conv2d(c, c, 3, padding=1)
        self.norm2, self.conv2 = nn.GroupNorm(4, c), nn.Conv2d(c, c, 3, padding=1)
        self.time = nn.Linear(t, c)

    def forward(self, x, emb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time(F.silu(emb))[:, :, None, None]
        return x + self.conv2(F.silu(self.norm2(h)))


model = ResBlock(8, 16)
cm = torch.compile(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x, emb = torch.randn(2, 8, 6, 6), torch.randn(2, 16)
for step in range(2):
    loss = F.mse_loss(cm(x, emb), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
