"""A T5-style encoder-decoder: relative position buckets (log-spaced, torch.log / clamp / torch.where / long casts),
a learned bias per head added to attention scores, RMS layer norm, teacher-forced training, then greedy decoding
with torch.cat and argmax and an early stop at EOS; the encoder compiled."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PAD, BOS, EOS, VOCAB = 0, 1, 2, 12


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=8, max_distance=16):
    buckets = 0
    if bidirectional:
        num_buckets //= 2
        buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    if_large = max_exact + (torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact)
                            * (num_buckets - max_exact)).to(torch.long)
    if_large = torch.min(if_large, torch.full_like(if_large, num_buckets - 1))
    return buckets + torch.where(is_small, relative_position, if_large)


class T5LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


class Attention(nn.Module):
    def __init__(self, d, heads, relative_bias=False, bidirectional=True):
        super().__init__()
        self.heads, self.bidirectional = heads, bidirectional
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
        self.bias = nn.Embedding(8, heads) if relative_bias else None

    def position_bias(self, q_len, k_len):
        context = torch.arange(q_len, dtype=torch.long)[:, None]
        memory = torch.arange(k_len, dtype=torch.long)[None, :]
        buckets = relative_position_bucket(memory - context, bidirectional=self.bidirectional)
        return self.bias(buckets).permute(2, 0, 1).unsqueeze(0)

    def forward(self, x, kv=None, mask=None):
        kv = x if kv is None else kv
        b, n, d = x.shape
        split = lambda t: t.view(b, -1, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(kv)), split(self.v(kv))
        scores = q @ k.transpose(-1, -2)
        if self.bias is not None:
            scores = scores + self.position_bias(n, kv.shape[1])
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        out = F.softmax(scores.float(), dim=-1).type_as(scores) @ v
        return self.o(out.transpose(1, 2).reshape(b, n, d))


class Seq2Seq(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d)
        self.enc_attn = Attention(d, heads, relative_bias=True)
        self.enc_ff = nn.Sequential(nn.Linear(d, 64, bias=False), nn.ReLU(), nn.Linear(64, d, bias=False))
        self.dec_self = Attention(d, heads, relative_bias=True, bidirectional=False)
        self.dec_cross = Attention(d, heads)
        self.norms = nn.ModuleList(T5LayerNorm(d) for _ in range(5))
        self.lm_head = nn.Linear(d, VOCAB, bias=False)

    def encode(self, src):
        h = self.embed(src)
        h = h + self.enc_attn(self.norms[0](h))
        h = h + self.enc_ff(self.norms[1](h))
        return self.norms[2](h)

    def decode(self, tgt, memory):
        n = tgt.shape[1]
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
        h = self.embed(tgt)
        h = h + self.dec_self(self.norms[3](h), mask=causal)
        h = h + self.dec_cross(self.norms[4](h), kv=memory)
        return self.lm_head(h) * (h.shape[-1] ** -0.5)


print("buckets", relative_position_bucket(torch.arange(-6, 7)).tolist())
print("causal buckets", relative_position_bucket(torch.arange(-20, 1, 4), bidirectional=False).tolist())
model = Seq2Seq()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
src = torch.randint(3, VOCAB, (6, 5))
tgt = torch.cat([src.flip(1), torch.full((6, 1), EOS)], dim=1)  # (the task: reverse the sequence)
dec_in = torch.cat([torch.full((6, 1), BOS), tgt[:, :-1]], dim=1)
for step in range(8):
    logits = model.decode(dec_in, model.encode(src))
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1), ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 2 == 1:
        print(f"step {step} loss {loss.item():.4f}")


@torch.no_grad()
def greedy(model, src, max_len=8):
    memory = model.encode(src)
    out = torch.full((src.shape[0], 1), BOS, dtype=torch.long)
    done = torch.zeros(src.shape[0], dtype=torch.bool)
    for _ in range(max_len):
        next_token = model.decode(out, memory)[:, -1].argmax(-1)
        next_token = torch.where(done, torch.full_like(next_token, PAD), next_token)
        out = torch.cat([out, next_token[:, None]], dim=1)
        done = done | (next_token == EOS)
        if done.all():
            break
    return out


decoded = greedy(model, src[:2])
print("decoded shape", tuple(decoded.shape))
print("decoded", decoded.tolist())

compiled_encode = torch.compile(model.encode, backend="aot_eager")
memory = compiled_encode(src)
print("compiled encoder matches", torch.allclose(memory, model.encode(src), atol=1e-5))
memory.sum().backward()
print("bias grad", round(model.enc_attn.bias.weight.grad.abs().sum().item(), 4))
