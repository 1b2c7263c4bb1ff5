"""Cases a removed special case of the backend used to take, now on the general path, checked against real torch.

Through `backend.compile_fx` on every code generator: argmax/argmin over the whole tensor with keepdim (once a 0-d
reduction viewed as [1, ...]), slices whose bounds fall outside the dim or cross (once slice.indices), views with a
-1 (once infer_size). Each also checks the graph was compiled without falling back to eager.
"""
import numpy as np
import pytest
import torch

import backend
import minitorch2 as mt
from tests.backend.codegens import codegen_fixture
from tests.backend.test_backend_edge_cases import Fn

codegen = codegen_fixture(autouse=True)


def check(fn, *arrays):
    """fn(mt) compiled against fn(torch) eagerly: values, dtypes and shapes; no fallback."""
    before = len(backend.metrics.graphs)
    ours = backend.compile_fx.compile_fx(Fn(lambda *xs: fn(mt, *xs)), [mt.from_numpy(a.copy()) for a in arrays])(
        *[mt.from_numpy(a.copy()) for a in arrays])
    expected = fn(torch, *[torch.from_numpy(a.copy()) for a in arrays])
    ours, expected = (ours, expected) if isinstance(expected, tuple) else ((ours,), (expected,))
    for o, e in zip(ours, expected):
        assert tuple(o.shape) == tuple(e.shape) and str(o.dtype) == str(e.dtype), (o.shape, e.shape, o.dtype, e.dtype)
        np.testing.assert_array_equal(o.numpy(), e.numpy())
    assert all(g.fallbacks == [] for g in backend.metrics.graphs[before:])


@pytest.mark.parametrize("shape", [(3, 4), (2, 1, 5), ()])
def test_arg_reductions_over_everything_keep_their_dims(shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    check(lambda lib, t: (lib.argmax(t, keepdim=True), lib.argmin(t, keepdim=True)), x)


def test_slices_with_bounds_past_the_dim_or_crossing():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    check(lambda lib, t: (t[-10:2], t[1:-9], t[3:1], t[:, 4:100:3], t[:, -100:-2:2], t[2:2] * 2), x)


def test_views_with_a_minus_one():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    check(lambda lib, t: (t.view(-1, 3) + 1, t.view(2, -1, 4) * 2, t[:0].view(-1, 6) + 1), x)


def test_negative_dims_of_split_unbind_and_select_scatter():
    x, src = np.arange(24, dtype=np.float32).reshape(4, 6), np.ones(4, dtype=np.float32)
    check(lambda lib, t, s: (*[p + 1 for p in t.split(4, -1)], *[p * 2 for p in t.unbind(-1)],
                             lib.select_scatter(t, s, -1, -2), lib.select_scatter(t, s * 3, -1, 0)), x, src)
