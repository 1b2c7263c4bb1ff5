"""A double-Q critic and its target network, two instances of one module class, each wrapped in torch.compile as
SAC-style agents do. Dynamo guards the module argument on its type, not its identity, and lifts the parameters to
graph inputs, so the target reuses the graph compiled for the online critic; the program prints how many distinct
graphs were compiled, then a few soft target updates run."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DoubleQCritic(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden=16):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + action_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + action_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, action):
        obs_action = torch.cat([obs, action], dim=-1)
        return self.q1(obs_action), self.q2(obs_action)


critic, critic_target = DoubleQCritic(4, 2), DoubleQCritic(4, 2)
critic_target.load_state_dict(critic.state_dict())
critic, critic_target = torch.compile(critic, backend="aot_eager"), torch.compile(critic_target, backend="aot_eager")
optimizer = torch.optim.Adam(critic.parameters(), lr=1e-3)
for step in range(3):
    obs, action, next_obs, next_action = torch.randn(8, 4), torch.randn(8, 2), torch.randn(8, 4), torch.randn(8, 2)
    target_q = (torch.min(*critic_target(next_obs, next_action)) * 0.99 + torch.randn(8, 1)).detach()
    q1, q2 = critic(obs, action)
    loss = F.mse_loss(q1, target_q) + F.mse_loss(q2, target_q)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for param, target_param in zip(critic.parameters(), critic_target.parameters()):
            target_param.lerp_(param, 0.05)
    print(f"step {step} critic loss {loss.item():.5f}")
print("distinct graphs:", torch._dynamo.utils.counters["stats"]["unique_graphs"])
