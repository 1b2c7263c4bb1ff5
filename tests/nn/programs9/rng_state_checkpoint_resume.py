"""Training resumed from a checkpoint that carries the random state, as training scripts save it for exact resumption
(makemore's --resume, trainers' `rng_state` entries), written afresh: a character MLP with dropout trained a few
steps, then the model, the optimizer and torch.get_rng_state() saved with torch.save and loaded back under torch.load's
default weights_only=True; training goes on from there twice and must repeat itself. The generator's state is a
uint8 tensor (it came back as a NumPy array, which torch.load's weights-only unpickler refuses and
Generator.set_state rejects with a TypeError, as the last lines show)."""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
WORDS = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail"]
CHARS = ["."] + sorted(set("".join(WORDS)))
STOI = {c: i for i, c in enumerate(CHARS)}
CONTEXT = 3

xs, ys = [], []
for w in WORDS:
    window = [0] * CONTEXT
    for ch in w + ".":
        xs.append(list(window))
        ys.append(STOI[ch])
        window = window[1:] + [STOI[ch]]
X, Y = torch.tensor(xs), torch.tensor(ys)

model = nn.Sequential(nn.Embedding(len(CHARS), 8), nn.Flatten(), nn.Linear(8 * CONTEXT, 32), nn.Tanh(),
                      nn.Dropout(0.2), nn.Linear(32, len(CHARS)))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)


def train(steps):
    losses = []
    for _ in range(steps):
        batch = torch.randint(0, len(X), (16,))
        loss = F.cross_entropy(model(X[batch]), Y[batch])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 5))
    return losses


print("first steps:", train(5))
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "rng_state": torch.get_rng_state()}, buffer)
state = torch.get_rng_state()
print("rng state:", type(state).__name__, state.dtype, tuple(state.shape), state[:8].tolist())

runs = []
for _ in range(2):
    buffer.seek(0)
    checkpoint = torch.load(buffer)  # weights_only=True: tensors and plain containers only
    model.load_state_dict(checkpoint["model"])
    opt.load_state_dict(checkpoint["optim"])
    torch.set_rng_state(checkpoint["rng_state"])
    runs.append(train(4))
print("resumed:", runs[0], "repeats:", runs[0] == runs[1])

g = torch.Generator().manual_seed(7)
saved = g.get_state()
print("generator state:", saved.dtype, saved.numel(), torch.rand(3, generator=g).tolist())
g.set_state(saved.clone())
print("replayed:", torch.rand(3, generator=g).tolist())
for bad in (np.zeros(saved.numel(), np.uint8), torch.zeros(saved.numel()), torch.zeros(10, dtype=torch.uint8)):
    try:
        g.set_state(bad)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)

# torch.random, the module the generator's functions are also imported from (it was missing)
from torch.random import fork_rng  # noqa: E402

torch.random.manual_seed(5)
with fork_rng():
    inside = torch.randn(3).tolist()
after = torch.randn(3).tolist()
print("fork_rng restores:", inside == after, torch.random.initial_seed(), torch.random.get_rng_state()[:4].tolist())
with fork_rng(enabled=False):
    torch.rand(1)
print("not forked:", torch.randn(3).tolist() != after)
