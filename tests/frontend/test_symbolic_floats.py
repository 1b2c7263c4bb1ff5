"""Floats that stay symbolic, against torch 2.13 run live: automatic dynamic floats, math on sizes, the AOT graphs
tensorify_python_scalars makes of them, and the resumed frame after a nonzero() break.

Each program is compiled on both libraries with a backend that records every graph's code and the frame's shape
guards (and, for AOT, the forward graphs aot_autograd makes); the records and the values must be torch's. Before
these features a float argument that changed was a constant in a graph of its own, math.sqrt(n) pinned n, and the
AOT graphs carried the floats as Python scalars.
"""
import math

import numpy as np
import pytest
import torch
import torch._dynamo
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd

import autograd
import frontend
import minitorch2


def normalize(x, eps):
    return x / (x.norm() + eps)


def branch_on_float(x, eps):
    y = x * eps
    if eps > 0.3:
        y = y + 1
    return y, eps * 2


def affine_float(x, eps):
    return x * (eps * 2 + 1)


def scale_by_sqrt(x):
    return x / math.sqrt(x.shape[-1])


def cos_of_size(x):
    return x * math.cos(x.shape[0]) + float(x.shape[1])


def sqrt_decides(x):
    return x * 2 if math.sqrt(x.shape[-1]) > 2.5 else x


def size_of_unused(x, y):
    return x.shape[0], y * 2


def count_positive_rows(x):
    idx = (torch if isinstance(x, torch.Tensor) else minitorch2).nonzero(x[:, 0] > 0)
    return idx.shape[0], x * 2


FLOAT_CALLS = [(np.ones(3, np.float32), e) for e in (0.5, 0.25, 0.75, 0.1)]
SIZE_CALLS = [(np.ones((4, n), np.float32),) for n in (9, 16, 4)]
ROW_CALLS = [(np.random.default_rng(i).standard_normal((n, 3)).astype(np.float32),) for i, n in enumerate((4, 4, 6))]
UNUSED_CALLS = [(np.ones((5, 2), np.float32), np.ones(3, np.float32))]


def _run(lib, fn, calls, dynamic, aot):
    """(graph codes, shape guards per frame, outputs) of fn compiled on lib over the calls."""
    codes, guards, outputs = [], [], []
    dynamo = torch._dynamo if lib is torch else frontend

    def forward(gm, example_inputs):
        codes.append(gm.code.strip())
        return gm

    def backend(gm, example_inputs):
        if not aot:
            codes.append(gm.code.strip())
            return gm.forward
        if lib is torch:
            return torch_aot_autograd(fw_compiler=forward)(gm, example_inputs)
        return autograd.aot_autograd(fw_compiler=forward)(gm, example_inputs)

    def export(guard_set):
        guards.append(sorted(code for g in guard_set if getattr(g, "kind", None) == "SHAPE_ENV" or (
            hasattr(g, "create_fn_name") and g.create_fn_name() == "SHAPE_ENV")
            for code in ((g.code_list or []) if hasattr(g, "code_list") else [g.code])))

    dynamo.reset()
    compiled = dynamo.optimize(backend, dynamic=dynamic, guard_export_fn=export)(fn)
    with lib.no_grad():
        for args in calls:
            out = compiled(*[lib.tensor(a) if isinstance(a, np.ndarray) else a for a in args])
            outputs.append([o.numpy() if hasattr(o, "numpy") else o for o in (out if isinstance(out, tuple) else [out])])
    dynamo.reset()
    return codes, guards, outputs


def _assert_same(fn, calls, dynamic, aot=False):
    theirs, ours = (_run(lib, fn, calls, dynamic, aot) for lib in (torch, minitorch2))
    assert ours[0] == theirs[0]
    if not aot:
        assert ours[1] == theirs[1]
    for got, want in zip(ours[2], theirs[2]):
        assert all(np.allclose(g, w, rtol=1e-6) for g, w in zip(got, want))


@pytest.mark.parametrize("fn", [normalize, branch_on_float])
@pytest.mark.parametrize("dynamic", [None, True])
def test_a_float_argument_is_a_tensor_input_read_with_item(fn, dynamic):
    _assert_same(fn, FLOAT_CALLS, dynamic)


@pytest.mark.parametrize("fn", [scale_by_sqrt, cos_of_size, sqrt_decides])
def test_math_on_sizes_stays_symbolic(fn):
    _assert_same(fn, SIZE_CALLS, True)


@pytest.mark.parametrize("fn, calls, dynamic", [(normalize, FLOAT_CALLS, None), (affine_float, FLOAT_CALLS, None),
                                                (scale_by_sqrt, SIZE_CALLS, True)])
def test_aot_computes_the_floats_as_tensors(fn, calls, dynamic):
    _assert_same(fn, calls, dynamic, aot=True)


@pytest.mark.parametrize("fn, calls", [(size_of_unused, UNUSED_CALLS), (count_positive_rows, ROW_CALLS)])
@pytest.mark.parametrize("dynamic", [True, False])
def test_inputs_only_measured_leave_the_graph(fn, calls, dynamic):
    """`x.shape[0]` alone is the size input, not x; nonzero's (n, 1) output keeps strides (1, n) in its fake, so the
    resumed frame does not recompile for the same row count."""
    _assert_same(fn, calls, dynamic)


@pytest.mark.parametrize("fn, calls", [(normalize, FLOAT_CALLS), (affine_float, FLOAT_CALLS),
                                       (scale_by_sqrt, SIZE_CALLS), (cos_of_size, SIZE_CALLS)])
def test_inductor_computes_eager_values(fn, calls):
    frontend.reset()
    compiled = minitorch2.compile(fn, backend="inductor", dynamic=None)
    for args in calls:
        args = [minitorch2.tensor(a) if isinstance(a, np.ndarray) else a for a in args]
        assert np.allclose(compiled(*args).numpy(), fn(*args).numpy(), rtol=1e-5, atol=1e-6)
    frontend.reset()


def fill_with_float(x, k):
    return x * k, (torch if isinstance(x, torch.Tensor) else minitorch2).full((2,), k)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_a_float_no_backend_takes_symbolically_becomes_a_constant(backend):
    """full's fill is a float tensorify has no tensor form for: the frame is translated again with the float a
    constant (Dynamo's restart), so each value computes its own (torch 2.13's inductor reuses 2.5's for 3.5)."""
    frontend.reset()
    compiled = minitorch2.compile(fill_with_float, backend=backend)
    for k in (1.5, 2.5, 3.5, 2.5):
        got = compiled(minitorch2.ones(2), k)
        assert got[0].tolist() == [k, k] and got[1].tolist() == [k, k]
    frontend.reset()


def halve_int(x, n):
    return x * (n / 2.0)


def times_half_int(x, n):
    return x * (n * 0.5) + x * (n / 3)


def branch_on_half_int(x, n):
    return x + 1 if n / 2.0 > 1.2 else x - 1


def inverse_sqrt_of_size(x):
    return x * (1.0 / math.sqrt(x.shape[-1]))


INT_CALLS = [(np.ones(3, np.float32), n) for n in (3, 5, 7)]  # (an int argument that changes: a SymInt)


@pytest.mark.parametrize("fn, calls", [(halve_int, INT_CALLS), (times_half_int, INT_CALLS),
                                       (branch_on_half_int, INT_CALLS), (inverse_sqrt_of_size, SIZE_CALLS)])
@pytest.mark.parametrize("aot", [False, True])
def test_int_arguments_and_sizes_as_floats(fn, calls, aot):
    _assert_same(fn, calls, True, aot=aot)
