"""A linear-attention layer in the manner of lucidrains/linear-attention-transformer: softmax of the queries over
features and of the keys over positions, the context `k^T v` made first (cost linear in the sequence), the layer
wrapped in a `Deterministic` that records the random state before its dropout so a reversible network's backward
can replay it: `torch.get_rng_state()`, and the device states only `if torch.cuda._initialized:` (from
torch.utils.checkpoint's get_device_states / set_device_states, which it imports). Compiled (aot_eager), the call of
get_rng_state is a graph break, as in Dynamo, which skips torch/random.py: the graph before it and the resumed one
after. Trained a few steps with Adam eagerly and compiled, losses printed; then the replay: the layer run again
with the recorded state gives the same dropout mask."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import get_device_states, set_device_states


class Deterministic(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.cpu_state = None
        self.cuda_in_fwd = None
        self.gpu_devices, self.gpu_states = None, None

    def record_rng(self, *args):
        self.cpu_state = torch.get_rng_state()
        if torch.cuda._initialized:
            self.cuda_in_fwd = True
            self.gpu_devices, self.gpu_states = get_device_states(*args)

    def forward(self, *args, record_rng=False, set_rng=False, **kwargs):
        if record_rng:
            self.record_rng(*args)
        if not set_rng:
            return self.net(*args, **kwargs)
        with torch.random.fork_rng(devices=[], enabled=True):
            torch.set_rng_state(self.cpu_state)
            if self.cuda_in_fwd:
                set_device_states(self.gpu_devices, self.gpu_states)
            return self.net(*args, **kwargs)


class LinearAttention(nn.Module):
    def __init__(self, dim, heads=2, dropout=0.1):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(b, n, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        q, k = q.softmax(dim=-1), k.softmax(dim=-2)
        context = torch.einsum("bhnd,bhne->bhde", k, v)
        out = torch.einsum("bhnd,bhde->bhne", q, self.dropout(context))
        return self.to_out(out.transpose(1, 2).reshape(b, n, d))


class Model(nn.Module):
    def __init__(self, num_tokens=20, dim=16, depth=2):
        super().__init__()
        self.emb = nn.Embedding(num_tokens, dim)
        self.layers = nn.ModuleList([Deterministic(LinearAttention(dim)) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, tokens):
        x = self.emb(tokens)
        for layer in self.layers:
            x = x + layer(x, record_rng=self.training)
        return self.to_logits(self.norm(x))


torch.manual_seed(0)
model = Model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
tokens = torch.randint(0, 20, (2, 9))


def train_step(run):
    logits = run(tokens[:, :-1])
    loss = F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:])
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()


for step in range(2):
    print("eager", step, f"{train_step(model):.5f}")
compiled = torch.compile(model, backend="aot_eager")
for step in range(2):
    print("compiled", step, f"{train_step(compiled):.5f}")

layer = model.layers[0]
x = model.emb(tokens)
first = layer(x, record_rng=True)
replayed = layer(x, set_rng=True)
print("replay matches:", torch.equal(first, replayed), "devices:", get_device_states(x))
