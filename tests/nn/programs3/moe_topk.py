"""A Mixture-of-Experts layer with top-k routing: topk, softmax, index_add_ dispatch, a bincount load-balancing
loss (Switch-style) and a router z-loss; trained eagerly and compiled."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Expert(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w1 = nn.Linear(d, hidden)
        self.w2 = nn.Linear(hidden, d)

    def forward(self, x):
        return self.w2(F.relu(self.w1(x)))


class MoE(nn.Module):
    def __init__(self, d=16, num_experts=4, k=2):
        super().__init__()
        self.k = k
        self.num_experts = num_experts
        self.gate = nn.Linear(d, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(d, 32) for _ in range(num_experts)])

    def forward(self, x):
        tokens = x.reshape(-1, x.shape[-1])
        logits = self.gate(tokens)
        probs = logits.softmax(dim=-1)
        top_p, top_i = probs.topk(self.k, dim=-1)
        top_p = top_p / top_p.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.where(top_i == e)
            if token_idx.numel() == 0:
                continue
            y = expert(tokens[token_idx]) * top_p[token_idx, slot, None]
            out.index_add_(0, token_idx, y)
        counts = torch.bincount(top_i[:, 0], minlength=self.num_experts).float()
        fraction = counts / tokens.shape[0]
        aux = self.num_experts * (fraction * probs.mean(0)).sum()
        z_loss = torch.logsumexp(logits, dim=-1).pow(2).mean()
        return out.view_as(x), aux, z_loss, counts


class DenseMoE(MoE):
    """The same routing without data-dependent shapes: every expert on every token, weights scattered."""

    def forward(self, x):
        tokens = x.reshape(-1, x.shape[-1])
        probs = self.gate(tokens).softmax(dim=-1)
        top_p, top_i = probs.topk(self.k, dim=-1)
        weights = torch.zeros_like(probs).scatter(1, top_i, top_p / top_p.sum(-1, keepdim=True))
        expert_out = torch.stack([expert(tokens) for expert in self.experts], dim=1)
        out = (weights.unsqueeze(-1) * expert_out).sum(1)
        one_hot = F.one_hot(top_i[:, 0], self.num_experts).float()
        aux = self.num_experts * (one_hot.mean(0) * probs.mean(0)).sum()
        return out.view_as(x), aux


moe = MoE()
head = nn.Linear(16, 3)
opt = torch.optim.Adam(list(moe.parameters()) + list(head.parameters()), lr=1e-2)
x = torch.randn(2, 6, 16)
y = torch.randint(0, 3, (2, 6))
for step in range(4):
    out, aux, z, counts = moe(x)
    loss = F.cross_entropy(head(out).flatten(0, 1), y.flatten()) + 0.01 * aux + 1e-3 * z
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} aux {aux.item():.4f} z {z.item():.4f} counts {counts.tolist()}")

dense = DenseMoE()
dense.load_state_dict(moe.state_dict())
compiled = torch.compile(dense)
out_c, aux_c = compiled(x)
out_e, aux_e, _, _ = moe(x)
print("dense vs sparse", torch.allclose(out_c, out_e, atol=1e-5), round(aux_c.item(), 5), round(aux_e.item(), 5))
(out_c.sum() + aux_c).backward()
print("gate grad", dense.gate.weight.grad.abs().sum().round(decimals=4))
