"""The torch-level pointwise functions: arithmetic, unary math, clamp, where, comparisons, logical and bitwise ops
(the rarer ones, atan2 to the bit shifts, are in _functions_common.py).

Runtime layer, between user code and the op registry (gathered into the `minitorch2` namespace by _functions.py). Each
function picks the overload PyTorch dispatches to from its arguments' kinds: `add(t, 2)` is `add.Tensor` with a Python
scalar, `eq(t, 2)` is `eq.Scalar`, `pow(2, t)` is `pow.Scalar`. A Python number in the first position is handled as
PyTorch's own functions handle it: swapped (`add`, `mul`), turned into the reversed op (`sub` into `rsub`) or wrapped in
a 0-dim tensor (`div`, `remainder`).
"""

from . import _dtype
from ._arg_parser import check_clamp_bounds
from ._functions_shape import _function_of, _t, alias_of, nonzero
from ._out import ANY, CAST, SAME, WHERE, out_variant
from ._ops import ops
from ._tensor import strided

aten = ops.aten


# ---------------------------------------------------------------- arithmetic
@out_variant(CAST)
def add(input, other, *, alpha=1):
    if not _t(input):
        input, other = other, input
    return aten.add.Tensor(input, other, alpha=alpha)  # (the schema drops an int 1, keeps 1.0 and True to check them)


@out_variant(CAST)
def sub(input, other, *, alpha=1):
    return aten.rsub.Scalar(other, input, alpha) if not _t(input) else aten.sub.Tensor(input, other, alpha=alpha)


subtract = alias_of(sub, "subtract")


def rsub(input, other, *, alpha=1):
    return aten.rsub.Tensor(input, other, alpha=alpha) if _t(other) else aten.rsub.Scalar(input, other, alpha)


@out_variant(CAST)
def mul(input, other):
    return aten.mul.Tensor(input, other) if _t(input) else aten.mul.Tensor(other, input)


multiply = alias_of(mul, "multiply")


@out_variant(CAST)
def div(input, other, *, rounding_mode=None):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    if rounding_mode is not None:
        return aten.div.Tensor_mode(input, other, rounding_mode=rounding_mode)
    return aten.div.Tensor(input, other)


divide, true_divide = alias_of(div, "divide"), alias_of(div, "true_divide")


@out_variant(CAST, differentiable=False)
def floor_divide(input, other):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    return aten.floor_divide.default(input, other)


@out_variant(CAST)
def remainder(input, other):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    return aten.remainder.Tensor(input, other) if _t(other) else aten.remainder.Scalar(input, other)


def scalar_tensor_like(value, like):  # (a float in the op's dtype, as torch's wrapped number: 0.3 // float64 x)
    dtype = _dtype.opmath(_dtype.result_type(value, like)) if isinstance(value, (float, complex)) else \
        _dtype.scalar_dtype(value)
    return aten.scalar_tensor.default(value, dtype=dtype)


@out_variant(CAST)
def pow(input, exponent):
    if not _t(input):
        return aten.pow.Scalar(input, exponent)
    return (aten.pow.Tensor_Tensor if _t(exponent) else aten.pow.Tensor_Scalar)(input, exponent)


@out_variant(CAST)
def square(input):
    return aten.pow.Tensor_Scalar(input, 2)


def _functions_of(names, rule=None, overload="default", **out_options):
    """torch.<name> for each name: a function that only calls aten.<name>.<overload> (_function_of)."""
    for name in names.split():
        globals()[name] = _function_of(getattr(getattr(aten, name), overload), rule, **out_options)


_functions_of("maximum minimum addcmul addcdiv exp expm1 log log1p sin cos sqrt rsqrt reciprocal tanh sigmoid erf",
              CAST)
_functions_of("neg abs sign sgn floor ceil trunc clamp_min clamp_max", SAME)
_functions_of("relu relu_ isnan isinf isfinite")
_functions_of("logical_not logical_and logical_or logical_xor", ANY, differentiable=False)
bitwise_not = _function_of(aten.bitwise_not.default, SAME, differentiable=False)
negative, absolute = alias_of(neg, "negative"), alias_of(abs, "absolute")  # noqa: F821 (neg, abs: _functions_of)


@out_variant(SAME)
def round(input, *, decimals=0):
    return aten.round.decimals(input, decimals=decimals) if decimals != 0 else aten.round.default(input)


@out_variant(SAME)
def clamp(input, min=None, max=None):
    min, max = check_clamp_bounds("clamp", min, max)
    return (aten.clamp.Tensor if _t(min) or _t(max) else aten.clamp.default)(input, min, max)


clip = alias_of(clamp, "clip")


@out_variant(WHERE)
def where(condition, input=None, other=None):
    """ATen's where overloads: a Python number becomes a scalar_tensor of the result dtype (the other scalar first when
    both are numbers) and a tensor of another dtype is converted first, so the graph records what PyTorch's records."""
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
    return aten.masked_fill.Tensor(input, mask, value) if _t(value) else aten.masked_fill.Scalar(input, mask, value)


# ---------------------------------------------------------------- comparisons
def _compare(name):
    tensor_op = getattr(aten, name).Tensor
    scalar_op = getattr(aten, name).Scalar

    def fn(input, other):
        return tensor_op(input, other) if _t(other) else scalar_op(input, other)

    fn.__name__ = fn.__qualname__ = name
    return out_variant(ANY, differentiable=False)(fn)


eq, ne, lt, le, gt, ge = map(_compare, ("eq", "ne", "lt", "le", "gt", "ge"))
greater, greater_equal, less, less_equal, not_equal = (alias_of(fn, name) for fn, name in [  # noqa: F821
    (gt, "greater"), (ge, "greater_equal"), (lt, "less"), (le, "less_equal"), (ne, "not_equal")])


def equal(input, other):
    return tuple(input.shape) == tuple(other.shape) and bool(aten.eq.Tensor(input, other).all())
