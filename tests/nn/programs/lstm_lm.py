import torch
import torch.nn as nn
torch.manual_seed(42)
class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.0, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.nhid, self.nlayers = nhid, nlayers
    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return nn.functional.log_softmax(decoded, dim=1), hidden
    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))
def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)
ntokens, bptt, bsz = 50, 7, 4
data = torch.randint(0, ntokens, (200,)).view(-1, bsz)
model = RNNModel(ntokens, 16, 16, 2)
compiled = torch.compile(model)
criterion = nn.NLLLoss()
lr = 5.0
hidden = model.init_hidden(bsz)
for batch, i in enumerate(range(0, data.size(0) - 1, bptt)):
    seq_len = min(bptt, len(data) - 1 - i)
    inp, target = data[i:i + seq_len], data[i + 1:i + 1 + seq_len].reshape(-1)
    model.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = compiled(inp, hidden)
    loss = criterion(output, target)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    if batch % 2 == 0:
        print('| batch {:3d} | loss {:5.2f} | seq {}'.format(batch, loss.item(), seq_len))
