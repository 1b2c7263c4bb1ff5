"""A sentence-pair (entailment) classifier in the style of the SNLI example: shared embeddings, a time-distributed
projection, one LSTM encoder for premise and hypothesis, an MLP over their concatenation, trained compiled on
batches whose sentences change length. Dynamo will not trace the LSTM; the encoder's frame reads its batch size as
`inputs.size()[1]` and has a single op before the LSTM, so Dynamo cannot resume there: the encoder runs eagerly,
on every later length too, and only the classifier's frames compile (counted below)."""
from argparse import Namespace
from collections import namedtuple

import torch
import torch._dynamo.testing
from torch import nn


class TimeDistributed(nn.Linear):
    def forward(self, x):
        if x.dim() <= 2:
            return super().forward(x)
        steps, batch = x.size()[:2]
        return super().forward(x.reshape(steps * batch, -1)).view(steps, batch, -1)


class SentenceEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.lstm = nn.LSTM(config.d_proj, config.d_hidden, num_layers=config.n_layers, bidirectional=True)

    def forward(self, inputs):
        batch_size = inputs.size()[1]
        h0 = c0 = inputs.new_zeros((2 * self.config.n_layers, batch_size, self.config.d_hidden))
        _, (ht, _) = self.lstm(inputs, (h0, c0))
        return ht[-2:].transpose(0, 1).contiguous().view(batch_size, -1)


class PairClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed = nn.Embedding(config.vocab, config.d_embed)
        self.projection = TimeDistributed(config.d_embed, config.d_proj)
        self.encoder = SentenceEncoder(config)
        width = 4 * config.d_hidden
        self.out = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Dropout(0.1), nn.Linear(width, 3))

    def forward(self, pair):
        premise = self.encoder(torch.relu(self.projection(self.embed(pair.premise))))
        hypothesis = self.encoder(torch.relu(self.projection(self.embed(pair.hypothesis))))
        return self.out(torch.cat([premise, hypothesis], 1))


Pair = namedtuple("Pair", "premise hypothesis label")
torch.manual_seed(0)
config = Namespace(vocab=30, d_embed=8, d_proj=6, d_hidden=5, n_layers=1)
model = PairClassifier(config)
counter = torch._dynamo.testing.CompileCounter()
compiled = torch.compile(model, backend=counter)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for step, (n_premise, n_hypothesis) in enumerate([(7, 5), (6, 4), (9, 3)]):
    pair = Pair(torch.randint(0, 30, (n_premise, 4)), torch.randint(0, 30, (n_hypothesis, 4)), torch.randint(0, 3, (4,)))
    optimizer.zero_grad()
    logits = compiled(pair)
    loss = nn.functional.cross_entropy(logits, pair.label)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f} frames {counter.frame_count} ops {counter.op_count}")
