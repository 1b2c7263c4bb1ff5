"""A custom autograd.Function called in a compiled frame: values and gradients as torch.compile's.

Dynamo traces Function.apply as its autograd_function_apply higher-order op, and so does minitorch2 (graphs and
counters: test_autograd_function_hop.py); recorded as a plain call, its backward would be lost: a straight-through
estimator's gradient would silently become the forward's derivative."""
import numpy as np
import pytest
import torch

import frontend
import minitorch2


def _functions(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    class RoundStraightThrough(lib.autograd.Function):  # backward is not the forward's derivative
        @staticmethod
        def forward(ctx, x):
            return x.round()

        @staticmethod
        def backward(ctx, g):
            return g

    class Cube(lib.autograd.Function):  # torch 2's form: forward without ctx, then setup_context
        @staticmethod
        def forward(x):
            return x ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    def f(x):
        y = x.sin()
        return Scale.apply(y, 2.0).sum() + RoundStraightThrough.apply(x * 3).sum() + Cube.apply(y + 1).sum()
    return f


def _run(lib, backend):
    (torch._dynamo if lib is torch else frontend).reset()
    x = lib.tensor([0.3, 1.7, -2.2], requires_grad=True)
    y = lib.compile(_functions(lib), backend=backend)(x)
    y.backward()
    return y.item(), x.grad.numpy().copy()


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_compiled_custom_functions_give_torchs_values_and_gradients(backend):
    theirs, ours = _run(torch, backend), _run(minitorch2, backend)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)


def test_fullgraph_captures_the_custom_functions_in_one_graph_as_torch():
    counts = []
    for lib, dynamo in ((torch, torch._dynamo), (minitorch2, frontend)):
        dynamo.reset()
        graphs = []
        x = lib.tensor([0.3, 1.7, -2.2], requires_grad=True)
        lib.compile(_functions(lib), fullgraph=True, backend=lambda gm, ex: graphs.append(gm) or gm)(x).backward()
        counts.append((len(graphs), sum(n.op.startswith("call") for n in graphs[0].graph.nodes), x.grad.tolist()))
    assert counts[0][:2] == counts[1][:2]
    np.testing.assert_allclose(counts[1][2], counts[0][2], rtol=1e-6)
