"""A Llama-style decoder in the manner of karpathy/llama2.c: RMSNorm, rotary embeddings applied with real cos/sin
tables, grouped-query attention (keys and values repeated to the query heads) through scaled_dot_product_attention
with is_causal, a SwiGLU feed-forward, tied embeddings. Compiled training with AdamW parameter groups (decay for
matrices only), sampling under inference_mode (temperature, top-k, greedy), then the weights written as a binary
checkpoint: float32 rows and group-wise int8 (Q8_0) quantized matrices, packed with struct via numpy."""
import hashlib
import io
import struct

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
DIM, HEADS, KV_HEADS, VOCAB, SEQ = 32, 4, 2, 40, 16


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotary_tables(head_dim, length):
    inv = 1.0 / (10000.0 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.outer(torch.arange(length).float(), inv)
    return torch.cos(angles), torch.sin(angles)


def rotate(x, cos, sin):
    re, im = x.float().reshape(x.shape[:-1] + (-1, 2)).unbind(-1)
    cos, sin = cos.view(1, x.shape[1], 1, -1), sin.view(1, x.shape[1], 1, -1)
    return torch.stack([re * cos - im * sin, re * sin + im * cos], dim=-1).flatten(3).type_as(x)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.head_dim = DIM // HEADS
        self.wq = nn.Linear(DIM, HEADS * self.head_dim, bias=False)
        self.wkv = nn.Linear(DIM, 2 * KV_HEADS * self.head_dim, bias=False)
        self.wo = nn.Linear(DIM, DIM, bias=False)
        self.w1, self.w3 = nn.Linear(DIM, 48, bias=False), nn.Linear(DIM, 48, bias=False)
        self.w2 = nn.Linear(48, DIM, bias=False)
        self.norm1, self.norm2 = RMSNorm(DIM), RMSNorm(DIM)

    def forward(self, x, cos, sin):
        b, t, _ = x.shape
        h = self.norm1(x)
        q = self.wq(h).view(b, t, HEADS, self.head_dim)
        k, v = self.wkv(h).view(b, t, 2 * KV_HEADS, self.head_dim).chunk(2, dim=2)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        k = k[:, :, :, None].expand(b, t, KV_HEADS, HEADS // KV_HEADS, self.head_dim).reshape(b, t, HEADS, -1)
        v = torch.repeat_interleave(v, HEADS // KV_HEADS, dim=2)
        att = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + self.wo(att.transpose(1, 2).contiguous().view(b, t, DIM))
        h = self.norm2(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class TinyLlama(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.norm = RMSNorm(DIM)
        self.output = nn.Linear(DIM, VOCAB, bias=False)
        self.output.weight = self.embed.weight
        cos, sin = rotary_tables(DIM // HEADS, SEQ)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, tokens, targets=None):
        x = self.embed(tokens)
        t = tokens.shape[1]
        for block in self.blocks:
            x = block(x, self.cos[:t], self.sin[:t])
        x = self.norm(x)
        if targets is None:
            return self.output(x[:, [-1], :]), None
        logits = self.output(x)
        return logits, F.cross_entropy(logits.view(-1, VOCAB), targets.view(-1), ignore_index=-1)

    @torch.inference_mode()
    def generate(self, idx, steps, temperature=1.0, top_k=None):
        for _ in range(steps):
            logits = self(idx[:, -SEQ:])[0][:, -1, :]
            if temperature == 0.0:
                nxt = torch.topk(logits, k=1, dim=-1)[1]
            else:
                logits = logits / temperature
                if top_k is not None:
                    v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                    logits[logits < v[:, [-1]]] = -float("Inf")
                nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
            idx = torch.cat((idx, nxt), dim=1)
        return idx


def q80(w, group=16):
    w = w.float().reshape(-1, group)
    scale = torch.abs(w).max(dim=1).values / 127.0
    q = torch.round(w / scale[:, None]).to(torch.int8)
    err = torch.abs(q.float() * scale[:, None] - w).max(dim=1).values
    return q, scale, err.max().item()


def export(model):
    """The weights as initialised, packed (after training they are an ulp or so from torch's, as summation orders
    of matmuls differ, and the file is compared byte for byte)."""
    out = io.BytesIO()
    out.write(struct.pack("iiiii", DIM, HEADS, KV_HEADS, VOCAB, SEQ))
    for name, w in model.state_dict().items():
        if w.dim() < 2:
            d = w.detach().view(-1).to(torch.float32).numpy()
            out.write(struct.pack(f"{len(d)}f", *d))
        else:
            q, s, err = q80(w)
            qs = q.view(-1).numpy().astype(np.int8)
            out.write(struct.pack(f"{len(qs)}b", *qs) + struct.pack(f"{len(s)}f", *s.numpy()))
            print(name, tuple(w.shape), f"{err:.6f}")
    print(len(out.getvalue()), hashlib.sha256(out.getvalue()).hexdigest()[:16])


model = TinyLlama()
export(model)
params = [p for p in model.parameters() if p.requires_grad]
groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.1},
          {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
print([len(g["params"]) for g in groups], sum(p.numel() for p in params))
opt = torch.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.95))
step = torch.compile(model)
for it in range(3):
    x = torch.randint(0, VOCAB, (4, SEQ))
    y = torch.roll(x, -1, 1)
    y[:, -1] = -1
    _, loss = step(x, y)
    loss.backward()
    print(it, f"{loss.item():.5f}", f"{torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0).item():.5f}")
    opt.step()
    opt.zero_grad(set_to_none=True)

model.eval()
start = torch.zeros(1, 1, dtype=torch.long)
print(model.generate(start, 8, temperature=0.8, top_k=5).tolist())
print(model.generate(start, 5, temperature=0.0).tolist())
