"""The tracing-versus-compiling comparison tutorials make: torch.jit.trace freezes the branch it saw and the values
it computed outside torch, symbolic_trace with concrete_args does the same, torch.compile keeps both live. Then a
custom backend prints what Dynamo captured for torch.nn's own modules compiled directly, and for a loss module
made inside the compiled function (Dynamo's stand-in calls F.cross_entropy with every argument in place)."""
import warnings

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(11)


def gate(x, y):
    if x.mean() > 0:
        return y * 2
    return y - 1


def with_numpy(x):
    x = x + 1
    x = torch.from_numpy(np.tanh(x.numpy()))
    return x * 3


def same(f, g, *args):
    return torch.allclose(f(*args), g(*args))


a, b = torch.rand(4, 4) + 0.1, torch.randn(4, 4)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    traced_gate = torch.jit.trace(gate, (a, b))
    traced_numpy = torch.jit.trace(with_numpy, (a,))
print(type(traced_gate).__name__, traced_gate.name)
print("traced, same branch:", same(gate, traced_gate, a, b), "other branch:", same(gate, traced_gate, -a, b))
print("traced numpy, new input:", same(with_numpy, traced_numpy, b), "example:", same(with_numpy, traced_numpy, a))
print(traced_gate(-a, b)[0])
fx_gate = torch.fx.symbolic_trace(gate, concrete_args={"x": a})
print("fx:", same(gate, fx_gate, a, b), same(gate, fx_gate, -a, b))
compiled_gate = torch.compile(gate)
print("compiled:", same(gate, compiled_gate, a, b), same(gate, compiled_gate, -a, b))
compiled_numpy = torch.compile(with_numpy)
print("compiled numpy:", same(with_numpy, compiled_numpy, b))

w = torch.randn(4, 3, requires_grad=True)
traced_step = torch.jit.trace(lambda inp, weight: (inp @ weight).relu().sum(), (a, w))
loss = traced_step(b, w)
loss.backward()
print(loss, w.grad.sum(0))


def show(gm, example_inputs):
    print("captured:", [n.name for n in gm.graph.nodes if n.op == "placeholder"])
    print(gm.code.strip())
    return gm.forward


mlp = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 2))
out = torch.compile(mlp, backend=show)(a)
print(out.shape)
norm = nn.LayerNorm(4)
print(torch.compile(norm, backend=show)(b).sum())


def classify(logits, labels):
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    return loss_fn(logits, labels) + nn.MSELoss()(logits.softmax(-1), nn.functional.one_hot(labels, 4).float())


labels = torch.tensor([0, 3, 1, 2])
print(torch.compile(classify, backend=show)(b, labels))
print(classify(b, labels))
