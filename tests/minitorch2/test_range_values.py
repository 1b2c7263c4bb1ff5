"""arange and linspace give torch's values bit for bit (minitorch2/_aten/range_values.py), against torch.

ATen's range kernels round through fused multiply-adds and fill SIMD vectors from their first value, so a
textbook `start + i * step` differs in the last bit for about one value in ten; these properties draw the
ranges scripts write (float starts and steps, negative steps, long ranges cut into thread chunks).
"""
import numpy as np
import pytest
import torch
from hypothesis import given, strategies as st

import minitorch2

FINITE = st.floats(-1e4, 1e4, allow_nan=False, allow_subnormal=False)
STEPS = st.sampled_from([0.1, 0.01, 0.3, 1.7, -0.7, 2.5, 1 / 3]) | st.floats(-10, 10).filter(lambda s: abs(s) > 1e-3)


@given(start=FINITE, step=STEPS, n=st.integers(1, 300), dtype=st.sampled_from([None, "float32", "float64"]))
def test_float_arange(start, step, n, dtype):
    end = start + step * n
    ours = minitorch2.arange(start, end, step, **({"dtype": getattr(minitorch2, dtype)} if dtype else {}))
    theirs = torch.arange(start, end, step, **({"dtype": getattr(torch, dtype)} if dtype else {}))
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_a_long_arange_split_into_thread_chunks():
    for args in [(0.5, 70000.5, 1.0), (-3.3, 5000.0, 0.07)]:
        np.testing.assert_array_equal(minitorch2.arange(*args).numpy(), torch.arange(*args).numpy())


@given(start=FINITE, end=FINITE, steps=st.integers(0, 300),
       dtype=st.sampled_from(["float32", "float64", "int64", "int32", "float16"]))
def test_linspace(start, end, steps, dtype):
    if dtype == "float16":
        start, end = start / 10, end / 10
    ours = minitorch2.linspace(start, end, steps, dtype=getattr(minitorch2, dtype))
    theirs = torch.linspace(start, end, steps, dtype=getattr(torch, dtype))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_linspace_with_int_ends_of_an_int_dtype_truncates_them_first():
    for lib in (minitorch2, torch):
        assert lib.linspace(1.9, 10.9, 4, dtype=lib.int64).tolist() == [1, 4, 7, 10]


@given(start=st.floats(-6, 6), end=st.floats(-6, 6), steps=st.integers(0, 80),
       base=st.sampled_from([10.0, 2.0, 2.718281828459045, 3.5]), dtype=st.sampled_from(["float32", "float64"]))
def test_logspace(start, end, steps, base, dtype):
    ours = minitorch2.logspace(start, end, steps, base=base, dtype=getattr(minitorch2, dtype))
    theirs = torch.logspace(start, end, steps, base=base, dtype=getattr(torch, dtype))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("call", ["L.logspace(1, 0, 4, dtype=L.uint8)", "L.logspace(2, 0, 3, dtype=L.int8)",
                                  "L.logspace(0, 3, 4, dtype=L.bool)", "L.linspace(0, 3, 4, dtype=L.bool)"])
def test_logspace_and_linspace_of_narrow_integers_and_bools(call):
    """Found (session 36): logspace over a narrow integer type subtracted its ends in that type (uint8's 0 - 1 wrapped
    to 255), where C++ promotes them to int; a bool linspace / logspace computed where torch has no kernel."""
    outcomes = []
    for L in (torch, minitorch2):
        try:
            outcomes.append(eval(call, {"L": L}).tolist())
        except NotImplementedError as error:
            outcomes.append(str(error).split("\n")[0])
    assert outcomes[0] == outcomes[1]
