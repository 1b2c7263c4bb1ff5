import math
import torch
import torch.nn as nn

torch.manual_seed(0)
text = "hello world, this is a tiny corpus for a char rnn. " * 8
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
V = len(chars)


class CharLSTM(nn.Module):
    def __init__(self, h=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.lstm = nn.LSTM(16, h, num_layers=layers, dropout=0.1)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(h, V)
        self.h, self.layers = h, layers

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(self.layers, bsz, self.h), w.new_zeros(self.layers, bsz, self.h))

    def forward(self, x, hidden):
        out, hidden = self.lstm(self.drop(self.emb(x)), hidden)
        return self.fc(self.drop(out)), hidden


def batchify(d, bsz):
    n = d.size(0) // bsz
    return d[:n * bsz].view(bsz, -1).t().contiguous()


def repackage(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage(v) for v in h)


train = batchify(data, 4)
bptt = 10
model = CharLSTM()
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=2.0)
for epoch in range(2):
    model.train()
    hidden = model.init_hidden(4)
    total = 0.0
    n = 0
    for i in range(0, train.size(0) - 1, bptt):
        seq_len = min(bptt, train.size(0) - 1 - i)
        x, y = train[i:i + seq_len], train[i + 1:i + 1 + seq_len].reshape(-1)
        hidden = repackage(hidden)
        model.zero_grad()
        out, hidden = model(x, hidden)
        loss = crit(out.view(-1, V), y)
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-2.0)
        total += loss.item()
        n += 1
    print(f"epoch {epoch} loss {total / n:.4f} ppl {math.exp(total / n):.3f} gn {gn.item():.4f}")

model.eval()
with torch.no_grad():
    hidden = model.init_hidden(1)
    inp = torch.tensor([[stoi["h"]]])
    out_chars = []
    for _ in range(20):
        out, hidden = model(inp, hidden)
        probs = torch.softmax(out[-1, 0] / 0.8, dim=0)
        idx = torch.multinomial(probs, 1).item()
        out_chars.append(chars[idx])
        inp.fill_(idx)
    print("sample:", "".join(out_chars))

for backend in ("inductor", "aot_eager"):
    torch.manual_seed(2)
    m = CharLSTM(layers=1)
    m.drop.p = 0.0
    cm = torch.compile(m, backend=backend)
    o = torch.optim.Adam(m.parameters(), lr=1e-2)
    hidden = m.init_hidden(4)
    for step in range(3):
        x, y = train[step * bptt:(step + 1) * bptt], train[step * bptt + 1:(step + 1) * bptt + 1]
        hidden = repackage(hidden)
        out, hidden = cm(x, hidden)
        loss = crit(out.reshape(-1, V), y.reshape(-1))
        o.zero_grad()
        loss.backward()
        o.step()
        print(backend, step, f"{loss.item():.4f} {math.exp(loss.item()):.3f}")
