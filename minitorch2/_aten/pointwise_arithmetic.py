"""Pointwise kernels of the binary and multi-operand ops: arithmetic, comparisons, logical and bitwise ops,
where, clamp, masked_fill, addcmul and addcdiv.

Runtime layer: (kernel, meta) pairs for the op table's rows (read through pointwise.py), built with the factories of
pointwise_factories.py. Each numpy helper (`_add`, `_div`, ...) gets its operands already converted to the promoted
dtype and raises the errors ATen raises for dtypes it refuses (bool subtraction, integer division by zero, ...).
"""
import numpy as np

from .. import _dtype
from .._dtype import result_type
from .._tensor import Tensor
from .._out import _CPP_TYPE
from .memory import _dtype_title
from .meta_util import broadcast_shapes, fake_empty, fake_pointwise, pointwise_strides
from .pointwise_factories import _ensure_array, _laid_out, _not_implemented, _np, binary, scalar_argument
from .pow_forms import addcmul_check, aten_pow, integer_power_check


# ---------------------------------------------------------------- arithmetic
def _add(a, b, alpha=1, *, dtype):
    if dtype is _dtype.bool_:
        return np.logical_or(a, b) if alpha else a
    return np.add(a, b) if alpha == 1 else np.add(a, np.multiply(b, scalar_argument(alpha, dtype)))


def _sub(a, b, alpha=1, *, dtype):
    negated = alpha if type(alpha) is int and alpha == -2 ** 63 else -alpha  # (ATen's sub adds -alpha, an int64 Scalar)
    return np.subtract(a, b) if alpha == 1 else np.add(a, np.multiply(b, scalar_argument(negated, dtype)))


def _alpha_check(self, other, alpha=1, *, in_meta=False):
    """ATen's alpha_check: a float alpha needs a floating result (in torch's meta, a non-bool one), a complex one a
    complex result, a bool alpha a bool one (not in torch's meta)."""
    dtype = result_type(self, other)
    if isinstance(alpha, bool) and dtype is not _dtype.bool_ and not in_meta:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and not dtype.is_inexact and not (in_meta and dtype is _dtype.bool_):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if isinstance(alpha, complex) and not dtype.is_complex:
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")


def _sub_check(self, other, alpha=1, *, in_meta=False):
    """ATen's sub_check: no bool operand at all (a Python bool counts; torch's meta refuses two bool tensors only);
    then alpha_check."""
    bools = [x.dtype is _dtype.bool_ if isinstance(x, Tensor) else isinstance(x, bool) for x in (self, other)]
    if all(bools) and (not in_meta or all(isinstance(x, Tensor) for x in (self, other))):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if any(bools) and not in_meta:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    _alpha_check(self, other, alpha, in_meta=in_meta)


def _checked(impl, check):
    """A (kernel, meta) pair that runs `check` on the operands first; the meta skips those only ATen's kernel makes."""
    kernel, meta = impl

    def checked_kernel(self, other, *args, **kwargs):
        check(self, other, *args, **kwargs)
        return kernel(self, other, *args, **kwargs)

    def checked_meta(self, other, *args, **kwargs):
        check(self, other, *args, **kwargs, in_meta=True)
        return meta(self, other, *args, **kwargs)

    return checked_kernel, checked_meta


def _rsub(a, b, alpha=1, *, dtype):
    return _sub(b, a, alpha, dtype=dtype)


def _mul(a, b, *, dtype):
    return np.logical_and(a, b) if dtype is _dtype.bool_ else np.multiply(a, b)


def _div(a, b, *, dtype, rounding_mode=None):
    if rounding_mode is None:
        return np.true_divide(a, b)
    if dtype is _dtype.bool_ or dtype.is_complex:  # (complex: from a complex Python number)
        raise _not_implemented(f"div_{rounding_mode}_cpu", dtype)
    if rounding_mode == "trunc":
        if dtype.is_floating_point:
            return np.trunc(np.true_divide(a, b))
        _check_int_division(a, b)
        q = np.floor_divide(a, b)
        return np.where((np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0)), q + 1, q)
    if rounding_mode == "floor":
        if not dtype.is_floating_point:
            _check_int_division(a, b)
        return np.floor_divide(a, b)
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")


def _check_int_division(a, b):
    """ATen raises for an integer division by zero, over the elements computed (none for an empty tensor)."""
    if np.any(np.broadcast_arrays(np.asarray(a), np.asarray(b))[1] == 0):
        raise RuntimeError("ZeroDivisionError")


def _remainder(a, b, *, dtype):
    if dtype is _dtype.bool_ or dtype.is_complex:
        raise _not_implemented("remainder_cpu", dtype)
    if not dtype.is_floating_point:
        _check_int_division(a, b)
        return np.remainder(a, b)
    return float_remainder(a, b)


def float_remainder(a, b):
    """ATen's: fmod moved toward the divisor's sign when it is not zero, so a zero remainder keeps the
    dividend's sign (-3. % 3. is -0.; numpy's remainder gives the divisor's)."""
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((mod < 0) != (np.asarray(b) < 0)), mod + b, mod)


def _maximum(a, b, *, dtype):
    return prefer_first(a, b, np.greater) if dtype.is_floating_point else np.maximum(a, b)


def _minimum(a, b, *, dtype):
    return prefer_first(a, b, np.less) if dtype.is_floating_point else np.minimum(a, b)


def prefer_first(a, b, beats):
    """ATen's maximum/minimum of floats: NaN wins, and of equal values the first operand is kept, so
    maximum(0., -0.) is 0. and maximum(-0., 0.) is -0. (numpy's keeps the second)."""
    b = np.asarray(b)
    return np.where(beats(b, a) | np.isnan(b), b, a)


def _logical(fn):
    def compute(a, b, *, dtype):
        return fn(np.asarray(a).astype(bool, copy=False), np.asarray(b).astype(bool, copy=False))

    return compute


def _bitwise(fn):
    def compute(a, b, *, dtype):
        if dtype.is_inexact:  # (complex too)
            raise _not_implemented(f"{fn.__name__}_cpu", dtype)
        return fn(a, b)

    return compute


def _any_dtype(fn):
    """A binary numpy function that computes every promoted dtype alike (comparisons)."""
    return lambda a, b, *, dtype: fn(a, b)


add = _checked(binary(_add), _alpha_check)
sub = _checked(binary(_sub), _sub_check)
rsub = _checked(binary(_rsub, reverse=True), _sub_check)
mul = binary(_mul, scalar_in_float32=True)
div = binary(_div, out="float", scalar_in_float32=True)
def _refused_in_meta(impl, kernel_name, refused=lambda dtype: dtype is _dtype.bool_):
    """The meta refuses the result dtypes the kernel refuses (bool, unless `refused` says otherwise), so a trace
    fails where eager does; `kernel_name(**kwargs)` names ATen's kernel (None: nothing is refused) or is the error."""
    kernel, meta = impl

    def checked_meta(self, other, *args, **kwargs):
        out = meta(self, other, *args, **kwargs)
        name = kernel_name(**kwargs)
        if name and refused(out.dtype):
            raise name if isinstance(name, Exception) else _not_implemented(name, out.dtype)
        return out

    return kernel, checked_meta


remainder = _refused_in_meta(binary(_remainder), lambda: "remainder_cpu")
maximum = binary(_maximum)
minimum = binary(_minimum)
eq = binary(_any_dtype(np.equal), out="bool")
ne = binary(_any_dtype(np.not_equal), out="bool")
lt = binary(_any_dtype(np.less), out="bool")
le = binary(_any_dtype(np.less_equal), out="bool")
gt = binary(_any_dtype(np.greater), out="bool")
ge = binary(_any_dtype(np.greater_equal), out="bool")
logical_and = binary(_logical(np.logical_and), out="bool")
logical_or = binary(_logical(np.logical_or), out="bool")
logical_xor = binary(_logical(np.logical_xor), out="bool")
bitwise_and = binary(_bitwise(np.bitwise_and))
bitwise_or = binary(_bitwise(np.bitwise_or))
bitwise_xor = binary(_bitwise(np.bitwise_xor))


def _div_mode():
    """div.Tensor_mode: true division (div) without a rounding mode, else rounded in the promoted dtype."""
    rounded = binary(_div, scalar_in_float32=True)

    def pick(which):
        return lambda self, other, *, rounding_mode=None: (
            div[which](self, other) if rounding_mode is None else rounded[which](self, other, rounding_mode=rounding_mode))

    return pick(0), pick(1)


div_mode = _refused_in_meta(_div_mode(), lambda rounding_mode=None: rounding_mode and (  # (floor: torch's ref's words)
    f"div_{rounding_mode}_cpu" if rounding_mode != "floor" else RuntimeError("torch.bool not supported for floor_divide")))


def _pow_kernel():
    """ATen builds pow.Tensor_Scalar as a unary op: a Scalar exponent is no TensorIterator operand,
    so `self` alone decides the output's layout."""
    kernel, meta = _checked(binary(aten_pow), integer_power_check)

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


# ---------------------------------------------------------------- where, clamp, masked_fill
def _where_kernel():
    def kernel(condition, self, other):
        if condition.dtype is not _dtype.bool_ and condition.dtype is not _dtype.uint8:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype {_dtype_title(condition.dtype)}")
        dtype = result_type(self, other)
        broadcast_shapes(*(tuple(t.shape) for t in (condition, self, other) if isinstance(t, Tensor)))
        return _ensure_array(np.where(condition._np, _np(self, dtype), _np(other, dtype)), dtype)

    def meta(condition, self, other):
        return fake_pointwise(result_type(self, other), (condition, self, other))

    return _laid_out(kernel, meta)


where = _where_kernel()


def _clamp_dtype(self, lo, hi):
    """ATen's clamp promotes a floating self by tensor bounds only (it reads Scalar bounds as doubles)."""
    bounds = [v for v in (lo, hi) if v is not None]
    if any(isinstance(v, Tensor) for v in bounds):
        return result_type(self, *bounds)
    return _real_bound(self.dtype if self.dtype.is_floating_point else result_type(self, *bounds))


def _real_bound(bound):
    """A Scalar bound (of clamp_min, clamp_max), or the dtype Scalar bounds promote clamp to: never complex."""
    if isinstance(bound, complex) or isinstance(bound, _dtype.dtype) and bound.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    return bound


def _clamp_kernel():
    def kernel(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        broadcast_shapes(*(tuple(t.shape) for t in (self, min, max) if isinstance(t, Tensor)))  # (ATen's words)
        dtype = _clamp_dtype(self, min, max)
        if dtype is _dtype.bool_:
            _refuse_bool_clamp(min, max)
        x = _np(self, dtype)
        floating = dtype.is_floating_point
        min, max = (_dtype.checked_scalar(b, _dtype.float64) if isinstance(b, complex) else b for b in (min, max))
        min, max = (scalar_argument(b, dtype) if isinstance(b, (int, float)) else b for b in (min, max))
        if min is not None:  # (a float bound equal to x keeps x: clamp(-0., min=0.) is -0., as ATen's)
            x = prefer_first(x, _np(min, dtype), np.greater) if floating else np.maximum(x, _np(min, dtype))
        if max is not None:
            x = prefer_first(x, _np(max, dtype), np.less) if floating else np.minimum(x, _np(max, dtype))
        if x is self._np:
            x = x.copy()
        return _ensure_array(x, dtype)

    def meta(self, min=None, max=None):
        return fake_pointwise(_clamp_dtype(self, min, max), (self, min, max))

    return _laid_out(kernel, meta)


def _refuse_bool_clamp(min, max):
    """ATen's clamp kernels have no bool version, but for clamp.Tensor with one bound (a maximum or minimum)."""
    tensors = isinstance(min, Tensor) or isinstance(max, Tensor)
    if not (tensors and (min is None or max is None)):
        name = "clamp" if tensors or (min is not None and max is not None) else "clamp_min" if max is None else "clamp_max"
        raise _not_implemented(f"{name}{'' if tensors else '_scalar'}_cpu", _dtype.bool_)


clamp = _clamp_kernel()


clamp_min = tuple(lambda self, min, f=f: f(self, _real_bound(min), None) for f in clamp)
clamp_max = tuple(lambda self, max, f=f: f(self, None, _real_bound(max)) for f in clamp)


def _masked_fill_kernel():
    def kernel(self, mask, value):
        if mask.dtype is not _dtype.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {_CPP_TYPE[mask.dtype.name]}")
        if isinstance(value, Tensor):
            if value.dim() != 0:
                raise RuntimeError(
                    f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.dim()} dimension(s).")
            value = value._np
        else:
            value = _dtype.checked_scalar(value, self.dtype, half_overflows=True)
        return np.where(mask._np, np.asarray(value).astype(self.dtype.np), self._np)  # (self and mask broadcast)

    def meta(self, mask, value):
        if not isinstance(value, Tensor):
            _dtype.checked_scalar(value, self.dtype, half_overflows=True)
        return fake_empty(broadcast_shapes(tuple(self.shape), tuple(mask.shape)), self.dtype)  # (a contiguous clone)

    return _laid_out(kernel, meta)


masked_fill = _masked_fill_kernel()


def _addcmul_kernel(op):
    """self + value * tensor1 OP tensor2, left to right as ATen writes it (value scales tensor1 first).
    ATen's vectorized addcmul is then one fma(value * tensor1, tensor2, self), which numpy cannot do
    without costing several times as much: ours rounds the product first, so a few results in a thousand
    differ from torch's in the last bit (float64 with value=1: about half). addcdiv is bit for bit."""
    def kernel(self, tensor1, tensor2, *, value=1):
        meta(self, tensor1, tensor2)  # ATen's errors (shapes, dtypes), not numpy's
        dtype = result_type(self, tensor1, tensor2)
        compute = _dtype.opmath(dtype)  # ATen's opmath for half
        a, b, c = (_np(t, compute) for t in (self, tensor1, tensor2))
        return _ensure_array(a + op(value * b, c), dtype)

    def meta(self, tensor1, tensor2, *, value=1):
        dtype = result_type(self, tensor1, tensor2)
        addcmul_check("addcmul" if op is np.multiply else "addcdiv", dtype, tensor1, tensor2)
        return fake_pointwise(dtype, (self, tensor1, tensor2))

    return _laid_out(kernel, meta)


addcmul = _addcmul_kernel(np.multiply)
addcdiv = _addcmul_kernel(np.true_divide)
