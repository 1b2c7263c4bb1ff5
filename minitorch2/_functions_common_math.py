"""The commonly used torch-level functions beyond the core set: norms and reductions (norm, prod, logsumexp, nanmean,
std_mean, median, kthvalue, cummax, sum_to_size, ...), the rarer pointwise math (atan2, the rarer trig and log
functions, fmod, lerp, the bit shifts, polygamma, xlogy, float_power) and selections and lookups whose sizes depend on
the data (masked_select, unique, isin, searchsorted, bucketize, cdist).

Runtime layer, coverage surface (re-exported by _functions_common.py, and so gathered into the `minitorch2`
namespace by _functions.py). Each calls the overload torch's binding picks (a Python number on either side is a
Scalar argument); composites (nanmean, float_power) call the ops torch's call, in the same order, so traced graphs
record what torch's record.
"""
from . import _dtype
from ._aten.derivatives_util import sum_to
from ._aten.memory import _dtype_title
from math import prod as _product
from ._aten.meta_util import broadcast_shapes as _broadcast_shapes
from ._aten.reductions import _mean_dtype
from ._functions_pointwise import trunc
from ._arg_parser import check_isclose, out_needs_dim
from ._functions_shape import _dims, _function_of, _t, alias_of
from ._ops import ops
from ._out import ANY, CAST, EXACT, FLOATING, MASKED_SELECT, REDUCTION, out_variant
from ._sym import SymInt
from .return_types import _ValuesIndices

aten = ops.aten

median_type, kthvalue_type, cummax_type, cummin_type = (
    type(name, (_ValuesIndices,), {"__module__": "torch.return_types"}) for name in ("median", "kthvalue", "cummax", "cummin"))


# ---------------------------------------------------------------- closeness
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """torch's: |input - other| <= atol + rtol * |other|, in tensor ops (a compiled frame records them), in torch's
    order; integers and bools compared in the default dtype (a uint8 difference would wrap), zero tolerances an
    equality."""
    rtol, atol = check_isclose(input, other, rtol, atol)
    close = input == other
    if equal_nan and input.dtype.is_inexact:
        close = close | (input.isnan() & other.isnan())
    if atol == rtol == 0:
        return close
    if not input.dtype.is_inexact:
        input, other = (t.to(_dtype.get_default_dtype()) for t in (input, other))
    allowed_error = (other * rtol).abs() + atol
    actual_error = (input - other).abs()
    return close | (actual_error.isfinite() & (actual_error <= allowed_error))


# ---------------------------------------------------------------- norms and reductions
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: a vector norm (linalg_vector_norm) over `dim`, 'fro' over at most two dims being the 2-norm;
    other string orders are linalg.matrix_norm's, over all dims when `dim` is None (which refuses more than two)."""
    dims = [dim] if isinstance(dim, (int, SymInt)) else (list(dim) if dim is not None else None)
    if isinstance(p, str) and (p != "fro" or (dims is not None and len(dims) > 2)):
        if out is not None:
            raise NotImplementedError(f"minitorch2: torch.norm with p={p!r} (a matrix norm) and out= is not supported")
        from .linalg import matrix_norm  # reason: linalg imports _functions_common, which imports this module
        return matrix_norm(input, p, list(range(input.dim())) if dims is None else dims, keepdim, dtype=dtype)
    return _vector_norm(input, 2.0 if p is None else 2 if p == "fro" else p, dims, keepdim, dtype=dtype, out=out)


_vector_norm = out_variant(EXACT, name="linalg_vector_norm")(aten.linalg_vector_norm.default)


cumprod = _function_of(aten.cumprod.default, ANY, dtype_from_out=REDUCTION)
baddbmm = _function_of(aten.baddbmm.default, EXACT)


@out_variant(out_needs_dim("prod"), dtype_from_out=REDUCTION)
def prod(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.prod.default(input, dtype=dtype)
    return aten.prod.dim_int(input, dim, keepdim, dtype=dtype)


@out_variant(FLOATING)
def logsumexp(input, dim, keepdim=False):
    return aten.logsumexp.default(input, _dims(dim), keepdim)


def roll(input, shifts, dims=None):
    # (a SymInt: an int argument's; a 0-d tensor: the int it holds, as torch's parser reads it)
    shifts = [shifts] if isinstance(shifts, (int, SymInt)) or getattr(shifts, "ndim", 1) == 0 else list(shifts)
    dims = [] if dims is None else _dims(dims)
    if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):  # (one shift and no dims: of the flat x)
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    return aten.roll.default(input, shifts, dims)
trace = _function_of(aten.trace.default)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    return aten.nansum.default(input, _dims(dim), keepdim, dtype=dtype)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """ATen's nanmean: nansum over the count of non-NaN elements (counted on a detached self)."""
    if input.dtype.is_complex:  # (nansum's refusal)
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if not input.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_dtype_title(input.dtype)}")
    _mean_dtype(input, dtype, "nanmean")  # (a dtype= that is not inexact: torch's words)
    detached = aten.detach.default(input)
    count = aten.sum.dim_IntList(aten.logical_not_.default(aten.ne.Tensor(detached, detached)), _dims(dim), keepdim)
    return aten.div.Tensor(aten.nansum.default(input, _dims(dim), keepdim, dtype=dtype), count)


def count_nonzero(input, dim=None):
    if isinstance(dim, (list, tuple)):
        return aten.count_nonzero.dim_IntList(input, list(dim))
    return aten.count_nonzero.default(input, dim)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, bool):  # std_mean(x, False): the old `unbiased` positional form
        dim, unbiased = None, dim
    if correction is None and unbiased is not None:
        correction = 1 if unbiased else 0
    return tuple(aten.std_mean.correction(input, _dims(dim), correction=correction, keepdim=keepdim))


def median(input, dim=None, keepdim=False):
    if dim is None:
        return aten.median.default(input)
    return median_type(*aten.median.dim(input, dim, keepdim))


def kthvalue(input, k, dim=-1, keepdim=False):
    return kthvalue_type(*aten.kthvalue.default(input, k, dim, keepdim))


def cummax(input, dim):
    return cummax_type(*aten.cummax.default(input, dim))


def cummin(input, dim):
    return cummin_type(*aten.cummin.default(input, dim))


def sum_to_size(input, *size):
    """Tensor.sum_to_size: the sum of the broadcast dims, as autograd reduces a broadcast gradient."""
    size = list(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else list(size)
    expandable = len(size) <= input.dim() and all(
        s == t or s == 1 for s, t in zip(reversed(size), reversed(list(input.shape))))
    if not expandable:
        raise RuntimeError(f"size {{{_listed(size)}}} is not expandable to size {{{_listed(input.shape)}}}.")
    return sum_to(input, size)


def _listed(sizes):
    return f"[{', '.join(map(str, sizes))}]"


# ---------------------------------------------------------------- pointwise
_POINTWISE = ("frac erfinv lgamma digamma logit nan_to_num logaddexp hypot heaviside atan2 log2 log10 exp2 tan "
              "asin acos atan sinh cosh")
for _name in _POINTWISE.split():
    globals()[_name] = _function_of(getattr(aten, _name).default, CAST)


@out_variant(CAST)
def lerp(input, end, weight):
    """The Tensor overload for a tensor weight (which has a gradient of its own), the Scalar one for a number."""
    if not _t(end):
        raise TypeError(f"lerp() received an invalid combination of arguments - got (Tensor, {type(end).__name__}, "
                        f"{type(weight).__name__}), but expected one of: (end a Tensor)")
    return (aten.lerp.Tensor if _t(weight) else aten.lerp.Scalar)(input, end, weight)


signbit = _function_of(aten.signbit.default)
arccos, arcsin, arctan, arctan2, fix = (alias_of(fn, name) for fn, name in [  # noqa: F821
    (acos, "arccos"), (asin, "arcsin"), (atan, "arctan"), (atan2, "arctan2"), (trunc, "fix")])


@out_variant(CAST)
def fmod(input, other):
    return aten.fmod.Tensor(input, other) if _t(other) else aten.fmod.Scalar(input, other)


@out_variant(CAST, differentiable=False)
def bitwise_left_shift(input, other):
    return _shift(aten.bitwise_left_shift, input, other)


@out_variant(CAST, differentiable=False)
def bitwise_right_shift(input, other):
    return _shift(aten.bitwise_right_shift, input, other)


@out_variant(CAST, differentiable=False)
def bitwise_and(input, other):
    return _shift(aten.bitwise_and, input, other, scalar="Scalar")


@out_variant(CAST, differentiable=False)
def bitwise_or(input, other):
    return _shift(aten.bitwise_or, input, other, scalar="Scalar")


@out_variant(CAST, differentiable=False)
def bitwise_xor(input, other):
    return _shift(aten.bitwise_xor, input, other, scalar="Scalar")


def _shift(packet, input, other, scalar="Tensor_Scalar"):
    """The overload torch's binding picks: a Python number on either side is a Scalar argument."""
    if not _t(input):
        return packet.Scalar_Tensor(input, other)
    return packet.Tensor(input, other) if _t(other) else getattr(packet, scalar)(input, other)


def polygamma(n, input):
    return aten.polygamma.default(n, input)


@out_variant(CAST)
def xlogy(input, other):
    if not _t(input):
        return aten.xlogy.Scalar_Self(input, other)
    return aten.xlogy.Tensor(input, other) if _t(other) else aten.xlogy.Scalar_Other(input, other)


def float_power(input, exponent):
    """Both operands in double (complex128 where either is complex), as torch's float_power (a Python number stays
    a number)."""
    is_complex = any(x.dtype.is_complex if _t(x) else isinstance(x, complex) for x in (input, exponent))
    double = _dtype.complex128 if is_complex else _dtype.float64
    if not _t(input):
        return aten.pow.Scalar(complex(input) if is_complex else float(input), exponent.to(double))
    if _t(exponent):
        return aten.pow.Tensor_Tensor(input.to(double), exponent.to(double))
    return aten.pow.Tensor_Scalar(input.to(double), exponent)


# ---------------------------------------------------------------- selections, lookups, data-dependent sizes
masked_select = _function_of(aten.masked_select.default, MASKED_SELECT, no_overlap="inputs")
bincount = _function_of(aten.bincount.default)


def argwhere(input):
    return aten.nonzero.default(input)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    if dim is None:
        return _wanted(aten._unique2.default(input, sorted, return_inverse, return_counts), return_inverse,
                       return_counts)
    return _wanted(aten.unique_dim.default(input, dim, sorted, return_inverse, return_counts), return_inverse,
                   return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    return _wanted(aten.unique_consecutive.default(input, return_inverse, return_counts, dim), return_inverse,
                   return_counts)


def _wanted(results, return_inverse, return_counts):
    output, inverse, counts = results
    extra = [t for t, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return (output, *extra) if extra else output


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    if not _t(elements):
        return aten.isin.Scalar_Tensor(elements, test_elements, assume_unique=assume_unique, invert=invert)
    if not _t(test_elements):
        return aten.isin.Tensor_Scalar(elements, test_elements, assume_unique=assume_unique, invert=invert)
    return aten.isin.Tensor_Tensor(elements, test_elements, assume_unique=assume_unique, invert=invert)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    overload = aten.searchsorted.Tensor if _t(input) else aten.searchsorted.Scalar
    return overload(sorted_sequence, input, out_int32=out_int32, right=right, side=side, sorter=sorter)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    overload = aten.bucketize.Tensor if _t(input) else aten.bucketize.Scalar
    return overload(input, boundaries, out_int32=out_int32, right=right)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return aten.tril_indices.default(row, col, offset, dtype=dtype or _dtype.int64)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return aten.triu_indices.default(row, col, offset, dtype=dtype or _dtype.int64)


CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
               "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """ATen's choice: p=2 distances as one matrix product (_euclidean_dist) where compute_mode asks for it, or by
    default where either side has more than 25 rows; otherwise, and for empty inputs, _cdist_forward."""
    if compute_mode not in CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = CDIST_MODES[compute_mode] or 0
    if (x1.dim() < 2 or x2.dim() < 2 or x1.shape[-1] != x2.shape[-1] or not x1.is_floating_point()
            or x1.numel() == 0 or x2.numel() == 0):
        return aten._cdist_forward.default(x1, x2, float(p), CDIST_MODES[compute_mode])
    (r1, c1), (r2, c2) = x1.shape[-2:], x2.shape[-2:]
    if not (p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))):
        return aten._cdist_forward.default(x1, x2, float(p), CDIST_MODES[compute_mode])
    batch = list(_broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    flat = _product(batch)
    x1_flat = x1.expand(batch + [r1, c1]).contiguous().view([flat, r1, c1])  # (ATen makes both, used or not)
    x2_flat = x2.expand(batch + [r2, c2]).contiguous().view([flat, r2, c2])
    dist = aten._euclidean_dist.default(x1, x2) if flat == 1 else aten._euclidean_dist.default(x1_flat, x2_flat)
    return dist.view(batch + [r1, r2])


abs_ = _function_of(aten.abs_.default)
