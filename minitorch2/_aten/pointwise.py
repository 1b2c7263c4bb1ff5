"""Pointwise kernels and their meta functions.

Runtime layer: the elementwise rows of the op table. Each kernel takes the
op's arguments (Tensors and Python scalars), decides the result dtype with
PyTorch's promotion rules (minitorch2/_dtype.py), converts tensor operands to
it and calls a numpy ufunc; Python scalars stay "weak" so they never widen a
tensor's dtype, exactly as in PyTorch. The matching meta function computes the
broadcast shape, the same dtype and TensorIterator's output strides.
"""
import math

import numpy as np
import scipy.special

from .. import _dtype
from .._dtype import result_type
from .._tensor import Tensor, contiguous_strides
from .memory import _dtype_title
from .meta_util import broadcast_shapes, fake_empty, pointwise_strides, preserve_format_strides, with_strides

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _np(value, dtype):
    """A tensor operand as a numpy array of `dtype`; Python scalars pass through (weakly typed)."""
    if isinstance(value, Tensor):
        return value._np.astype(dtype.np, copy=False)
    if dtype.category == 2 and isinstance(value, bool):
        return float(value)
    return value


def _float_dtype(dtype):
    return dtype if dtype.is_floating_point else _dtype.get_default_dtype()


def _ensure_array(result, dtype):
    if not isinstance(result, np.ndarray) or result.dtype != dtype.np:
        return np.asarray(result, dtype=dtype.np)
    return result


def _laid_out(kernel, meta):
    """An eager kernel whose result has the strides its meta function computes (TensorIterator's
    layout), whatever memory order numpy happened to pick."""

    def laid_out(*args, **kwargs):
        result = kernel(*args, **kwargs)
        if _contiguous_operands(args, tuple(result.shape)):  # the common case: no layout to compute
            return with_strides(result, contiguous_strides(result.shape))
        return with_strides(result, meta(*args, **kwargs).stride())

    return laid_out, meta


def _contiguous_operands(args, shape):
    """Are the tensor operands all of the result's shape (or 0-d) with contiguous strides, size-1 dims
    included? The result is then laid out contiguously, by TensorIterator and preserve_format alike."""
    dense = contiguous_strides(shape)
    return all(not isinstance(a, Tensor) or not a._shape or (a._shape == shape and a._stride == dense) for a in args)


# ---------------------------------------------------------------- kernel factories
def unary_float(ufunc):
    """sin, exp, ...: integer and bool inputs compute in the default float dtype."""

    def kernel(self):
        dtype = _float_dtype(self.dtype)
        with np.errstate(all="ignore"):
            return _ensure_array(ufunc(_np(self, dtype)), dtype)

    def meta(self):
        return fake_empty(self.shape, _float_dtype(self.dtype), pointwise_strides(self.shape, [self]))

    return _laid_out(kernel, meta)


def unary_same(fn, allow_bool=True):
    """neg, abs, relu, ...: the result keeps the input's dtype."""

    def kernel(self):
        if not allow_bool and self.dtype is _dtype.bool_:
            raise RuntimeError(f"{fn.__name__}: not supported for bool tensors")
        with np.errstate(all="ignore"):
            return _ensure_array(fn(self._np), self.dtype)

    def meta(self):
        return fake_empty(self.shape, self.dtype, pointwise_strides(self.shape, [self]))

    return _laid_out(kernel, meta)


def unary_bool(fn, integral_like=False):
    """isnan, isinf, ...: `integral_like`: for integer inputs ATen answers with zeros_like/ones_like(self),
    whose layout is self's (preserve_format), not a TensorIterator's."""

    def kernel(self):
        return _ensure_array(fn(self._np), _dtype.bool_)

    def meta(self):
        if integral_like and not self.dtype.is_floating_point:
            return fake_empty(self.shape, _dtype.bool_, preserve_format_strides(self))
        return fake_empty(self.shape, _dtype.bool_, pointwise_strides(self.shape, [self]))

    return _laid_out(kernel, meta)


def binary_meta_dtype(out_dtype_fn, reverse=False):
    def meta(self, other, *args, **kwargs):
        tensors = [t for t in (self, other) if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        operands = (other, self) if reverse else (self, other)
        return fake_empty(shape, out_dtype_fn(self, other), pointwise_strides(shape, operands))

    return meta


def _check_broadcast(self, other):
    if isinstance(self, Tensor) and isinstance(other, Tensor) and self._shape != other._shape:
        broadcast_shapes(self._shape, other._shape)


def binary(fn, out="promote", reverse=False):
    """add, mul, maximum, ...: `out` is "promote" (common dtype), "float" (true division) or "bool" (comparisons).
    `reverse`: the op computes `other OP self` (rsub), so `other` leads the output's layout."""

    def compute_dtype(self, other):
        if type(other) is Tensor and type(self) is Tensor and self.dtype is other.dtype:
            dtype = self.dtype  # the common case, without the full promotion rules
        else:
            dtype = result_type(self, other)
        return _float_dtype(dtype) if out == "float" else dtype

    def out_dtype(self, other):
        return _dtype.bool_ if out == "bool" else compute_dtype(self, other)

    def kernel(self, other, *extra, **kwargs):
        _check_broadcast(self, other)
        dtype = compute_dtype(self, other)
        with np.errstate(all="ignore"):
            result = fn(_np(self, dtype), _np(other, dtype), *extra, dtype=dtype, **kwargs)
        return _ensure_array(result, _dtype.bool_ if out == "bool" else dtype)

    return _laid_out(kernel, binary_meta_dtype(out_dtype, reverse))


# ---------------------------------------------------------------- arithmetic
def _add(a, b, alpha=1, *, dtype):
    if dtype is _dtype.bool_:
        return np.logical_or(a, b) if alpha else a
    return np.add(a, b) if alpha == 1 else np.add(a, np.multiply(b, alpha))


def _sub(a, b, alpha=1, *, dtype):
    return np.subtract(a, b) if alpha == 1 else np.subtract(a, np.multiply(b, alpha))


def _sub_check(impl):
    """ATen's sub_check: no bool operand at all (a Python bool counts), on real and fake tensors alike."""
    kernel, meta = impl

    def check(self, other):
        bools = [x.dtype is _dtype.bool_ if isinstance(x, Tensor) else isinstance(x, bool) for x in (self, other)]
        if all(bools):
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        if any(bools):
            raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                               "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")

    def checked_kernel(self, other, *args, **kwargs):
        check(self, other)
        return kernel(self, other, *args, **kwargs)

    def checked_meta(self, other, *args, **kwargs):
        check(self, other)
        return meta(self, other, *args, **kwargs)

    return checked_kernel, checked_meta


def _not_implemented(name, dtype):
    return NotImplementedError(f"\"{name}\" not implemented for '{_dtype_title(dtype)}'")


def _rsub(a, b, alpha=1, *, dtype):
    return _sub(b, a, alpha, dtype=dtype)


def _mul(a, b, *, dtype):
    return np.logical_and(a, b) if dtype is _dtype.bool_ else np.multiply(a, b)


def _div(a, b, *, dtype, rounding_mode=None):
    if rounding_mode is None:
        return np.true_divide(a, b)
    if dtype is _dtype.bool_:
        raise _not_implemented(f"div_{rounding_mode}_cpu", dtype)
    if rounding_mode == "trunc":
        if dtype.is_floating_point:
            return np.trunc(np.true_divide(a, b))
        _check_int_division(b)
        q = np.floor_divide(a, b)
        return np.where((np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0)), q + 1, q)
    if rounding_mode == "floor":
        if not dtype.is_floating_point:
            _check_int_division(b)
        return np.floor_divide(a, b)
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")


def _check_int_division(b):
    if np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")


def _remainder(a, b, *, dtype):
    if dtype is _dtype.bool_:
        raise _not_implemented("remainder_cpu", dtype)
    if not dtype.is_floating_point:
        _check_int_division(b)
    return np.remainder(a, b)


def _fmod(a, b, *, dtype):
    if dtype is _dtype.bool_:
        raise _not_implemented("fmod_cpu", dtype)
    if not dtype.is_floating_point:
        _check_int_division(b)
    return np.fmod(a, b)


def _pow(a, b, *, dtype):
    if dtype is _dtype.bool_:
        raise _not_implemented("pow", dtype)
    if not dtype.is_floating_point and np.any(np.asarray(b) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return np.power(a, b)


def _maximum(a, b, *, dtype):
    return np.maximum(a, b)


def _minimum(a, b, *, dtype):
    return np.minimum(a, b)


def _atan2(a, b, *, dtype):
    return np.arctan2(a, b)


def _logical(fn):
    def compute(a, b, *, dtype):
        return fn(np.asarray(a).astype(bool, copy=False), np.asarray(b).astype(bool, copy=False))

    return compute


def _bitwise(fn):
    def compute(a, b, *, dtype):
        if dtype.is_floating_point:
            raise _not_implemented(f"{fn.__name__}_cpu", dtype)
        return fn(a, b)

    return compute


def _compare(fn):
    def compute(a, b, *, dtype):
        return fn(a, b)

    return compute


add = binary(_add)
sub = _sub_check(binary(_sub))
rsub = _sub_check(binary(_rsub, reverse=True))
mul = binary(_mul)
div = binary(_div, out="float")
remainder = binary(_remainder)
fmod = binary(_fmod)
maximum = binary(_maximum)
minimum = binary(_minimum)
atan2 = binary(_atan2, out="float")
eq = binary(_compare(np.equal), out="bool")
ne = binary(_compare(np.not_equal), out="bool")
lt = binary(_compare(np.less), out="bool")
le = binary(_compare(np.less_equal), out="bool")
gt = binary(_compare(np.greater), out="bool")
ge = binary(_compare(np.greater_equal), out="bool")
logical_and = binary(_logical(np.logical_and), out="bool")
logical_or = binary(_logical(np.logical_or), out="bool")
logical_xor = binary(_logical(np.logical_xor), out="bool")
bitwise_and = binary(_bitwise(np.bitwise_and))
bitwise_or = binary(_bitwise(np.bitwise_or))
bitwise_xor = binary(_bitwise(np.bitwise_xor))


def _div_mode_kernel():
    kernel, _ = binary(_div)

    def k(self, other, *, rounding_mode=None):
        if rounding_mode is None:
            return div[0](self, other)
        return kernel(self, other, rounding_mode=rounding_mode)

    def meta(self, other, *, rounding_mode=None):
        dtype = result_type(self, other)
        if rounding_mode is None:
            dtype = _float_dtype(dtype)
        tensors = [t for t in (self, other) if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        return fake_empty(shape, dtype, pointwise_strides(shape, (self, other)))

    return _laid_out(k, meta)


div_mode = _div_mode_kernel()


def _pow_kernel():
    """ATen builds pow.Tensor_Scalar as a unary op: a Scalar exponent is no TensorIterator operand,
    so `self` alone decides the output's layout."""
    kernel, meta = binary(_pow)

    def layout_meta(self, exponent):
        out = meta(self, exponent)
        if isinstance(exponent, Tensor) or not isinstance(self, Tensor):
            return out
        return fake_empty(out.shape, out.dtype, pointwise_strides(out.shape, [self]))

    return _laid_out(kernel, layout_meta)


pow_ = _pow_kernel()


def _pow_scalar_kernel():
    """pow(Scalar, Tensor): ATen allocates the result contiguous, whatever the exponent's layout."""
    kernel, meta = pow_

    def contiguous_meta(self, exponent):
        out = meta(self, exponent)
        return fake_empty(out.shape, out.dtype)

    return _laid_out(kernel, contiguous_meta)


pow_scalar = _pow_scalar_kernel()


# ---------------------------------------------------------------- unary math
def _erf(x):
    return scipy.special.erf(x)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _rsqrt(x):
    return 1 / np.sqrt(x)


sin = unary_float(np.sin)
cos = unary_float(np.cos)
tan = unary_float(np.tan)
asin = unary_float(np.arcsin)
acos = unary_float(np.arccos)
atan = unary_float(np.arctan)
sinh = unary_float(np.sinh)
cosh = unary_float(np.cosh)
exp = unary_float(np.exp)
exp2 = unary_float(np.exp2)
expm1 = unary_float(np.expm1)
log = unary_float(np.log)
log2 = unary_float(np.log2)
log10 = unary_float(np.log10)
log1p = unary_float(np.log1p)
sqrt = unary_float(np.sqrt)
rsqrt = unary_float(_rsqrt)
tanh = unary_float(np.tanh)
sigmoid = unary_float(_sigmoid)
erf = unary_float(_erf)
reciprocal = unary_float(np.reciprocal)


def _neg(x):
    if x.dtype == np.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return np.negative(x)


def _relu(x):
    if x.dtype == np.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    return np.maximum(x, np.zeros((), x.dtype))


def _sign(x):
    return np.sign(x) if x.dtype != np.bool_ else x.copy()


def _floor_like(fn):
    def compute(x):
        if x.dtype == np.bool_:
            raise _not_implemented(f"{fn.__name__}_vml_cpu", _dtype.bool_)
        return fn(x) if x.dtype.kind == "f" else x.copy()

    compute.__name__ = fn.__name__
    return compute


def _bitwise_not(x):
    if x.dtype.kind == "f":
        raise _not_implemented("bitwise_not_cpu", _dtype.from_numpy(x.dtype))
    return np.invert(x)


def _abs(x):
    if x.dtype == np.bool_:
        raise _not_implemented("abs_cpu", _dtype.bool_)
    return np.abs(x)


neg = unary_same(_neg)
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

    def kernel(*args, **kwargs):
        tensors = args[:nargs]
        dtype = result_type(*tensors)
        if not dtype.is_floating_point:
            raise RuntimeError(f"\"{fn.__name__}\" not implemented for '{dtype}'")
        compute = _dtype.float32 if dtype is _dtype.float16 else dtype
        with np.errstate(all="ignore"):
            return _ensure_array(fn(*(_np(t, compute) for t in tensors), *args[nargs:], **kwargs), dtype)

    def meta(*args, **kwargs):
        tensors = [t for t in args[:nargs] if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        layout = tensors if layout_order is None else [tensors[i] for i in layout_order]
        return fake_empty(shape, result_type(*args[:nargs]), pointwise_strides(shape, layout))

    return _laid_out(kernel, meta)


def _gelu(x, approximate="none"):
    if approximate == "tanh":
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1 + np.tanh(inner))
    return x * 0.5 * (1 + _erf(x * np.asarray(1 / math.sqrt(2), x.dtype)))


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
    s = 1 / (1 + np.exp(-x))
    return grad * s * (1 + x * (1 - s))


def _sigmoid_backward(grad, out):
    return grad * ((1 - out) * out)


def _tanh_backward(grad, out):
    return grad * (1 - out * out)


def _threshold_backward(grad, x, threshold):
    return np.where(x <= threshold, np.zeros((), grad.dtype), grad)


def _threshold(x, threshold, value):
    return np.where(x <= threshold, np.asarray(value, x.dtype), x)


def _leaky_relu(x, negative_slope=0.01):
    return np.where(x > 0, x, x * np.asarray(negative_slope, x.dtype))


def _leaky_relu_backward(grad, x, negative_slope, self_is_result):
    return np.where(x > 0, grad, grad * np.asarray(negative_slope, grad.dtype))


def _hardtanh_kernel():
    """hardtanh clamps integer tensors too (only bool is refused)."""

    def kernel(self, min_val=-1, max_val=1):
        if self.dtype is _dtype.bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        return _ensure_array(np.clip(self._np, min_val, max_val), self.dtype)

    def meta(self, min_val=-1, max_val=1):  # ATen: hardtanh_out into empty_like(self)
        return fake_empty(self.shape, self.dtype, preserve_format_strides(self))

    return _laid_out(kernel, meta)


def _softplus(x, beta=1, threshold=20):
    bx = x * beta
    return np.where(bx > threshold, x, np.log1p(np.exp(bx)) / beta)


def _softplus_backward(grad, x, beta, threshold):
    bx = x * beta
    z = np.exp(bx)
    return np.where(bx > threshold, grad, grad * z / (z + 1))


def _hardtanh_backward(grad, x, min_val, max_val):
    return np.where((x > min_val) & (x < max_val), grad, np.zeros((), grad.dtype))


gelu = _float_kernel(_gelu)
gelu_backward = _float_kernel(_gelu_backward, nargs=2)
silu = _float_kernel(_silu)
silu_backward = _float_kernel(_silu_backward, nargs=2)
sigmoid_backward = _float_kernel(_sigmoid_backward, nargs=2)
tanh_backward = _float_kernel(_tanh_backward, nargs=2)
leaky_relu = _float_kernel(_leaky_relu)
leaky_relu_backward = _float_kernel(_leaky_relu_backward, nargs=2, layout_order=(1, 0))
softplus = _float_kernel(_softplus)
softplus_backward = _float_kernel(_softplus_backward, nargs=2)
hardtanh = _hardtanh_kernel()
hardtanh_backward = _float_kernel(_hardtanh_backward, nargs=2)


def _threshold_backward_kernel():
    def kernel(grad_output, self, threshold):
        dtype = result_type(grad_output, self)
        return _ensure_array(_threshold_backward(_np(grad_output, dtype), self._np, threshold), dtype)

    def meta(grad_output, self, threshold):
        shape = broadcast_shapes(tuple(grad_output.shape), tuple(self.shape))
        return fake_empty(shape, result_type(grad_output, self), pointwise_strides(shape, [self, grad_output]))

    return _laid_out(kernel, meta)


threshold_backward = _threshold_backward_kernel()


def _threshold_kernel():
    def kernel(self, threshold, value):
        return _ensure_array(_threshold(self._np, threshold, value), self.dtype)

    def meta(self, threshold, value):
        return fake_empty(self.shape, self.dtype, pointwise_strides(self.shape, [self]))

    return _laid_out(kernel, meta)


threshold = _threshold_kernel()


# ---------------------------------------------------------------- where, clamp, masked_fill, lerp
def _where_kernel():
    def kernel(condition, self, other):
        if condition.dtype is not _dtype.bool_ and condition.dtype is not _dtype.uint8:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype {str(condition.dtype)[6:].capitalize()}")
        dtype = result_type(self, other)
        shapes = [tuple(t.shape) for t in (condition, self, other) if isinstance(t, Tensor)]
        broadcast_shapes(*shapes)
        return _ensure_array(np.where(condition._np, _np(self, dtype), _np(other, dtype)), dtype)

    def meta(condition, self, other):
        tensors = [t for t in (condition, self, other) if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        return fake_empty(shape, result_type(self, other), pointwise_strides(shape, tensors))

    return _laid_out(kernel, meta)


where = _where_kernel()


def _clamp_dtype(self, lo, hi):
    return result_type(self, *(v for v in (lo, hi) if v is not None))


def _clamp_kernel():
    def kernel(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        dtype = _clamp_dtype(self, min, max)
        x = _np(self, dtype)
        if min is not None:
            x = np.maximum(x, _np(min, dtype))
        if max is not None:
            x = np.minimum(x, _np(max, dtype))
        if x is self._np:
            x = x.copy()
        return _ensure_array(x, dtype)

    def meta(self, min=None, max=None):
        tensors = [t for t in (self, min, max) if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        return fake_empty(shape, _clamp_dtype(self, min, max), pointwise_strides(shape, tensors))

    return _laid_out(kernel, meta)


clamp = _clamp_kernel()


def _clamp_min_kernel():
    k, m = _clamp_kernel()
    return (lambda self, min: k(self, min, None)), (lambda self, min: m(self, min, None))


def _clamp_max_kernel():
    k, m = _clamp_kernel()
    return (lambda self, max: k(self, None, max)), (lambda self, max: m(self, None, max))


clamp_min = _clamp_min_kernel()
clamp_max = _clamp_max_kernel()


def _masked_fill_kernel():
    def kernel(self, mask, value):
        if mask.dtype is not _dtype.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype}")
        if isinstance(value, Tensor):
            if value.dim() != 0:
                raise RuntimeError(
                    f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.dim()} dimension(s)."
                )
            value = value._np
        shape = broadcast_shapes(tuple(self.shape), tuple(mask.shape))
        if shape != tuple(self.shape):
            raise RuntimeError(
                f"The expanded size of the tensor ({self.shape[-1] if self.dim() else 0}) must match the existing size "
                f"at non-singleton dimension. masked_fill: mask of shape {tuple(mask.shape)} does not broadcast to {tuple(self.shape)}"
            )
        return np.where(mask._np, np.asarray(value).astype(self.dtype.np), self._np)

    def meta(self, mask, value):
        return fake_empty(self.shape, self.dtype)  # torch fills a contiguous clone of self

    return _laid_out(kernel, meta)


masked_fill = _masked_fill_kernel()


def _lerp_kernel():
    def kernel(self, end, weight):
        # ATen's formula: stable from both ends (weight < 0.5 starts at self, otherwise at end)
        dtype = result_type(self, end)
        compute = _dtype.float32 if dtype is _dtype.float16 else dtype  # ATen's opmath for half
        a, b = _np(self, compute), _np(end, compute)
        w = _np(weight, compute)
        if isinstance(w, float):
            result = a + w * (b - a) if -0.5 < w < 0.5 else b - (b - a) * (1 - w)
        else:
            result = np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))
        return _ensure_array(result, dtype)

    def meta(self, end, weight):
        tensors = [t for t in (self, end, weight) if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        return fake_empty(shape, result_type(self, end), pointwise_strides(shape, tensors))

    return _laid_out(kernel, meta)


lerp = _lerp_kernel()


def _addcmul_kernel(op):
    def kernel(self, tensor1, tensor2, *, value=1):
        dtype = result_type(self, tensor1, tensor2)
        if dtype is _dtype.bool_:
            raise _not_implemented("addcmul_cpu_out" if op is np.multiply else "addcdiv_cpu_out", dtype)
        compute = _dtype.float32 if dtype is _dtype.float16 else dtype  # ATen's opmath for half
        a, b, c = (_np(t, compute) for t in (self, tensor1, tensor2))
        return _ensure_array(a + value * op(b, c), dtype)

    def meta(self, tensor1, tensor2, *, value=1):
        tensors = [self, tensor1, tensor2]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        return fake_empty(shape, result_type(*tensors), pointwise_strides(shape, tensors))

    return _laid_out(kernel, meta)


addcmul = _addcmul_kernel(np.multiply)
addcdiv = _addcmul_kernel(np.true_divide)
