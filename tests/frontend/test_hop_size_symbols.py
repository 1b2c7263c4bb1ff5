"""autograd.Function bodies traced with dynamic=True, as Dynamo's subgraph tracer makes them: a tensor lifted into a
body brings its size symbols first (`forward(self, s77, s27, l_x_)`, the call passing them, the forward saving them,
the backward returning None for them), the backward's incoming gradient binds the symbols it has
(`sym_size_int = torch.ops.aten.sym_size.int(g, 0)`, which `x.shape[0]` reads there), and a size input a guard made
equal to another stays an input where the call passes it. The printed graphs (print_readable: the frame's and both
bodies', shapes and sources) and values and gradients under eager and aot_eager, against torch.

torch.cond is not in minitorch2 (no higher-order cond op): its bodies' size symbols are not covered here."""
import numpy as np
import pytest
import torch

import frontend
import minitorch2


def programs(lib):
    F = lib.autograd.Function

    class ScaleByRows(F):  # a size read in both bodies
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x.shape[0]

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.shape[0]

    class MulSaved(F):  # two inputs of their own sizes, both saved
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y.sum()

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y.sum(), (g * x).sum() * lib.ones_like(y)

    class Mean(F):  # a size in the backward only, a non-tensor ctx attribute
        @staticmethod
        def forward(ctx, x):
            ctx.n = x.shape[-1]
            return x.sum(-1) / x.shape[-1]

        @staticmethod
        def backward(ctx, g):
            return g.unsqueeze(-1).expand(-1, ctx.n) / ctx.n

    return {"scale_by_rows": (lambda x, y: ScaleByRows.apply(x).sum() + y.sum(), (4, 3), (5,)),
            "mul_saved": (lambda x, y: MulSaved.apply(x.sin(), y).sum(), (4, 3), (5,)),
            "mean": (lambda x, y: Mean.apply(x * 2).sum() + y.sum(), (4, 3), (5,))}


def _dynamo(lib):
    return torch._dynamo if lib is torch else frontend


def _run(lib, name, backend):
    _dynamo(lib).reset()
    fn, x_shape, y_shape = programs(lib)[name]
    graphs = []

    def record(gm, example_inputs):
        graphs.append(gm.print_readable(print_output=False))
        return gm.forward

    x = lib.arange(float(np.prod(x_shape))).reshape(x_shape).div(7).requires_grad_()
    y = lib.arange(float(np.prod(y_shape))).div(3).requires_grad_()
    out = lib.compile(fn, backend=record if backend == "eager" else backend, dynamic=True)(x, y)
    out.backward()
    return graphs, out.item(), x.grad.numpy().copy(), y.grad.numpy().copy()


NAME_DIFFS = {"mean": "a size the forward keeps on ctx (ctx.n = x.shape[-1]) is a backward input Dynamo names "
              "after the forward's read of it (getitem_1: Sym(s27)); ours after its symbol (s27)"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=NAME_DIFFS[n], strict=True))
                                  if n in NAME_DIFFS else n for n in sorted(programs(torch))])
def test_dynamo_graphs_match_torch(name):
    ours, theirs = _run(minitorch2, name, "eager"), _run(torch, name, "eager")
    assert ours[1] == pytest.approx(theirs[1], rel=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6)
    assert ours[0] == theirs[0]


@pytest.mark.parametrize("name", sorted(programs(torch)))
def test_aot_eager_values_and_gradients_match_torch(name):
    ours, theirs = _run(minitorch2, name, "aot_eager"), _run(torch, name, "aot_eager")
    assert ours[1] == pytest.approx(theirs[1], rel=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6)
