"""The machinery every pointwise kernel is built from: operand conversion and kernel factories.

Runtime layer, beneath the pointwise rows of the op table (pointwise.py gathers the kernels; pointwise_arithmetic.py
and pointwise_unary.py define them with the factories here). A factory turns a numpy computation into a (kernel,
meta) pair: the kernel decides the result dtype with PyTorch's promotion rules (minitorch2/_dtype.py), converts
tensor operands to it and computes; the meta function gives the broadcast shape, the same dtype and TensorIterator's
output strides. The one idea to hold: Python scalars stay "weak" (`_np` passes them through unconverted, a Python
int wrapped into an integer dtype), so they never widen a tensor's dtype, exactly as in PyTorch.
"""
import numpy as np

from .. import _dtype
from .._dtype import result_type
from .._tensor import Tensor, contiguous_strides
from .memory import _dtype_title
from .meta_util import broadcast_shapes, fake_empty, pointwise_strides, preserve_format_strides, with_strides


def _np(value, dtype):
    """A tensor operand as a numpy array of `dtype`; Python scalars pass through (weakly typed)."""
    if isinstance(value, Tensor):
        return value._np.astype(dtype.np, copy=False)
    value = value.item() if isinstance(value, np.generic) else value  # (numpy's scalars are weak numbers to ATen)
    if dtype.category == 2 and isinstance(value, bool):
        return float(value)
    if type(value) is int:  # wraps into an integer dtype as c10's Scalar does; numpy would raise OverflowError
        return _dtype.wrapped_int(value, dtype) if dtype.category == 1 else _dtype.unpack_int(value)
    return value


def scalar_argument(value, dtype):
    """A kernel's Scalar argument (clamp's bounds, alpha, threshold's) in its computation dtype: c10's checked
    conversion (uint8's alpha=1000 raises; an int wraps into an unsigned type as ATen's does). Metas leave the
    check to the kernel, as torch's do."""
    return np.asarray(_dtype.checked_scalar(value, dtype, half_overflows=True), dtype.np)


def _float_dtype(dtype):
    return dtype if dtype.is_inexact else _dtype.get_default_dtype()


def _ensure_array(result, dtype):
    return np.asarray(result, dtype=dtype.np)  # (an array of that dtype already is returned as it is)


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
        with np.errstate(all="ignore"):  # (half in float32, rounded once: ATen's opmath)
            return _ensure_array(ufunc(_np(self, _dtype.opmath(dtype))), dtype)

    def meta(self):
        return fake_empty(self.shape, _float_dtype(self.dtype), pointwise_strides(self.shape, [self]))

    return _laid_out(kernel, meta)


def unary_same(fn, bool_error=None):
    """neg, abs, relu, threshold, ...: the result keeps the input's dtype (scalar arguments after self go to `fn`
    as they are). `bool_error`: the RuntimeError message for a bool input, raised by the meta function too
    (FakeTensor tracing rejects it as eager does)."""

    def refuse_bool(self):
        if bool_error is not None and self.dtype is _dtype.bool_:
            raise RuntimeError(bool_error)

    def kernel(self, *args):
        refuse_bool(self)
        with np.errstate(all="ignore"):
            return _ensure_array(fn(self._np, *args), self.dtype)

    def meta(self, *args):
        refuse_bool(self)
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


def _check_broadcast(self, other):
    if isinstance(self, Tensor) and isinstance(other, Tensor) and self._shape != other._shape:
        broadcast_shapes(self._shape, other._shape)


def binary(fn, out="promote", reverse=False, scalar_in_float32=False):
    """add, mul, maximum, ...: `out` is "promote" (common dtype), "float" (true division) or "bool" (comparisons).
    `reverse`: the op computes `other OP self` (rsub), so `other` leads the output's layout. `scalar_in_float32`
    (mul, div): a float16 result with a scalar `other` (a number or a 0-d tensor) is computed in float32 from the
    scalar's own value and rounded once, as ATen's CPU kernels do (x * 0.01 is not x * half(0.01))."""

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
        dtype = math = compute_dtype(self, other)
        if scalar_in_float32 and dtype in _dtype.HALVES and not (isinstance(other, Tensor) and other.dim()):
            math = _dtype.float32
        with np.errstate(all="ignore"):
            result = fn(_np(self, math), _np(other, math), *extra, dtype=math, **kwargs)
        return _ensure_array(result, _dtype.bool_ if out == "bool" else dtype)

    def meta(self, other, *args, **kwargs):
        tensors = [t for t in (self, other) if isinstance(t, Tensor)]
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        operands = (other, self) if reverse else (self, other)
        return fake_empty(shape, out_dtype(self, other), pointwise_strides(shape, operands))

    return _laid_out(kernel, meta)


def _not_implemented(name, dtype):
    return NotImplementedError(f"\"{name}\" not implemented for '{_dtype_title(dtype)}'")
