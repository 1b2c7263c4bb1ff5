"""arange with an integer dtype and float bounds or step, against torch: values, lengths and errors.

ATen reads each Scalar into the kernel's accumulate type (int64 for every integer dtype), so the values are
`trunc(start) + i * trunc(step)`; an int64 range counts its length from those truncated numbers, any other integer
dtype from the floats. Until session 38 ours stepped by the float step and rounded each value
(`arange(0, 5, 1.5, dtype=int64)` gave [0, 1, 3, 4] where torch gives [0, 1, 2, 3, 4]).
"""
import itertools

import numpy as np
import pytest
import torch

import frontend
import minitorch2

BOUNDS = [0, 0.5, -2.5, 5.9, 3.2, -0.5, 1e-3, True]
ENDS = [5, 5.5, 3.7, -2.2, 0.2, 0.5, 300.7, 2 ** 40 + 0.5]
STEPS = [1, 1.5, 1.9, -1.5, -1, 0.1, 0.7, 2, 100.2, 2 ** 39]
DTYPES = ["int64", "int32", "int16", "int8", "uint8", "float32"]
CASES = [c for c in itertools.product(BOUNDS, ENDS, STEPS) if abs((c[1] - c[0]) / c[2]) < 10_000]


def outcome(lib, start, end, step, dtype):
    try:
        result = lib.arange(start, end, step, dtype=getattr(lib, dtype))
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e)
    return str(result.dtype), result.tolist()


@pytest.mark.parametrize("dtype", DTYPES)
def test_arange_of_float_scalars_into_an_integer_dtype_is_torchs(dtype):
    differing = [(case, ours, theirs) for case in CASES
                 if (ours := outcome(minitorch2, *case, dtype)) != (theirs := outcome(torch, *case, dtype))]
    assert not differing, f"{len(differing)} of {len(CASES)} differ, e.g. {differing[:3]}"


def test_compiled_arange_of_float_scalars_matches_eager():
    def f(x, start, step):
        return x + minitorch2.arange(start, 5.5, step, dtype=minitorch2.int64)

    frontend.reset()
    compiled = minitorch2.compile(f, backend="aot_eager")
    for start, step in [(0.5, 1.5), (-2.5, 1.9), (0.0, 1.5)]:
        expected = torch.arange(start, 5.5, step, dtype=torch.int64)
        got = compiled(minitorch2.zeros(len(expected), dtype=minitorch2.int64), start, step)
        np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_compiled_arange_of_changing_float_bounds_specializes_them(dtype):
    # Dynamo's second graph sizes it with CeilToInt/TruncToInt of float symbols; ours guards each float's value
    # (one graph per value: more recompiles, the same values) where sympy's gcd over Floats used to recurse forever
    def f(x, start, step):
        return x + minitorch2.arange(start, 5.5, step, dtype=getattr(minitorch2, dtype))

    frontend.reset()
    compiled = minitorch2.compile(f, backend="eager")
    for start, step in [(0.5, 1.5), (-2.5, 1.9), (0.0, 1.5), (0.5, 1.5)]:
        expected = torch.arange(start, 5.5, step, dtype=getattr(torch, dtype))
        got = compiled(minitorch2.zeros(len(expected), dtype=getattr(minitorch2, dtype)), start, step)
        np.testing.assert_array_equal(got.numpy(), expected.numpy())
