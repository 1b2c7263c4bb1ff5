"""Reinforcement learning and graph networks as their projects write them: REINFORCE with Categorical(logits=...)
sampling, discounted and normalised returns; a DQN step (gather, max(1)[0].detach(), smooth_l1_loss, gradients
clamped, a target network refreshed by load_state_dict); GCN message passing (degree normalisation by
scatter_add_, index_select, index_add_) and a graph attention layer with a segment softmax (scatter_reduce amax,
index_add, scatter_add_), trained eagerly and compiled with aot_eager (whose joint graphs are torch's: index_add's
backward expands, scatter_reduce's compares in torch's order)."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)

policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99
for episode in range(3):
    log_probs, rewards, entropies = [], [], []
    state = torch.randn(4)
    for t in range(6):
        dist = Categorical(logits=policy(state))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        rewards.append(float(action.item() == t % 3) - 0.1 * t)
        state = state * 0.9 + 0.1 * torch.randn(4)
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = torch.stack([-lp * g for lp, g in zip(log_probs, returns)]).sum() - 0.01 * torch.stack(entropies).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("reinforce", episode, f"{loss.item():.5f}", sum(rewards))

q_net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target = copy.deepcopy(q_net)
target.load_state_dict(q_net.state_dict())
qopt = torch.optim.RMSprop(q_net.parameters(), lr=1e-3)
for step in range(4):
    s, s2 = torch.randn(8, 4), torch.randn(8, 4)
    a = torch.randint(0, 2, (8, 1))
    r, done = torch.randn(8), (torch.rand(8) < 0.2).float()
    q = q_net(s).gather(1, a).squeeze(1)
    with torch.no_grad():
        next_q = target(s2).max(1)[0].detach()
    expected = r + 0.95 * next_q * (1 - done)
    loss = F.smooth_l1_loss(q, expected)
    qopt.zero_grad()
    loss.backward()
    for p in q_net.parameters():
        p.grad.data.clamp_(-1, 1)
    qopt.step()
    if step % 2 == 1:
        target.load_state_dict(q_net.state_dict())
    print("dqn", step, f"{loss.item():.5f}")
eps = 0.1
sample = torch.rand(1).item()
print("greedy", q_net(torch.randn(1, 4)).max(1)[1].view(1, 1).tolist(), sample > eps)

# GNN: message passing on a small graph
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 4, 5, 2, 0], [1, 0, 2, 1, 4, 3, 5, 4, 0, 2]])
N, D = 6, 8
x = torch.randn(N, D)


class GCNLayer(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.lin = nn.Linear(din, dout, bias=False)
        self.bias = nn.Parameter(torch.zeros(dout))

    def forward(self, x, edge_index):
        loops = torch.arange(x.size(0))
        src, dst = torch.cat([edge_index[0], loops]), torch.cat([edge_index[1], loops])
        deg = torch.zeros(x.size(0)).scatter_add_(0, dst, torch.ones(dst.size(0)))
        norm = deg.pow(-0.5)
        norm[norm == float("inf")] = 0
        w = norm.index_select(0, src) * norm.index_select(0, dst)
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, dst, h.index_select(0, src) * w.unsqueeze(-1))
        return out + self.bias


class GATLayer(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.lin = nn.Linear(din, dout, bias=False)
        self.att = nn.Parameter(torch.randn(2 * dout) * 0.1)

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.lin(x)
        e = F.leaky_relu(torch.cat([h[src], h[dst]], dim=-1) @ self.att, 0.2)
        e_max = torch.full((x.size(0),), float("-inf")).scatter_reduce(0, dst, e, reduce="amax", include_self=True)
        e = torch.exp(e - e_max[dst])
        denom = torch.zeros(x.size(0)).index_add(0, dst, e)
        alpha = e / denom[dst]
        out = torch.zeros_like(h)
        out.scatter_add_(0, dst.unsqueeze(-1).expand(-1, h.size(1)), h[src] * alpha.unsqueeze(-1))
        return out


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.g1, self.g2 = GCNLayer(D, 16), GATLayer(16, 3)

    def forward(self, x, edge_index):
        return self.g2(F.relu(self.g1(x, edge_index)), edge_index)


labels = torch.tensor([0, 1, 2, 0, 1, 2])
for name, compile_kw in (("eager", None), ("aot_eager", "aot_eager")):
    torch.manual_seed(3)
    net = Net()
    run = net if compile_kw is None else torch.compile(net, backend=compile_kw)
    o = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=5e-4)
    for step in range(5):
        loss = F.cross_entropy(run(x, edge_index), labels)
        o.zero_grad()
        loss.backward()
        o.step()
    print("gnn", name, f"{loss.item():.5f}")
