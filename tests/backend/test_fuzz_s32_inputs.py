"""Properties over what session 32 probed, against torch 2.13: pointwise expressions of a tensor holding nan, inf
and signed zeros with Python constants that are nan, inf, -0.0, 0 or ordinary numbers (the constant folded into the
graph, or read as an argument that a recompile makes dynamic), reductions over a dimension of size zero chosen by an
int argument, and inputs that are views of one base (offsets, overlaps, the same tensor twice).

Eager runs compare with torch's eager; compiled runs with torch.compile's (the same backend) and draw fewer
examples. Left out: the differences test_probes_s32 leaves as strict xfails (0.0 reusing a graph specialized to
-0.0; the compiled mean of var_mean over no elements; x * 0 under dynamic shapes).
"""
import math

import torch
from hypothesis import given, settings, strategies as st

import minitorch2
from tests.backend.test_fuzz_s30_inputs import _attempt
from tests.backend.test_probes_s30 import _reset

SPECIAL = [math.nan, math.inf, -math.inf, -0.0, 0.0, 0, 1, -1, 2, 0.5, -2.5, 1e38]
BINARY = {
    "add": lambda t, x, c: x + c, "sub": lambda t, x, c: c - x, "mul": lambda t, x, c: x * c,
    "div": lambda t, x, c: x / c, "rdiv": lambda t, x, c: c / x, "pow": lambda t, x, c: x ** c,
    "rpow": lambda t, x, c: c ** x, "clamp_min": lambda t, x, c: x.clamp(min=c), "clamp_max": lambda t, x, c: x.clamp(max=c),
    "where": lambda t, x, c: t.where(x > 0, x, c), "where_const": lambda t, x, c: t.where(x.isnan(), c, x * 2),
    "lt": lambda t, x, c: x < c, "eq": lambda t, x, c: x == c, "ne": lambda t, x, c: x != c,
    "fmod": lambda t, x, c: t.fmod(x, c), "remainder": lambda t, x, c: t.remainder(x, c),
    "full": lambda t, x, c: t.full_like(x, c) - x, "nan_to_num": lambda t, x, c: x.nan_to_num(c, c, c),
    "copysign": lambda t, x, c: t.copysign(x, c), "maximum": lambda t, x, c: t.maximum(x, t.tensor(c, dtype=x.dtype)),
}
UNARY_AFTER = {"none": lambda x: x, "neg": lambda x: -x, "abs": lambda x: x.abs(), "exp": lambda x: x.exp(),
               "sum": lambda x: x.sum()}
values = st.lists(st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.0, 1.0, -1.0, 2.5, -3.0, 1e-39]),
                  min_size=1, max_size=5)


def _pointwise(lib, xs, c, op, after, dtype, backend, as_argument):
    t = getattr(lib, dtype)
    if as_argument:
        f = lambda x, k: UNARY_AFTER[after](BINARY[op](lib, x * 1, k))
    else:
        f = lambda x: UNARY_AFTER[after](BINARY[op](lib, x * 1, c))
    if backend:
        _reset(lib)
        f = lib.compile(f, backend=backend)
    x = lib.tensor(xs * 4, dtype=t)  # (>= 4 copies: the vector loops)
    return _attempt(lambda: [f(x, k) for k in (c, 1.5, c)] if as_argument else f(x))


@st.composite
def pointwise_cases(draw):
    return (draw(values), draw(st.sampled_from(SPECIAL)), draw(st.sampled_from(sorted(BINARY))),
            draw(st.sampled_from(sorted(UNARY_AFTER))), draw(st.sampled_from(["float32", "float64"])))


def _check_pointwise(case, backend=None, as_argument=False):
    xs, c, op, after, dtype = case
    assert _pointwise(minitorch2, xs, c, op, after, dtype, backend, as_argument) == \
        _pointwise(torch, xs, c, op, after, dtype, backend, as_argument)


@settings(max_examples=40, deadline=None)
@given(pointwise_cases())
def test_constants_eager(case):
    _check_pointwise(case)


@settings(max_examples=12, deadline=None)
@given(pointwise_cases(), st.booleans())
def test_constants_aot_eager(case, as_argument):
    _check_pointwise(case, "aot_eager", as_argument)


@settings(max_examples=2, deadline=None)
@given(pointwise_cases())
def test_constants_inductor(case):
    _check_pointwise(case, "inductor")


REDUCTIONS = {
    "sum": lambda t, x, d: x.sum(d), "mean": lambda t, x, d: x.mean(d), "amax": lambda t, x, d: x.amax(d),
    "argmin": lambda t, x, d: x.argmin(d), "prod": lambda t, x, d: x.prod(d), "var": lambda t, x, d: x.var(d),
    "std0": lambda t, x, d: x.std(d, correction=0), "logsumexp": lambda t, x, d: x.logsumexp(d),
    "softmax": lambda t, x, d: x.softmax(d), "norm": lambda t, x, d: x.norm(dim=d), "nansum": lambda t, x, d: x.nansum(d),
    "count_nonzero": lambda t, x, d: t.count_nonzero(x, d), "max": lambda t, x, d: x.max(d),
    "cumsum": lambda t, x, d: x.cumsum(d), "all": lambda t, x, d: (x > 0).all(d), "aminmax": lambda t, x, d: t.aminmax(x, dim=d),
}


def _reduced(lib, shape, op, dims, backend):
    f = lambda x, d: REDUCTIONS[op](lib, x * 2, d)
    if backend:
        _reset(lib)
        f = lib.compile(f, backend=backend)
    x = lib.arange(float(math.prod(shape))).view(shape) % 3 - 1
    return [_attempt(lambda: f(x, d)) for d in dims]


@st.composite
def reduction_cases(draw):
    shape = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3).filter(lambda s: 0 in s))
    dims = draw(st.lists(st.integers(-len(shape), len(shape) - 1), min_size=1, max_size=3))
    return shape, draw(st.sampled_from(sorted(REDUCTIONS))), dims


@settings(max_examples=30, deadline=None)
@given(reduction_cases())
def test_reductions_over_empty_dims_eager(case):
    assert _reduced(minitorch2, *case, None) == _reduced(torch, *case, None)


@settings(max_examples=10, deadline=None)
@given(reduction_cases())
def test_reductions_over_empty_dims_aot_eager(case):  # (a dim that changes is made dynamic, then pinned)
    assert _reduced(minitorch2, *case, "aot_eager") == _reduced(torch, *case, "aot_eager")


def _views(lib, start, length, step, op, backend):
    base = lib.arange(24.0) - 7
    a, b = base[start:start + length:step], base[start // 2:start // 2 + length:step]
    f = lambda u, v: (u.mul_(2), v + u, (u * v).sum()) if op == "mutate" else (u + v, u * v.flip(0), (u - v).abs().sum())
    if backend:
        _reset(lib)
        f = lib.compile(f, backend=backend)
    return _attempt(lambda: (f(a, b if op != "same" else a), base))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10), st.integers(1, 8), st.integers(1, 2), st.sampled_from(["mutate", "read", "same"]),
       st.sampled_from([None, "aot_eager"]))
def test_views_of_one_base(start, length, step, op, backend):
    assert _views(minitorch2, start, length, step, op, backend) == _views(torch, start, length, step, op, backend)
