"""backend/codegen/llvm.py: hand-built elementwise loop-IR kernels, compiled by LLVM, against numpy and torch.

Every kernel here is written directly in loop IR (no lowering or scheduling),
so a failure points at code generation alone. float32 transcendentals are
measured in ulps against numpy's float64 result rounded to float32; integer
and special-value semantics are compared with torch on CPU. Loop structure,
reductions, threads and caches are in test_llvm_loops.py.
"""
import numpy as np
import pytest
import scipy.special
import torch

from backend import loop_ir as L
from backend.codegen import llvm as codegen
from minitorch2 import _dtype as dt

from .llvm_kernel_helpers import (TORCH_DTYPES, arg, cache_and_seed_fixture, has_float_vectors, optimized_ir, pointwise,
                                  run_arrays, run_pointwise, torch_result, x0)

RNG = np.random.default_rng(0)  # reseeded for every test by the fixture
private_cache_and_seed = cache_and_seed_fixture(__name__)


# ---- float32 transcendentals: accuracy in ulps over a dense sweep ------------------------------

SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1.17549435e-38, 1e-30, 1e-10,
                     1e-7, 1e-4, 0.1, 0.5, 0.625, 0.9999, 1.0, 1.0001, 2.0, 3.9, 4.0, 9.0, 10.0, 20.0, 44.0,
                     87.0, 88.72, 88.73, 89.0, 100.0, 103.9, 104.0, 1e10, 3.4e38], np.float32)


def sweep(low_exponent=-40, high_exponent=38, n=200_000):
    """Random float32 values of both signs spread over many orders of magnitude, plus the specials."""
    magnitudes = 10.0 ** RNG.uniform(low_exponent, high_exponent, n)
    uniform = RNG.uniform(-12, 12, n)
    values = np.concatenate([magnitudes * RNG.choice([-1, 1], n), uniform, SPECIALS, -SPECIALS])
    return values.astype(np.float32)


def sigmoid64(x):
    return scipy.special.expit(x)


FLOAT32_REFERENCES = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "log1p": np.log1p, "expm1": np.expm1,
    "tanh": np.tanh, "erf": scipy.special.erf, "sigmoid": sigmoid64, "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "reciprocal": lambda x: 1 / x,
}
# others: 2 ulps. Measured worst: sigmoid 2.5, expm1 2.4, log1p 2.2; erf 5.5 and tanh 5.2 (one rational
# function each, traded for speed: a relative error of 3.3e-7, a quarter of float32's rtol of 1.3e-6)
ULP_BUDGET = {"sigmoid": 3, "expm1": 3, "log1p": 3, "erf": 6, "tanh": 6}


def ulp_error(actual, expected64):
    expected = expected64.astype(np.float32)
    both_nan = np.isnan(actual) & np.isnan(expected)
    same = (actual == expected) | both_nan
    spacing = np.spacing(np.abs(expected).astype(np.float32)).astype(np.float64)
    with np.errstate(invalid="ignore"):
        errors = np.abs(actual.astype(np.float64) - expected64) / spacing
    return np.where(same, 0.0, np.nan_to_num(errors, nan=np.inf))


@pytest.mark.parametrize("op", sorted(FLOAT32_REFERENCES))
def test_float32_unary_accuracy(op):
    x = sweep()
    with np.errstate(all="ignore"):
        expected = FLOAT32_REFERENCES[op](x.astype(np.float64))
    errors = ulp_error(run_pointwise(op, [x], dt.float32), expected)
    worst = int(np.argmax(errors))
    assert errors[worst] <= ULP_BUDGET.get(op, 2), (op, x[worst], errors[worst])


def test_float32_exp2_and_log2_are_exact_at_powers_of_two():
    powers = np.arange(-149, 128)
    assert run_pointwise("log2", [np.ldexp(1.0, powers).astype(np.float32)], dt.float32).tolist() == powers.tolist()
    np.testing.assert_array_equal(run_pointwise("exp2", [powers.astype(np.float32)], dt.float32),
                                  np.ldexp(1.0, powers).astype(np.float32))


@pytest.mark.parametrize("op", ["exp", "log", "tanh", "erf", "sigmoid", "log1p", "expm1", "exp2", "log2", "sin"])
def test_float64_unary_matches_libm(op):
    x = sweep(-300, 300, 20_000).astype(np.float64) * RNG.uniform(0.5, 1.5, 40_070)
    with np.errstate(all="ignore"):
        expected = FLOAT32_REFERENCES[op](x)
    np.testing.assert_allclose(run_pointwise(op, [x], dt.float64), expected, rtol=1e-13, atol=0)


@pytest.mark.speed_wing  # (plain, the transcendentals are calls to libm, which the vectorizer cannot widen)
def test_transcendental_inner_loops_vectorize():
    for op in ("exp", "tanh", "erf", "sigmoid", "log"):
        kernel = codegen.compile_kernel(pointwise(f"vec_{op}", op, [dt.float32], dt.float32, 4096))
        assert has_float_vectors(optimized_ir(kernel)), op


# ---- everything else elementwise, against torch ---------------------------------------------

FLOAT_INPUT = np.array([0.0, -0.0, 1.5, -1.5, 2.5, -2.5, 0.5, -0.49, 7.0, -7.0, 1e30, -1e-30, np.inf, -np.inf,
                        np.nan, 3.0, -3.0, 1e-40], np.float32)


def values_for(dtype, n=257):
    if dtype is dt.bool_:
        return RNG.integers(0, 2, n).astype(bool)
    if dtype.is_floating_point:
        return np.concatenate([FLOAT_INPUT, RNG.normal(0, 10, n)]).astype(dtype.np)
    info = np.iinfo(dtype.np)
    edges = np.array([0, 1, -1, 7, -7, info.min, info.max, 100, -100], np.int64)
    edges = edges[(edges >= info.min) & (edges <= info.max)]
    return np.concatenate([edges, RNG.integers(max(info.min, -1000), min(info.max, 1000), n)]).astype(dtype.np)


UNARY_TORCH = {
    "neg": torch.neg, "abs": torch.abs, "floor": torch.floor, "ceil": torch.ceil, "trunc": torch.trunc,
    "round": torch.round, "sign": torch.sign, "relu": torch.relu, "logical_not": torch.logical_not,
    "bitwise_not": torch.bitwise_not, "isnan": torch.isnan, "isinf": torch.isinf,
}
FLOAT_ONLY = {"floor", "ceil", "trunc", "round"}
BOOL_RESULT = {"logical_not", "isnan", "isinf"}


def unary_cases():
    for op in UNARY_TORCH:
        for dtype in (dt.float32, dt.float64, dt.int32, dt.int64, dt.int8, dt.uint8, dt.bool_):
            if dtype is dt.bool_ and op not in ("logical_not", "bitwise_not", "isnan", "isinf"):
                continue
            if op == "bitwise_not" and dtype.is_floating_point:
                continue
            if dtype is dt.uint8 and op in ("neg", "sign", "relu"):
                continue
            yield op, dtype


@pytest.mark.parametrize("op,dtype", list(unary_cases()))
def test_unary_ops_match_torch(op, dtype):
    x = values_for(dtype)
    out_dtype = dt.bool_ if op in BOOL_RESULT else dtype
    expected = torch_result(UNARY_TORCH[op], x)
    np.testing.assert_array_equal(run_pointwise(op, [x], out_dtype), expected)


BINARY_TORCH = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "truediv": torch.true_divide,
    "floordiv": torch.floor_divide, "pow": torch.pow,
    # torch's compiled float remainder (its C++ kernels): a - (a // b) * b, eager's // and no fmod
    "remainder": lambda a, b: a - torch.floor_divide(a, b) * b if a.is_floating_point() else torch.remainder(a, b),
    "maximum": torch.maximum, "minimum": torch.minimum, "atan2": torch.atan2,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    "logical_and": torch.logical_and, "logical_or": torch.logical_or, "bitwise_and": torch.bitwise_and,
    "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor,
}
COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or"}


def binary_cases():
    for op in BINARY_TORCH:
        for dtype in (dt.float32, dt.float64, dt.int32, dt.int64, dt.uint8, dt.bool_):
            if op.startswith("bitwise") and dtype.is_floating_point:
                continue
            if op in ("truediv", "atan2") and not dtype.is_floating_point:
                continue
            if dtype is dt.bool_ and op not in COMPARISONS and not op.startswith("bitwise") and op not in (
                    "maximum", "minimum"):
                continue
            yield op, dtype


def binary_operands(op, dtype):
    x, y = values_for(dtype), values_for(dtype)[::-1].copy()
    if op == "pow" and not dtype.is_floating_point:
        x, y = x % 5 - (2 if dtype.is_signed else 0), y % 7 - (2 if dtype.is_signed else 0)
        x, y = x.astype(dtype.np), y.astype(dtype.np)
    if op in ("floordiv", "remainder") and not dtype.is_floating_point:
        y = np.where(y == 0, 3, y).astype(dtype.np)  # torch raises on integer division by zero
    if op in ("floordiv", "remainder") and dtype is dt.float32:
        y = np.where(np.abs(y) < 1e-30, 1, y).astype(dtype.np)  # torch's x - y*floor(x/y) overflows there
    return x, y


@pytest.mark.parametrize("op,dtype", list(binary_cases()))
def test_binary_ops_match_torch(op, dtype):
    x, y = binary_operands(op, dtype)
    out_dtype = dt.bool_ if op in COMPARISONS else dtype
    expected = torch_result(BINARY_TORCH[op], x, y)
    actual = run_pointwise(op, [x, y], out_dtype)
    if dtype.is_floating_point and op in ("pow", "atan2", "truediv", "floordiv", "remainder"):
        np.testing.assert_allclose(actual, expected, rtol=2e-6 if dtype is dt.float32 else 1e-14, atol=0)
    else:
        np.testing.assert_array_equal(actual, expected)


FLOAT16_OPS = {"exp": torch.exp, "tanh": torch.tanh, "erf": torch.erf, "sigmoid": torch.sigmoid,
               "log": torch.log, "sqrt": torch.sqrt, "sin": torch.sin, "neg": torch.neg, "abs": torch.abs,
               "floor": torch.floor, "add": torch.add, "mul": torch.mul, "truediv": torch.true_divide,
               "maximum": torch.maximum, "pow": torch.pow,
               "remainder": lambda a, b: BINARY_TORCH["remainder"](a.float(), b.float()).half()}


@pytest.mark.parametrize("op", sorted(FLOAT16_OPS))
def test_float16_ops_round_like_torch(op):
    """half in memory and registers; math in float32 rounded once: within one half ulp of torch."""
    operands = [values_for(dt.float16), values_for(dt.float16)[::-1].copy()]
    arity = 1 if op in UNARY_TORCH or op in FLOAT32_REFERENCES else 2
    with np.errstate(all="ignore"):
        actual = run_pointwise(op, operands[:arity], dt.float16)
    expected = torch_result(FLOAT16_OPS[op], *operands[:arity])
    np.testing.assert_allclose(actual.astype(np.float32), expected.astype(np.float32), rtol=1e-3, atol=1e-7)


def test_integer_division_by_zero_raises_like_torch_instead_of_trapping():
    x = np.array([5, -5, np.iinfo(np.int64).min, 0], np.int64)
    y = np.array([2, 3, -1, -4], np.int64)  # INT_MIN // -1 would trap on x86 too
    assert run_pointwise("floordiv", [x, y], dt.int64).tolist() == [2, -2, np.iinfo(np.int64).min, 0]
    for op in ("floordiv", "remainder"):
        for dtype in (np.int64, np.int32, np.uint8):
            with pytest.raises(RuntimeError, match="ZeroDivisionError"):
                run_pointwise(op, [np.array([1, 2, 3], dtype), np.array([1, 0, 1], dtype)], dt.from_numpy(dtype))
    # the flag is per launch: the next run of the same kernel succeeds
    assert run_pointwise("remainder", [x, y], dt.int64).tolist() == [1, 1, 0, 0]


def test_zero_division_flag_only_in_kernels_that_divide_integers():
    text_float = codegen.compile_kernel(pointwise("k_fdiv", "floordiv", [dt.float32] * 2, dt.float32, 4)).llvm_ir
    text_int = codegen.compile_kernel(pointwise("k_idiv", "floordiv", [dt.int32] * 2, dt.int32, 4)).llvm_ir
    assert "%zero_division" not in text_float and "ptr noalias %zero_division)" in text_int


CAST_DTYPES = [dt.float16, dt.float32, dt.float64, dt.int64, dt.int32, dt.int8, dt.uint8, dt.bool_]


@pytest.mark.parametrize("source", [d for d in CAST_DTYPES if d is not dt.int8])
@pytest.mark.parametrize("target", CAST_DTYPES)
def test_casts_match_torch(source, target):
    x = values_for(source)
    if source.is_floating_point and not target.is_floating_point and target is not dt.bool_:
        x = x[np.isfinite(x) & (np.abs(x) < 1e9)]  # out-of-range float->int is undefined in torch
    kernel = codegen.compile_kernel(pointwise("cast", "to_dtype", [source], target, x.size))
    out = np.empty(x.size, target.np)
    run_arrays(kernel, x, out)
    np.testing.assert_array_equal(out, torch.from_numpy(x.copy()).to(TORCH_DTYPES[target]).numpy())


def test_where_selects_per_element():
    a, b = values_for(dt.float32, 100), values_for(dt.float32, 100)[::-1].copy()
    n = a.size
    condition = RNG.integers(0, 2, n).astype(bool)
    kernel = L.Kernel("where", [arg("c", dt.bool_, n), arg("a", dt.float32, n), arg("b", dt.float32, n),
                                arg("out", dt.float32, n, "out")],
                      L.Loop(("x0",), (n,), [L.Store("out", x0, L.Op("where", (
                          L.Load("c", x0, dt.bool_), L.Load("a", x0, dt.float32), L.Load("b", x0, dt.float32)),
                          dt.float32))]))
    out = np.empty(n, np.float32)
    run_arrays(codegen.compile_kernel(kernel), condition, a, b, out)
    np.testing.assert_array_equal(out, np.where(condition, a, b))
