"""A word-level n-gram model in the style of the NLP tutorials (NNLM, TextRNN, Word2Vec): the vocabulary is numbered
by iterating a set of words, so which word gets which index (and so every embedding row, logit and prediction) follows
the interpreter's string hashing. Trained eagerly for a few steps, then a copy compiled and trained on the same
batch; the predictions print as words."""
import torch
import torch.nn as nn

torch.manual_seed(0)

sentences = ["we like green tea", "you love black coffee", "they hate warm milk", "we drink cold water",
             "you want hot soup"]
words = list(set(" ".join(sentences).split()))
index = {w: i for i, w in enumerate(words)}
inputs = torch.tensor([[index[w] for w in s.split()[:-1]] for s in sentences])
targets = torch.tensor([index[s.split()[-1]] for s in sentences])


class NGram(nn.Module):
    def __init__(self, vocab, dim=3, hidden=5, context=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.hidden = nn.Linear(context * dim, hidden)
        self.skip = nn.Linear(context * dim, vocab, bias=False)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x):
        e = self.embed(x).flatten(1)
        return self.skip(e) + self.out(torch.tanh(self.hidden(e)))


def train(model, steps):
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for step in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.5f}")


model = NGram(len(words))
train(model, 6)
compiled_model = NGram(len(words))
compiled_model.load_state_dict(model.state_dict())
train(torch.compile(compiled_model), 3)
with torch.no_grad():
    for m in (model, compiled_model):
        print([words[i] for i in m(inputs).argmax(1).tolist()])
print(sorted(index.values()) == list(range(len(words))), model.embed.weight[index["tea"]].shape)
