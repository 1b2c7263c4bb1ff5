"""Properties over the integer and ordering semantics session 31 probed, against torch 2.13: binary integer ops
(division, remainder, bitwise, shifts, wrapping arithmetic) over every integer dtype and values at its edges,
float -> integer casts of special and out-of-range values, and nan-aware orderings (max/min, sort, cumulative
extrema, maximum/fmax, clamp) over rows holding nan and infinities.

Eager runs compare with torch's eager; compiled runs with torch.compile's (the same backend) and draw fewer
examples. Left out: the differences test_probes_s31 leaves as strict xfails (tie-breaking in topk, kthvalue and
mode; the compiled sum/amax of signed zeros over a few elements; torch's scalar loops for short tensors), and,
compiled, integer division by zero (torch's compiled trunc division by zero kills the process: SIGFPE).
"""
import warnings

import torch
from hypothesis import assume, given, settings, strategies as st

import minitorch2
from tests.backend.test_fuzz_s30_inputs import _attempt
from tests.backend.test_probes_s30 import _reset

INT_DTYPES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-2**15, 2**15 - 1), "int32": (-2**31, 2**31 - 1),
              "int64": (-2**63, 2**63 - 1)}
INT_OPS = {
    "floordiv": lambda t, a, b: a // b, "mod": lambda t, a, b: a % b, "fmod": lambda t, a, b: t.fmod(a, b),
    "truncdiv": lambda t, a, b: t.div(a, b, rounding_mode="trunc"), "truediv": lambda t, a, b: a / b,
    "and": lambda t, a, b: a & b, "or": lambda t, a, b: a | b, "xor": lambda t, a, b: a ^ b,
    "lshift": lambda t, a, b: a << b, "rshift": lambda t, a, b: a >> b, "add": lambda t, a, b: a + b,
    "sub": lambda t, a, b: a - b, "mul": lambda t, a, b: a * b, "neg_abs": lambda t, a, b: (-a, a.abs(), ~a),
    "max_min": lambda t, a, b: (t.maximum(a, b), t.minimum(a, b), a.max(), a.argmin()),
    "floordiv_sum": lambda t, a, b: (a // b).sum(),
}
DIVISIONS = ("floordiv", "mod", "fmod", "truncdiv", "floordiv_sum")


def _edge_ints(dtype):
    lo, hi = INT_DTYPES[dtype]
    return st.one_of(st.sampled_from([lo, hi, 0, 1, -1 if lo else 2, lo + 1, hi - 1, 7, 8, 63, 64]),
                     st.integers(lo, hi), st.integers(max(lo, -70), min(hi, 70)))


@st.composite
def int_cases(draw):
    dtype = draw(st.sampled_from(sorted(INT_DTYPES)))
    a, b = (draw(st.lists(_edge_ints(dtype), min_size=1, max_size=6)) for _ in range(2))
    n = max(len(a), len(b))
    return dtype, (a * n)[:n] * 6, (b * n)[:n] * 6, draw(st.sampled_from(sorted(INT_OPS)))  # (>= 6: vector loops)


def _int_op(lib, dtype, a, b, op, backend):
    t = getattr(lib, dtype)
    f = lambda x, y: INT_OPS[op](lib, x, y)
    if backend:
        _reset(lib)
        f = lib.compile(f, backend=backend)
    return _attempt(lambda: f(lib.tensor(a, dtype=t), lib.tensor(b, dtype=t)))


def _check_int(case, backend=None):
    dtype, a, b, op = case
    assume(not (backend and op in DIVISIONS and 0 in b))
    assert _int_op(minitorch2, dtype, a, b, op, backend) == _int_op(torch, dtype, a, b, op, backend)


@settings(max_examples=120, deadline=None)
@given(int_cases())
def test_integer_ops_at_the_edges_in_eager(case):
    _check_int(case)


@settings(max_examples=10, deadline=None)
@given(int_cases(), st.sampled_from(["aot_eager", "inductor"]))
def test_integer_ops_at_the_edges_compiled(case, backend):
    _check_int(case, backend)


SPECIAL_FLOATS = [float("nan"), float("inf"), -float("inf"), -0.0, 0.5, -1.5, 127.5, -128.5, 255.9, 256.0, 300.7,
                  -300.7, 32768.0, 65504.0, 2.0**31, -2.0**31 - 7, 2.0**32 + 300, 2.0**63, 1e19, -1e300]
FLOAT_SOURCES = ["float64", "float32", "float16", "bfloat16"]
CAST_TARGETS = ["int8", "uint8", "int16", "int32", "int64", "bool"]


def _cast(lib, values, source, target, backend):
    f = lambda x: (x * 1).to(getattr(lib, target))
    if backend:
        _reset(lib)
        f = lib.compile(f, backend=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = lib.tensor(values, dtype=lib.float64).to(getattr(lib, source))
    return _attempt(lambda: f(x))


cast_inputs = (st.lists(st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(-1e4, 1e4)), min_size=1, max_size=8),
               st.sampled_from(FLOAT_SOURCES), st.sampled_from(CAST_TARGETS))


@settings(max_examples=80, deadline=None)
@given(*cast_inputs)
def test_float_to_integer_casts_in_eager(values, source, target):
    assert _cast(minitorch2, values, source, target, None) == _cast(torch, values, source, target, None)


@settings(max_examples=8, deadline=None)
@given(*cast_inputs)
def test_float_to_integer_casts_compiled(values, source, target):
    values = (values * 64)[:64]  # (longer than torch's vector loop: its scalar loop casts otherwise)
    assert _cast(minitorch2, values, source, target, "inductor") == _cast(torch, values, source, target, "inductor")


ORDER_VALUES = [float("nan"), float("inf"), -float("inf"), 1.0, 2.0, -3.0, 0.5]
ORDER_OPS = {
    "max_min": lambda t, x: (x.max(1), x.min(1), x.amax(1), x.argmax(1), x.argmin(1), x.max()),
    "sort": lambda t, x: (x.sort(1), x.argsort(dim=1, stable=True),
                          x.sort(1, descending=True).values),
    "cumulative": lambda t, x: (x.cummax(1), x.cummin(1)),
    "pairwise": lambda t, x: (t.maximum(x, x.flip(1)), t.fmin(x, x.flip(1)), t.where(x > x.flip(1), x, x.flip(1))),
    "clamp": lambda t, x: (x.clamp(min=x[:, :1]), x.clamp(max=float("nan")), x.clamp(-1.0, 1.0)),
    "median": lambda t, x: (x.median(1).values, x.nanmedian(1).values, x.msort()),
}


def _order(lib, rows, op, backend):
    f = lambda x: ORDER_OPS[op](lib, x)
    if backend:
        _reset(lib)
        f = lib.compile(f, backend=backend)
    return _attempt(lambda: f(lib.tensor(rows)))


order_inputs = (st.lists(st.lists(st.sampled_from(ORDER_VALUES), min_size=12, max_size=12), min_size=1, max_size=3),
                st.sampled_from(sorted(ORDER_OPS)))


@settings(max_examples=60, deadline=None)
@given(*order_inputs)
def test_nan_orderings_in_eager(rows, op):
    assert _order(minitorch2, rows, op, None) == _order(torch, rows, op, None)


@settings(max_examples=8, deadline=None)
@given(*order_inputs, st.sampled_from(["aot_eager", "inductor"]))
def test_nan_orderings_compiled(rows, op, backend):
    assert _order(minitorch2, rows, op, backend) == _order(torch, rows, op, backend)
