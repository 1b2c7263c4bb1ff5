"""Every dtype's edge values through the unary functions, reductions and Python operators, against torch.

An enumerated grammar: for each dtype a tensor of its edge values (its extremes, -1, 0 and -0., nan, inf, a
subnormal), each function of FUNCTIONS, and each operator of OPERATORS with Python numbers at the int extremes
(2**63 - 1, -2**63, 2**64), nan, inf, -0. and True, on both sides and as a 0-d tensor. Both libraries must give
the same dtype, shape and values (to a few units in the last place of the dtype), or the same error class (and,
for torch's RuntimeError and NotImplementedError, its message).

What it found (session 37):
- complex tensors: amax/amin/aminmax, median/mode/kthvalue/topk/cummax, round, erf/erfc/lgamma/digamma/i0, logit,
  xlogy, heaviside, deg2rad, signbit, nansum, isposinf, bitwise_not and the in-place floor_/ceil_/trunc_/relu_/
  sign_ were computed (or failed inside numpy with a TypeError) where torch refuses them;
- complex var/std/var_mean/std_mean and the vector and matrix norms were refused where torch computes them (a
  real result); cov of complex rows left out the conjugate (a silently wrong covariance); float_power of a complex
  tensor dropped its imaginary part (float64 where torch gives complex128); complex ** tensor raised a TypeError;
  nan_to_num left a complex tensor's nan and inf parts;
- a float16 renorm of large values gave zeros (the norm overflowed: torch's is computed in float32);
- a float32 cumsum/cumprod accumulated in float32 where ATen's CPU kernel accumulates in double: a cumsum of 10**5
  numbers was off by 1e-5 relative; var_mean's and std_mean's float32 statistics likewise;
- gcd of a complex tensor never returned (Euclid's loop over complex remainders);
- lgamma of a subnormal float was inf (scipy's gammaln); bincount of a float or bool tensor gave another error;
- a Python float divisor of div_(n, rounding_mode=...) and the first operand of floor_divide/remainder/div were
  rounded to float32 (0.3 // a float64 tensor of 0.1 gave 3.0; torch 2.0); torch.fmod(number, tensor) computed where
  torch's parser refuses it;
- isclose of integer tensors subtracted in their dtype (int8: -128 was "close" to 0, 127 to -1), and of bools
  ignored the tolerances; complex pow to a negative integer was refused; complex lerp and logsumexp were missing.
- torch.tensor([2**63, 1]) wrapped the int into int64 silently (numpy read the list as floats; torch refuses the
  int), a NumPy float scalar went into an integer or bool dtype (torch's parser refuses it), arange(np.int8(-128), 5)
  was empty (the bounds' arithmetic wrapped in int8), arange(-2**63, 5) too (torch: an overflowing size), arange of
  bools was float32 (torch: int64) and arange with dtype=bool or complex computed;
- F.rms_norm of halves squared in float16 (65504 overflowed: zeros) with float16's eps (torch: float32's, 10**4
  times smaller), and recorded other ops than torch's composite (pow, add_, the casts);
- x.roll(torch.tensor(1)) raised (a 0-d tensor is the int it holds); put_/put of a number gave AttributeError.
Not matched (NUMBERS beyond int64, as 2**64, take other paths in torch's parser: a double for nan_to_num, a
ValueError for setitem); KNOWN_NUMBER_METHODS lists the rest, each with its reason.
"""
import math
import warnings

import numpy as np
import pytest
import torch

import minitorch2

DTYPES = ["int8", "uint8", "int16", "int32", "int64", "bool", "float16", "bfloat16", "float32", "float64",
          "complex64"]
NAN, INF = float("nan"), float("inf")
EDGE_VALUES = {
    "int8": [-128, -1, 0, 5, 127], "uint8": [0, 1, 200, 255], "int16": [-32768, -3, 0, 7, 32767],
    "int32": [-2**31, -7, 0, 3, 2**31 - 1], "int64": [-2**63, -5, 0, 9, 2**63 - 1], "bool": [True, False, True],
    "float16": [-65504., -1.5, 0., 2.5, 65504., 1e-7], "bfloat16": [-1e38, -1.5, 0., 2.5, 3e38],
    "float32": [-3.4e38, -1.5, -0., 2.5, NAN, INF, 1e-40], "float64": [-1e308, -1.5, -0., 2.5, NAN, -INF, 5e-324],
    "complex64": [1 + 2j, -0., complex(NAN, 1), complex(INF, 0)],
}

FUNCTIONS = [
    "x.abs()", "x.neg()", "x.sign()", "x.sgn()", "x.sqrt()", "x.exp()", "x.log()", "x.log1p()", "x.expm1()",
    "x.sin()", "x.tanh()", "x.sigmoid()", "x.relu()", "x.floor()", "x.ceil()", "x.round()", "x.trunc()", "x.frac()",
    "x.reciprocal()", "x.rsqrt()", "x.square()", "x.bitwise_not()", "x.logical_not()", "x.isnan()", "x.isinf()",
    "x.isfinite()", "x.signbit()", "x.nan_to_num()", "x.sum()", "x.prod()", "x.mean()", "x.cumsum(0)",
    "x.cumprod(0)", "x.max()", "x.min()", "x.amax()", "x.argmax()", "x.std()", "x.var()", "x.norm()", "x.all()",
    "x.any()", "x.count_nonzero()", "x.nansum()", "x.logsumexp(0)", "x.softmax(0)", "x.sort(0)", "x.unique()",
    "x.clamp(0, 1)", "x.pow(2)", "x.exp2()", "x.erf()", "x.lgamma()", "x.digamma()", "x.atan()", "x.asin()",
    "x.positive()", "x.fix()", "x.deg2rad()", "x.i0()", "x.sinc()", "x.logit()", "torch.xlogy(x, x.flip(0))",
    "torch.float_power(x, x.flip(0))", "x.clone().square_()", "x.clone().abs_()", "x.clone().neg_()",
    "x.clone().sign_()", "x.clone().sqrt_()", "x.clone().floor_()", "x.clone().reciprocal_()",
    "x.clone().clamp_(min=0)", "x.clone().cumsum_(0)", "x.round(decimals=2)", "x.div(3, rounding_mode='floor')",
    "x.div(-3, rounding_mode='trunc')", "x.remainder(-3)", "x.fmod(-3)", "torch.heaviside(x, x.flip(0))",
    "torch.copysign(x, x.flip(0))", "torch.hypot(x, x.flip(0))", "torch.ldexp(x, x.flip(0))",
    "torch.gcd(x, x.flip(0))", "x.float()", "x.int()", "x.bool()", "x.half()", "x.long()", "x[0].item()",
    "x.tolist()", "x.median()", "x.mode()", "x.kthvalue(1)", "x.topk(2)", "torch.msort(x)", "torch.diff(x)",
    "torch.histc(x, bins=4)", "torch.bincount(x)", "x.cummax(0)", "x.reshape(1, -1).renorm(2, 0, 1.)",
    "torch.var_mean(x)", "torch.aminmax(x)", "x.nanmean()", "x.quantile(0.3)", "torch.isposinf(x)",
    "torch.linalg.vector_norm(x, 1)", "torch.std_mean(x)", "torch.cov(x)", "torch.nn.functional.rms_norm(x, x.shape)",
    "torch.nn.functional.rms_norm(x * 1e-3, x.shape)",
]
# (the values differ where torch's C++ complex arithmetic gives nan for an infinite or zero part and numpy's not)
VALUES_DIFFER = {("complex64", "x.reciprocal()"), ("complex64", "x.clone().reciprocal_()"),
                 ("complex64", "torch.float_power(x, x.flip(0))"), ("complex64", "torch.diff(x)")}
# (the same error class, another message: torch names an internal kernel minitorch2 has no counterpart of)
MESSAGES_DIFFER = {("bool", "x.clone().cumsum_(0)"), ("bool", "torch.histc(x, bins=4)"),
                   ("complex64", "torch.histc(x, bins=4)"), ("complex64", "x.round(decimals=2)"),
                   ("float32", "torch.histc(x, bins=4)"), ("float64", "torch.histc(x, bins=4)")}

OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "==", ">="]
NUMBERS = [0, -1, 2, 128, -129, 2**31, 2**63 - 1, -2**63, 2**64, NAN, INF, -0.0, -2.5, 0.3, True, 1e-45]
# (a Python number as the first operand of a function: torch wraps it in a tensor of the op's dtype)
NUMBER_FIRST = ["torch.floor_divide(n, x)", "torch.remainder(n, x)", "torch.div(n, x, rounding_mode='trunc')",
                "torch.div(n, x, rounding_mode='floor')", "torch.true_divide(n, x)", "torch.sub(n, x)",
                "torch.pow(n, x)", "torch.atan2(n, x)" , "torch.fmod(n, x)", "torch.maximum(n, x)"]

# (a unit in the last place, relative: the libraries' math functions round differently in the last bit)
_RTOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 1e-6, "float64": 1e-13, "complex64": 1e-6,
         "complex128": 1e-13}


def outcome(T, dtype, expression, number=None):
    x = T.tensor(EDGE_VALUES[dtype], dtype=getattr(T, dtype))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _plain(T, eval(expression, {"torch": T, "x": x, "n": number}))
    except Exception as e:  # noqa: BLE001 (the error is the outcome)
        return ("error", type(e).__name__, str(e).split("\n")[0])


def _plain(T, result):
    if isinstance(result, T.Tensor):
        values = np.asarray(result.tolist(), dtype=complex if result.dtype.is_complex else None)
        return ("tensor", str(result.dtype).split(".")[-1], tuple(result.shape), values)
    if isinstance(result, (tuple, list)) and any(isinstance(r, T.Tensor) for r in result):
        return ("tuple", tuple(_plain(T, r) for r in result))
    return ("value", result)


def assert_same(ours, theirs, where, rtol=None):
    """`rtol` None: a few units in the last place of the result's dtype (atol covers the subnormals)."""
    assert ours[0] == theirs[0], (where, ours, theirs)
    if ours[0] == "tuple":
        for a, b in zip(ours[1], theirs[1], strict=True):
            assert_same(a, b, where, rtol)
    elif ours[0] == "error":
        assert ours[1] == theirs[1], (where, ours, theirs)
        if theirs[1] in ("RuntimeError", "NotImplementedError") and where not in MESSAGES_DIFFER:
            assert ours[2] == theirs[2], (where, ours, theirs)
    elif ours[0] == "value" and isinstance(theirs[1], str):
        assert ours[1] == theirs[1], (where, ours, theirs)
    elif ours[0] == "value":
        assert _close(np.asarray(ours[1], dtype=complex), np.asarray(theirs[1], dtype=complex), 1e-6), \
            (where, ours, theirs)
    else:
        assert ours[1:3] == theirs[1:3], (where, ours, theirs)
        assert _close(ours[3], theirs[3], rtol or _RTOL.get(theirs[1], 0)), (where, ours, theirs)


def _close(a, b, rtol):
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        return np.array_equal(a, b)
    return np.allclose(a, b, rtol=rtol, atol=1e-300 if rtol < 1e-12 else 1e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_functions_of_edge_values(dtype):
    for expression in FUNCTIONS:
        if (dtype, expression) not in VALUES_DIFFER:
            assert_same(outcome(minitorch2, dtype, expression), outcome(torch, dtype, expression),
                        (dtype, expression))


@pytest.mark.parametrize("dtype", DTYPES[:-1])
def test_operators_with_python_numbers_at_the_extremes(dtype):
    expressions = [form for op in OPERATORS for form in (f"x {op} n", f"n {op} x", f"x {op} torch.tensor(n)")]
    for expression in expressions + NUMBER_FIRST:
        for number in NUMBERS:
            assert_same(outcome(minitorch2, dtype, expression, number), outcome(torch, dtype, expression, number),
                        (dtype, expression, number))


# methods taking a Python number (in place on a clone, and the out-of-place ones beside them)
NUMBER_METHODS = [
    "x.add_(n)", "x.sub_(n, alpha=2)", "x.mul_(n)", "x.div_(n)", "x.div_(n, rounding_mode='floor')", "x.clamp_(n)",
    "x.clamp_(max=n)", "x.fill_(n)", "x.masked_fill_(x != x, n)", "x.index_fill_(0, torch.tensor([0]), n)",
    "x.pow_(n)", "x.fmod_(n)", "x.remainder_(n)", "x.lerp_(x.flip(0), n)", "x.addcmul_(x, x, value=n)",
    "x.copysign_(n)", "x.new_full((2,), n)", "torch.full((2,), n, dtype=x.dtype)", "x.eq_(n)", "x.lt_(n)",
    "x.where(x != x, n)", "torch.where(x != x, n, x)", "x.clamp_min(n)", "x.masked_fill(x == x, n)",
    "torch.add(x, n, alpha=n)", "x.scatter_(0, torch.tensor([0]), n)", "x.index_put_((torch.tensor([0]),), "
    "torch.tensor(n))", "torch.clamp(x, min=n, max=n)", "x.nan_to_num(nan=n)", "torch.isclose(x, torch.full_like(x, n))",
    "torch.isclose(x, torch.full_like(x, n), atol=2)", "x.new_tensor(n)", "torch.tensor([n], dtype=x.dtype)",
    "torch.full_like(x, n)", "x.__setitem__(0, n)",
]
KNOWN_NUMBER_METHODS = {
    # torch refuses the cast into bool before its kernel sees the zero divisor (test_inplace_dtype_pairs_s36's xfail)
    **{("bool", f"x.{m}_(n)", 0): "cast order" for m in ("fmod", "remainder")},
    ("bool", "x.div_(n, rounding_mode='floor')", 0): "cast order",
    # ATen's vectorised lerp is one fused multiply-add: (end - self) * 2 does not overflow there
    **{(d, "x.lerp_(x.flip(0), n)", -1): "fma" for d in ("float32", "float64")},
    # C++ complex arithmetic: 1 * (inf + 0j) is inf + nanj, and 0 ** -1 is inf + nanj (numpy: nan + nanj)
    ("complex64", "x.add_(n)", INF): "complex inf", ("complex64", "x.pow_(n)", -1): "complex zero",
}


@pytest.mark.parametrize("dtype", DTYPES)
def test_methods_with_python_numbers(dtype):
    for expression in NUMBER_METHODS:
        statement = expression.replace("x.", "x.clone().", 1) if expression.startswith("x.") else expression
        for number in NUMBERS:
            if number != 2**64 and (dtype, expression, number) not in KNOWN_NUMBER_METHODS:  # (2**64: see below)
                assert_same(outcome(minitorch2, dtype, statement, number), outcome(torch, dtype, statement, number),
                            (dtype, expression, number))


def test_a_float32_scan_accumulates_in_double():
    values = np.random.default_rng(0).standard_normal(100_000).astype(np.float32)
    for expression in ("x.cumsum(0)", "(x[:300] * 0.01 + 1).cumprod(0)", "torch.var_mean(x)", "torch.std_mean(x)",
                       "x.var()", "x.reshape(100, -1).std(1)"):
        ours = eval(expression, {"torch": minitorch2, "x": minitorch2.tensor(values)})
        theirs = eval(expression, {"torch": torch, "x": torch.tensor(values)})
        for a, b in zip(*((r if isinstance(r, tuple) else (r,)) for r in (ours, theirs)), strict=True):
            np.testing.assert_array_equal(np.asarray(a.tolist()), b.numpy(), err_msg=expression)


COMPLEX_PROGRAMS = [
    "z.var()", "z.std(dim=1)", "torch.var_mean(z, 0)", "torch.std_mean(z, dim=1, correction=0, keepdim=True)",
    "z.var(0, correction=3)", "z.norm()", "torch.linalg.norm(z)", "torch.linalg.vector_norm(z, 1, dim=1)",
    "torch.linalg.vector_norm(z, float('inf'))", "torch.linalg.vector_norm(z, 3, dim=0, keepdim=True)",
    "torch.linalg.vector_norm(z, 0)", "torch.linalg.matrix_norm(z)", "torch.nn.functional.normalize(z, dim=1)",
    "torch.renorm(z, 2, 0, 1.0)", "torch.cov(z)", "torch.cov(z, correction=0)", "torch.corrcoef(z)",
    "torch.float_power(z, 2)", "torch.float_power(z.real, z)", "z.real ** z", "z ** z.real",
    "torch.float_power(z.real, 1j)", "torch.nan_to_num(z / 0)", "z ** -1", "z.pow(-2)", "z.lerp(z.flip(0), 0.3)",
    "torch.lerp(z, z.flip(0), 0.7)", "z.logsumexp(1)", "torch.logsumexp(z, (0, 1))",
]


@pytest.mark.parametrize("program", COMPLEX_PROGRAMS)
def test_complex_statistics_and_powers(program):
    def run(T):
        g = T.Generator().manual_seed(0)
        z = T.complex(T.randn(3, 4, generator=g), T.randn(3, 4, generator=g))
        return _plain(T, eval(program, {"torch": T, "z": z}))

    assert_same(run(minitorch2), run(torch), program, rtol=2e-5)


@pytest.mark.parametrize("program", ["z.var()", "z.std(1).sum()", "torch.var_mean(z, 0)[0].sum()",
                                     "torch.std_mean(z, 1)[1].abs().sum()", "torch.linalg.vector_norm(z, 2)",
                                     "torch.linalg.vector_norm(z, 1)", "torch.linalg.vector_norm(z, 3)"])
def test_complex_statistics_gradients(program):
    def grad(T):
        g = T.Generator().manual_seed(1)
        z = T.complex(T.randn(3, 4, generator=g), T.randn(3, 4, generator=g)).requires_grad_()
        eval(program, {"torch": T, "z": z}).backward()
        return np.asarray(z.grad.tolist(), dtype=complex)

    np.testing.assert_allclose(grad(minitorch2), grad(torch), rtol=1e-5, atol=1e-6)


def test_a_half_renorm_computes_its_norm_in_float32():
    for T in (minitorch2, torch):
        x = T.tensor([[-65504., -1.5, 0., 2.5, 65504.]], dtype=T.float16)
        assert math.isclose(x.renorm(2, 0, 1.)[0, 0].item(), -0.70654296875), T


def test_gcd_of_complex_tensors_is_refused():
    with pytest.raises(NotImplementedError, match="gcd_cpu"):
        minitorch2.gcd(minitorch2.tensor([1 + 1j]), minitorch2.tensor([2j]))


# ---------------------------------------------------------------- tensors made from Python and NumPy numbers
CREATIONS = [
    "torch.tensor(n)", "torch.tensor([n])", "torch.tensor([n, 1])", "torch.tensor([1, n])", "torch.tensor([n, 1.5])",
    "torch.tensor([[n], [2]])", "torch.tensor(n, dtype=torch.int8)", "torch.tensor([n], dtype=torch.uint8)",
    "torch.tensor(n, dtype=torch.float16)", "torch.tensor(n, dtype=torch.bool)", "torch.tensor(n, dtype=torch.int64)",
    "torch.tensor(n, dtype=torch.float64)", "torch.tensor([n, True])", "torch.as_tensor([n], dtype=torch.int32)",
    "torch.full((2,), n)", "torch.full((2,), n, dtype=torch.int8)", "torch.zeros(2) + n", "torch.scalar_tensor(n)",
    "torch.tensor([n, 2**63 - 1])", "torch.tensor(np.array(n))", "torch.tensor([np.float32(1), n])",
    "torch.tensor([torch.tensor(1), n])", "torch.tensor([n]).tolist()", "torch.ones(1, dtype=torch.int8).fill_(n)",
    "torch.tensor(n).long()", "torch.tensor(n).to(torch.uint8)", "torch.tensor(n).half()", "int(torch.tensor(n))",
    "bool(torch.tensor(n))", "torch.tensor([n, -n]).max()", "torch.tensor([n, 0, -1]).argsort()",
    "torch.tensor([n, n]).unique()", "repr(torch.tensor([n, 1.]))", "torch.arange(n, 5) if n == n else n",
]
CREATED_FROM = [0, -1, 2**31, 2**53 + 1, 2**63 - 1, -2**63, 2**63, 2**64, -2**63 - 1, 10**20, NAN, INF, -INF, -0.0,
                1e-45, 1e308, 3.5e38, 65520.0, True, False, 1 + 2j, np.int64(5), np.float32(2.5), np.int8(-128),
                np.float16(0.1)]
# (torch's parser: a complex number into bool is its truth, not refused; complex64 takes an int past int64 as a
# double; arange's bounds beyond int64 and complex ones are not read)
KNOWN_CREATIONS = {("torch.tensor(n, dtype=torch.bool)", "(1+2j)"), ("int(torch.tensor(n))", "(1+2j)"),
                   ("torch.arange(n, 5) if n == n else n", "(1+2j)")}


@pytest.mark.parametrize("expression", CREATIONS)
def test_tensors_made_from_numbers(expression):
    for number in CREATED_FROM:
        if (expression, repr(number)) not in KNOWN_CREATIONS:
            ours, theirs = (_created(T, expression, number) for T in (minitorch2, torch))
            assert_same(ours, theirs, (expression, repr(number)))


def _created(T, expression, number):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = eval(expression, {"torch": T, "n": number, "np": np})
    except Exception as e:  # noqa: BLE001 (the error is the outcome)
        return ("error", type(e).__name__, str(e).split("\n")[0])
    return ("value", result.replace("minitorch2", "torch")) if isinstance(result, str) else _plain(T, result)


# ---------------------------------------------------------------- int arguments given as one-element tensors
TENSOR_INTS = ["torch.select(x, 0, torch.tensor([1]))", "x.select(1, torch.tensor(2))", "x.roll(torch.tensor(1))",
               "x.roll(torch.tensor([1]), 0)", "torch.roll(x, torch.tensor(-1), 1)", "x.narrow(1, torch.tensor(1), 2)",
               "x.unsqueeze(torch.tensor(0))", "x.flip(torch.tensor(0))", "x.transpose(torch.tensor(0), 1)",
               "x.sum(torch.tensor(1))", "x[torch.tensor(1)]", "x.view(torch.tensor(3), 2)",
               "x.repeat(torch.tensor(2), 1)", "x.expand(torch.tensor(2), 3)", "torch.zeros(torch.tensor(2))",
               "x.topk(torch.tensor(2)).values", "x.clone().put_(torch.tensor([0]), 5.0)",
               "x.clone().put_(0, torch.tensor([5.]))", "torch.put(x, torch.tensor([0]), 2)",
               "torch.put(x, torch.tensor([0]), torch.tensor([2.]))"]


@pytest.mark.parametrize("expression", TENSOR_INTS)
def test_int_arguments_given_as_tensors(expression):
    def run(T):
        try:
            return _plain(T, eval(expression, {"torch": T, "x": T.arange(6.).reshape(2, 3)}))
        except Exception as e:  # noqa: BLE001 (the error is the outcome)
            return ("error", type(e).__name__, str(e).split("\n")[0])

    ours, theirs = run(minitorch2), run(torch)
    assert_same(ours, theirs, expression)
    assert ours[0] != "error" or "put" in expression, ours  # (only the put calls are refused)
