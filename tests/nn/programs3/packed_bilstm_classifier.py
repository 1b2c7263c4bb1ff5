"""A text classifier over variable-length sequences: pad_sequence, pack_padded_sequence (unsorted, with
enforce_sorted=False), a 2-layer bidirectional LSTM, pad_packed_sequence, masked mean pooling and the final
forward/backward hidden states concatenated; trained with Adam and evaluated."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)


class BiLSTMClassifier(nn.Module):
    def __init__(self, vocab=30, emb=8, hidden=12, classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, bidirectional=True, batch_first=True, dropout=0.1)
        self.fc = nn.Linear(4 * hidden, classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        padded, out_lengths = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        mask = (torch.arange(tokens.size(1))[None, :] < out_lengths[:, None]).unsqueeze(-1)
        mean = (padded * mask).sum(1) / out_lengths.unsqueeze(-1).float()
        last = torch.cat([h[-2], h[-1]], dim=-1)
        return self.fc(torch.cat([mean, last], dim=-1))


sentences = [torch.randint(1, 30, (n,)) for n in (5, 2, 7, 3, 4, 6)]
labels = torch.tensor([0, 1, 2, 1, 0, 2])
lengths = torch.tensor([len(s) for s in sentences])
tokens = pad_sequence(sentences, batch_first=True, padding_value=0)
print("padded", tokens.shape, tokens[1].tolist())
packed = pack_padded_sequence(tokens, lengths, batch_first=True, enforce_sorted=False)
print("batch_sizes", packed.batch_sizes.tolist(), "sorted", packed.sorted_indices.tolist(),
      "unsorted", packed.unsorted_indices.tolist())
model = BiLSTMClassifier()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(4):
    model.train()
    logits = model(tokens, lengths)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    logits = model(tokens, lengths)
    print("logits", logits.round(decimals=4))
    print("acc", (logits.argmax(-1) == labels).float().mean().item())
    out, _ = model.lstm(pack_padded_sequence(model.embedding(tokens), lengths, batch_first=True, enforce_sorted=False))
    padded, lens = pad_packed_sequence(out, batch_first=True, padding_value=-1.0)
    print("padded out", padded.shape, lens.tolist(), padded[1, 2:, 0].tolist())
