"""A selective state-space language model in the style of single-file Mamba ports: one projection split in two by
keyword (`x.split(split_size=[...], dim=-1)`), a causal depthwise conv1d cut back to the sequence length, softplus
step sizes, einsum discretization and a sequential scan, RMSNorm; trained a few steps with AdamW and gradient
clipping, then compiled; a helper picks its code path by comparing torch.__version__ to a string, as libraries do."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def fused_path_available():
    # as einops and others gate on the release: a version comparison, not a string comparison ("2.13" < "2.8")
    return torch.__version__ >= "2.8" and torch.__version__ >= (2, 1) and not torch.__version__ < "2.0.1"


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class SSMBlock(nn.Module):
    def __init__(self, d_model, d_state=4, expand=2, d_conv=3):
        super().__init__()
        self.d_inner, self.d_state = expand * d_model, d_state
        self.dt_rank = math.ceil(d_model / 16)
        self.in_proj = nn.Linear(d_model, 2 * self.d_inner, bias=False)
        self.conv1d = nn.Conv1d(self.d_inner, self.d_inner, d_conv, groups=self.d_inner, padding=d_conv - 1)
        self.x_proj = nn.Linear(self.d_inner, self.dt_rank + 2 * d_state, bias=False)
        self.dt_proj = nn.Linear(self.dt_rank, self.d_inner)
        A = torch.arange(1, d_state + 1, dtype=torch.float32).repeat(self.d_inner, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(self.d_inner))
        self.out_proj = nn.Linear(self.d_inner, d_model, bias=False)
        self.norm = RMSNorm(d_model)

    def scan(self, u, delta, A, B, C):
        b, l, d = u.shape
        deltaA = torch.exp(torch.einsum("bld,dn->bldn", delta, A))
        deltaB_u = torch.einsum("bld,bln,bld->bldn", delta, B, u)
        h = torch.zeros(b, d, self.d_state)
        ys = []
        for i in range(l):
            h = deltaA[:, i] * h + deltaB_u[:, i]
            ys.append(torch.einsum("bdn,bn->bd", h, C[:, i, :]))
        return torch.stack(ys, dim=1) + u * self.D

    def forward(self, x):
        b, l, _ = x.shape
        xz = self.in_proj(self.norm(x))
        (u, res) = xz.split(split_size=[self.d_inner, self.d_inner], dim=-1)
        u = self.conv1d(u.transpose(1, 2))[:, :, :l].transpose(1, 2)
        u = F.silu(u)
        delta, B, C = self.x_proj(u).split(split_size=[self.dt_rank, self.d_state, self.d_state], dim=-1)
        delta = F.softplus(self.dt_proj(delta))
        y = self.scan(u, delta, -torch.exp(self.A_log.float()), B, C)
        return x + self.out_proj(y * F.silu(res))


class SSMLM(nn.Module):
    def __init__(self, vocab, d_model, n_layer):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([SSMBlock(d_model) for _ in range(n_layer)])
        self.norm_f = RMSNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
        self.lm_head.weight = self.embedding.weight

    def forward(self, ids):
        x = self.embedding(ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.norm_f(x))


print("fused path:", fused_path_available(), torch.__version__ > "2.8", torch.__version__ <= (2, 8))
model = SSMLM(vocab=24, d_model=16, n_layer=2)
print(model.layers[0].conv1d, model.layers[0].x_proj)
print(f"parameters: {sum(p.numel() for p in model.parameters()):,}")
ids = torch.randint(0, 24, (3, 9))
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
for step in range(3):
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(f"step {step}: loss {loss.item():.4f} | norm {norm:.4f}")

compiled = torch.compile(model)
with torch.no_grad():
    out = compiled(ids)
    print(out.shape, torch.allclose(out, model(ids), atol=1e-5))
    print(out[0, -1, :5])
    prompt = ids[:1, :3]
    for _ in range(4):
        prompt = torch.cat([prompt, model(prompt)[:, -1].argmax(-1, keepdim=True)], dim=1)
print(prompt.tolist())
