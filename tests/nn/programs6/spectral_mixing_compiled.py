"""An FNet-style encoder (token mixing by a 2-D Fourier transform, keeping the real part) with a spectral-norm-like
weight penalty and a logit-scaled gate, trained compiled. Its compiled graphs call torch.fft, torch.linalg and
torch.special functions, which Dynamo's graphs name by their C homes (`torch._C._fft.fft_fft2`,
`torch._C._linalg.linalg_vector_norm`, `torch._C._special.special_expit`): the graphs must print so, and the
generated code must run."""
import torch
import torch.nn as nn


class FourierMix(nn.Module):
    def forward(self, x):
        return torch.fft.fft2(x, dim=(-2, -1)).real


class Block(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.mix, self.norm1, self.norm2 = FourierMix(), nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d))
        self.gate = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        x = self.norm1(x + self.mix(x))
        return self.norm2(x + torch.special.expit(self.gate) * self.ff(x))


class Encoder(nn.Module):
    def __init__(self, vocab=32, d=16, hidden=32, depth=2, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, hidden) for _ in range(depth))
        self.head = nn.Linear(d, classes)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(1))


def penalty(model):
    weights = [m.weight for m in model.modules() if isinstance(m, nn.Linear)]
    return sum(torch.linalg.vector_norm(w, ord=2) ** 2 for w in weights) * 1e-4


def spectrum(x):
    freq = torch.fft.rfft(x, dim=-1)
    return torch.special.log1p(freq.abs()).mean() + torch.linalg.norm(x, dim=-1).mean()


torch.manual_seed(0)
model = Encoder()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
tokens = torch.randint(0, 32, (8, 10))
labels = tokens[:, 0] % 3


@torch.compile(backend="aot_eager")
def train_loss(tokens, labels):
    logits = model(tokens)
    return nn.functional.cross_entropy(logits, labels) + penalty(model), logits


for step in range(4):
    loss, logits = train_loss(tokens, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f} acc {(logits.argmax(-1) == labels).float().mean().item():.3f}")

compiled_spectrum = torch.compile(spectrum, backend="eager")
x = torch.randn(4, 12)
print(f"{compiled_spectrum(x).item():.5f} {spectrum(x).item():.5f}")
print(torch.fft.fftshift(torch.fft.fftfreq(6)), torch.special.logit(torch.tensor([0.25, 0.5])))
