"""The torch-level forms of commonly used functions beyond the core set (norm, median, cummax, special functions,
unique, searchsorted, cdist) and issue 20's names scripts reach for (ravel, matrix_power, logspace, in-place forms).

Runtime layer (gathered into the `minitorch2` namespace by _functions.py). The first group is written in
_functions_common_math.py and re-exported here; this module holds issue 20's names and the Tensor methods that go
with them (tensor_methods()). Shape functions beyond the core set are in _functions_shape_more.py. Composites
(logspace, matrix_power, renorm, ...) call the ops torch's call, in the same order, so traced graphs record what
torch's record.
"""
import math
import warnings
from builtins import range as builtins_range

import numpy as np

from . import _dtype, _factories, _tensor_str
from ._aten import range_values
from ._aten.memory import _dtype_title
from ._aten.meta_util import broadcast_shapes as broadcast_shapes_of
from ._functions_common_math import (  # noqa: F401  (re-exported: _functions.py gathers them from here)
    abs_, acos, arccos, arcsin, arctan, arctan2, argwhere, asin, atan, atan2, baddbmm, bincount, bitwise_and,
    bitwise_left_shift, bitwise_or, bitwise_right_shift, bitwise_xor, bucketize, cdist, cosh, count_nonzero, cummax,
    cummax_type, cummin, cummin_type, cumprod, digamma, erfinv, exp2, fix, float_power, fmod, frac, heaviside, hypot,
    isin, kthvalue, kthvalue_type, lerp,
    lgamma, log2, log10, logaddexp, logit, logsumexp, masked_select, median, median_type, nan_to_num, nanmean,
    nansum, norm, polygamma, prod, roll, searchsorted, signbit, sinh, std_mean, sum_to_size, tan, trace,
    tril_indices, triu_indices, unique, unique_consecutive, xlogy)
from ._functions_linalg import dot, matmul
from ._inference_tensors import is_inference  # noqa: F401  (re-exported, torch.is_inference)
from ._functions_pointwise import floor_divide, scalar_tensor_like
from ._functions_shape import _function_of, alias_of, chunk, flatten, split
from ._functions_shape_more import flip, vstack
from ._functions_sorting import sort
from ._tensor import Size, Tensor, contiguous_format, device, wrap_dim
from ._ops import ops

aten = ops.aten


# ---------------------------------------------------------------- issue 20: the names scripts stop at
# torch-level functions of table_more.py's rows and composites of existing ops; Tensor methods in tensor_methods()
acosh, asinh, atanh = (_function_of(getattr(aten, name).default) for name in ("acosh", "asinh", "atanh"))
arccosh, arcsinh, arctanh = alias_of(acosh, "arccosh"), alias_of(asinh, "arcsinh"), alias_of(atanh, "arctanh")
deg2rad, rad2deg = _function_of(aten.deg2rad.default), _function_of(aten.rad2deg.default)
fmax, fmin, logaddexp2, nextafter, gcd, lcm = (_function_of(getattr(aten, name).default) for name in (
    "fmax", "fmin", "logaddexp2", "nextafter", "gcd", "lcm"))
select_scatter = _function_of(aten.select_scatter.default)
slice_scatter = _function_of(aten.slice_scatter.default)
diagonal_scatter = _function_of(aten.diagonal_scatter.default)
row_stack = alias_of(vstack, "row_stack")


def ravel(input):
    """torch's: contiguous(), then a flat view (a copy only when the input is not contiguous)."""
    return aten.view.default(input.contiguous(), [-1])


def fliplr(input):
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, [1])


def flipud(input):
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, [0])


def positive(input):
    if input.dtype is _dtype.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def isneginf(input):
    return aten.eq.Scalar(_real_only(input, "isneginf"), -math.inf)


def isposinf(input):
    return aten.eq.Scalar(_real_only(input, "isposinf"), math.inf)


def _real_only(input, name):
    if input.dtype.is_complex:
        raise RuntimeError(f"{name} does not support complex inputs.")
    return input


def isreal(input):
    """Every real tensor is real; a complex element is where its imaginary part is 0."""
    if input.dtype.is_complex:
        return aten.eq.Scalar(aten.select.int(aten.view_as_real.default(input), input.dim(), 1), 0)
    return aten.ones_like.default(input, dtype=_dtype.bool_)


def is_signed(input):
    return input.dtype not in (_dtype.uint8, _dtype.bool_)


def is_complex(input):
    return input.is_complex()  # (always False: minitorch2 has no complex dtypes)


def is_same_size(input, other):
    return tuple(input.shape) == tuple(other.shape)


def dist(input, other, p=2):
    """The p-norm of the difference (torch has an op of its own: grad_fn DistBackward0 there)."""
    return aten.linalg_vector_norm.default(aten.sub.Tensor(input, other), p)


def vdot(input, other):
    """The dot product of input's conjugate with other (torch names its grad_fn VdotBackward0)."""
    return dot(input.conj(), other)


def matrix_exp(input):
    """exp of (batches of) square matrices: ATen's linalg_matrix_exp op (its kernel and derivative: _aten/linalg_more.py)."""
    return aten.linalg_matrix_exp.default(input)


def matrix_power(input, n):
    """torch's linalg_matrix_power for n >= 0: identity, the matrix, a @ a, (a @ a) @ a, else binary powers."""
    if input.dim() < 2 or input.shape[-1] != input.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but they are "
                           f"{input.shape[-2] if input.dim() > 1 else 1} by {input.shape[-1]} matrices")
    if n < 0:
        raise NotImplementedError("minitorch2: matrix_power with a negative exponent (an inverse) is not supported")
    if n == 0:
        eye = aten.eye.default(input.shape[-1], dtype=input.dtype)
        return aten.clone.default(aten.expand.default(eye, list(input.shape)))
    if n <= 3:
        result = input if n == 1 else matmul(input, input)
        return aten.clone.default(result) if n == 1 else (result if n == 2 else matmul(result, input))
    result, power = None, input
    while n:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result


def msort(input):
    return sort(input, dim=0).values


def diagflat(input, offset=0):
    return aten.diag_embed.default(flatten(input), offset)


def ldexp(input, other):
    """input * 2**other, as torch composes it."""
    return aten.mul.Tensor(input, aten.pow.Scalar(2.0, other))


def unsafe_split(tensor, split_size, dim=0):
    return split(tensor, split_size, dim)


def unsafe_chunk(input, chunks, dim=0):
    return chunk(input, chunks, dim)


def split_with_sizes(input, split_sizes, dim=0):
    return aten.split_with_sizes.default(input, list(split_sizes), dim)


def narrow_copy(input, dim, start, length):
    return aten.clone.default(input.narrow(dim, start, length), memory_format=contiguous_format)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (an int stands for a 1-d shape), without making tensors."""
    return Size(broadcast_shapes_of(*((s,) if isinstance(s, int) else tuple(s) for s in shapes)))


def zero_(input):
    return aten.zero_.default(input)


def fill(input, value):
    return aten.fill.Tensor(input, value) if isinstance(value, Tensor) else aten.fill.Scalar(input, value)


def get_default_device():
    return device("cpu")


def set_default_device(place):
    """CPU only: None and 'cpu' are accepted, as they change nothing here."""
    if place is not None and device(place).type != "cpu":
        raise RuntimeError(f"minitorch2: set_default_device({place!r}): only the CPU is supported")


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False, layout=None,
             pin_memory=False):
    """base ** linspace(start, end, steps), in the default float dtype unless one is given, as ATen rounds it."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is _dtype.bool_:
        raise NotImplementedError("\"logspace_cpu\" not implemented for 'Bool'")
    values = range_values.logspace(start, end, steps, base, (dtype or _dtype.get_default_dtype()).np)
    return Tensor._from_numpy(values).requires_grad_(requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor shares the input's memory when it can (same dtype, no copy asked), as torch.asarray's does."""
    if isinstance(obj, Tensor):
        result = obj if dtype is None or dtype is obj.dtype else obj.to(dtype)
        result = aten.clone.default(result) if copy and result is obj else result
    else:
        result = _factories.tensor(obj, dtype=dtype)
    return result.requires_grad_(requires_grad) if requires_grad else result


def unravel_index(indices, shape):
    """The coordinates of flat indices in `shape`: one int64 tensor per dimension, remainder and floor division
    from the last dimension (no bounds check: torch's wraps an index past the end, or a negative one)."""
    indices = indices if isinstance(indices, Tensor) else _factories.tensor(indices)
    if indices.dtype.is_floating_point or indices.dtype is _dtype.bool_:
        raise TypeError("expected 'indices' to be integer dtype, but got " + str(indices.dtype))
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    flat = indices.to(_dtype.int64)
    coordinates = []
    for size in reversed(shape):
        coordinates.append(aten.remainder.Scalar(flat, size))
        flat = aten.div.Tensor_mode(flat, size, rounding_mode="floor")
    return tuple(reversed(coordinates))


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid rule along `dim`: spacing `dx` (1 by default) or the sample points `x`."""
    n = y.shape[wrap_dim(dim, y.dim())]
    left, right = y.narrow(dim, 0, max(n - 1, 0)), y.narrow(dim, 1, max(n - 1, 0))
    if x is None:
        areas = aten.mul.Scalar(aten.add.Tensor(left, right), (1 if dx is None else dx) / 2)
    else:
        spacing = x.narrow(dim if x.dim() > 1 else 0, 1, n - 1) - x.narrow(dim if x.dim() > 1 else 0, 0, n - 1)
        areas = aten.div.Scalar(aten.mul.Tensor(spacing, aten.add.Tensor(left, right)), 2)
    return aten.cumsum.default(areas, dim)


_WARNED_ONCE = {}


def set_default_tensor_type(t):
    """The deprecated form of set_default_dtype: a legacy type (minitorch2.DoubleTensor) or its name. Its
    warning comes once a process, as torch's (a TORCH_WARN_ONCE)."""
    if not _WARNED_ONCE.get("set_default_tensor_type"):
        _WARNED_ONCE["set_default_tensor_type"] = True
        warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                      "torch.set_default_dtype() and torch.set_default_device() as alternatives.", UserWarning)
    name = t if isinstance(t, str) else f"torch.{t.__name__}"
    dtypes = {"torch.FloatTensor": _dtype.float32, "torch.DoubleTensor": _dtype.float64,
              "torch.HalfTensor": _dtype.float16, "torch.BFloat16Tensor": _dtype.bfloat16}
    if name not in dtypes:
        raise TypeError(f"only floating-point types are supported as the default type (got {name})")
    _dtype.set_default_dtype(dtypes[name])


def range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False, layout=None,
          pin_memory=False):
    """The deprecated torch.range: both ends included, floor((end - start) / step) + 1 values, float by default."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
                  "in [start, end).", UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    count = math.floor((end - start) / step) + 1
    values = aten.add.Scalar(aten.mul.Scalar(_factories.arange(count, dtype=_dtype.float64), step), start)
    result = values.to(dtype or _dtype.get_default_dtype())
    return result.requires_grad_(requires_grad) if requires_grad else result


def _put_(self, index, source, accumulate=False):
    """self.put_: `source` written at the flat indices of self (as if it were 1-d), summed with accumulate; ATen's
    checks first (no casts: the index is int64, source has self's dtype)."""
    _put_arguments_are_tensors("put_", index, source)
    if index.dtype is not _dtype.int64 or source.dtype is not self.dtype:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_dtype_title(index.dtype)}"
                           if index.dtype is not _dtype.int64 else "put_(): self and source expected to have the same "
                           f"dtype, but got self.dtype = {_dtype_title(self.dtype)} and source.dtype = "
                           f"{_dtype_title(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError("put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    flat = self.reshape(-1)
    try:
        aten.index_put_.default(flat, [index.reshape(-1)], source.reshape(-1), accumulate)
    except IndexError:  # (the kernel's bounds check, in put_'s words)
        bad = next(i for i in index.reshape(-1).tolist() if not -self.numel() <= i < self.numel())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {self.numel()} elements.") from None
    if flat._storage is not self._storage or not self.is_contiguous():
        self.copy_(flat.view(list(self.shape)))
    return self


def put(input, index, source, accumulate=False):
    _put_arguments_are_tensors("put", index, source, first_position=2)
    return _put_(aten.clone.default(input), index, source, accumulate)


def _put_arguments_are_tensors(name, index, source, first_position=1):
    for position, (argument, value) in enumerate((("index", index), ("source", source)), first_position):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")


def renorm(input, p, dim, maxnorm):
    """Each slice along `dim` whose p-norm exceeds maxnorm scaled down to it (torch's grad_fn: RenormBackward0)."""
    if input.dim() < 2 or p <= 0 or maxnorm < 0:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} dimensions"
                           if input.dim() < 2 else "renorm: non-positive-norm not supported" if p <= 0 else
                           f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    dim = wrap_dim(dim, input.dim())
    others = [d for d in builtins_range(input.dim()) if d != dim]
    # (a half's norm in float32, as torch's: 65504 ** 2 overflows a float16)
    norms = aten.linalg_vector_norm.default(input, p, others, True,
                                            dtype=_dtype.float32 if input.dtype in _dtype.HALVES else None)
    factor = aten.where.self(aten.gt.Scalar(norms, maxnorm),
                             aten.div.Tensor(aten.scalar_tensor.default(float(maxnorm), dtype=norms.dtype),
                                             aten.add.Scalar(norms, 1e-7)),
                             aten.ones_like.default(norms))
    if factor.dtype is not input.dtype and not input.dtype.is_complex:
        factor = aten._to_copy.default(factor, dtype=input.dtype)
    return aten.mul.Tensor(input, factor)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """Uninitialised memory laid out with `stride`."""
    values = _factories.empty(0, dtype=dtype).new_empty_strided(list(size), list(stride))
    return values.requires_grad_(requires_grad) if requires_grad else values


class TypedStorage:
    """What the deprecated `Tensor.storage()` returns: the whole storage under the tensor, in its dtype (the
    elements' count, pointer, values), for scripts that read .storage().data_ptr(), .size() or len()."""

    def __init__(self, tensor):
        self._tensor, self.dtype = tensor, tensor.dtype
        self._untyped = tensor.untyped_storage()

    def data_ptr(self):
        return self._untyped.data_ptr()

    def element_size(self):
        return self._tensor.element_size()

    def nbytes(self):
        return self._untyped.nbytes()

    def size(self):
        return self.nbytes() // self.element_size()

    def __len__(self):
        return self.size()

    def tolist(self):
        return self._tensor._storage.reshape(-1).tolist()


def _storage(self):
    if not _WARNED_ONCE.get("TypedStorage"):
        _WARNED_ONCE["TypedStorage"] = True
        warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
                      "only storage class. This should only matter to you if you are using storages directly.  To "
                      "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
                      UserWarning, stacklevel=2)
    return TypedStorage(self)


_PRINT_PROFILES = {"default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
                   "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
                   "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """repr's settings (_tensor_str.py reads them at each call): a profile first, then the values given; sci_mode
    always (None, its default, lets each tensor choose again), as torch's."""
    _tensor_str.SCI_MODE = sci_mode
    chosen = dict(_PRINT_PROFILES[profile]) if profile else {}
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth)
    chosen.update({name: value for name, value in given.items() if value is not None})
    for name, value in chosen.items():
        setattr(_tensor_str, name.upper(), value)


def _in_place_of(name):
    """torch.<name>_(input, ...): the Tensor method of that name."""
    def fn(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    return fn


# the torch-level in-place functions torch has (torch.cos_(x) is x.cos_())
_TORCH_LEVEL_IN_PLACE = """acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ atanh_
    ceil_ clamp_max_ clamp_min_ clip_ cos_ cosh_ deg2rad_ erf_ erfc_ exp2_ exp_ expm1_ fill_ fix_ floor_ frac_ gcd_ i0_ lcm_
    ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ rad2deg_ reciprocal_ round_ rsqrt_ sigmoid_ sin_
    sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ detach_ index_put_ addmv_ resize_as_""".split()
globals().update({name: _in_place_of(name) for name in _TORCH_LEVEL_IN_PLACE})


def _tensor_or_scalar(packet, tensor="Tensor", scalar="Scalar"):
    """x.eq_(y) / x.eq_(0): the overload for a tensor or a number, as torch's binding picks it."""
    def method(self, other):
        return getattr(packet, tensor if isinstance(other, Tensor) else scalar)(self, other)

    return method


def _scalar_as_tensor(packet):
    """Ops whose in-place rows take a tensor only (bitwise_and_, logical_or_): a number becomes a 0-d tensor."""
    def method(self, other):
        if not isinstance(other, Tensor):
            other = scalar_tensor_like(other, self)
        return packet(self, other)

    return method


def _floor_divide_(self, other):
    """self // other written into self: refused, as ATen's in-place kernels refuse it, where the result's dtype cannot
    be cast to self's (bool //= 2, int8 //= 2.5)."""
    result = floor_divide(self, other)
    if not _dtype.can_cast(result.dtype, self.dtype):
        raise RuntimeError(f"result type {_dtype_title(result.dtype)} can't be cast to the desired output type "
                           f"{_dtype_title(self.dtype)}")
    return self.copy_(result)


def _float_power_(self, exponent):
    is_complex = self.dtype.is_complex or (exponent.dtype.is_complex if isinstance(exponent, Tensor)
                                           else isinstance(exponent, complex))
    double = _dtype.complex128 if is_complex else _dtype.float64
    if self.dtype is not double:
        raise RuntimeError(f"the base given to float_power_ has dtype {_dtype_title(self.dtype)} but the "
                           f"operation's result requires dtype {_dtype_title(double)}")
    if isinstance(exponent, Tensor):
        return aten.pow_.Tensor(self, exponent.to(double))
    return aten.pow_.Scalar(self, complex(exponent) if is_complex else float(exponent))


def _by_element(self, fn, *others):
    """apply_/map_: a Python callback on each element (CPU tensors), written back into self."""
    if self.requires_grad:
        raise RuntimeError("Can't call apply_() or map_() on Variable that requires grad. Use "
                           "var.detach().apply_() instead.")
    values = [fn(*items) for items in zip(self.flatten().tolist(),
                                          *(o.expand(self.shape).flatten().tolist() for o in others))]
    if values:
        self.copy_(Tensor._from_numpy(np.array(values, dtype=self.dtype.np).reshape(tuple(self.shape))))
    return self


def tensor_methods():
    """The Tensor methods of issue 20's names (_tensor_methods.install binds them)."""
    def alias(name):
        return lambda self, *args, **kwargs: getattr(self, name)(*args, **kwargs)

    methods = {name: alias(target) for name, target in (
        ("negative_", "neg_"), ("absolute_", "abs_"), ("arccos_", "acos_"), ("arcsin_", "asin_"),
        ("arctan_", "atan_"), ("arctan2_", "atan2_"), ("arccosh_", "acosh_"), ("arcsinh_", "asinh_"),
        ("arctanh_", "atanh_"), ("fix_", "trunc_"), ("clip_", "clamp_"), ("greater_", "gt_"),
        ("greater_equal_", "ge_"), ("less_", "lt_"), ("less_equal_", "le_"), ("not_equal_", "ne_"),
        ("greater_equal", "ge"), ("less_equal", "le"), ("not_equal", "ne"), ("swapdims", "transpose"),
        ("swapaxes_", "transpose_"), ("swapdims_", "transpose_"), ("subtract_", "sub_"), ("multiply_", "mul_"),
        ("divide_", "div_"), ("true_divide_", "div_"))}
    methods.update({f"{name}_": _tensor_or_scalar(getattr(aten, f"{name}_")) for name in (
        "eq", "ne", "lt", "le", "gt", "ge", "fmod", "remainder")})
    methods.update({f"{name}_": _tensor_or_scalar(getattr(aten, f"{name}_")) for name in (
        "bitwise_and", "bitwise_or", "bitwise_xor")})
    methods.update({f"{name}_": _scalar_as_tensor(getattr(aten, f"{name}_").default) for name in (
        "logical_and", "logical_or", "logical_xor", "heaviside", "gcd", "lcm")})
    functions = {name: globals()[name] for name in (
        "arccosh", "arcsinh", "arctanh", "ravel", "fliplr", "flipud", "positive", "isneginf", "isposinf", "isreal",
        "is_signed", "is_same_size", "dist", "vdot", "matrix_exp", "matrix_power", "msort", "diagflat", "ldexp",
        "unsafe_split", "unsafe_chunk", "split_with_sizes", "narrow_copy", "select_scatter", "slice_scatter",
        "diagonal_scatter")}
    methods.update(functions)
    methods.update({
        "bitwise_not_": lambda self: aten.bitwise_not_.default(self),
        "square_": lambda self: aten.pow_.Scalar(self, 2),
        "float_power_": _float_power_,
        "ldexp_": lambda self, other: self.mul_(aten.pow.Scalar(2.0, other)),
        "floor_divide_": _floor_divide_,
        "polygamma_": lambda self, n: self.copy_(aten.polygamma.default(n, self)),
        "get_device": lambda self: -1, "storage": _storage,
        "put_": _put_, "put": put, "renorm": renorm, "renorm_": lambda self, p, dim, maxnorm: self.copy_(
            renorm(self, p, dim, maxnorm)),
        "apply_": lambda self, callable: _by_element(self, callable),
        "map_": lambda self, other, callable: _by_element(self, callable, other),
    })
    return methods


__all__ = [
    "unique_consecutive", "atan2", "log2", "log10", "exp2", "tan", "asin", "acos", "atan", "sinh", "cosh", "lerp", "fmod",
    "bitwise_left_shift", "bitwise_right_shift", "baddbmm", "prod", "logsumexp", "roll",
    "acosh", "asinh", "atanh", "arccosh", "arcsinh", "arctanh", "deg2rad", "rad2deg", "fmax", "fmin", "logaddexp2",
    "nextafter", "gcd", "lcm", "select_scatter", "slice_scatter", "diagonal_scatter", "row_stack", "ravel", "fliplr",
    "flipud", "positive", "isneginf", "isposinf", "isreal", "is_signed", "is_complex", "is_same_size", "dist", "vdot",
    "matrix_exp", "matrix_power", "msort", "diagflat", "ldexp", "unsafe_split", "unsafe_chunk", "split_with_sizes",
    "narrow_copy", "broadcast_shapes", "zero_", "fill", "get_default_device", "set_default_device", "logspace", "asarray",
    "unravel_index", "cumulative_trapezoid", "empty_strided", "set_printoptions", "set_default_tensor_type", "range", "put", "renorm",
    *_TORCH_LEVEL_IN_PLACE, "is_inference",
]
