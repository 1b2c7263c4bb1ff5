"""The torch-level pointwise functions: arithmetic, unary math, clamp, where, comparisons, logical and bitwise ops.

Runtime layer, between user code and the op registry (gathered into the
`minitorch2` namespace by _functions.py). Each function picks the overload
PyTorch dispatches to from its arguments' kinds: `add(t, 2)` is `add.Tensor`
with a Python scalar, `eq(t, 2)` is `eq.Scalar`, `pow(2, t)` is `pow.Scalar`.
A Python number in the first position is handled as PyTorch's own functions
handle it: swapped (`add`, `mul`), turned into the reversed op (`sub` into
`rsub`) or wrapped in a 0-dim tensor (`div`, `remainder`).
"""
import numpy as np

from . import _dtype
from ._functions_shape import _function_of, _t, nonzero
from ._out import ANY, CAST, SAME, WHERE, out_variant
from ._ops import ops
from ._tensor import Tensor, strided

aten = ops.aten


# ---------------------------------------------------------------- arithmetic
@out_variant(CAST)
def add(input, other, *, alpha=1):
    if not _t(input):
        input, other = other, input
    if alpha == 1:
        return aten.add.Tensor(input, other)
    return aten.add.Tensor(input, other, alpha=alpha)


@out_variant(CAST)
def sub(input, other, *, alpha=1):
    if not _t(input):
        return aten.rsub.Scalar(other, input, alpha)
    if alpha == 1:
        return aten.sub.Tensor(input, other)
    return aten.sub.Tensor(input, other, alpha=alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    if _t(other):
        return aten.rsub.Tensor(input, other, alpha=alpha)
    return aten.rsub.Scalar(input, other, alpha)


@out_variant(CAST)
def mul(input, other):
    if not _t(input):
        input, other = other, input
    return aten.mul.Tensor(input, other)


multiply = mul


@out_variant(CAST)
def div(input, other, *, rounding_mode=None):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    if rounding_mode is not None:
        return aten.div.Tensor_mode(input, other, rounding_mode=rounding_mode)
    return aten.div.Tensor(input, other)


divide = true_divide = div


@out_variant(CAST, differentiable=False)
def floor_divide(input, other):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    return aten.div.Tensor_mode(input, other, rounding_mode="floor")


@out_variant(CAST)
def remainder(input, other):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    return aten.remainder.Tensor(input, other)


@out_variant(CAST)
def fmod(input, other):
    return aten.fmod.Tensor(input, other) if _t(other) else aten.fmod.Scalar(input, other)


def scalar_tensor_like(value, like):
    return aten.scalar_tensor.default(value, dtype=_dtype.scalar_dtype(value))


@out_variant(CAST)
def pow(input, exponent):
    if not _t(input):
        return aten.pow.Scalar(input, exponent)
    if _t(exponent):
        return aten.pow.Tensor_Tensor(input, exponent)
    return aten.pow.Tensor_Scalar(input, exponent)


neg = negative = _function_of(aten.neg.default, SAME)
maximum = _function_of(aten.maximum.default, CAST)
minimum = _function_of(aten.minimum.default, CAST)
atan2 = _function_of(aten.atan2.default, CAST)
lerp = _function_of(aten.lerp.Scalar, CAST)
addcmul = _function_of(aten.addcmul.default, CAST)
addcdiv = _function_of(aten.addcdiv.default, CAST)


abs = _function_of(aten.abs.default, SAME)
absolute = abs
exp = _function_of(aten.exp.default, CAST)
exp2 = _function_of(aten.exp2.default, CAST)
expm1 = _function_of(aten.expm1.default, CAST)
log = _function_of(aten.log.default, CAST)
log2 = _function_of(aten.log2.default, CAST)
log10 = _function_of(aten.log10.default, CAST)
log1p = _function_of(aten.log1p.default, CAST)
sin = _function_of(aten.sin.default, CAST)
cos = _function_of(aten.cos.default, CAST)
tan = _function_of(aten.tan.default, CAST)
asin = _function_of(aten.asin.default, CAST)
acos = _function_of(aten.acos.default, CAST)
atan = _function_of(aten.atan.default, CAST)
sinh = _function_of(aten.sinh.default, CAST)
cosh = _function_of(aten.cosh.default, CAST)
sqrt = _function_of(aten.sqrt.default, CAST)
rsqrt = _function_of(aten.rsqrt.default, CAST)
reciprocal = _function_of(aten.reciprocal.default, CAST)
tanh = _function_of(aten.tanh.default, CAST)
sigmoid = _function_of(aten.sigmoid.default, CAST)
erf = _function_of(aten.erf.default, CAST)
relu = _function_of(aten.relu.default)
sign = _function_of(aten.sign.default, SAME)
sgn = _function_of(aten.sgn.default, SAME)
floor = _function_of(aten.floor.default, SAME)
ceil = _function_of(aten.ceil.default, SAME)
trunc = _function_of(aten.trunc.default, SAME)


@out_variant(SAME)
def round(input, *, decimals=0):
    if decimals != 0:
        return aten.round.decimals(input, decimals=decimals)
    return aten.round.default(input)


logical_not = _function_of(aten.logical_not.default, ANY, differentiable=False)
bitwise_not = _function_of(aten.bitwise_not.default, SAME, differentiable=False)
isnan = _function_of(aten.isnan.default)
isinf = _function_of(aten.isinf.default)
isfinite = _function_of(aten.isfinite.default)


relu_ = _function_of(aten.relu_.default)


@out_variant(SAME)
def clamp(input, min=None, max=None):
    if _t(min) or _t(max):
        return aten.clamp.Tensor(input, min, max)
    return aten.clamp.default(input, min, max)


clip = clamp


clamp_min = _function_of(aten.clamp_min.default, SAME)
clamp_max = _function_of(aten.clamp_max.default, SAME)


@out_variant(WHERE)
def where(condition, input=None, other=None):
    """ATen's where overloads: a Python number becomes a scalar_tensor of the result dtype (the other
    scalar first when both are numbers) and a tensor of another dtype is converted first, so the graph
    records what PyTorch's records."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if _t(input) and _t(other):
        return aten.where.self(condition, input, other)
    if not _t(input) and not _t(other):
        dtype = _dtype.result_type(input, other)
        other = _where_scalar(other, dtype, condition)
        return aten.where.self(condition, _where_scalar(input, dtype, condition), other)
    tensor, number = (input, other) if _t(input) else (other, input)
    dtype = _dtype.result_type(tensor, number)
    number = _where_scalar(number, dtype, tensor)
    if tensor.dtype is not dtype:
        tensor = aten._to_copy.default(tensor, dtype=dtype)
    return aten.where.self(condition, tensor, number) if _t(input) else aten.where.self(condition, number, tensor)


def _where_scalar(value, dtype, like):
    return aten.scalar_tensor.default(value, dtype=dtype, layout=strided, device=like.device)


def masked_fill(input, mask, value):
    if _t(value):
        return aten.masked_fill.Tensor(input, mask, value)
    return aten.masked_fill.Scalar(input, mask, value)


# ---------------------------------------------------------------- comparisons
def _compare(name):
    tensor_op = getattr(aten, name).Tensor
    scalar_op = getattr(aten, name).Scalar

    def fn(input, other):
        return tensor_op(input, other) if _t(other) else scalar_op(input, other)

    fn.__name__ = fn.__qualname__ = name
    return out_variant(ANY, differentiable=False)(fn)


eq = _compare("eq")
ne = _compare("ne")
lt = _compare("lt")
le = _compare("le")
gt = _compare("gt")
ge = _compare("ge")
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


logical_and = _function_of(aten.logical_and.default, ANY, differentiable=False)
logical_or = _function_of(aten.logical_or.default, ANY, differentiable=False)
logical_xor = _function_of(aten.logical_xor.default, ANY, differentiable=False)
bitwise_and = _function_of(aten.bitwise_and.Tensor, CAST, differentiable=False)
bitwise_or = _function_of(aten.bitwise_or.Tensor, CAST, differentiable=False)
bitwise_xor = _function_of(aten.bitwise_xor.Tensor, CAST, differentiable=False)


@out_variant(CAST, differentiable=False)
def bitwise_left_shift(input, other):
    return _shift(aten.bitwise_left_shift, input, other)


@out_variant(CAST, differentiable=False)
def bitwise_right_shift(input, other):
    return _shift(aten.bitwise_right_shift, input, other)


def _shift(packet, input, other):
    """The overload torch's binding picks: a Python number on either side is a Scalar argument."""
    if not _t(input):
        return packet.Scalar_Tensor(input, other)
    return packet.Tensor(input, other) if _t(other) else packet.Tensor_Scalar(input, other)


def equal(input, other):
    return tuple(input.shape) == tuple(other.shape) and bool(aten.eq.Tensor(input, other).all())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    result = np.isclose(input.numpy(force=True), other.numpy(force=True), rtol=rtol, atol=atol, equal_nan=equal_nan)
    return Tensor._from_numpy(np.asarray(result))
