"""Pointwise kernels of the one-tensor ops: unary math, activations and their backwards.

Runtime layer: (kernel, meta) pairs for the op table's rows (read through pointwise.py). Unary math uses the
factories of pointwise_factories.py (sin computes in the default float dtype for integer inputs, neg keeps the
input's dtype, isnan answers bool); activations use `_float_kernel`, which refuses non-float inputs and computes
half in float32 as ATen's opmath does.
"""
import math

import numpy as np
import scipy.special

from .. import _dtype
from ..backends.cpu import get_cpu_capability
from .._dtype import result_type
from .._tensor import Tensor
from .meta_util import broadcast_shapes, fake_empty, pointwise_strides
from .transcendental_bits import fused_silu_backward, fused_tanh_backward, rounded_from_double, saturating_tanh
from .pointwise_factories import (_ensure_array, _laid_out, _not_implemented, _np, scalar_argument, unary_bool,
                                  unary_float, unary_same)

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---------------------------------------------------------------- unary math
_erf = scipy.special.erf


sin = unary_float(rounded_from_double(np.sin))
cos = unary_float(rounded_from_double(np.cos))
exp = unary_float(rounded_from_double(np.exp))
expm1 = unary_float(rounded_from_double(np.expm1))
log = unary_float(rounded_from_double(np.log))
log1p = unary_float(rounded_from_double(np.log1p))
sqrt = unary_float(np.sqrt)
rsqrt = unary_float(lambda x: 1 / np.sqrt(x))
tanh = unary_float(saturating_tanh)
sigmoid = unary_float(lambda x: 1 / (1 + np.exp(-x)))
erf = unary_float(_erf)
reciprocal = unary_float(np.reciprocal)


def _relu(x):
    if x.dtype == np.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    return np.where(x < 0, np.zeros((), x.dtype), x)  # (-0. and NaN stay themselves, as ATen's clamp_min)


def _sign(x):
    """ATen's (0 < x) - (x < 0): NaN gives 0 (numpy's sign gives NaN), a bool is itself."""
    if x.dtype == np.bool_:
        return x.copy()
    return ((x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)).astype(x.dtype, copy=False)


def _floor_like(fn):
    def compute(x):
        if x.dtype == np.bool_:
            raise _not_implemented(f"{fn.__name__}_vml_cpu", _dtype.bool_)
        return fn(x) if x.dtype in _dtype.NP_FLOATS else x.copy()

    compute.__name__ = fn.__name__
    return compute


def _bitwise_not(x):
    if x.dtype in _dtype.NP_FLOATS:
        raise _not_implemented("bitwise_not_cpu", _dtype.from_numpy(x.dtype))
    return np.invert(x)


def _abs(x):
    if x.dtype == np.bool_:
        raise _not_implemented("abs_cpu", _dtype.bool_)
    return np.abs(x)


neg = unary_same(np.negative, bool_error="Negation, the `-` operator, on a bool tensor is not supported. If you "
                                         "are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
abs = unary_same(_abs)
relu = unary_same(_relu)
sign = unary_same(_sign)
floor = unary_same(_floor_like(np.floor))
ceil = unary_same(_floor_like(np.ceil))
trunc = unary_same(_floor_like(np.trunc))
round = unary_same(_floor_like(np.round))
bitwise_not = unary_same(_bitwise_not)
logical_not = unary_bool(np.logical_not)
isnan = unary_bool(np.isnan)
isinf = unary_bool(np.isinf, integral_like=True)
isfinite = unary_bool(np.isfinite, integral_like=True)


# ---------------------------------------------------------------- activations and their backwards
def _float_kernel(fn, nargs=1, layout_order=None):
    """A float-only pointwise op over `nargs` tensors and extra scalar arguments. Half inputs are
    computed in float32 and rounded once, as ATen's opmath does. `layout_order` names the tensor
    that leads the output's layout when it is not the first (ATen builds some backwards self-first)."""

    def floating(dtype):  # ATen's kernel refuses other dtypes, and so must a traced graph (the meta)
        if not (dtype.is_floating_point or dtype.is_complex and fn in (_silu, _sigmoid_backward, _tanh_backward)):
            raise _not_implemented({"_gelu": "GeluKernelImpl"}.get(fn.__name__, f"{fn.__name__[1:]}_cpu"), dtype)
        return dtype

    def kernel(*args, **kwargs):
        dtype = floating(result_type(*args[:nargs]))
        with np.errstate(all="ignore"):
            return _ensure_array(fn(*(_np(t, _dtype.opmath(dtype)) for t in args[:nargs]), *args[nargs:], **kwargs), dtype)

    def meta(*args, **kwargs):
        tensors = [t for t in args[:nargs] if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        layout = tensors if layout_order is None else [tensors[i] for i in layout_order]
        return fake_empty(shape, floating(result_type(*args[:nargs])), pointwise_strides(shape, layout))

    return _laid_out(kernel, meta)


def _gelu(x, approximate="none"):
    if approximate == "tanh":
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1 + np.tanh(inner))
    # (ATen's AVX512 float loop halves last, so x * (1 + erf) overflows past half of float32's range; a single
    # element takes its scalar loop, which halves first, as its AVX2 loop does)
    erf_term = 1 + _erf(x * np.asarray(1 / math.sqrt(2), x.dtype))
    halves_last = x.dtype == np.float32 and x.size > 1 and get_cpu_capability() == "AVX512"
    return x * erf_term * 0.5 if halves_last else x * 0.5 * erf_term


def _gelu_backward(grad, x, approximate="none"):
    if approximate == "tanh":
        x_sq = x * x
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x_sq * x)
        t = np.tanh(inner)
        left = 0.5 * x
        right = 1 + t
        left_derivative = 0.5 * right
        right_derivative = left * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x_sq)
        return grad * (left_derivative + right_derivative)
    cdf = 0.5 * (1 + _erf(x * np.asarray(1 / math.sqrt(2), x.dtype)))
    pdf = np.exp(-0.5 * x * x) * np.asarray(1 / math.sqrt(2 * math.pi), x.dtype)
    return grad * (cdf + x * pdf)


def _silu(x):
    return x / (1 + np.exp(-x))


def _silu_backward(grad, x):
    return fused_silu_backward(grad, x)


def _sigmoid_backward(grad, out):  # grad * (1 - out) first, as ATen's; of a complex out the conjugate, torch's convention
    return grad * np.conj((1 - out) * out) if np.iscomplexobj(out) else grad * (1 - out) * out


def _tanh_backward(grad, out):
    return fused_tanh_backward(grad, out)


def _threshold_backward(grad, x, threshold):
    return np.where(x <= threshold, np.zeros((), grad.dtype), grad)


def _threshold(x, threshold, value):
    dtype = _dtype.from_numpy(x.dtype)
    return np.where(x <= scalar_argument(threshold, _dtype.opmath(dtype)), scalar_argument(value, dtype), x)


def _leaky_relu(x, negative_slope=0.01):
    return np.where(x > 0, x, x * np.asarray(negative_slope, x.dtype))


def _leaky_relu_backward(grad, x, negative_slope, self_is_result):
    return np.where(x > 0, grad, grad * np.asarray(negative_slope, grad.dtype))


gelu = _float_kernel(_gelu)
gelu_backward = _float_kernel(_gelu_backward, nargs=2)
silu = _float_kernel(_silu)
silu_backward = _float_kernel(_silu_backward, nargs=2)
sigmoid_backward = _float_kernel(_sigmoid_backward, nargs=2)
tanh_backward = _float_kernel(_tanh_backward, nargs=2)
leaky_relu = _float_kernel(_leaky_relu)
leaky_relu_backward = _float_kernel(_leaky_relu_backward, nargs=2, layout_order=(1, 0))


def _threshold_backward_kernel():
    def kernel(grad_output, self, threshold):
        dtype = result_type(grad_output, self)
        return _ensure_array(_threshold_backward(_np(grad_output, dtype), self._np, threshold), dtype)

    def meta(grad_output, self, threshold):
        shape = broadcast_shapes(tuple(grad_output.shape), tuple(self.shape))
        return fake_empty(shape, result_type(grad_output, self), pointwise_strides(shape, [self, grad_output]))

    return _laid_out(kernel, meta)


threshold_backward = _threshold_backward_kernel()


threshold = unary_same(_threshold)
