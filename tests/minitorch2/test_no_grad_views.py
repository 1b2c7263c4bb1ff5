"""A view made under no_grad of a tensor that requires grad, against torch: it has no grad_fn and is a leaf, yet
requires grad as its base does (torch's differentiable views); ops on it record nodes whose edge to it is empty;
modifying it in place with grad mode back on is refused with torch's message; and a trace under no_grad sees the
same requires_grad, so matmul folds its batch into mm as torch's does."""
import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import make_fx

LIBS = (torch, minitorch2)
VIEWS = {
    "slice": lambda w: w[:2],
    "t": lambda w: w.t(),
    "view": lambda w: w.view(-1),
    "select": lambda w: w[0],
    "unbind": lambda w: w.unbind(0)[1],
    "split": lambda w: w.split(1, 1)[0],
    "diagonal": lambda w: w.diagonal(),
    "expand": lambda w: w[:1].expand(4, 3),
    "view of a view": lambda w: w.t()[1:],
    "detach": lambda w: w.detach()[0],  # (detach's result is no view of w: nothing to require)
    "mul": lambda w: w * 2,  # (not a view: no grad under no_grad)
}


def _base(lib, kind):
    w = lib.tensor(np.arange(12.0, dtype=np.float32).reshape(3, 4)[:, :3].copy(), requires_grad=True)
    return w if kind == "leaf" else w * 1


@pytest.mark.parametrize("base", ["leaf", "non-leaf"])
@pytest.mark.parametrize("view", list(VIEWS))
def test_a_no_grad_view_requires_grad_as_torchs(view, base):
    seen = []
    for lib in LIBS:
        w = _base(lib, base)
        with lib.no_grad():
            v = VIEWS[view](w)
        y = (v * 3).sum()
        record = (v.requires_grad, v.is_leaf, v.grad_fn is None, y.requires_grad)
        if y.requires_grad:
            record += (tuple(f is None for f, _ in y.grad_fn.next_functions[0][0].next_functions),)
            y.backward()
            record += (w.grad is None, v.grad is None)
        seen.append(record)
    assert seen[1] == seen[0]


@pytest.mark.parametrize("base", ["leaf", "non-leaf"])
@pytest.mark.parametrize("grad_mode", [True, False])
def test_modifying_a_no_grad_view_in_place(grad_mode, base):
    outcomes = []
    for lib in LIBS:
        w = _base(lib, base)
        with lib.no_grad():
            v = w[:2]
        with lib.set_grad_enabled(grad_mode):
            try:
                v.mul_(2)
                # (not its grad_fn: torch refuses to read that of a no_grad view modified in place; we give None)
                outcomes.append(("ok", v.requires_grad, w.detach().numpy().tolist()))
            except RuntimeError as e:
                outcomes.append(("raised", str(e)))
    assert outcomes[1] == outcomes[0]


def test_a_trace_under_no_grad_folds_matmul_as_torchs():
    # linear over a transposed 3-D input: the weight's t() requires grad even under no_grad, so matmul folds the
    # batch into one mm (a copy of the input) rather than expanding to bmm
    ops = []
    for lib, trace in ((torch, torch_make_fx), (minitorch2, make_fx)):
        weight, bias = lib.randn(6, 4, requires_grad=True), lib.randn(6, requires_grad=True)
        with lib.no_grad():
            gm = trace(lambda x, w, b: lib.nn.functional.linear(x.transpose(1, 0), w, b))(lib.randn(3, 5, 4), weight,
                                                                                         bias)
        ops.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
    assert ops[1] == ops[0]
    assert "aten.mm.default" in ops[0]
