"""pytorch/examples word_language_model's TransformerModel: positional encoding buffer, nn.TransformerEncoder
with generate_square_subsequent_mask, batchify / get_batch over a token stream, gradient clipping, perplexity;
then greedy generation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x):
        return self.dropout(x + self.pe[:x.size(0), :])


class TransformerModel(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.1):
        super().__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
        self.model_type = "Transformer"
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        return F.log_softmax(self.decoder(output), dim=-1)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data.narrow(0, 0, nbatch * bsz).view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=6):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


ntokens = 20
corpus = torch.tensor([(3 * i + i // 5) % ntokens for i in range(100)])
train_data = batchify(corpus, 4)
print("batches", train_data.shape, train_data[:3].tolist())
print(nn.Transformer.generate_square_subsequent_mask(3))
model = TransformerModel(ntokens, 16, 2, 32, 2)
criterion = nn.NLLLoss()
lr = 5.0
for epoch in range(2):
    model.train()
    total_loss = 0.0
    for batch, i in enumerate(range(0, train_data.size(0) - 1, 6)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        output = model(data)
        loss = criterion(output.view(-1, ntokens), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
    print(f"epoch {epoch} loss {total_loss / (batch + 1):.4f} ppl {math.exp(total_loss / (batch + 1)):.3f}")
    lr /= 4.0

model.eval()
with torch.no_grad():
    data, targets = get_batch(train_data, 0)
    val = criterion(model(data).view(-1, ntokens), targets).item()
    print(f"eval loss {val:.4f}")
    tokens = torch.tensor([[1]])
    for _ in range(6):
        output = model(tokens, has_mask=False)
        word_idx = output[-1].squeeze().argmax()
        tokens = torch.cat([tokens, word_idx.view(1, 1)], 0)
    print("generated", tokens.view(-1).tolist())
