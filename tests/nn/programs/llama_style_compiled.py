"""A Llama-style decoder as HuggingFace writes it: RMSNorm in float32, rotary embeddings (inv_freq @ positions,
cat of the frequencies with themselves), a causal mask from torch.finfo(dtype).min with triu over the cache's
length, a SwiGLU MLP; trained compiled (inductor), then generating with a growing key/value cache compiled with
aot_eager (automatic dynamic shapes after the first recompile). Its graphs are torch's where noted in
tests/nn/test_probe_programs.py."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps)).to(dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class Rotary(nn.Module):
    def __init__(self, dim, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        pos = position_ids[:, None, :].float()
        freqs = (inv @ pos).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.d = heads, dim // heads
        self.q_proj, self.k_proj = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.v_proj, self.o_proj = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.rotary = Rotary(self.d)

    def forward(self, x, position_ids, cache=None):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.h, self.d).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.h, self.d).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.h, self.d).transpose(1, 2)
        cos, sin = self.rotary(v, position_ids)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        if cache is not None:
            k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
        mask = None
        if t > 1:
            mask = torch.full((t, k.shape[2]), torch.finfo(x.dtype).min).triu(1 + k.shape[2] - t)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d)
        if mask is not None:
            w = w + mask
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(w, v).transpose(1, 2).reshape(b, t, -1)
        return self.o_proj(o), (k, v)


class Model(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm1, self.attn = RMSNorm(dim), Attn(dim, heads)
        self.norm2 = RMSNorm(dim)
        self.gate, self.up, self.down = nn.Linear(dim, 64, bias=False), nn.Linear(dim, 64, bias=False), nn.Linear(64, dim, bias=False)
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids, position_ids, cache=None):
        h = self.embed(ids)
        a, cache = self.attn(self.norm1(h), position_ids, cache)
        h = h + a
        n = self.norm2(h)
        h = h + self.down(F.silu(self.gate(n)) * self.up(n))
        return self.lm_head(self.norm(h)), cache


model = Model()
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
cmodel = torch.compile(model)
data = torch.randint(0, 40, (2, 9))
pos = torch.arange(8).unsqueeze(0).expand(2, -1)
for step in range(5):
    logits, _ = cmodel(data[:, :-1], pos)
    loss = F.cross_entropy(logits.reshape(-1, 40), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("train", step, f"{loss.item():.5f}")

model.eval()
gen = torch.compile(model, backend="aot_eager")
with torch.no_grad():
    ids = data[:1, :3]
    logits, cache = gen(ids, torch.arange(3).unsqueeze(0))
    out = [ids[0].tolist()]
    nxt = logits[:, -1].argmax(-1, keepdim=True)
    for i in range(5):
        out.append(nxt.item())
        p = torch.tensor([[3 + i]])
        logits, cache = gen(nxt, p, cache)
        probs = F.softmax(logits[:, -1] / 0.7, dim=-1)
        nxt = torch.multinomial(probs, 1)
    print("generated", out, cache[0].shape)
