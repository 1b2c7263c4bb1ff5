"""Train one pre-norm transformer block (LayerNorm, causal self-attention with softmax,
GELU MLP, residuals) on a toy next-token task, printing the loss at every step.

Runs unchanged on PyTorch and on minitorch2 (`python -m minitorch2 run examples/transformer_block.py`).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def attention(self, x):
        batch, length, dim = x.shape
        q, k, v = self.qkv(x).split(dim, dim=2)
        q = q.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        k = k.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        v = v.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(dim // self.heads)
        mask = torch.tril(torch.ones(length, length)) == 0
        scores = scores.masked_fill(mask, float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(batch, length, dim))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=32, dim=32, heads=4, length=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.position = nn.Parameter(torch.zeros(1, length, dim))
        self.block = Block(dim, heads)
        self.ln = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens) + self.position[:, : tokens.shape[1]]
        return self.out(self.ln(self.block(x)))


torch.manual_seed(0)
model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
tokens = torch.randint(0, 32, (8, 17))
inputs, targets = tokens[:, :-1], tokens[:, 1:]

for step in range(20):
    optimizer.zero_grad()
    logits = model(inputs)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
    loss.backward()
    optimizer.step()
    print(f"step {step:2d}  loss {loss.item():.6f}")
