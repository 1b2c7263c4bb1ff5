"""Attention in the manner of lucidrains/x-transformers' Attend with `attn_flash=True`: at construction it maps its
config's switches to SDPBackend members and keeps `functools.partial(torch.nn.attention.sdpa_kernel, backends)`,
and its forward runs F.scaled_dot_product_attention inside `with self.sdp_context_manager():`. Compiled (aot_eager),
Dynamo records the block's start and end in the graph (`torch.nn.attention._backend_from_string('MATH')`,
`torch.nn.attention._sdpa_kernel([...], False)`), so the model is one graph and AOT traces the attention with the
backends the block allows (here the math path: the fused CPU flash kernel switched off). Trained a few steps with
AdamW eagerly and compiled, losses printed; then a graph break inside a block (the resume function re-enters it)
and the backends after the block, restored."""
from functools import partial

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.attention import SDPBackend, _cur_sdpa_kernel_backends, sdpa_kernel


class Attend(nn.Module):
    def __init__(self, causal=True, enable_flash=False, enable_math=True, enable_mem_efficient=False):
        super().__init__()
        self.causal = causal
        names = {"enable_flash": SDPBackend.FLASH_ATTENTION, "enable_math": SDPBackend.MATH,
                     "enable_mem_efficient": SDPBackend.EFFICIENT_ATTENTION}
        flags = {"enable_flash": enable_flash, "enable_math": enable_math, "enable_mem_efficient": enable_mem_efficient}
        self.sdp_context_manager = partial(torch.nn.attention.sdpa_kernel, [names[k] for k, on in flags.items() if on])

    def forward(self, q, k, v):
        with self.sdp_context_manager():
            return F.scaled_dot_product_attention(q, k, v, dropout_p=0.0, is_causal=self.causal)


class Block(nn.Module):
    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(dim)
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.attend = Attend()
        self.to_out = nn.Linear(dim, dim)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in self.to_qkv(self.norm(x)).chunk(3, -1))
        x = x + self.to_out(self.attend(q, k, v).transpose(1, 2).reshape(b, n, d))
        return x + self.ff(x)


class LanguageModel(nn.Module):
    def __init__(self, num_tokens=20, dim=32, depth=2):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        logits = self.to_logits(self.blocks(self.emb(x[:, :-1])))
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), x[:, 1:].reshape(-1))


def train(compiled):
    torch.manual_seed(0)
    model = LanguageModel()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    run = torch.compile(model, backend="aot_eager") if compiled else model
    data = torch.randint(0, 20, (2, 11), generator=torch.Generator().manual_seed(1))
    for step in range(3):
        loss = run(data)
        loss.backward()
        opt.step()
        opt.zero_grad()
        print("compiled" if compiled else "eager", step, f"{loss.item():.5f}")


train(compiled=False)
train(compiled=True)


def attend_twice(q):
    with sdpa_kernel(SDPBackend.MATH):
        a = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        torch._dynamo.graph_break()
        b = F.scaled_dot_product_attention(a, q, q)
    return a + b


torch.manual_seed(3)
q = torch.randn(1, 2, 4, 8, requires_grad=True)
out = torch.compile(attend_twice, backend="aot_eager")(q)
out.sum().backward()
print(f"{out.sum().item():.5f}", f"{q.grad.abs().sum().item():.5f}")
print([backend.name for backend in _cur_sdpa_kernel_backends()])
