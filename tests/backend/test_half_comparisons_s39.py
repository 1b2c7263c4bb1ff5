"""Compiled comparisons of a 16-bit float tensor with a Python number, against torch.compile and eager.

Eager compares `x > 0.3` for a float16 x in float16: the number is rounded to the tensor's dtype first (0.30005),
and torch's inductor rounds it the same way (its comparison lowerings). Ours compared the loaded value, upcast to
float32, with the unrounded number, so a compiled `x > 0.3` was True where eager's is False (and `x == 0.3` False
where eager's is True); softshrink and hardshrink, whose decompositions compare with their threshold, gave 0.30005
where torch.compile gives 0. Arithmetic keeps the number unrounded in both (`x - 0.3` is 4.88e-05)."""
import numpy as np
import pytest
import torch

import frontend
import minitorch2

NUMBERS = (0.3, -0.3, 0.1, 1 / 3, 2049, -2049, 65519.0, 65521.0, 7e4, 1e-8, 3.0e38, -0.0)


def comparisons(x):
    outs = []
    for c in NUMBERS:
        outs += [x > c, x >= c, x < c, x <= c, x == c, x != c, c < x, c == x]
    return tuple(outs)


def shrinks_and_arithmetic(T):
    F = T.nn.functional
    return lambda x: (F.softshrink(x, 0.3), F.hardshrink(x, 0.3), F.hardshrink(x, 1 / 3), x - 0.3, x * 0.1,
                      T.where(x.abs() > 0.3, x, x * 2), x.clamp(max=0.3))


def _inputs(T, dtype_name):
    values = [float(v) for c in NUMBERS for v in (c, np.float16(c) if dtype_name == "float16" else c)]
    rng = np.random.default_rng(0)
    values += list(rng.uniform(-1, 1, 40)) + [float("nan"), float("inf"), -float("inf"), 0.0]
    return T.tensor(values, dtype=getattr(T, dtype_name))


def _run(T, fn, dtype_name, compiled):
    if compiled:
        (torch._dynamo.reset if T is torch else frontend.reset)()
        fn = T.compile(fn)
    return [out.float().numpy() if out.dtype != T.bool else out.numpy() for out in fn(_inputs(T, dtype_name))]


def program(T):
    shrinks = shrinks_and_arithmetic(T)
    return lambda x: (T.stack(comparisons(x)), *shrinks(x))


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
def test_compiled_comparisons_with_numbers_round_as_torchs(dtype_name):
    ours = _run(minitorch2, program(minitorch2), dtype_name, compiled=True)
    theirs = _run(torch, program(torch), dtype_name, compiled=True)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_array_equal(a, b, err_msg=f"output {k}")
    eager = _run(minitorch2, program(minitorch2), dtype_name, compiled=False)
    np.testing.assert_array_equal(ours[0], eager[0], err_msg="the comparisons against eager's")
