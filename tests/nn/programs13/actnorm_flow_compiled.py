"""A Glow-style flow in the style of single-file normalizing-flow libraries: ActNorm layers initialise their scale
and shift from the first batch by assigning `param.data = ...` inside forward, then affine coupling layers; the flow
is compiled and trained a few steps on a skewed Gaussian. torch traces the `.data` assignment into the graph (a
`set_` under no_grad); the log-likelihoods, the initialised parameters and the graphs must match."""
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

torch.manual_seed(0)


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.s = nn.Parameter(torch.randn(1, dim))
        self.t = nn.Parameter(torch.randn(1, dim))
        self.initialized = False

    def forward(self, x):
        if not self.initialized:  # data-dependent init: unit variance, zero mean on the first batch
            self.s.data = (-torch.log(x.std(dim=0, keepdim=True))).detach()
            self.t.data = (-(x * torch.exp(self.s)).mean(dim=0, keepdim=True)).detach()
            self.initialized = True
        return x * torch.exp(self.s) + self.t, self.s.sum(dim=1).expand(x.size(0))


class Coupling(nn.Module):
    def __init__(self, dim, parity, hidden=16):
        super().__init__()
        self.parity = parity
        self.net = nn.Sequential(nn.Linear(dim // 2, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, dim))

    def forward(self, x):
        x0, x1 = (x[:, ::2], x[:, 1::2]) if self.parity else (x[:, 1::2], x[:, ::2])
        s, t = self.net(x0).chunk(2, dim=1)
        z1 = torch.exp(s) * x1 + t
        z = torch.cat([x0, z1], dim=1) if self.parity else torch.cat([z1, x0], dim=1)
        return z, s.sum(dim=1)


class Flow(nn.Module):
    def __init__(self, dim=2, depth=2):
        super().__init__()
        self.layers = nn.ModuleList([m for i in range(depth) for m in (ActNorm(dim), Coupling(dim, i % 2))])

    def forward(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det


prior = MultivariateNormal(torch.zeros(2), torch.eye(2))
flow = Flow()
compiled = torch.compile(flow, backend="aot_eager")
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
data = torch.randn(128, 2) * torch.tensor([2.0, 0.5]) + torch.tensor([1.0, -1.0])
for step in range(3):
    z, log_det = compiled(data)
    loss = -(prior.log_prob(z) + log_det).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: nll {loss.item():.4f}")
print(flow.layers[0].s.data, flow.layers[0].s._version > 0)
