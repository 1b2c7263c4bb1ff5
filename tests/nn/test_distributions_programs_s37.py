"""Programs in the style of the reinforcement-learning and VAE code that leans on torch.distributions, run as the
same source text on torch and on minitorch2 (the text names `torch`; we bind it to each library in turn). Each
prints its losses as it trains; the printed lines must be equal, digit for digit.

- REINFORCE with a baseline and an entropy bonus: a Categorical policy over a fake bandit-like environment.
- PPO's clipped objective: a Normal (diagonal Gaussian) policy, log-prob ratios against the old policy, entropy.
- SAC's actor step: a tanh-squashed Normal (TanhTransform with its cache), rsample, log_prob of the sample, and
  the temperature tuned against a target entropy.
- A VAE: the reparameterized Normal posterior, an Independent Bernoulli decoder, and kl_divergence to the prior
  (Normal and Independent(Normal) pairs), trained a few steps with Adam.
"""
import pytest
import torch

import minitorch2

REINFORCE = '''
torch.manual_seed(0)
policy = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
payoff = torch.tensor([0.2, 1.0, -0.5])
baseline = 0.0
for episode in range(6):
    states = torch.randn(8, 4)
    dist = torch.distributions.Categorical(logits=policy(states))
    actions = dist.sample()
    rewards = payoff[actions] + 0.1 * states[:, 0]
    baseline = 0.9 * baseline + 0.1 * rewards.mean().item()
    loss = -((rewards - baseline) * dist.log_prob(actions)).mean() - 0.01 * dist.entropy().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"episode {episode} actions {actions.tolist()} loss {loss.item():.5f} "
          f"perplexity {dist.perplexity().mean().item():.5f}")
'''

PPO = '''
torch.manual_seed(1)
mean_net = torch.nn.Linear(3, 2)
log_std = torch.nn.Parameter(torch.full((2,), -0.5))
optimizer = torch.optim.Adam(list(mean_net.parameters()) + [log_std], lr=3e-3)
states = torch.randn(16, 3)
with torch.no_grad():
    old = torch.distributions.Normal(mean_net(states), log_std.exp())
    actions = old.sample()
    old_log_prob = old.log_prob(actions).sum(-1)
advantages = torch.randn(16)
advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
for epoch in range(5):
    dist = torch.distributions.Independent(torch.distributions.Normal(mean_net(states), log_std.exp()), 1)
    ratio = (dist.log_prob(actions) - old_log_prob).exp()
    clipped = torch.clamp(ratio, 0.8, 1.2) * advantages
    loss = -torch.min(ratio * advantages, clipped).mean() - 0.01 * dist.entropy().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.5f} ratio {ratio.mean().item():.5f} "
          f"kl {torch.distributions.kl_divergence(old, dist.base_dist).sum(-1).mean().item():.6f}")
'''

SAC = '''
torch.manual_seed(3)
actor = torch.nn.Linear(4, 4)
critic = torch.nn.Linear(6, 1)
log_alpha = torch.zeros(1, requires_grad=True)
actor_optimizer = torch.optim.Adam(actor.parameters(), lr=1e-3)
alpha_optimizer = torch.optim.Adam([log_alpha], lr=1e-2)
for step in range(5):
    states = torch.randn(12, 4)
    mean, log_std = actor(states).chunk(2, dim=-1)
    base = torch.distributions.Normal(mean, log_std.clamp(-5, 2).exp())
    policy = torch.distributions.TransformedDistribution(base, [torch.distributions.TanhTransform(cache_size=1)])
    actions = policy.rsample()
    log_prob = policy.log_prob(actions).sum(-1)
    q = critic(torch.cat([states, actions], -1)).squeeze(-1)
    actor_loss = (log_alpha.exp().detach() * log_prob - q).mean()
    actor_optimizer.zero_grad()
    actor_loss.backward()
    actor_optimizer.step()
    alpha_loss = -(log_alpha * (log_prob.detach() - 2.0)).mean()
    alpha_optimizer.zero_grad()
    alpha_loss.backward()
    alpha_optimizer.step()
    print(f"step {step} actor {actor_loss.item():.5f} alpha {log_alpha.exp().item():.5f} "
          f"entropy {-log_prob.mean().item():.5f}")
'''

VAE = '''
torch.manual_seed(2)
D = torch.distributions


class VAE(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(6, 8)
        self.mu, self.log_var = torch.nn.Linear(8, 2), torch.nn.Linear(8, 2)
        self.decoder = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.ReLU(), torch.nn.Linear(8, 6))

    def forward(self, x):
        h = torch.relu(self.encoder(x))
        posterior = D.Normal(self.mu(h), (0.5 * self.log_var(h)).exp())
        z = posterior.rsample()
        likelihood = D.Independent(D.Bernoulli(logits=self.decoder(z)), 1)
        prior = D.Normal(torch.zeros_like(z), torch.ones_like(z))
        kl = D.kl_divergence(D.Independent(posterior, 1), D.Independent(prior, 1))
        return likelihood.log_prob(x), kl, D.kl_divergence(posterior, prior).sum(-1)


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
data = (torch.rand(10, 6) > 0.5).float()
for step in range(6):
    reconstruction, kl, kl_by_dim = model(data)
    loss = (kl - reconstruction).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} elbo {-loss.item():.5f} kl {kl.mean().item():.5f} same {torch.allclose(kl, kl_by_dim)}")
'''


def printed_lines(library, source):
    lines = []
    exec(source, {"torch": library, "print": lambda *args: lines.append(" ".join(map(str, args)))})  # noqa: S102
    return lines


@pytest.mark.parametrize("source", [REINFORCE, PPO, SAC, VAE], ids=["reinforce", "ppo", "sac", "vae"])
def test_program_prints_what_torch_prints(source):
    theirs = printed_lines(torch, source)
    assert len(theirs) >= 5
    assert printed_lines(minitorch2, source) == theirs
