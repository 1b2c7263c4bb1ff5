"""A training script in nanoGPT's style, written for minitorch2's tests: ready for torchrun (DistributedDataParallel,
init_process_group when RANK is set, gradient accumulation under no_sync) and naming torch.bfloat16 in its dtype
table, which it uses only on a GPU. Run as a world of one process (RANK=0 WORLD_SIZE=1) or with no launcher."""
import math
import os
from contextlib import nullcontext

import torch
import torch.nn as nn
from torch.distributed import destroy_process_group, init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP

device = "cpu"
dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float32"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = nullcontext() if device == "cpu" else torch.amp.autocast(device_type=device, dtype=ptdtype)
gradient_accumulation_steps = 2

ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    init_process_group(backend="gloo")
    master_process = torch.distributed.get_rank() == 0
    print("world", torch.distributed.get_world_size(), "rank", torch.distributed.get_rank())
else:
    master_process = True


class TinyLM(nn.Module):
    def __init__(self, vocab=11, n_embd=8, block=6):
        super().__init__()
        self.wte = nn.Embedding(vocab, n_embd)
        self.wpe = nn.Embedding(block, n_embd)
        self.ln = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab, bias=False)
        self.wte.weight = self.head.weight

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1))
        logits = self.head(self.ln(self.wte(idx) + self.wpe(pos)))
        return logits, nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


torch.manual_seed(1337)
model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, betas=(0.9, 0.95), weight_decay=0.1)
raw_model = model
if ddp:
    model = DDP(model)
    raw_model = model.module
data = torch.randint(0, 11, (64,))
for it in range(4):
    lr = 1e-2 * 0.5 * (1 + math.cos(math.pi * it / 4))
    for group in optimizer.param_groups:
        group["lr"] = lr
    for micro_step in range(gradient_accumulation_steps):
        if ddp:
            model.require_backward_grad_sync = micro_step == gradient_accumulation_steps - 1
        ix = torch.randint(len(data) - 7, (3,))
        x = torch.stack([data[i:i + 6] for i in ix])
        y = torch.stack([data[i + 1:i + 7] for i in ix])
        with ctx:
            logits, loss = model(x, y)
            loss = loss / gradient_accumulation_steps
        loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    if master_process:
        print(f"iter {it}: loss {loss.item() * gradient_accumulation_steps:.4f}, lr {lr:.5f}")
print(ptdtype, sorted(model.state_dict())[:2], raw_model.head.weight is raw_model.wte.weight)
if ddp:
    destroy_process_group()
