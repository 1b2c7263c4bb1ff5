"""REINFORCE with a baseline and one-step actor-critic on a tiny hand-written corridor environment, with
torch.distributions.Categorical, discounted returns normalized, entropy bonus and smooth_l1 value loss."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
random.seed(0)


class Corridor:
    """States 0..5; action 0 moves left, 1 right; reward 1 at the right end, -0.01 per step."""

    def __init__(self, length=6):
        self.length = length

    def reset(self):
        self.pos = random.randrange(self.length - 1)
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), self.length).float()

    def step(self, action):
        self.pos = max(0, min(self.length - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.length - 1
        return self.obs(), (1.0 if done else -0.01), done


class ActorCritic(nn.Module):
    def __init__(self, n_obs=6, n_act=2, hidden=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_act)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def discounted(rewards, gamma):
    out, running = [], 0.0
    for r in reversed(rewards):
        running = r + gamma * running
        out.insert(0, running)
    return torch.tensor(out)


env = Corridor()
net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=0.02)
eps = torch.finfo(torch.float32).eps
for episode in range(6):
    obs, log_probs, values, rewards, entropies = env.reset(), [], [], [], []
    for t in range(12):
        logits, value = net(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        obs, reward, done = env.step(action.item())
        rewards.append(reward)
        if done:
            break
    returns = discounted(rewards, 0.99)
    values = torch.stack(values)
    advantage = returns - values.detach()
    if len(returns) > 1:
        advantage = (advantage - advantage.mean()) / (advantage.std() + eps)
    policy_loss = -(torch.stack(log_probs) * advantage).sum()
    value_loss = F.smooth_l1_loss(values, returns)
    loss = policy_loss + 0.5 * value_loss - 0.01 * torch.stack(entropies).sum()
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    opt.step()
    print(f"episode {episode} steps {len(rewards)} return {returns[0].item():.4f} loss {loss.item():.4f}")

# one-step TD actor-critic, compiled update
def td_loss(obs, action, reward, next_obs, done, gamma: float = 0.9):
    logits, value = net(obs)
    with torch.no_grad():
        _, next_value = net(next_obs)
        target = reward + gamma * next_value * (1 - done)
    delta = target - value
    log_prob = Categorical(logits=logits).log_prob(action)
    return -(log_prob * delta.detach()).mean() + delta.pow(2).mean()


compiled_loss = torch.compile(td_loss, backend="aot_eager")
obs = torch.eye(6)[:4]
next_obs = torch.eye(6)[1:5]
action = torch.tensor([1, 1, 0, 1])
reward = torch.tensor([-0.01, -0.01, -0.01, 1.0])
done = torch.tensor([0.0, 0.0, 0.0, 1.0])
loss = compiled_loss(obs, action, reward, next_obs, done)
opt.zero_grad()
loss.backward()
print("td loss", round(loss.item(), 5), "eager", round(td_loss(obs, action, reward, next_obs, done).item(), 5))
with torch.no_grad():
    probs = Categorical(logits=net(torch.eye(6))[0]).probs
print("policy right", probs[:, 1].round(decimals=3))
