"""A soft actor-critic policy head in the style of SAC codebases: the actor's forward builds a tanh-squashed Gaussian,
a TransformedDistribution over Normal with the program's own Transform subclass, whose domain, codomain, bijective
and sign are class attributes (`domain = constraints.real`). The actor is compiled: building the distribution in
the frame reads those class-level constraints through an object made in the frame (a graph break here, where
Dynamo reads them through the class and traces Normal's broadcast_tensors into the graph). A log-normal built from
the library's ExpTransform is compiled too; then a few actor updates with a learned temperature run."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import distributions as pyd

torch.manual_seed(0)


class TanhSquash(pyd.transforms.Transform):
    domain = pyd.constraints.real
    codomain = pyd.constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def __init__(self, cache_size=1):
        super().__init__(cache_size=cache_size)

    def __eq__(self, other):
        return isinstance(other, TanhSquash)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return 0.5 * (y.log1p() - (-y).log1p())

    def log_abs_det_jacobian(self, x, y):
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class SquashedGaussian(pyd.transformed_distribution.TransformedDistribution):
    def __init__(self, loc, scale):
        self.loc, self.scale = loc, scale
        super().__init__(pyd.Normal(loc, scale), [TanhSquash()])

    @property
    def mean(self):
        mu = self.loc
        for transform in self.transforms:
            mu = transform(mu)
        return mu


class Actor(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden=16, log_std_bounds=(-5.0, 2.0)):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * action_dim))
        self.log_std_bounds = log_std_bounds

    def forward(self, obs):
        mu, log_std = self.trunk(obs).chunk(2, dim=-1)
        low, high = self.log_std_bounds
        log_std = low + 0.5 * (high - low) * (torch.tanh(log_std) + 1)
        return SquashedGaussian(mu, log_std.exp())


actor = Actor(5, 2)
compiled_actor = torch.compile(actor, backend="aot_eager")
log_alpha = torch.tensor(math.log(0.1), requires_grad=True)
actor_optimizer = torch.optim.Adam(actor.parameters(), lr=1e-3)
alpha_optimizer = torch.optim.Adam([log_alpha], lr=1e-3)
q_weights = torch.randn(7)
for step in range(3):
    obs = torch.randn(8, 5)
    dist = compiled_actor(obs)
    action = dist.rsample()
    log_prob = dist.log_prob(action).sum(-1, keepdim=True)
    q_value = torch.cat([obs, action], dim=-1) @ q_weights
    actor_loss = (log_alpha.exp().detach() * log_prob.squeeze(-1) - q_value).mean()
    actor_optimizer.zero_grad()
    actor_loss.backward()
    actor_optimizer.step()
    alpha_loss = (log_alpha.exp() * (-log_prob - -2.0).detach()).mean()
    alpha_optimizer.zero_grad()
    alpha_loss.backward()
    alpha_optimizer.step()
    print(f"step {step} actor {actor_loss.item():.5f} alpha {alpha_loss.item():.5f} "
          f"entropy {-log_prob.mean().item():.5f} mean action {dist.mean.abs().mean().item():.5f}")


@torch.compile(backend="eager")
def log_normal(mu, sigma):
    return pyd.TransformedDistribution(pyd.Normal(mu, sigma), [pyd.ExpTransform()])


dist = log_normal(torch.zeros(3), torch.ones(3))
print(type(dist).__name__, dist.rsample().shape, dist.log_prob(torch.ones(3)).tolist())
