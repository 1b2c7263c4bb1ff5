"""A small GPT in nanoGPT's style (tied token embedding and lm_head, causal self-attention through
scaled_dot_product_attention, GELU MLP, pre-LayerNorm blocks, AdamW with weight decay groups), trained for 20
steps: eager and compiled (inductor) print torch's losses, and the tied weight's gradient equals eager's."""
import math

import numpy as np
import pytest
import torch

import minitorch2


def make_gpt(lib, vocab=16, block=8, n_embd=16, n_head=2, n_layer=2):
    nn, F = lib.nn, lib.nn.functional

    class CausalSelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_attn = nn.Linear(n_embd, 3 * n_embd)
            self.c_proj = nn.Linear(n_embd, n_embd)

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(n_embd, dim=2)
            q, k, v = (t.view(B, T, n_head, C // n_head).transpose(1, 2) for t in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1, self.attn = nn.LayerNorm(n_embd), CausalSelfAttention()
            self.ln_2 = nn.LayerNorm(n_embd)
            self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.transformer = nn.ModuleDict(dict(
                wte=nn.Embedding(vocab, n_embd), wpe=nn.Embedding(block, n_embd),
                h=nn.ModuleList([Block() for _ in range(n_layer)]), ln_f=nn.LayerNorm(n_embd)))
            self.lm_head = nn.Linear(n_embd, vocab, bias=False)
            self.transformer.wte.weight = self.lm_head.weight  # weight tying, as nanoGPT
            for name, p in self.named_parameters():
                if name.endswith("c_proj.weight"):
                    nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

        def forward(self, idx, targets):
            pos = lib.arange(0, idx.size(1), dtype=lib.long)
            x = self.transformer.wte(idx) + self.transformer.wpe(pos)
            for block in self.transformer.h:
                x = block(x)
            logits = self.lm_head(self.transformer.ln_f(x))
            return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)

    return GPT()


def train(lib, compile_backend=None, steps=20):
    lib.manual_seed(1337)
    model = make_gpt(lib)
    params = dict(model.named_parameters())
    decay = [p for p in params.values() if p.dim() >= 2]
    no_decay = [p for p in params.values() if p.dim() < 2]
    optimizer = lib.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                                lr=1e-3, betas=(0.9, 0.95))
    step = model if compile_backend is None else minitorch2.compile(model, backend=compile_backend)
    data = lib.randint(0, 16, (64,))
    losses, tied_grad = [], None
    for i in range(steps):
        starts = lib.randint(0, 64 - 9, (4,))
        x = lib.stack([data[s:s + 8] for s in starts.tolist()])
        y = lib.stack([data[s + 1:s + 9] for s in starts.tolist()])
        loss = step(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if i == 0:
            tied_grad = model.lm_head.weight.grad.numpy().copy()
        lib.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses.append(loss.item())
    return np.array(losses), tied_grad


@pytest.mark.parametrize("backend", [None, "inductor"])
def test_gpt_with_tied_weights_trains_like_torch(backend):
    expected_losses, expected_grad = train(torch)
    losses, tied_grad = train(minitorch2, backend)
    np.testing.assert_allclose(losses, expected_losses, rtol=2e-4, atol=2e-5)
    np.testing.assert_allclose(tied_grad, expected_grad, rtol=1e-4, atol=1e-6)
