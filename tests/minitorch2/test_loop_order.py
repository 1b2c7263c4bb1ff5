"""In-place ops whose written-to tensor overlaps an input (or itself) in ways ATen's overlap check lets through:
eager minitorch2 must leave the same memory as torch's loop (minitorch2/_aten/loop_order.py), against torch.

The property draws what users write to get there: windows of one base shifted against each other (`b[1:, 1:]`
against `b[:-1, :-1]`), strided and transposed windows, `as_strided` views that overlap themselves, a broadcast
row of the same base, rows long enough for ATen's vectorized loop; with ops of one, two and three inputs.
"""
import numpy as np
import pytest
import torch
from hypothesis import given, strategies as st

import minitorch2

OPS = {
    "add_": lambda out, src: out.add_(src),
    "sub_ alpha": lambda out, src: out.sub_(src, alpha=2),
    "mul_": lambda out, src: out.mul_(src),
    "copy_": lambda out, src: out.copy_(src),
    "addcmul_": lambda out, src: out.addcmul_(src, src, value=0.5),
    "lerp_": lambda out, src: out.lerp_(src, 0.25),
    "clamp_min_ then add_": lambda out, src: out.clamp_(min=1).add_(src),
}


def _windows(lib, dtype, rows, cols, shift, step, transpose, broadcast):
    base = lib.arange(rows * cols, dtype=dtype).reshape(rows, cols)
    view = base.t() if transpose else base
    out = view[shift[0]:, shift[1]::step]
    src = view[:view.shape[0] - shift[0], :view.shape[1] - shift[1]:step]
    return base, out, (src[0] if broadcast else src)


@given(rows=st.integers(2, 5), cols=st.integers(2, 40), shift=st.tuples(st.integers(0, 1), st.integers(0, 2)),
       step=st.integers(1, 2), transpose=st.booleans(), broadcast=st.booleans(), op=st.sampled_from(sorted(OPS)),
       dtype=st.sampled_from(["float32", "float64", "int64"]))
def test_shifted_windows_of_one_base(rows, cols, shift, step, transpose, broadcast, op, dtype):
    if dtype == "int64" and op in ("lerp_", "addcmul_"):
        return  # float-only ops
    results = []
    for lib in (minitorch2, torch):
        base, out, src = _windows(lib, getattr(lib, dtype), rows, cols, shift, step, transpose, broadcast)
        try:
            OPS[op](out, src)
            results.append(base.numpy().copy())
        except RuntimeError as error:
            results.append(type(error).__name__ + str(error).split(".")[0])
    if isinstance(results[1], str):
        assert results[0] == results[1]
    else:
        np.testing.assert_array_equal(results[0], results[1])


@given(size=st.integers(2, 6), stride=st.integers(1, 3), offset=st.integers(0, 3), op=st.sampled_from(["mul_", "add_"]))
def test_a_view_that_overlaps_itself(size, stride, offset, op):
    """as_strided windows whose rows share elements (`(n, n)` with strides `(stride, 1)`, stride < n); exact
    ops, so that only the order shows (a transcendental's last bit is another matter)."""
    results = []
    for lib in (minitorch2, torch):
        base = lib.linspace(0.0, 1.0, 40, dtype=lib.float64)
        view = base.as_strided((size, size), (stride, 1), offset)
        view.mul_(1.5) if op == "mul_" else view.add_(1.0)
        results.append(base.numpy().copy())
    np.testing.assert_array_equal(*results)


@pytest.mark.parametrize("cols", [3, 17, 19, 40])
def test_a_row_prefix_sum_through_its_own_shifted_window(cols):
    """Within one row the dependency is one element apart: ATen's vectorized loop reads blocks of 16 floats at
    once (two AVX2 vectors) and the rest one by one, so the sums restart at each block."""
    results = []
    for lib in (minitorch2, torch):
        b = lib.ones(2, cols)
        b[:, 1:].add_(b[:, :-1])
        results.append(b.numpy())
    np.testing.assert_array_equal(*results)


def test_a_dense_partial_overlap_is_still_refused_with_torchs_message():
    for lib in (minitorch2, torch):
        b = lib.ones(5)
        with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
            b[1:].add_(b[:-1])


def test_the_write_bumps_the_version_once_and_keeps_autograd():
    leaf = minitorch2.ones(3, 3, requires_grad=True)
    b = leaf * 1
    version = b._version
    b[1:, 1:].add_(b[:-1, :-1])
    assert b._version == version + 1
    b.sum().backward()
    theirs_leaf = torch.ones(3, 3, requires_grad=True)
    theirs = theirs_leaf * 1
    theirs[1:, 1:].add_(theirs[:-1, :-1])
    theirs.sum().backward()
    np.testing.assert_array_equal(b.detach().numpy(), theirs.detach().numpy())
    np.testing.assert_array_equal(leaf.grad.numpy(), theirs_leaf.grad.numpy())
