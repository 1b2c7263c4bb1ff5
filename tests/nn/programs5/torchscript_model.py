"""A model written for TorchScript, as many projects ship them: @torch.jit.script helpers, Final constants,
ignored methods, the model scripted for serving and traced for export, then trained compiled."""
import warnings
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.jit import Final

warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)


@torch.jit.script
def bias_gelu(bias, y):
    x = bias + y
    return x * 0.5 * (1.0 + torch.tanh(0.79788456 * x * (1 + 0.044715 * x * x)))


@torch.jit.script
def rms(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


class FeedForward(nn.Module):
    hidden: Final[int]

    def __init__(self, dim, hidden):
        super().__init__()
        self.hidden = hidden
        self.up = nn.Linear(dim, hidden, bias=False)
        self.bias = nn.Parameter(torch.zeros(hidden))
        self.down = nn.Linear(hidden, dim)

    @torch.jit.ignore
    def describe(self) -> str:
        return f"FeedForward({self.hidden})"

    def forward(self, x):
        if torch.jit.is_scripting():
            x = x * 1.0
        return self.down(bias_gelu(self.bias, self.up(rms(x))))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([FeedForward(8, 16) for _ in range(2)])
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        for block in self.blocks:
            x = x + block(x)
        return self.head(x)


torch.manual_seed(0)
net = Net()
x = torch.randn(4, 8)
y = torch.tensor([0, 2, 1, 0])
print(net.blocks[0].describe(), torch.jit.is_scripting(), torch.jit.is_tracing())
scripted = torch.jit.script(net)
traced = torch.jit.trace(net, x)
print(scripted)
print(traced)
print(type(scripted).__name__, type(traced).__name__, type(bias_gelu).__name__, isinstance(scripted, nn.Module))
print(torch.allclose(scripted(x), net(x)), torch.allclose(traced(x), net(x)))
print(sorted(scripted.state_dict()) == sorted(net.state_dict()), scripted.head.weight is net.head.weight)
scripted.eval()
print(scripted.training, net.training, net.blocks[0].training)
print(torch.jit.annotate(List[int], []), torch.jit.Attribute(3, int), torch.jit.isinstance([1, 2], List[int]))
print(torch.jit.wait(torch.jit.fork(rms, x)).shape, torch.allclose(torch.jit.freeze(scripted)(x), net(x)))
compiled = torch.compile(net)
opt = torch.optim.AdamW(net.parameters(), lr=1e-2)
for step in range(3):
    loss = F.cross_entropy(compiled(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.5f}")
explained = torch._dynamo.explain(lambda t: bias_gelu(net.blocks[0].bias, t) * 2)(torch.randn(16))
print("helper inlined:", explained.graph_count, explained.graph_break_count, explained.op_count)
