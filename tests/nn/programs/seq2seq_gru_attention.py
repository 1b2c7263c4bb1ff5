import random
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
random.seed(0)
V, E, H, PAD, SOS = 12, 8, 16, 0, 1


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=PAD)
        self.gru = nn.GRU(E, H, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * H, H)

    def forward(self, src, lengths):
        packed = pack_padded_sequence(self.emb(src), lengths, batch_first=True, enforce_sorted=False)
        out, h = self.gru(packed)
        out, out_lens = pad_packed_sequence(out, batch_first=True, padding_value=0.0)
        hidden = torch.tanh(self.fc(torch.cat((h[-2], h[-1]), dim=1)))
        return out, hidden, out_lens


class BahdanauAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Linear(2 * H + H, H)
        self.v = nn.Linear(H, 1, bias=False)

    def forward(self, hidden, enc_out, mask):
        T = enc_out.size(1)
        h = hidden.unsqueeze(1).repeat(1, T, 1)
        energy = torch.tanh(self.W(torch.cat((h, enc_out), dim=2)))
        scores = self.v(energy).squeeze(2).masked_fill(mask == 0, -1e10)
        return F.softmax(scores, dim=1)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.attn = BahdanauAttention()
        self.gru = nn.GRU(2 * H + E, H, batch_first=True)
        self.out = nn.Linear(H + 2 * H + E, V)

    def forward(self, tok, hidden, enc_out, mask):
        e = self.emb(tok).unsqueeze(1)
        a = self.attn(hidden, enc_out, mask).unsqueeze(1)
        ctx = torch.bmm(a, enc_out)
        out, h = self.gru(torch.cat((e, ctx), dim=2), hidden.unsqueeze(0))
        pred = self.out(torch.cat((out.squeeze(1), ctx.squeeze(1), e.squeeze(1)), dim=1))
        return pred, h.squeeze(0), a.squeeze(1)


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc, self.dec = Encoder(), Decoder()

    def forward(self, src, lengths, trg, ratio=0.5):
        enc_out, hidden, _ = self.enc(src, lengths)
        mask = (src[:, :enc_out.size(1)] != PAD)
        B, T = trg.shape
        outputs = torch.zeros(B, T, V)
        tok = trg[:, 0]
        for t in range(1, T):
            pred, hidden, _ = self.dec(tok, hidden, enc_out, mask)
            outputs[:, t] = pred
            tok = trg[:, t] if random.random() < ratio else pred.argmax(1)
        return outputs


seqs = [torch.randint(2, V, (n,)) for n in (5, 3, 6, 2)]
lengths = torch.tensor([len(s) for s in seqs])
src = pad_sequence(seqs, batch_first=True, padding_value=PAD)
print("src", src.tolist(), lengths.tolist())
trg = torch.cat([torch.full((4, 1), SOS), src.flip(1)], dim=1)
model = Seq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.CrossEntropyLoss(ignore_index=PAD)
for step in range(6):
    opt.zero_grad()
    out = model(src, lengths, trg, ratio=0.5)
    loss = crit(out[:, 1:].reshape(-1, V), trg[:, 1:].reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(step, f"{loss.item():.4f}")
model.eval()
with torch.no_grad():
    out = model(src, lengths, trg, ratio=0.0)
    print("pred", out[:, 1:].argmax(-1).tolist())
packed = pack_padded_sequence(src, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes.tolist(), packed.sorted_indices.tolist(), packed.data.tolist())
