"""A small transformer text classifier in the style of the tutorials: trained a few steps, then served in eval mode
without gradients on padded batches (a key padding mask), eagerly and under torch.compile; the inference fast path
(nn.TransformerEncoderLayer's fused layer, MultiheadAttention's fused attention) is what eval mode takes."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, vocab=40, d=16, nhead=2, layers=2, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        layer = nn.TransformerEncoderLayer(d, nhead, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers)
        self.pool_attn = nn.MultiheadAttention(d, nhead, batch_first=True)
        self.head = nn.Linear(d, classes)

    def forward(self, tokens):
        pad = tokens == 0
        x = self.emb(tokens) * math.sqrt(16)
        x = self.enc(x, src_key_padding_mask=pad)
        pooled, weights = self.pool_attn(x, x, x, key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return self.head((pooled * keep).sum(1) / keep.sum(1)), weights


tokens = torch.randint(1, 40, (24, 9))
for row, length in enumerate(torch.randint(4, 10, (24,)).tolist()):
    tokens[row, length:] = 0
labels = tokens[:, 0] % 3
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(3):
    logits, _ = model(tokens[step * 8:(step + 1) * 8])
    loss = nn.functional.cross_entropy(logits, labels[step * 8:(step + 1) * 8])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")

model.eval()
compiled = torch.compile(model)
with torch.no_grad():
    eager_logits, eager_weights = model(tokens)
    compiled_logits, compiled_weights = compiled(tokens)
print("eager", [round(v, 3) for v in eager_logits[:4].flatten().tolist()])
print("compiled", [round(v, 3) for v in compiled_logits[:4].flatten().tolist()])
print("same", torch.allclose(eager_logits, compiled_logits, atol=1e-4))
print("weights", tuple(eager_weights.shape), eager_weights.is_contiguous(), round(eager_weights[1, 0].sum().item(), 4))
print("predictions", eager_logits.argmax(-1).tolist())
