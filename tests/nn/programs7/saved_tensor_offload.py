"""Activation offloading and inspection with autograd's saved-tensor hooks, as memory-saving training scripts write
it: a pack/unpack pair that logs what the graph keeps, a block whose saved activations go through save_on_cpu, one
that spills large ones to files, `grad_fn._saved_*` reads, and a library region that refuses hooks."""
import os
import tempfile
import uuid

import torch
import torch.nn as nn

torch.manual_seed(7)

log = []


def pack(t):
    log.append(("pack", tuple(t.shape), t.requires_grad, t.grad_fn is not None))
    return t


def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t


w = torch.randn(3, requires_grad=True)
x = torch.randn(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    a = x.exp()          # keeps its result
    b = a * w            # keeps both factors (w before a, as torch's node lists them)
    c = b.pow(3)         # keeps its input and the exponent
print(log)
log.clear()
c.sum().backward()
print(log, x.grad, w.grad)

y = torch.randn(4, requires_grad=True)
z = (y * 2).sin()
print(type(z.grad_fn).__name__, z.grad_fn._saved_self)
e = y.exp()
print(e.grad_fn._saved_result.equal(e), e.grad_fn._saved_result is e)
p = y.pow(2)
print(p.grad_fn._saved_exponent, p.grad_fn._saved_self is y)
p.sum().backward()
try:
    p.grad_fn._saved_self
except RuntimeError as err:
    print("RuntimeError:", str(err).split(".")[0])

# the hooks see custom Functions' saved tensors too
class Clamp01(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t.clamp(0, 1)

    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return g * ((t >= 0) & (t <= 1))


log.clear()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    out = Clamp01.apply(y * 0.5)
out.sum().backward()
print(log, y.grad)


class Offloaded(nn.Module):
    """Runs its block with saved activations kept as CPU copies (save_on_cpu's pinned-memory path)."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, t):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.block(t)


spill_dir = tempfile.TemporaryDirectory()
spilled = []


class SpillFile:
    def __init__(self):
        self.path = os.path.join(spill_dir.name, uuid.uuid4().hex)

    def __del__(self):
        os.remove(self.path)


def spill(t):
    if t.numel() < 64:
        return t
    handle = SpillFile()
    torch.save(t, handle.path)
    spilled.append(tuple(t.shape))
    return handle


def load(packed):
    return packed if isinstance(packed, torch.Tensor) else torch.load(packed.path)


class Spilled(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, t):
        with torch.autograd.graph.saved_tensors_hooks(spill, load):
            return self.block(t)


model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), Offloaded(nn.Sequential(nn.Linear(32, 32), nn.GELU())),
                      Spilled(nn.Sequential(nn.Linear(32, 16), nn.Softplus())), nn.Linear(16, 2))
reference = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 16),
                          nn.Softplus(), nn.Linear(16, 2))
with torch.no_grad():
    for ours, plain in zip([p for p in model.parameters()], reference.parameters()):
        plain.copy_(ours)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data, target = torch.randn(6, 8), torch.randn(6, 2)
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(data), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), spilled)
    spilled.clear()
loss = nn.functional.mse_loss(reference(data), target)
loss.backward()
print("files left:", len(os.listdir(spill_dir.name)))

# an in-place change after saving: refused without hooks, unchecked through them (the hook owns what it packed)
for hooks in ((lambda t: t.clone(), lambda t: t), None):
    with torch.autograd.graph.saved_tensors_hooks(*hooks) if hooks else torch.enable_grad():
        s = torch.randn(3, requires_grad=True) * 1.0
        r = s.sin()
    s.add_(1)
    try:
        r.sum().backward()
        print("backward ran")
    except RuntimeError as err:
        print("RuntimeError:", str(err).split(" Hint:")[0])

try:
    with torch.autograd.graph.disable_saved_tensors_hooks("this region keeps its own activations"):
        with torch.autograd.graph.save_on_cpu():
            pass
except RuntimeError as err:
    print("RuntimeError:", err)
with torch.autograd.graph.save_on_cpu():
    print("hooks allowed again")
