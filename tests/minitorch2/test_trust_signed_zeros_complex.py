"""Signed zeros and complex Python numbers in the eager runtime and compiled, checked against torch (the Trust
issue's values slice, continued from test_trust_values.py).

max/min/clamp and remainder give torch's sign of zero, eager and compiled; complex Python numbers are computed in
complex, not truncated.
"""
import math
import warnings

import numpy as np
import pytest

import minitorch2 as mt

from .test_trust_values import _values, assert_same_outcome

torch = pytest.importorskip("torch")


# ================================================================== 7, 8. the sign of zero
_ZERO_PAIRS = [(0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0), (1.0, float("nan")), (float("nan"), -0.0), (-1.0, 2.0)]

SIGNED_ZERO_CASES = {
    "maximum": lambda L, a, b: L.maximum(a, b),
    "minimum": lambda L, a, b: L.minimum(a, b),
    "max binary": lambda L, a, b: L.max(a, b),
    "clamp min tensor": lambda L, a, b: L.clamp(a, min=b),
    "clamp max tensor": lambda L, a, b: L.clamp(a, max=b),
    "clamp min scalar": lambda L, a, b: L.clamp(a, min=b[0].item()),
    "clamp max scalar": lambda L, a, b: L.clamp(a, max=b[0].item()),
    "clamp_min": lambda L, a, b: L.clamp_min(a, b[0].item()),
    "relu": lambda L, a, b: L.relu(a),
    "remainder": lambda L, a, b: L.remainder(a * 3, b + 3) if b[0].item() == b[0].item() else L.remainder(a, 3.0),
    "remainder by negative": lambda L, a, b: L.remainder(a * 3, -3.0),
    "fmod": lambda L, a, b: L.fmod(a * 3, -3.0),
}


def _pair(L, a, b, n=4, dtype="float32"):
    """n copies (ATen's vectorised loops start at 16 elements of float32, where its tie rule is not
    one rule; below, every torch op is the scalar loop's)."""
    dtype = getattr(L, dtype)
    return L.full((n,), a, dtype=dtype), L.full((n,), b, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("pair", _ZERO_PAIRS, ids=repr)
@pytest.mark.parametrize("case", list(SIGNED_ZERO_CASES))
def test_sign_of_zero_as_torch(case, pair, dtype):
    assert_same_outcome(lambda L: SIGNED_ZERO_CASES[case](L, *_pair(L, *pair, dtype=dtype)))


def test_remainder_zero_keeps_the_dividends_sign():
    for a, b in [(-0.0, -3.0), (0.0, -3.0), (-0.0, 3.0), (3.0, -3.0), (-3.0, 3.0), (-6.0, -3.0), (-1.0, math.inf)]:
        assert_same_outcome(lambda L: L.tensor([a]) % b)
        assert_same_outcome(lambda L: L.remainder(L.tensor([a], dtype=L.float64), L.tensor([b], dtype=L.float64)))


REDUCTION_ROWS = [[-0.0, 0.0], [0.0, -0.0], [-0.0, 0.0, 0.0], [0.0, -0.0, -0.0], [1.0, -0.0, 0.0, -1.0],
                  [-0.0, -1.0, 0.0], [-0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0]]


@pytest.mark.parametrize("row", REDUCTION_ROWS, ids=repr)
@pytest.mark.parametrize("op", ["amax", "amin", "max", "min", "max dim", "min dim", "amax keepdim 2d"])
def test_extremum_sign_of_zero_as_torch(op, row):
    """amax/amin/max.dim keep the first of the tied zeros, max()/min() of everything the last, as
    ATen's kernels below their vectorised width."""
    calls = {
        "amax": lambda L, x: L.amax(x), "amin": lambda L, x: L.amin(x),
        "max": lambda L, x: L.max(x), "min": lambda L, x: L.min(x),
        "max dim": lambda L, x: L.max(x, 0).values, "min dim": lambda L, x: L.min(x, 0).values,
        "amax keepdim 2d": lambda L, x: L.amax(L.stack([x, x.flip(0)]), 1, keepdim=True),
    }
    assert_same_outcome(lambda L: calls[op](L, L.tensor(row)))


@pytest.mark.parametrize("codegen", ["numpy_ref", "llvm", "triton"])
def test_sign_of_zero_compiled_as_eager(codegen):
    if codegen == "triton":
        pytest.importorskip("triton")
    import backend
    import frontend

    def f(a, b):  # (no reduction: a compiled max reduction keeps llvm.maximum's zero order so it vectorizes,
        # as torch's own compiled and vectorized reductions break eager's tie rule too)
        # remainder is not here: compiled, it is torch.compile's a - (a // b) * b (test_probes_s29.py)
        return mt.maximum(a, b), mt.minimum(a, b), mt.clamp(a, min=0.0), mt.clamp(a, max=-0.0), mt.relu(a)

    saved = backend.config.cpu_codegen
    backend.config.cpu_codegen = codegen
    frontend.reset()
    try:
        for pair in _ZERO_PAIRS:
            a, b = _pair(mt, *pair)
            compiled = mt.compile(f)(a, b)
            # (the LLVM kernels' maximum, minimum and clamp take the second of tied zeros, as torch's compiled code
            # does where its eager kernels take the first: tests/backend/test_probes_s28.py checks them against it)
            skip = 4 if codegen == "llvm" else 0
            for got, want in list(zip(compiled, f(a, b)))[skip:]:
                assert _values(got, mt) == _values(want, mt), (codegen, pair)
    finally:
        backend.config.cpu_codegen = saved
        frontend.reset()


# ================================================================== 2. complex Python numbers
COMPLEX_CASES = {
    "mul": lambda L, x: x * (1 + 0j),
    "add": lambda L, x: x + 1j,
    "radd": lambda L, x: 1j + x,
    "pow": lambda L, x: x ** 1j,
    "where": lambda L, x: L.where(x > 0, x, 1j),
    "full": lambda L, x: L.full((2,), 1j),
    "fill_": lambda L, x: x.clone().fill_(2j),
    "setitem": lambda L, x: x.clone().__setitem__(0, 1j),
    "tensor": lambda L, x: L.tensor([1j]),
    "tensor scalar": lambda L, x: L.tensor(1 + 2j),
    "numpy complex128 scalar": lambda L, x: x * np.complex128(1j),
    "dtype=complex": lambda L, x: x.to(complex),
}


@pytest.mark.parametrize("case", list(COMPLEX_CASES))
def test_complex_numbers_compute_in_complex_not_truncated(case):
    """torch computes these in complex64/complex128; minitorch2 must too, never dropping the imaginary part (it
    used to, with numpy's ComplexWarning; then refused them while it had no complex dtypes)."""
    results = []
    for lib in (mt, torch):
        x = lib.tensor([1.0, 2.0])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy's ComplexWarning would mean a truncation
            try:
                out = COMPLEX_CASES[case](lib, x)
            except RuntimeError as e:  # (torch refuses a complex fill of a real tensor: ours must too)
                results.append((type(e).__name__, str(e)))
                continue
        results.append((str(out.dtype), np.asarray(out.tolist(), dtype=complex)))
    assert results[0][0] == results[1][0]
    np.testing.assert_equal(results[0][1], results[1][1])


def test_a_numpy_complex64_scalar_is_not_truncated():
    """torch reads np.complex64(1j) as a real number (x * np.complex64(1j) is tensor([0., 0.]), with numpy's
    ComplexWarning): a silent truncation minitorch2 does not reproduce; it computes as for np.complex128."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (mt.tensor([1.0, 2.0]) * np.complex64(1j)).tolist() == [1j, 2j]


def test_complex_numbers_under_compile_are_torchs():
    import frontend  # (as the tests above: the frontend only where a test compiles)

    for fn in (lambda x: x * (1 + 0j), lambda x: (x + 1) + 1j):
        frontend.reset()
        got = mt.compile(fn)(mt.tensor([1.0, 2.0]))
        want = fn(torch.tensor([1.0, 2.0]))
        assert str(got.dtype) == str(want.dtype) and got.tolist() == want.tolist()
