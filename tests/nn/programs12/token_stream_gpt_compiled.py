"""A GPT-2 style training script in the manner of build-nanogpt: weight tying, causal scaled_dot_product_attention,
scaled residual init, configure_optimizers with parameter groups by ndim (fused AdamW asked for only where the
signature offers it and the device is a GPU), a warmup-then-cosine learning rate, gradient accumulation over
micro-batches, clipping, and a compiled model fed by a loader that slices inputs and targets from one token tensor
(overlapping views: one trace must serve every batch); a validation pass under no_grad and bf16 autocast."""
import inspect
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class Config:
    block_size: int = 16
    vocab_size: int = 40
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 16


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.c_proj.SCALE_INIT = 1
        self.n_head, self.n_embd = cfg.n_head, cfg.n_embd

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(cfg.n_embd), nn.LayerNorm(cfg.n_embd)
        self.attn = SelfAttention(cfg)
        self.mlp = nn.Sequential(nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * cfg.n_embd, cfg.n_embd))
        self.mlp[2].SCALE_INIT = 1

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(cfg.vocab_size, cfg.n_embd), wpe=nn.Embedding(cfg.block_size, cfg.n_embd),
            h=nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)]), ln_f=nn.LayerNorm(cfg.n_embd)))
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            std = 0.02 * ((2 * self.cfg.n_layer) ** -0.5 if hasattr(module, "SCALE_INIT") else 1.0)
            torch.nn.init.normal_(module.weight, mean=0.0, std=std)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, device_type):
        params = {n: p for n, p in self.named_parameters() if p.requires_grad}
        decay = [p for p in params.values() if p.dim() >= 2]
        no_decay = [p for p in params.values() if p.dim() < 2]
        print(f"decayed tensors: {len(decay)}, {sum(p.numel() for p in decay):,} parameters; "
              f"not decayed: {len(no_decay)}, {sum(p.numel() for p in no_decay):,}")
        fused = "fused" in inspect.signature(torch.optim.AdamW).parameters and device_type == "cuda"
        print(f"using fused AdamW: {fused}")
        groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=learning_rate, betas=(0.9, 0.95), eps=1e-8, fused=fused)


class Loader:
    def __init__(self, tokens, B, T):
        self.tokens, self.B, self.T, self.pos = tokens, B, T, 0

    def next_batch(self):
        B, T = self.B, self.T
        buf = self.tokens[self.pos:self.pos + B * T + 1]
        x, y = buf[:-1].view(B, T), buf[1:].view(B, T)
        self.pos += B * T
        if self.pos + B * T + 1 > len(self.tokens):
            self.pos = 0
        return x, y


torch.manual_seed(1337)
cfg = Config()
model = GPT(cfg)
print(model.transformer.h[0].attn)
optimizer = model.configure_optimizers(weight_decay=0.1, learning_rate=3e-3, device_type="cpu")
model = torch.compile(model)
train = Loader(torch.randint(0, cfg.vocab_size, (700,)), B=2, T=cfg.block_size)
val = Loader(torch.randint(0, cfg.vocab_size, (200,)), B=2, T=cfg.block_size)
max_lr, min_lr, warmup, max_steps, accum = 3e-3, 3e-4, 2, 6, 2


def get_lr(it):
    if it < warmup:
        return max_lr * (it + 1) / warmup
    ratio = (it - warmup) / (max_steps - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


for step in range(max_steps):
    if step % 3 == 0:
        model.eval()
        with torch.no_grad():
            x, y = val.next_batch()
            logits, loss = model(x, y)
            print(f"validation loss: {loss.item():.4f}")
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
                logits, _ = model(x)
            print(logits.dtype, logits.shape)
        model.train()
    optimizer.zero_grad()
    loss_accum = 0.0
    for micro in range(accum):
        x, y = train.next_batch()
        logits, loss = model(x, y)
        loss = loss / accum
        loss_accum += loss.detach()
        loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    lr = get_lr(step)
    for group in optimizer.param_groups:
        group["lr"] = lr
    optimizer.step()
    print(f"step {step:3d} | loss: {loss_accum.item():.6f} | lr {lr:.4e} | norm: {norm:.4f}")
