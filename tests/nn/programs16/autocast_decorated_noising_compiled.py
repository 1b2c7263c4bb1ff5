"""A tiny DDPM training step in the manner of lucidrains/denoising-diffusion-pytorch: the forward noising
`q_sample` is a method decorated with `@autocast('cuda', enabled=False)` (kept in full precision under mixed
precision), schedules gathered per sample; the diffusion wrapper is compiled (aot_eager) and trained, losses
printed, and a decorated CPU-autocast function is compiled on its own."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.amp import autocast


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


class Diffusion(nn.Module):
    def __init__(self, model, timesteps=10):
        super().__init__()
        self.model = model
        self.timesteps = timesteps
        alphas_cumprod = torch.cumprod(1.0 - torch.linspace(1e-4, 0.2, timesteps, dtype=torch.float64), dim=0)
        self.register_buffer("sqrt_ac", alphas_cumprod.sqrt().float())
        self.register_buffer("sqrt_one_minus_ac", (1 - alphas_cumprod).sqrt().float())

    @autocast("cuda", enabled=False)
    def q_sample(self, x_start, t, noise=None):
        return extract(self.sqrt_ac, t, x_start.shape) * x_start + extract(self.sqrt_one_minus_ac, t, x_start.shape) * noise

    def forward(self, x, t, noise):
        x_noisy = self.q_sample(x_start=x * 2 - 1, t=t, noise=noise)
        return F.mse_loss(self.model(x_noisy), noise)


@torch.autocast("cpu", dtype=torch.bfloat16)
def project(x, w):
    return x @ w


torch.manual_seed(0)
denoiser = nn.Sequential(nn.Conv1d(2, 8, 3, padding=1), nn.SiLU(), nn.Conv1d(8, 2, 3, padding=1))
diffusion = Diffusion(denoiser)
opt = torch.optim.Adam(diffusion.parameters(), lr=1e-2)
compiled = torch.compile(diffusion, backend="aot_eager")
data = torch.rand(4, 2, 8)
for step in range(3):
    t = torch.randint(0, diffusion.timesteps, (4,))
    loss = compiled(data, t, torch.randn_like(data))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
out = torch.compile(project, backend="aot_eager")(torch.randn(2, 3), torch.randn(3, 2))
print(out.dtype, out.float().sum().item())
