"""A GAN/diffusion-style sampling loop kept in half precision, as scripts that call .to(torch.bfloat16) on their
model do: latent noise drawn straight in bfloat16 / float16 (torch.randn(..., dtype=...)), in-place normal_ and
uniform_ initialisation of half-precision weights, dropout masks on half tensors, and a noisy-step schedule."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, latent_dim=16, out_dim=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent_dim, 32), nn.ReLU(), nn.Dropout(0.25), nn.Linear(32, out_dim))

    def forward(self, z):
        return torch.tanh(self.net(z))


def init_weights(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.normal_(0.0, 0.02)
            m.bias.uniform_(-0.1, 0.1)


for dtype in (torch.bfloat16, torch.float16):
    gen = Generator().to(dtype)
    gen.apply(init_weights)
    print(dtype, gen.net[0].weight[0, :6], gen.net[3].bias[:5])

    # noise of every length class: below 16, a multiple of 16, a ragged tail
    for n in (7, 32, 37):
        z = torch.randn(n, dtype=dtype)
        print(f"randn({n}) sum {z.float().sum().item():.6f} first {z[:4].tolist()}")
    print("rand", torch.rand(3, 5, dtype=dtype))
    print("uniform_", torch.empty(20, dtype=dtype).uniform_(-2, 3)[-6:])
    print("normal", torch.normal(2.0, 0.5, size=(18,), dtype=dtype)[-4:])

    gen.train()
    z = torch.randn(4, 16, dtype=dtype)
    fake = gen(z)
    print("train sample", fake.shape, fake.dtype, f"{fake.float().abs().mean().item():.5f}")

    gen.eval()
    x = torch.randn(2, 24, dtype=dtype)
    with torch.no_grad():
        for t in range(3):  # a noisy refinement schedule: each step adds fresh noise
            x = 0.9 * x + 0.1 * torch.randn_like(x)
        print("after schedule", x[0, :5], torch.rand(1).item())
