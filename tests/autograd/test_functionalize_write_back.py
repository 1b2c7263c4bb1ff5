"""Functionalization's write-back table: how an in-place op through a view reaches the view's parent,
one row of autograd.functionalize._WRITE_BACK per view op, compared with torch's functionalization."""
import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import functionalize
from autograd.functionalize import _WRITE_BACK
from autograd.proxy_tensor import make_fx


def test_every_view_op_has_a_write_back_row():
    """An op tagged `view` without a row would fail only when a program mutates through it."""
    views = {op for op in minitorch2.ops.aten.overloads() if op.is_view}
    assert views and views <= set(_WRITE_BACK), sorted(map(str, views - set(_WRITE_BACK)))


def _write_through(view):
    def f(x):
        y = x * 2
        v = view(y)
        v.mul_(3)
        return y.sin(), v.cos()

    return f


VIEWS = {
    "slice": lambda y: y[1:3],
    "select": lambda y: y[:, 2],
    "permute": lambda y: y.permute(1, 0),
    "split_dim1": lambda y: y.split(4, 1)[1],
    "split_with_sizes": lambda y: y.split([1, 3])[1],
    "unbind_dim1": lambda y: y.unbind(1)[2],
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_write_back_uses_torchs_scatter_and_computes_its_values(name):
    f = _write_through(VIEWS[name])
    data = np.random.default_rng(0).standard_normal((4, 6)).astype(np.float32)

    def scatters(gm):
        return [n.target.__name__ for n in gm.graph.nodes if n.op == "call_function" and "scatter" in str(n.target)]

    ours = make_fx(functionalize(f))(minitorch2.from_numpy(data))
    theirs = torch_make_fx(torch.func.functionalize(f))(torch.from_numpy(data))
    assert scatters(ours) == scatters(theirs)
    for got, expected in zip(ours(minitorch2.from_numpy(data)), theirs(torch.from_numpy(data))):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
