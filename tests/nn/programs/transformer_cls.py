import math
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader, random_split
torch.manual_seed(0)
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)
    def forward(self, x):
        return x + self.pe[:x.size(0)]
class Classifier(nn.Module):
    def __init__(self, vocab=30, d=16, nhead=2, layers=2, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = PositionalEncoding(d)
        layer = nn.TransformerEncoderLayer(d, nhead, dim_feedforward=32, dropout=0.0)
        self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = nn.Linear(d, classes)
    def forward(self, src, pad_mask):
        x = self.pos(self.emb(src) * math.sqrt(16))
        x = self.enc(x, src_key_padding_mask=pad_mask)
        return self.head(x.mean(0))
X = torch.randint(1, 30, (40, 10))
X[:, 8:] = 0
y = torch.randint(0, 3, (40,))
train, val = random_split(TensorDataset(X, y), [32, 8], generator=torch.Generator().manual_seed(1))
loader = DataLoader(train, batch_size=8, shuffle=True)
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model)
for epoch in range(2):
    for xb, yb in loader:
        src = xb.t()
        logits = step_fn(src, xb == 0)
        loss = nn.functional.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    xb, yb = next(iter(DataLoader(val, batch_size=8)))
    acc = (model(xb.t(), xb == 0).argmax(-1) == yb).float().mean()
    print(f"val acc {acc.item():.3f}")
