import math
import sys

import torch
from torch import nn
from torch.nn import functional as F

# nanoGPT's model.py and train.py in small: a char-level GPT whose attention is F.scaled_dot_product_attention
# (is_causal, dropout only while training: the fused CPU op at eval and without dropout, the math path with it),
# tied wte / lm_head, cross_entropy with ignore_index=-1, AdamW over decay groups, the model compiled.
dropout = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
torch.manual_seed(1337)
text = "first citizen: before we proceed any further, hear me speak. all: speak, speak. " * 8
chars = sorted(set(text))
data = torch.tensor([chars.index(c) for c in text], dtype=torch.long)
block_size, batch_size, n_embd, n_head, n_layer = 16, 4, 32, 2, 2


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(n_embd, dim=2)
        k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
        q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
        v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=dropout if self.training else 0,
                                           is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd),
                                 nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(  # noqa: C408 (nanoGPT spells it so)
            wte=nn.Embedding(len(chars), n_embd), wpe=nn.Embedding(block_size, n_embd), drop=nn.Dropout(dropout),
            h=nn.ModuleList([Block() for _ in range(n_layer)]), ln_f=nn.LayerNorm(n_embd)))
        self.lm_head = nn.Linear(n_embd, len(chars), bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if getattr(module, "bias", None) is not None:
                torch.nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    return (torch.stack([data[i:i + block_size] for i in ix]),
            torch.stack([data[i + 1:i + 1 + block_size] for i in ix]))


raw_model = GPT()
params = [p for p in raw_model.parameters() if p.requires_grad]
optimizer = torch.optim.AdamW([{"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.1},
                               {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}],
                              lr=1e-3, betas=(0.9, 0.99))
model = torch.compile(raw_model)
for it in range(6):
    if it % 3 == 0:
        model.eval()
        with torch.no_grad():
            X, Y = get_batch()
            print(f"step {it}: val loss {model(X, Y)[1].item():.4f}")
        model.train()
    X, Y = get_batch()
    logits, loss = model(X, Y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f}, tied grad {raw_model.lm_head.weight.grad.square().sum().item():.6f}")
