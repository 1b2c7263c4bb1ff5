import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(1337)
text = "hello world, this is a tiny corpus for a tiny character level model. " * 20
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)

class CharDataset(Dataset):
    def __init__(self, data, block):
        self.data, self.block = data, block
    def __len__(self):
        return len(self.data) - self.block - 1
    def __getitem__(self, idx):
        chunk = self.data[idx: idx + self.block + 1]
        return chunk[:-1], chunk[1:]

class CharGRU(nn.Module):
    def __init__(self, vocab, emb=16, hidden=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, num_layers=layers, batch_first=True, dropout=0.1)
        self.head = nn.Linear(hidden, vocab)
    def forward(self, x, h=None):
        out, h = self.rnn(self.emb(x), h)
        return self.head(out), h

model = CharGRU(len(chars))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=30)
loader = DataLoader(CharDataset(data, 16), batch_size=8, shuffle=True, drop_last=True)
step = 0
for epoch in range(2):
    for x, y in loader:
        logits, _ = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.4f} norm {norm:.4f} lr {sched.get_last_lr()[0]:.6f}")
        step += 1
        if step >= 15:
            break
model.eval()
with torch.no_grad():
    idx = torch.tensor([[stoi["h"]]])
    h = None
    out = []
    for _ in range(20):
        logits, h = model(idx, h)
        probs = F.softmax(logits[:, -1] / 0.8, dim=-1)
        idx = torch.multinomial(probs, 1)
        out.append(chars[idx.item()])
print("".join(out))
print(f"perplexity {math.exp(loss.item()):.3f}")
