"""Integers at their extremes and floats converted to integers, eager and through both compile backends (the
inductor under each CPU code generator), against torch eager: values exactly, dtypes, or torch's error class.

Session 21's probes found (each failed before):

- float64 to uint8 converts through int64 in ATen's CPU kernels (every other float-to-narrow-integer conversion
  through int32): 2.**31 + 5 became 0, not 5, and -2.**31 - 7 0, not 249, in `.to`, `.byte()`, `copy_` and
  slice assignment, eager and compiled (numpy's C cast, and the generated kernels, went through int32); a copy_
  of NaN or inf into an integer tensor printed numpy's RuntimeWarning (torch converts without a word);
- gcd is Euclid's loop in the dtype, where |INT_MIN| stays INT_MIN: gcd(-128, 6) is -2 in torch (numpy's gcd gave
  2); lcm multiplies in C's int before narrowing: lcm(int8 127, 126) is -126 (numpy's 126);
- integer and bool tensors into ops whose ATen kernels are float-only: hardswish, hardsigmoid, glu and prelu
  returned float values (torch: NotImplementedError, or prelu's "Type promoting not supported"), the compiled
  std/var/var_mean/std_mean computed (their meta had no dtype check; eager gave mean's words), and leaky_relu,
  gelu, silu, softplus and mish raised RuntimeError for torch's NotImplementedError (once that was a
  NotImplementedError, the inductor took it for "no lowering" and computed: the check is in the meta too);
  F.normalize of an integer matrix returned floats (torch: linalg.vector_norm's RuntimeError);
- addcdiv of two integer tensors divided (truncating) where ATen refuses it, and bool median/nanmedian/kthvalue
  answered where ATen has no kernel;
- pooling: int8/int32 average pools and integer adaptive max pools answered, bool max pools raised numpy's
  ValueError, where ATen's kernels refuse those dtypes (NotImplementedError); an int64 average pool compiled by
  the inductor generated a float division of integers (LLVM refused the IR): it truncates, as ATen's kernel.
- `view //= other`, `%=`, `&=`, `|=`, `^=` rebound the name to a new tensor (Tensor had no __ifloordiv__, __imod__,
  __iand__, __ior__, __ixor__), so the caller's tensor, or a view's base, was silently left unchanged; and
  floor_divide_ wrote a result self cannot hold (int8 //= 2.5, bool //= 2) where ATen raises its cast error.
- under aot_eager an in-place op whose result dtype is wider than self's (float32 += float64, uint8 += int8) left
  the uncast functional result as self's new value: later reads of self (x * 3) and the returned tensor were
  float64 / int16. The functionalized graph casts it back with _to_copy, as torch's.

Since session 38 max_pool1d (no indices) of integers is refused in eager ("max_pool1d_impl") and computed by
torch.compile (which traces max_pool2d_with_indices), as torch's (tests/nn/test_functional_dtypes_s38.py).
"""
import warnings

import numpy as np
import pytest
import torch

from tests.backend.codegens import CODEGENS
from tests.backend.test_trust_special_values import assert_same, run

import backend
import minitorch2 as mt

MODES = ["eager", "aot_eager"] + [f"inductor:{name}" for name in CODEGENS]


def check(fn, make, mode):
    backend_mode, _, codegen = mode.partition(":")
    saved = backend.config.cpu_codegen
    backend.config.cpu_codegen = codegen or saved
    try:
        assert_same(fn, make, backend_mode)
    finally:
        backend.config.cpu_codegen = saved


NAN, INF = float("nan"), float("inf")
# around int32's range (where the int64 and int32 conversions part), int64's, and the narrow types' wrap-around
FLOATS = [2.0 ** 31 + 5, -2.0 ** 31 - 7, 2.0 ** 31, -2.0 ** 31, 2.0 ** 32 + 300, -2.0 ** 40 - 9, 2.0 ** 62 + 2 ** 40,
          1e300, -1e300, NAN, INF, -INF, 255.9, -1.5, 300.7, -129.2, 65535.0, -0.99, 2.0 ** 63, -2.0 ** 63]
CONVERSIONS = {
    "to": lambda L, x, dtype: x.to(dtype),
    "copy_": lambda L, x, dtype: L.zeros(tuple(x.shape), dtype=dtype).copy_(x),
    "slice assignment": lambda L, x, dtype: _assigned(L.zeros(tuple(x.shape), dtype=dtype), x),
    "type_as": lambda L, x, dtype: x.type_as(L.zeros(1, dtype=dtype)),
    "to, then arithmetic": lambda L, x, dtype: x.to(dtype) * 3 + 1,
    "of a transposed view": lambda L, x, dtype: x.reshape(4, 5).t().to(dtype),
}


def _assigned(out, x):
    out[:] = x
    return out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", ["uint8", "int8", "int16", "int32", "int64", "bool"])
@pytest.mark.parametrize("source", ["float64", "float32", "float16"])
@pytest.mark.parametrize("how", list(CONVERSIONS))
def test_floats_out_of_range_convert_as_atens_cpu_kernels(how, source, target, mode):
    if mode != "eager" and mode != "aot_eager" and target == "int8" and source != "float64":
        pytest.skip("torch's compiled kernels saturate float32 -> int8, unlike eager: test_probes_s31 compares them")

    def make(L):
        with np.errstate(all="ignore"):
            return (L.tensor(np.array(FLOATS).astype(source).tolist(), dtype=getattr(L, source)),)

    check(lambda L, x: CONVERSIONS[how](L, x, getattr(L, target)), make, mode)


@pytest.mark.parametrize("source", ["float64", "float32", "float16"])
@pytest.mark.parametrize("target", ["uint8", "int32", "int64", "float16"])
def test_conversions_say_nothing(source, target):
    """torch converts NaN, inf and out-of-range values without a warning (numpy's casts warn)."""
    x = mt.tensor([NAN, INF, -INF, 1e300 if source == "float64" else 6e4], dtype=getattr(mt, source))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x.to(getattr(mt, target))
        mt.zeros(4, dtype=getattr(mt, target)).copy_(x)
        mt.zeros(4, dtype=getattr(mt, target))[:] = x


# ---------------------------------------------------------------- gcd, lcm
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64"])
@pytest.mark.parametrize("call", ["gcd", "lcm", "gcd with a Python-number-like 0-d", "gcd_"])
def test_gcd_and_lcm_at_the_extremes(call, dtype, mode):
    """ATen's Euclid in the dtype: |INT_MIN| is INT_MIN, so gcd(INT_MIN, 6) is -2; lcm wraps."""
    info = np.iinfo(dtype)
    left = [info.min, info.min, 6, info.min, 0, info.min, -4, 12, 0, 7, info.max, info.max]
    right = [6, info.min, info.min, 0, info.min, 1, -6, -18, 0, -1, info.max - 1, info.min]
    calls = {"gcd": lambda L, a, b: L.gcd(a, b), "lcm": lambda L, a, b: L.lcm(a, b),
             "gcd with a Python-number-like 0-d": lambda L, a, b: L.gcd(a, L.tensor(6, dtype=a.dtype)),
             "gcd_": lambda L, a, b: (a.gcd_(b), a * 1)}
    make = lambda L: tuple(L.tensor(np.array(v).astype(dtype).tolist(), dtype=getattr(L, dtype)) for v in (left, right))
    check(calls[call], make, mode)


# ---------------------------------------------------------------- integer inputs to float-only ops
FLOAT_ONLY = {
    "hardswish": lambda L, x: L.nn.functional.hardswish(x),
    "hardswish in place": lambda L, x: L.nn.functional.hardswish(x, inplace=True),
    "hardsigmoid": lambda L, x: L.nn.functional.hardsigmoid(x),
    "glu": lambda L, x: L.nn.functional.glu(x),
    "prelu, same dtype": lambda L, x: L.nn.functional.prelu(x, L.ones(1, dtype=x.dtype)),
    "prelu, float weight": lambda L, x: L.nn.functional.prelu(x, L.tensor([0.25])),
    "mish": lambda L, x: L.nn.functional.mish(x),
    "leaky_relu": lambda L, x: L.nn.functional.leaky_relu(x),
    "gelu": lambda L, x: L.nn.functional.gelu(x),
    "silu": lambda L, x: L.nn.functional.silu(x),
    "softplus": lambda L, x: L.nn.functional.softplus(x),
    "elu": lambda L, x: L.nn.functional.elu(x),
    "normalize": lambda L, x: L.nn.functional.normalize(x.reshape(2, 2)),
    "normalize of a vector": lambda L, x: L.nn.functional.normalize(x, dim=0),
    "var": lambda L, x: x.var(),
    "std(0)": lambda L, x: x.std(0),
    "var_mean": lambda L, x: L.var_mean(x),
    "std_mean(0)": lambda L, x: L.std_mean(x, 0),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "bool", "float16", "float64"])
@pytest.mark.parametrize("call", list(FLOAT_ONLY))
def test_integer_inputs_to_float_only_ops(call, dtype, mode):
    """ATen's kernels for these refuse integer and bool tensors (NotImplementedError naming the kernel, or
    RuntimeError): hardswish, hardsigmoid, glu and prelu computed a float result, and the compiled std/var an
    integer or float one; leaky_relu, gelu, silu, softplus and mish raised a RuntimeError. Compiled calls must
    raise (torch.compile wraps the error as a TorchRuntimeError) instead of computing."""
    check_refused_when_compiled(FLOAT_ONLY[call], dtype, mode)


def check_refused_when_compiled(fn, dtype, mode):
    """torch eager's outcome in eager, and where torch computes; a compiled call must raise where torch eager
    raises (torch.compile raises too, its class a TorchRuntimeError where the error is met while tracing)."""
    make = lambda L: (L.tensor([1, -2, 0, 3], dtype=getattr(L, dtype)) if dtype != "bool" else
                      L.tensor([True, False, True, True]),)
    try:
        fn(torch, *make(torch))
        torch_raises = False
    except (RuntimeError, NotImplementedError):
        torch_raises = True
    if mode == "eager" or not torch_raises:
        check(fn, make, mode)
        return
    backend_mode, _, codegen = mode.partition(":")
    saved = backend.config.cpu_codegen
    backend.config.cpu_codegen = codegen or saved
    try:
        kind, value = run(fn, make, backend_mode)
    finally:
        backend.config.cpu_codegen = saved
    assert isinstance(kind, RuntimeError | NotImplementedError), f"computed {value!r}"


REFUSED = {
    "addcdiv": lambda L, x: L.addcdiv(x, x, x),
    "addcdiv into a float": lambda L, x: L.addcdiv(x.float(), x, x),  # (value=2 compiles to add(div): no error)
    "addcdiv_": lambda L, x: x.addcdiv_(x, x),
    "addcmul": lambda L, x: L.addcmul(x, x, x),
    "median": lambda L, x: x.median(),
    "median(0)": lambda L, x: x.median(0),
    "nanmedian": lambda L, x: x.nanmedian(),
    "nanmedian(0)": lambda L, x: x.nanmedian(0),
    "kthvalue": lambda L, x: x.kthvalue(2),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int8", "int64", "bool", "float32"])
@pytest.mark.parametrize("call", list(REFUSED))
def test_integer_addcdiv_and_bool_selections_are_refused(call, dtype, mode):
    """addcdiv of two integer tensors is ATen's RuntimeError (it divided, truncating); median, nanmedian and
    kthvalue have no bool kernel (NotImplementedError; it answered)."""
    check_refused_when_compiled(REFUSED[call], dtype, mode)


POOLS = {
    "avg_pool1d": lambda L, x: L.nn.functional.avg_pool1d(x[None], 2),
    "avg_pool2d": lambda L, x: L.nn.functional.avg_pool2d(x.reshape(1, 2, 2), 1),
    "max_pool2d": lambda L, x: L.nn.functional.max_pool2d(x.reshape(1, 2, 2), 1),
    "max_pool1d with indices": lambda L, x: L.nn.functional.max_pool1d(x[None], 2, return_indices=True),
    "adaptive_max_pool1d": lambda L, x: L.nn.functional.adaptive_max_pool1d(x[None], 2),
    "adaptive_max_pool2d": lambda L, x: L.nn.functional.adaptive_max_pool2d(x.reshape(1, 2, 2), 1),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "bool", "float32"])
@pytest.mark.parametrize("call", list(POOLS))
def test_pooling_refuses_the_dtypes_atens_kernels_refuse(call, dtype, mode):
    """avg_pool2d's kernel takes floats and int64, max_pool2d's all but bool, adaptive_max_pool2d's floats only
    (int8/int32 average pools divided, bool max pools raised numpy's ValueError, integer adaptive max pools
    answered)."""
    check_refused_when_compiled(POOLS[call], dtype, mode)


# ---------------------------------------------------------------- augmented assignments write in place
def _augmented(op):
    def run(L, base):
        view, other = base[0], base[1].clamp(min=1)  # a row of the caller's tensor, changed through the view
        if op == "//=":
            view //= other
        elif op == "%=":
            view %= other
        elif op == "&=":
            view &= other
        elif op == "|=":
            view |= other
        elif op == "^=":
            view ^= other
        elif op == "mask |=":
            mask = base[0] > 2
            mask |= base[1] > 8  # (a bool mask built up in place, as users write it)
            return mask, base * 1
        return view * 1, base * 1

    return run


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int64", "int16", "uint8", "bool"])
@pytest.mark.parametrize("op", ["//=", "%=", "&=", "|=", "^=", "mask |="])
def test_augmented_assignments_write_into_the_tensor(op, dtype, mode):
    """x //= y, %=, &=, |= and ^= are Tensor.__ifloordiv__ ... in torch, writing into x (a view writes into its base):
    without those methods Python rebound the name to a new tensor, and the caller's tensor stayed as it was."""
    make = lambda L: (L.tensor([[5, -7, 9, 0], [2, 3, 4, 11]], dtype=getattr(L, dtype)) if dtype != "bool" else
                      L.tensor([[True, False, True, False], [True, True, False, False]]),)
    if dtype == "uint8":
        make = lambda L: (L.tensor([[5, 250, 9, 0], [2, 3, 4, 11]], dtype=L.uint8),)
    check(_augmented(op), make, mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int8", "bool", "float16"])
@pytest.mark.parametrize("other", ["2.5", "float tensor", "int64 tensor"])
def test_floor_divide_in_place_refuses_a_result_self_cannot_hold(other, dtype, mode):
    """int8 //= 2.5 and bool //= 2 raise ATen's cast error (floor_divide_ computed and wrapped the result)."""
    def fn(L, x):
        operand = {"2.5": 2.5, "float tensor": L.tensor([2.0]), "int64 tensor": L.tensor([2])}[other]
        x //= operand
        return x * 1

    make = lambda L: (L.tensor([5, 0, 7], dtype=getattr(L, dtype)) if dtype != "bool" else L.tensor([True, False, True]),)
    check(fn, make, mode)


# ---------------------------------------------------------------- in-place ops whose result type is wider than self
PROMOTING_INPLACE = {
    "float32 += float64": ("float32", lambda L: L.tensor([0.1, 1e-9, 3.3], dtype=L.float64)),
    "float16 *= float32": ("float16", lambda L: L.tensor([1.001, 3.3, -7.77])),
    "uint8 += int8": ("uint8", lambda L: L.tensor([-1, 100, 7], dtype=L.int8)),
    "int32 -= int64": ("int32", lambda L: L.tensor([2 ** 40, -3, 5])),
    "float32 += 0-d float64": ("float32", lambda L: L.tensor(1e-9, dtype=L.float64)),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", list(PROMOTING_INPLACE))
def test_an_in_place_result_is_cast_back_to_self_before_it_is_read(case, mode):
    """After x.add_(y) with y of a wider dtype, x (and add_'s result) hold self's dtype: under aot_eager the traced
    graph read the uncast functional result, so x * 3 was float64 (values unrounded) and the returned x too. As
    torch's functionalization, a _to_copy casts it back."""
    dtype, other = PROMOTING_INPLACE[case]

    def fn(L, x, y):
        op = case.split()[1]
        r = x.add_(y) if op == "+=" else x.mul_(y) if op == "*=" else x.sub_(y)
        return r, x * 3, (x + 0.1).sum()

    check(fn, lambda L: (L.tensor([1, 2, 250], dtype=getattr(L, dtype)), other(L)), mode)
