"""The torch-level functions beyond the commonly used ones, and the Tensor methods that go with them.

Runtime layer, coverage surface (gathered into `minitorch2` by _functions.py; _tensor_methods.py installs
`tensor_methods()`). Most are composites written as torch writes them (tensor_split as slices, kron as one broadcast
product, cov, quantile over a sort, the windows; histc and histogram are in _functions_histogram.py); nanmedian,
mode, aminmax and logcumsumexp call their rows (table_extra.py); torch.det, svd, qr and kin call linalg.py.
The Tensor methods that change a tensor where it stands (t_, set_, resize_, fill_diagonal_, ...) are in
_functions_extra_methods.py; tensor_methods() gathers them with the rest.
"""
import itertools
import math
import warnings

import numpy as np

from . import _dtype, _shared_memory, linalg, return_types
from ._aten.memory import _dtype_title
from ._aten.meta_util import reduced_shape, reduction_dims
from ._aten.scalar_arguments import OWN, parse_scalars, read_scalar
from ._functions_extra_methods import (  # noqa: F401  (Tensor methods: tensor_methods() reads its globals)
    _in_place_view, _no_accelerator, as_strided_, dim_order, fill_diagonal_, resize_, scatter_, set_, t_)
from ._functions_missing import *  # noqa: F401,F403  (issue 20's names: masked_scatter, addbmm, the *_copy functions, ...)
from . import _functions_missing
from ._functions_histogram import histc, histogram  # noqa: F401  (torch.histc and torch.histogram, in __all__)
from ._functions_shape_more import meshgrid
from ._functions_shape import _function_of, alias_of, flatten, squeeze
from ._ops import ops
from ._out import _CPP_TYPE, CAST, out_variant
from ._tensor import Tensor, wrap_dim
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled  # noqa: F401

aten = ops.aten

__all__ = """tensor_split hsplit vsplit dsplit cartesian_prod combinations block_diag kron vander histc histogram cov
corrcoef addmv addr chain_matmul trapezoid trapz nanmedian mode quantile nanquantile aminmax logcumsumexp clamp_
typename is_nonzero hann_window hamming_window bartlett_window blackman_window frombuffer copysign det logdet slogdet
inverse cholesky qr svd pinverse cross adjoint erfc i0 sinc is_anomaly_enabled is_anomaly_check_nan_enabled
set_anomaly_enabled poisson binomial lu lu_solve lu_unpack igamma igammac mvlgamma orgqr cholesky_solve cholesky_inverse
triangular_solve""".split() + _functions_missing.__all__


# ---------------------------------------------------------------- splitting
def tensor_split(input, indices_or_sections, dim=0):
    """Views (slices) at the given indices, or `sections` pieces, the first size % sections one longer."""
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    if isinstance(indices_or_sections, Tensor):
        if indices_or_sections.dtype is not _dtype.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{_dtype_title(indices_or_sections.dtype)}")
        indices_or_sections = indices_or_sections.tolist()
    size = input.shape[wrap_dim(dim, input.dim())]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        lengths = [size // sections + (1 if i < size % sections else 0) for i in range(sections)]
        indices = list(itertools.accumulate(lengths))[:-1]
    else:
        indices = list(indices_or_sections)
    bounds = [0] + indices + [size]
    return tuple(aten.slice.Tensor(input, dim, start, end) for start, end in zip(bounds, bounds[1:]))


def _split_along(name, dim, least):
    def split(input, indices_or_sections):
        if input.dim() < least:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor with "
                               f"{input.dim()} dimensions!")
        d = 0 if name == "hsplit" and input.dim() == 1 else dim
        if isinstance(indices_or_sections, int) and (indices_or_sections == 0 or
                                                     input.shape[d] % indices_or_sections):
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the dimension "
                               f"{input.shape[d]} is not divisible by the split_size {indices_or_sections}!")
        return tensor_split(input, indices_or_sections, d)

    split.__name__ = name
    return split


hsplit, vsplit, dsplit = _split_along("hsplit", 1, 1), _split_along("vsplit", 0, 2), _split_along("dsplit", 2, 3)


# ---------------------------------------------------------------- building matrices
def cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    return aten.stack.default([flatten(grid) for grid in meshgrid(*tensors, indexing="ij")], 1)


def combinations(input, r=2, with_replacement=False):
    """An r-fold meshgrid of the elements, kept where the indices increase (or do not decrease)."""
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape [{', '.join(map(str, input.shape))}]")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return aten.new_empty.default(input, [0])
    index = aten.arange.default(input.shape[0], dtype=_dtype.int64)
    indices = meshgrid(*[index] * r, indexing="ij")
    keep = aten.ones_like.default(indices[0], dtype=_dtype.bool_)
    compare = aten.le.Tensor if with_replacement else aten.lt.Tensor
    for earlier, later in zip(indices, indices[1:]):
        keep = aten.logical_and.default(keep, compare(earlier, later))
    grids = meshgrid(*[input] * r, indexing="ij")
    return aten.stack.default([aten.masked_select.default(grid, keep) for grid in grids], 1)


def block_diag(*tensors):
    if not tensors:
        return aten.empty.memory_format([1, 0], dtype=_dtype.get_default_dtype())
    return aten.block_diag.default(list(tensors))


def kron(input, other):
    """One product of input with a size-1 dim after each of its dims and other with one before each of its."""
    ndim = max(input.dim(), other.dim())
    a_shape = [1] * (ndim - input.dim()) + list(input.shape)
    b_shape = [1] * (ndim - other.dim()) + list(other.shape)
    a = aten.view.default(input, [s for size in a_shape for s in (size, 1)])
    b = aten.view.default(other, [s for size in b_shape for s in (1, size)])
    return aten._unsafe_view.default(aten.mul.Tensor(a, b), [x * y for x, y in zip(a_shape, b_shape)])


def vander(x, N=None, increasing=False):
    """Columns x^0 .. x^(N-1) (reversed unless increasing), in x's dtype promoted with long."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = _dtype.promote_types(x.dtype, _dtype.int64)
    columns = [aten.ones.default([x.shape[0], min(n, 1)], dtype=dtype)]
    if n > 1:
        powers = aten.expand.default(aten.unsqueeze.default(x.to(dtype), 1), [x.shape[0], n - 1])
        columns.append(aten.cumprod.default(powers, 1))
    result = aten.cat.default(columns, 1)
    return result if increasing else aten.flip.default(result, [1])


def _factory_window(name, compute):
    def window(window_length, periodic=True, *args, dtype=None, layout=None, device=None, requires_grad=False,
               pin_memory=False, **parameters):
        if window_length < 0:
            raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
        dtype = dtype or _dtype.get_default_dtype()
        if not dtype.is_floating_point:
            raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                               f"{_CPP_TYPE[dtype.name]}, device=cpu, layout=Strided (default), "
                               "requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))")
        if window_length <= 1:
            result = aten.ones.default([window_length], dtype=dtype)
        else:
            n = window_length + 1 if periodic else window_length
            result = compute(aten.arange.default(n, dtype=dtype), n, *args, **parameters)
            result = aten.slice.Tensor(result, 0, 0, window_length) if periodic else result
        return result.requires_grad_(True) if requires_grad else result

    window.__name__ = name
    return window


def _hamming(k, n, alpha=0.54, beta=0.46):
    return aten.add.Scalar(aten.mul.Scalar(aten.cos.default(aten.mul.Scalar(k, 2 * math.pi / (n - 1))), -beta), alpha)


def _bartlett(k, n):
    ramp = aten.mul.Scalar(k, 2.0 / (n - 1))
    half = (n - 1) // 2 + 1
    falling = aten.add.Scalar(aten.neg.default(aten.slice.Tensor(ramp, 0, half, n)), 2)
    return aten.cat.default([aten.slice.Tensor(ramp, 0, 0, half), falling])


def _blackman(k, n):
    angle = aten.mul.Scalar(k, math.pi / (n - 1))
    return aten.add.Scalar(aten.sub.Tensor(aten.mul.Scalar(aten.cos.default(aten.mul.Scalar(angle, 4)), 0.08),
                                           aten.mul.Scalar(aten.cos.default(aten.mul.Scalar(angle, 2)), 0.5)), 0.42)


hann_window = _factory_window("hann_window", lambda k, n: _hamming(k, n, 0.5, 0.5))
hamming_window = _factory_window("hamming_window", _hamming)
bartlett_window = _factory_window("bartlett_window", _bartlett)
blackman_window = _factory_window("blackman_window", _blackman)


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A tensor sharing the buffer's memory (a writable buffer's: torch warns about a read-only one)."""
    length = memoryview(buffer).nbytes
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({length} "
                         "bytes) minus 1")
    size = dtype.itemsize
    if count < 0 and (length - offset) % size:
        raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a multiple "
                         f"of element size ({size})")
    if count > 0 and count * size > length - offset:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) must not be "
                         f"greater than actual buffer length ({length} bytes)")
    if memoryview(buffer).readonly:
        warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable tensors. This "
                      "means you can write to the underlying (supposedly non-writable) buffer using the tensor. You "
                      "may want to copy the buffer to protect its data or make it writable before converting it to a "
                      "tensor. This type of warning will be suppressed for the rest of this program.", UserWarning)
    result = Tensor._from_numpy(np.frombuffer(buffer, dtype.np, count, offset), dtype)
    return result.requires_grad_(True) if requires_grad else result


# ---------------------------------------------------------------- statistics
def cov(input, *, correction=1, fweights=None, aweights=None):
    """Rows are variables, columns observations weighed by fweights·aweights; divisor Σw - correction·(Σw·a/Σw)."""
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    if input.dtype is _dtype.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = aten.view.default(input, [1, -1]) if input.dim() < 2 else input
    observations = x.shape[1]
    weights = None
    for name, w, integral in (("fweights", fweights, True), ("aweights", aweights, False)):
        if w is None:
            continue
        _check_weights(name, w, integral, observations)
        weights = w if weights is None else aten.mul.Tensor(weights, w)
    total = aten.sum.default(weights) if weights is not None else \
        aten.scalar_tensor.default(observations, dtype=_dtype.int64)
    if weights is not None and not aten.ne.Scalar(total, 0).item():
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    weighted = aten.mul.Tensor(x, weights) if weights is not None else x
    mean = aten.div.Tensor(aten.sum.dim_IntList(weighted, [1]), total)
    if weights is not None and aweights is not None and correction != 0:
        factor = aten.sub.Tensor(total, aten.div.Tensor(aten.mul.Scalar(
            aten.sum.default(aten.mul.Tensor(weights, aweights)), correction), total))
    else:
        factor = aten.sub.Scalar(total, correction)
    if aten.le.Scalar(factor, 0).item():
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning)
        factor = aten.zeros_like.default(factor)
    centered = aten.sub.Tensor(x, aten.unsqueeze.default(mean, 1))
    weighted = aten.mul.Tensor(centered, weights) if weights is not None else centered
    if weighted.dtype.is_complex:
        weighted = aten.conj_physical.default(weighted)
    return aten.squeeze.default(aten.div.Tensor(aten.mm.default(centered, aten.t.default(weighted)), factor))


def _check_weights(name, w, integral, observations):
    problem = (f"one or fewer dimensions but got {name} with {w.dim()} dimensions" if w.dim() > 1 else
               f"the same numel as there are observations in the input but got {w.numel()} != {observations}"
               if w.numel() != observations else f"{'integral' if integral else 'floating point'} dtype but got "
               f"{name} with {_dtype_title(w.dtype)} dtype" if integral == w.dtype.is_floating_point else None)
    if problem:
        raise RuntimeError(f"cov(): expected {name} to have {problem}")
    if aten.any.default(aten.lt.Scalar(w, 0)).item():
        raise RuntimeError(f"cov(): {name} cannot be negative")


def corrcoef(input):
    c = cov(input)
    if c.dim() == 0:
        return aten.div.Tensor(c, c)
    stddev = aten.sqrt.default(aten.diagonal.default(c))
    c = aten.div.Tensor(c, aten.unsqueeze.default(stddev, 1))
    c = aten.div.Tensor(c, aten.unsqueeze.default(stddev, 0))
    if c.dtype.is_complex:  # (each part clipped)
        return aten.complex.default(aten.clamp.default(c.real, -1, 1), aten.clamp.default(c.imag, -1, 1))
    return aten.clamp.default(c, -1, 1)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    """Over a sort of the dim (moved last): rank q·(n-1), n the non-NaN count for nanquantile, interpolated; the
    quantiles computed last and moved first by views, as torch's (so its strides)."""
    _check_quantile(input, q, interpolation)
    scalar_q = not isinstance(q, Tensor) or q.dim() == 0
    q = aten.view.default(q if isinstance(q, Tensor) else aten.scalar_tensor.default(q, dtype=input.dtype), [-1])
    dims = reduction_dims(dim, input.dim())
    if dim is None or input.dim() == 0 or dims[0] == input.dim() - 1:
        values = flatten(input) if dim is None or input.dim() == 0 else input
    else:
        values = aten.transpose.int(aten.unsqueeze.default(input, -1), dims[0], -1)
    ordered = aten.sort.default(values, -1)[0]
    ordered = aten.view.default(ordered, list(reduced_shape(input.shape, dims, keepdim)) + [ordered.shape[-1]])
    last = ordered.shape[-1] - 1
    nan = aten.isnan.default(ordered)
    if ignore_nan:
        counts = aten.sum.dim_IntList(aten.logical_not.default(nan), [-1], True)
        ranks = aten.mul.Tensor(q, aten.sub.Scalar(counts, 1))
        ranks = aten.masked_fill.Scalar(ranks, aten.lt.Scalar(ranks, 0), last)
    else:
        ranks = aten.mul.Scalar(aten.expand.default(q, list(ordered.shape[:-1]) + [q.shape[0]]), last)
        ranks = aten.masked_fill.Scalar(ranks, aten.any.dims(nan, [-1], True), last)
    if interpolation == "nearest":
        ranks = aten.round.default(ranks)
    below = aten._to_copy.default(aten.floor.default(ranks), dtype=_dtype.int64)
    above = aten._to_copy.default(aten.ceil.default(ranks), dtype=_dtype.int64)
    low, high = aten.gather.default(ordered, -1, below), aten.gather.default(ordered, -1, above)
    result = high if interpolation == "higher" else low
    if interpolation in ("linear", "midpoint"):  # (lerp's two forms, either side of a weight of 0.5: signs of zero)
        result = aten.lerp.Tensor(low, high, aten.sub.Tensor(ranks, below)) if interpolation == "linear" else \
            aten.lerp.Scalar(low, high, 0.5)
    result = aten.transpose.int(aten.unsqueeze.default(result, 0), 0, -1)
    result = aten.squeeze.dim(result, -1)
    return aten.squeeze.dim(result, 0) if scalar_q else result


def _check_quantile(input, q, interpolation):
    if not isinstance(q, Tensor) and not 0 <= q <= 1:  # (a number q is checked before it becomes a tensor)
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor) and q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        if q.dtype is not input.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        if not aten.all.default(aten.logical_and.default(aten.ge.Scalar(q, 0), aten.le.Scalar(q, 1))).item():
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule along dim: with spacing dx, dx·(Σy - (y_first + y_last)/2); with sample points x,
    Σ Δx·(y_i + y_(i+1))/2."""
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if y.shape[wrap_dim(dim, y.dim())] == 0:
        return aten.sum.dim_IntList(aten.mul.Scalar(y, 0.0), [dim])
    if x is None or not isinstance(x, Tensor):
        spacing = 1 if x is None and dx is None else (x if dx is None else dx)
        ends = aten.add.Tensor(aten.select.int(y, dim, 0), aten.select.int(y, dim, -1))
        total = aten.sub.Tensor(aten.sum.dim_IntList(y, [dim]), aten.mul.Scalar(ends, 0.5))
        return aten.mul.Scalar(total, spacing)
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x.shape[0] - 1
        steps = aten.view.default(aten.sub.Tensor(aten.slice.Tensor(x, 0, 1), aten.slice.Tensor(x, 0, 0, -1)), shape)
    else:
        steps = aten.sub.Tensor(aten.slice.Tensor(x, dim, 1), aten.slice.Tensor(x, dim, 0, -1))
    pairs = aten.add.Tensor(aten.slice.Tensor(y, dim, 1), aten.slice.Tensor(y, dim, 0, -1))
    return aten.div.Scalar(aten.sum.dim_IntList(aten.mul.Tensor(steps, pairs), [dim]), 2)


trapz = alias_of(trapezoid, "trapz")


# ---------------------------------------------------------------- selections, products, pointwise
def nanmedian(input, dim=None, keepdim=False):
    if dim is None:
        return aten.nanmedian.default(input)
    return return_types.nanmedian(*aten.nanmedian.dim(input, dim, keepdim))


def mode(input, dim=-1, keepdim=False):
    return return_types.mode(*aten.mode.default(input, dim, keepdim))


def aminmax(input, *, dim=None, keepdim=False):
    return return_types.aminmax(*aten.aminmax.default(input, dim=dim, keepdim=keepdim))


logcumsumexp = _function_of(aten.logcumsumexp.default)
erfc, i0, sinc = (_function_of(getattr(aten, name).default, CAST) for name in ("erfc", "i0", "sinc"))


@out_variant(CAST)
def copysign(input, other):
    return aten.copysign.Tensor(input, other) if isinstance(other, Tensor) else aten.copysign.Scalar(input, other)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """beta·input + alpha·(mat @ vec); input is not read when beta is 0."""
    parse_scalars(beta, alpha)
    if mat.dim() == 2 and vec.dim() == 1 and (input.dim() > 1 or input.numel() not in (1, mat.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({input.shape[0] if input.dim() else 0}), mat "
                           f"({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    if input.dtype is not mat.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_dtype_title(input.dtype)}, "
                           f"{_dtype_title(mat.dtype)}, and {_dtype_title(vec.dtype)}")
    return _scaled_sum(input, aten.mv.default(mat, vec), beta, alpha)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """beta·input + alpha·outer(vec1, vec2) (logical and/or for bools)."""
    parse_scalars(beta, alpha)
    product = aten.mul.Tensor(aten.unsqueeze.default(vec1, 1), vec2)
    aten.expand.default(input, list(product.shape))  # (input must expand to the product's shape)
    for name, scalar in (("beta", beta), ("alpha", alpha)):  # (ATen's addr checks)
        if isinstance(scalar, bool) and product.dtype is not _dtype.bool_:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if isinstance(scalar, float) and not product.dtype.is_inexact:
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")
    if product.dtype is _dtype.bool_:
        product = aten.logical_and.default(product, aten.scalar_tensor.default(bool(alpha), dtype=_dtype.bool_))
        return product if not beta else aten.logical_or.default(input, product)
    return _scaled_sum(input, product, beta, alpha)


def _scaled_sum(input, product, beta, alpha):
    beta, alpha = (read_scalar(scalar, product.dtype, OWN) for scalar in (beta, alpha))  # (not in opmath, as ATen's)
    product = product if alpha == 1 else aten.mul.Scalar(product, alpha)
    return product if beta == 0 else aten.add.Tensor(input if beta == 1 else aten.mul.Scalar(input, beta), product)


def chain_matmul(*matrices):
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                  "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple "
                  "parameters.", UserWarning, stacklevel=2)
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    return aten.clone.default(matrices[0]) if len(matrices) == 1 else linalg.multi_dot(list(matrices))


def clamp_(input, min=None, max=None):
    tensors = isinstance(min, Tensor) or isinstance(max, Tensor)
    return (aten.clamp_.Tensor if tensors else aten.clamp_.default)(input, min, max)


def is_nonzero(input):
    if input.numel() != 1:
        raise RuntimeError(f"Boolean value of Tensor with {'more than one value' if input.numel() else 'no values'} "
                           "is ambiguous")
    return bool(input.item() != 0)


def typename(obj):
    """A tensor's type() name, else the object's (or its class's) module-qualified name, torch's for ours."""
    if isinstance(obj, Tensor):
        return obj.type()
    named = obj if hasattr(obj, "__qualname__") or hasattr(obj, "__name__") else type(obj)
    module = getattr(named, "__module__", "") or ""
    qualname = getattr(named, "__qualname__", None) or named.__name__
    module = "torch" + module[len("minitorch2"):] if module.split(".")[0] == "minitorch2" else module
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


# ---------------------------------------------------------------- torch.det, torch.svd and their kin (linalg.py)
det, inverse, adjoint = linalg.det, linalg.inv, linalg.adjoint
slogdet, logdet, cholesky, qr, svd, pinverse, cross = (alias_of(getattr(linalg, f"torch_{name}"), name) for name in (
    "slogdet", "logdet", "cholesky", "qr", "svd", "pinverse", "cross"))


# ---------------------------------------------------------------- Tensor methods
def tensor_methods():
    """What _tensor_methods.py installs on Tensor: method forms, in-place view and storage methods, H and mH."""
    methods = {name: globals()[name] for name in """tensor_split hsplit vsplit dsplit kron histc histogram cov corrcoef
        addmv addr nanmedian mode quantile nanquantile aminmax is_nonzero copysign det logdet slogdet inverse cholesky
        qr svd pinverse cross t_ as_strided_ set_ resize_ fill_diagonal_ scatter_ dim_order""".split()}
    methods.update(_functions_missing.tensor_methods())
    methods.update(
        addmv_=lambda self, mat, vec, *, beta=1, alpha=1: aten.copy_.default(self, addmv(self, mat, vec, beta=beta,
                                                                                         alpha=alpha)),
        addr_=lambda self, vec1, vec2, *, beta=1, alpha=1: aten.copy_.default(self, addr(self, vec1, vec2, beta=beta,
                                                                                         alpha=alpha)),
        copysign_=lambda self, other: (aten.copysign_.Tensor if isinstance(other, Tensor) else
                                       aten.copysign_.Scalar)(self, other),
        xlogy_=lambda self, other: (aten.xlogy_.Tensor if isinstance(other, Tensor) else
                                    aten.xlogy_.Scalar_Other)(self, other),
        bernoulli_=lambda self, p=0.5, *, generator=None: (aten.bernoulli_.Tensor if isinstance(p, Tensor) else
                                                           aten.bernoulli_.float)(self, p, generator=generator),
        round_=lambda self, *, decimals=0: aten.round_.decimals(self, decimals=decimals) if decimals else
        aten.round_.default(self),
        transpose_=_in_place_view(lambda self, dim0, dim1: aten.transpose.int(self, dim0, dim1)),
        squeeze_=_in_place_view(lambda self, dim=None: squeeze(self, dim)),
        unsqueeze_=_in_place_view(lambda self, dim: aten.unsqueeze.default(self, dim)),
        resize_as_=lambda self, other, memory_format=None: resize_(self, other.shape),
        pin_memory=_no_accelerator, share_memory_=_shared_memory.share_memory_, is_shared=_shared_memory.is_shared,
        is_pinned=lambda self, device=None: False,
        H=linalg.adjoint_property("H"), mH=linalg.adjoint_property("mH"), adjoint=adjoint,
    )
    return methods


# ---------------------------------------------------------------- the older LU forms, the incomplete gammas, mvlgamma
_LU_DEPRECATED = ("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
                  "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
                  "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
                  "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                  "torch.linalg.lu_factor_ex(A, compute_pivots)")
_LU_SOLVE_DEPRECATED = ("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                        "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                        "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, "
                        "B)")


def lu(A, pivot=True, get_infos=False):
    """linalg_lu_factor_ex, its errors unchecked (torch's _lu_with_info), with torch's deprecation warning."""
    warnings.warn(_LU_DEPRECATED, UserWarning, stacklevel=2)
    LU, pivots, info = aten.linalg_lu_factor_ex.default(A, pivot=pivot)
    return (LU, pivots, info) if get_infos else (LU, pivots)


def lu_solve(b, LU_data, LU_pivots):
    warnings.warn(_LU_SOLVE_DEPRECATED, UserWarning, stacklevel=2)
    return aten.linalg_lu_solve.default(LU_data, LU_pivots, b)


return_types.lu_unpack = return_types.structseq("lu_unpack", ("P", "L", "U"))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    return return_types.lu_unpack(*aten.lu_unpack.default(LU_data, LU_pivots, unpack_data, unpack_pivots))


igamma = _function_of(aten.igamma.default, CAST)
igammac = _function_of(aten.igammac.default, CAST)


def cholesky_solve(input, input2, upper=False):
    return aten.cholesky_solve.default(input, input2, upper)


def cholesky_inverse(input, upper=False):
    return aten.cholesky_inverse.default(input, upper)


return_types.triangular_solve = return_types.structseq("triangular_solve", ("solution", "cloned_coefficient"))


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    warnings.warn("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed "
                  "in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not "
                  "return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced "
                  "with\nX = torch.linalg.solve_triangular(A, B).", UserWarning, stacklevel=2)
    return return_types.triangular_solve(*aten.triangular_solve.default(input, A, upper, transpose, unitriangular))


def orgqr(input, tau):
    """torch.orgqr is torch.linalg.householder_product."""
    return aten.linalg_householder_product.default(input, tau)


def mvlgamma(input, p):
    return aten.mvlgamma.default(input, p)


# The samplers torch.distributions draws through (distributions/_samplers.py: ATen's algorithms, in Python, so
# torch's draws from the same generator state).
def poisson(input, generator=None):
    from .distributions._samplers import poisson as draw  # reason: the distributions package imports this one's
    return draw(input, generator)


def binomial(count, prob, generator=None):
    from .distributions._samplers import binomial as draw  # reason: the distributions package imports this one's
    return draw(count, prob, generator)
