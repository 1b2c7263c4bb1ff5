"""A vector quantizer whose codebook initializes itself from the first batch, in the manner of lucidrains'
VectorQuantize (`if self.initted: return` on a bool buffer, inside a helper method called from the codebook's
forward, called from the model's): under torch.compile the branch on a tensor is a graph break two calls deep. The
model is compiled (eager backend) and run three times, indices and losses printed."""
import torch
from torch import nn


class Codebook(nn.Module):
    def __init__(self, size=4, dim=3):
        super().__init__()
        self.register_buffer("initted", torch.tensor(False))
        self.embed = nn.Parameter(torch.randn(size, dim))

    def init_embed_(self, data):
        if self.initted:
            return
        self.embed.data.copy_(data[: self.embed.shape[0]])
        self.initted.data.copy_(torch.tensor(True))

    def forward(self, x):
        x = x.float()
        self.init_embed_(x)
        dist = torch.cdist(x, self.embed)
        return dist.argmin(-1), dist.min(-1).values.mean()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)
        self.codebook = Codebook()

    def forward(self, x):
        indices, commitment = self.codebook(self.proj(x))
        return indices, commitment * 2


torch.manual_seed(0)
model = torch.compile(Model(), backend="eager")
for step in range(3):
    indices, loss = model(torch.randn(6, 3))
    print(step, indices.tolist(), f"{loss.item():.5f}")
