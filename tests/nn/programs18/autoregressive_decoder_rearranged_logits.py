"""A small autoregressive decoder in the manner of lucidrains/x-transformers' TransformerWrapper + Decoder +
AutoregressiveWrapper: token embedding, rotary positions, RMSNorm, GLU feed-forwards, causal attention through
einops-style rearranges, and a wrapper that shifts the sequence and takes the cross entropy of logits rearranged to
(batch, classes, positions) (`F.cross_entropy(rearrange(logits, 'b n c -> b c n'), target)`: ATen's nll_loss_nd
makes the permuted logits contiguous, views them (N, C, 1, n) and calls nll_loss2d_forward, the op torch's traced
graphs record). Its attention's relative-position helper is a staticmethod called as `self._bucket(...)`, with the
flag as a keyword, as x-transformers' RelativePositionBias does. Trained a few steps with AdamW eagerly and compiled
(aot_eager), losses printed: one graph, as torch's."""
import math

import torch
import torch.nn.functional as F
from torch import nn


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.scale = dim ** 0.5
        self.gamma = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return F.normalize(x, dim=-1) * self.scale * (self.gamma + 1)


class GLUFeedForward(nn.Module):
    def __init__(self, dim, mult=4):
        super().__init__()
        self.proj_in = nn.Linear(dim, dim * mult * 2)
        self.proj_out = nn.Linear(dim * mult, dim)

    def forward(self, x):
        x, gate = self.proj_in(x).chunk(2, dim=-1)
        return self.proj_out(x * F.gelu(gate))


def rotate_half(x):
    x1, x2 = x.unflatten(-1, (2, -1)).unbind(dim=-2)
    return torch.cat((-x2, x1), dim=-1)


class RelativePositionBias(nn.Module):
    def __init__(self, heads, causal=True, num_buckets=8, max_distance=32):
        super().__init__()
        self.causal, self.num_buckets, self.max_distance = causal, num_buckets, max_distance
        self.bias = nn.Embedding(num_buckets, heads)

    @staticmethod
    def _bucket(relative_position, causal=True, num_buckets=8, max_distance=32):
        n = -relative_position
        ret = 0
        if not causal:
            num_buckets //= 2
            ret = (n < 0).long() * num_buckets
            n = n.abs()
        else:
            n = torch.max(n, torch.zeros_like(n))
        max_exact = num_buckets // 2
        large = max_exact + (torch.log(n.float() / max_exact + 1e-6) / math.log(max_distance / max_exact)
                             * (num_buckets - max_exact)).long()
        large = torch.min(large, torch.full_like(large, num_buckets - 1))
        return ret + torch.where(n < max_exact, n, large)

    def forward(self, n):
        pos = torch.arange(n)
        buckets = self._bucket(pos[None, :] - pos[:, None], causal=self.causal, num_buckets=self.num_buckets)
        return self.bias(buckets).permute(2, 0, 1)


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, freqs, bias):
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in self.to_qkv(x).chunk(3, dim=-1))
        q, k = (t * freqs.cos() + rotate_half(t) * freqs.sin() for t in (q, k))
        sim = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5 + bias
        causal = torch.ones(n, n, dtype=torch.bool).triu(1)
        attn = sim.masked_fill(causal, -torch.finfo(sim.dtype).max).softmax(dim=-1)
        return self.to_out((attn @ v).transpose(1, 2).reshape(b, n, d))


class Decoder(nn.Module):
    def __init__(self, num_tokens, dim=32, depth=2, heads=2):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.rel_pos = RelativePositionBias(heads)
        self.layers = nn.ModuleList(nn.ModuleList([RMSNorm(dim), Attention(dim, heads), RMSNorm(dim),
                                                   GLUFeedForward(dim)]) for _ in range(depth))
        self.norm = RMSNorm(dim)
        self.to_logits = nn.Linear(dim, num_tokens)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, dim // heads, 2).float() / (dim // heads))))

    def forward(self, tokens):
        n = tokens.shape[1]
        freqs = torch.einsum("i,j->ij", torch.arange(n).float(), self.inv_freq)
        freqs = torch.cat((freqs, freqs), dim=-1)
        bias = self.rel_pos(n)
        x = self.emb(tokens)
        for attn_norm, attn, ff_norm, ff in self.layers:
            x = x + attn(attn_norm(x), freqs, bias)
            x = x + ff(ff_norm(x))
        return self.to_logits(self.norm(x))


class AutoregressiveWrapper(nn.Module):
    def __init__(self, net, ignore_index=-100):
        super().__init__()
        self.net, self.ignore_index = net, ignore_index

    def forward(self, x):
        inp, target = x[:, :-1], x[:, 1:]
        target = target.masked_fill(target == 0, self.ignore_index)  # token 0 pads: no loss there
        logits = self.net(inp)
        return F.cross_entropy(logits.permute(0, 2, 1), target, ignore_index=self.ignore_index)


def train(compiled):
    torch.manual_seed(0)
    model = AutoregressiveWrapper(Decoder(num_tokens=20))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    run = torch.compile(model, backend="aot_eager") if compiled else model
    data = torch.randint(0, 20, (2, 13), generator=torch.Generator().manual_seed(1))
    data[1, -3:] = 0
    for step in range(3):
        loss = run(data)
        loss.backward()
        opt.step()
        opt.zero_grad()
        print("compiled" if compiled else "eager", step, f"{loss.item():.5f}")


train(compiled=False)
train(compiled=True)

# the loss per position, unreduced and weighted, over (batch, classes, positions) and (batch, classes, h, w) logits
torch.manual_seed(2)
logits = torch.randn(2, 13, 5, requires_grad=True)
target = torch.randint(0, 5, (2, 13))
target[0, 0] = -100
weight = torch.rand(5)
per_position = F.cross_entropy(logits.transpose(1, 2), target, weight=weight, reduction="none")
maps = F.nll_loss(F.log_softmax(logits.view(2, 13, 5, 1).permute(0, 2, 1, 3), dim=1), target.view(2, 13, 1))
(per_position.sum() + maps).backward()
print(tuple(per_position.shape), f"{per_position.sum().item():.5f}", f"{maps.item():.5f}",
      f"{logits.grad.abs().sum().item():.5f}")
