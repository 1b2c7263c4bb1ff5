"""pow as ATen's CPU kernels compute it, where numpy's power answers differently at the special values.

Runtime layer, under the pow kernels (pointwise_arithmetic.py); the backend's pow lowering asks
`scalar_exponent_form` too, so compiled graphs compute what eager does. Three facts of ATen's kernels:

- pow(Tensor, Scalar) is not always a pow: an exponent of 0 fills ones, 1 copies, and for float32, float64 and
  bfloat16 0.5, -0.5 and -1 are sqrt, 1/sqrt and 1/x, and 2, 3 and -2 are x*x, x*x*x and 1/(x*x) (bfloat16's
  rounded at each step, as c10::BFloat16's operators round). They differ from C's pow
  at the special values: (-inf) ** -0.5 is nan and (-0.) ** -0.5 is -inf, where pow gives 0. and inf.
- pow(Tensor, Tensor) is always C's pow, even for an exponent tensor of 0.5 (numpy's power takes a sqrt for a
  broadcast 0.5, whose -inf ** 0.5 is nan and -0. ** 0.5 is -0., where C's pow gives inf and 0.).
- integers to negative tensor powers are no error: 1 stays 1, -1 is +-1 by the exponent's parity, the rest is 0
  (a negative Scalar exponent of an integer tensor is refused, by the pow kernel's check).
"""
import numpy as np

from .. import _dtype
from .._tensor import Tensor
from .pointwise_factories import _not_implemented

_FLOAT_FORMS = {0.5: "sqrt", -0.5: "rsqrt", -1: "reciprocal", 2: "square", 3: "cube", -2: "inverse_square"}


def scalar_exponent_form(exponent, dtype):
    """What ATen computes `x ** exponent` as, for a Python-number exponent and the result's dtype: "one", "self",
    a name in _FLOAT_FORMS (float32, float64 and bfloat16 only), or "pow"."""
    if exponent == 0:
        return "one"
    if exponent == 1:
        return "self"
    if dtype.name in ("float32", "float64", "bfloat16"):
        return _FLOAT_FORMS.get(exponent, "pow")
    return "pow"


def build_form(form, x, one, op):
    """`form` (not "pow") of x, built with op(name, *operands) of the loop IR's op names: the backend's lowering."""
    forms = {"one": lambda: one, "self": lambda: x, "sqrt": lambda: op("sqrt", x),
             "rsqrt": lambda: op("truediv", one, op("sqrt", x)), "reciprocal": lambda: op("truediv", one, x),
             "square": lambda: op("mul", x, x), "cube": lambda: op("mul", op("mul", x, x), x),
             "inverse_square": lambda: op("truediv", one, op("mul", x, x))}
    return forms[form]()


NUMPY_FORMS = {
    "one": np.ones_like, "self": np.copy, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x),
    "reciprocal": lambda x: 1 / x, "square": lambda x: x * x, "cube": lambda x: x * x * x,
    "inverse_square": lambda x: 1 / (x * x),
}


def c_pow(a, b):
    """numpy's power, as C's pow where numpy's takes a sqrt (a broadcast exponent of 0.5)."""
    result = np.power(a, b)
    if result.dtype in _dtype.NP_FLOATS and np.any(np.asarray(b) == 0.5):
        at_special = (np.asarray(b) == 0.5) & (np.isneginf(a) | (np.asarray(a) == 0))
        result = np.where(at_special, np.abs(a).astype(result.dtype), result)
    return result


def integer_pow(a, b):
    """ATen's powi: a negative exponent gives 1 for 1, +-1 for -1 (its parity), 0 for the rest, 0 included."""
    b = np.asarray(b)
    negative = b < 0
    result = np.power(a, np.where(negative, 0, b).astype(b.dtype))  # numpy refuses negative integer powers
    if np.any(negative):
        minus_one = np.where(b % 2 != 0, -1, 1)
        inverse = np.where(a == 1, 1, np.where(a == -1, minus_one, 0))
        result = np.where(negative, inverse, result).astype(result.dtype)
    return result


def aten_pow(a, b, *, dtype):
    """pow's numpy computation in the promoted dtype: a Scalar exponent (a Python number here, where a tensor's is
    an array) takes its form first (a fill or a copy refuses no dtype), the rest is C's pow or ATen's powi."""
    form = "pow" if isinstance(b, np.ndarray) else scalar_exponent_form(b, dtype)
    if form != "pow":
        return NUMPY_FORMS[form](a)
    if dtype is _dtype.bool_:
        raise _not_implemented("pow", dtype)
    return c_pow(a, b) if dtype.is_inexact else integer_pow(a, b)


def integer_power_check(self, exponent, *, in_meta=False):
    """pow.Tensor_Scalar's checks, ATen's kernel's only (torch.compile traces these; its inductor computes): an
    integral (or bool) tensor to a negative integral Scalar power is refused, and an exponent ATen's integer and
    float16 kernels convert to the tensor's dtype must fit it (int8 ** 300 and half ** 70000 raise; 0 and 1 are a
    fill and a copy)."""
    if not isinstance(self, Tensor) or isinstance(exponent, Tensor) or in_meta:
        return
    if not self.dtype.is_inexact and type(exponent) in (int, bool) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    dtype = _dtype.result_type(self, exponent)
    if dtype.name not in ("float32", "float64", "bool") and scalar_exponent_form(exponent, dtype) == "pow":
        _dtype.checked_scalar(exponent, dtype, half_overflows=True)


# ---------------------------------------------------------------- addcmul / addcdiv's refusals (beside pow's check)
ADDCDIV_OF_INTEGERS = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
    "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes.")


def addcmul_check(name, dtype, tensor1, tensor2):
    """ATen's refusals for addcmul/addcdiv (`name`) with result dtype `dtype`: addcdiv of two integer (or bool)
    tensors, whatever self is; a bool result."""
    if name == "addcdiv" and not (tensor1.dtype.is_inexact or tensor2.dtype.is_inexact):
        raise RuntimeError(ADDCDIV_OF_INTEGERS)
    if dtype is _dtype.bool_:
        raise _not_implemented(f"{name}_cpu_out", dtype)
