"""An in-place activation on an intermediate or an input (nn.LeakyReLU(inplace=True) in DCGAN's discriminator, ELU)
traced by AOT with inductor's decompositions records what torch's does (issue 20): the functional op's
decomposition and no aten.copy, since torch functionalizes before it decomposes; values and gradients unchanged.
(hardtanh_ still differs: torch saves a clone of its input for the backward, and a copy stays here.)"""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import make_boxed_func as torch_boxed
from torch._inductor.decomposition import select_decomp_table as torch_table

import minitorch2
from autograd import aot_function, make_boxed_func
from backend.compile_fx import select_decomp_table

X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
W = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)

ACTIVATIONS = {
    "leaky_relu_ on an intermediate": lambda F, x, w: F.leaky_relu(x @ w, 0.2, inplace=True).sum(),
    "elu_ on an intermediate": lambda F, x, w: (F.elu(x @ w, inplace=True) * 2).sum(),
    "leaky_relu_ then a read of a view taken before": lambda F, x, w: _view_read(F, x @ w),
}


def _view_read(F, h):
    row = h[0]
    F.leaky_relu(h, 0.1, inplace=True)
    return (row * 3).sum() + h.sum()


def _run(lib, aot, table, boxed, fn):
    graphs = []

    def capture(gm, inputs):
        graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
        return boxed(gm.forward)

    x, w = lib.tensor(X), lib.tensor(W, requires_grad=True)
    loss = aot(lambda x, w: fn(lib.nn.functional, x, w), capture, capture, decompositions=table)(x, w)
    loss.backward()
    return graphs, round(loss.item(), 4), np.round(w.grad.numpy(), 4).tolist()


@pytest.mark.parametrize("fn", ACTIVATIONS.values(), ids=ACTIVATIONS)
def test_aot_graphs_values_and_gradients_match_torch(fn):
    ours = _run(minitorch2, aot_function, select_decomp_table(), make_boxed_func, fn)
    assert not any("aten.copy" in op for graph in ours[0] for op in graph)
    assert ours == _run(torch, torch_aot_function, torch_table(), torch_boxed, fn)


def test_an_input_mutated_by_an_in_place_activation_gets_its_new_value():
    def run(lib, aot, table, boxed):
        x = lib.tensor(X)
        f = aot(lambda x: lib.nn.functional.leaky_relu_(x, 0.3).sum(), boxed, boxed, decompositions=table)
        return round(f(x).item(), 5), x.numpy().round(5).tolist()

    assert run(minitorch2, aot_function, select_decomp_table(), lambda gm, _: make_boxed_func(gm.forward)) == \
        run(torch, torch_aot_function, torch_table(), lambda gm, _: torch_boxed(gm.forward))
