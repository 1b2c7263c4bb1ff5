"""A GPT-style block trained compiled in bfloat16, as rasbt/LLMs-from-scratch's training-speed script does
(`model = torch.compile(model); model.to(torch.bfloat16)`): a token embedding, pre-norm residual MLP blocks with
nn.LayerNorm, the default (inductor) backend, AdamW steps. Inductor decomposes layer norm: its forward converts only
the input to float32 (weight and bias promote in the products), its backward the gradient, input and weight, each a
convert and a contiguous clone; the embedding's backward accumulates in float32. The graphs must be torch's."""
import torch
import torch.nn as nn

torch.manual_seed(123)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class TinyModel(nn.Module):
    def __init__(self, vocab=20, dim=16, n_blocks=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, dim)
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(n_blocks)])
        self.final_norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 4, bias=False)

    def forward(self, idx):
        return self.head(self.final_norm(self.blocks(self.tok_emb(idx))))


model = TinyModel()
model = torch.compile(model)
model.to(torch.bfloat16)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)

x = torch.randint(0, 20, (2, 4))
target = torch.randint(0, 4, (8,))
for step in range(2):
    optimizer.zero_grad()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1).float(), target)
    loss.backward()
    optimizer.step()
    print(f"step {step}: logits {tuple(logits.shape)} {logits.dtype}, "
          f"grad dtypes {model.blocks[0].norm.weight.grad.dtype} {model.tok_emb.weight.grad.dtype}")
print(type(model).__name__, hasattr(model, "_orig_mod"))
