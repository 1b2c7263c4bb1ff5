"""A character-level GPT trained and sampled in the manner of karpathy/minGPT's chargpt project (written afresh):
dropout on the embeddings, the attention weights and both residual branches, a tanh GELU spelled out, AdamW with
weight decay only on the Linear weights, gradient clipping, batches drawn by a RandomSampler with replacement, and
top-k sampling with torch.multinomial. Every dropout mask, batch index and sample comes from the CPU generator, so
what it prints is torch's only if each draw takes the same mt19937 words in the same order, across many 624-word
blocks (the twists that dominated such programs' time when done in Python). It ends with the generator's state saved
mid-block, restored and drawn from again."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, RandomSampler

torch.manual_seed(3407)
TEXT = "to be or not to be, that is the question: whether 'tis nobler in the mind to suffer! " * 6
CHARS = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(CHARS)}
BLOCK, EMBD, HEADS, LAYERS, DROP = 16, 32, 4, 2, 0.1


class CharDataset(Dataset):
    def __init__(self, text):
        self.data = torch.tensor([STOI[c] for c in text], dtype=torch.long)

    def __len__(self):
        return len(self.data) - BLOCK

    def __getitem__(self, i):
        chunk = self.data[i:i + BLOCK + 1]
        return chunk[:-1], chunk[1:]


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn, self.c_proj = nn.Linear(EMBD, 3 * EMBD), nn.Linear(EMBD, EMBD)
        self.attn_drop, self.resid_drop = nn.Dropout(DROP), nn.Dropout(DROP)
        self.register_buffer("bias", torch.tril(torch.ones(BLOCK, BLOCK)).view(1, 1, BLOCK, BLOCK))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(EMBD, dim=2)
        q, k, v = (t.view(B, T, HEADS, C // HEADS).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = self.attn_drop(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_drop(self.c_proj(y))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(EMBD), nn.LayerNorm(EMBD)
        self.attn = SelfAttention()
        self.fc, self.proj, self.drop = nn.Linear(EMBD, 4 * EMBD), nn.Linear(4 * EMBD, EMBD), nn.Dropout(DROP)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.drop(self.proj(gelu(self.fc(self.ln_2(x)))))


class GPT(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, EMBD), nn.Embedding(BLOCK, EMBD)
        self.drop = nn.Dropout(DROP)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f, self.lm_head = nn.LayerNorm(EMBD), nn.Linear(EMBD, vocab, bias=False)
        self.apply(self._init_weights)
        for name, p in self.named_parameters():
            if name.endswith("proj.weight"):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * LAYERS))

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        pos = torch.arange(0, idx.size(1), dtype=torch.long).unsqueeze(0)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

    def optimizer(self):
        decay = {n for n, p in self.named_parameters() if n.endswith("weight") and p.dim() == 2
                 and not n.startswith(("wte", "wpe"))}
        params = dict(self.named_parameters())
        groups = [{"params": [params[n] for n in sorted(decay)], "weight_decay": 0.1},
                  {"params": [params[n] for n in sorted(set(params) - decay)], "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.95))

    @torch.no_grad()
    def generate(self, idx, steps, top_k):
        for _ in range(steps):
            logits, _ = self(idx[:, -BLOCK:])
            logits = logits[:, -1, :]
            v, _ = torch.topk(logits, top_k)
            logits[logits < v[:, [-1]]] = -float("inf")
            idx = torch.cat((idx, torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)), dim=1)
        return idx


data = CharDataset(TEXT)
model = GPT(len(CHARS))
print("parameters:", sum(p.numel() for p in model.parameters()))
opt = model.optimizer()
loader = DataLoader(data, sampler=RandomSampler(data, replacement=True, num_samples=int(1e10)), batch_size=24)
model.train()
for it, (x, y) in enumerate(loader):
    _, loss = model(x, y)
    model.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if it % 5 == 0:
        print(f"iter {it}: loss {loss.item():.5f} grad norm {norm.item():.5f}")
    if it == 20:
        break

model.eval()
context = torch.tensor([[STOI[c] for c in "to be "]])
print(repr("".join(CHARS[int(i)] for i in model.generate(context, 30, top_k=5)[0])))
model.train()
with torch.no_grad():
    _, loss = model(x, y)  # dropout masks in training mode, no gradients
print(f"loss with dropout: {loss.item():.5f}")

state = torch.get_rng_state()  # mid-block: the draws above left the engine partway through 624 words
first = F.dropout(torch.ones(3000), 0.3).sum().item(), torch.randint(0, 1000, (700,)).sum().item()
torch.set_rng_state(state)
again = F.dropout(torch.ones(3000), 0.3).sum().item(), torch.randint(0, 1000, (700,)).sum().item()
print("replayed:", first, again == first)
