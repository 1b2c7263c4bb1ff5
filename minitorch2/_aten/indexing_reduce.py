"""Index ops that combine or overwrite at positions: take, scatter_reduce, index_copy, index_fill.

Runtime layer: (kernel, meta) pairs for the op table's rows, beside the
gathers and plain scatters of indexing.py. Each kernel checks its arguments
in the order ATen does, with ATen's error class and words (take and
index_copy raise IndexError for a bad position, scatter_reduce RuntimeError),
then lets numpy do the work: `ufunc.at` applies a reduction once per index,
so repeated indices all take part, as in ATen's loop. The decompositions of take, index_copy and
index_fill (as torch's, on the op table's rows) close the module.
"""
import numpy as np

from .. import _dtype
from .._ops import ops
from .._tensor import Tensor, contiguous_format
from .derivatives_util import _reshape
from .indexing import _nonempty_size, first_out_of_range
from .memory import _dtype_title
from .meta_util import fake_empty, preserve_format_strides, with_strides, wrap_dim

aten = ops.aten


# ---------------------------------------------------------------- take
def _check_take(self, index):
    if index.dtype is not _dtype.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_dtype_title(index.dtype)}")
    if self.numel() == 0 and index.numel() != 0:
        raise IndexError("take(): tried to take from an empty tensor")


def _take_kernel(self, index):
    _check_take(self, index)
    n, positions = self.numel(), index._np
    bad = (positions < -n) | (positions >= n)
    if bad.any():
        first = int(positions.reshape(-1)[np.argmax(bad.reshape(-1))])
        raise IndexError(f"out of range: tried to access index {first} on a tensor of {n} elements.")
    flat = self._np.reshape(-1)  # the elements in their logical (row-major) order
    return np.asarray(flat[np.where(positions < 0, positions + n, positions)]).reshape(index.shape)


def _take_meta(self, index):
    _check_take(self, index)
    return fake_empty(index.shape, self.dtype)


take = (_take_kernel, _take_meta)


# ---------------------------------------------------------------- scatter_reduce
# reduce name -> (numpy ufunc that folds one value in, the value a position starts from when self is left out)
_REDUCTIONS = {"sum": (np.add, 0), "mean": (np.add, 0), "prod": (np.multiply, 1),
               "amax": (np.maximum, -np.inf), "amin": (np.minimum, np.inf)}
_ALIASES = {"max": "amax", "min": "amin"}  # ATen's reduction enum takes both spellings


def _reduction(reduce):
    reduce = _ALIASES.get(reduce, reduce)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    return reduce


def _check_scatter(self, dim, index, src):
    """ATen's scatter_gather_dtype_check and scatter_shape_check."""
    if index.dtype is not _dtype.int64 and index.dtype is not _dtype.int32:
        raise RuntimeError("scatter(): Expected dtype int64 for index")
    if src.dtype is not self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    d = wrap_dim(dim, self.dim())
    if index.numel() == 0:
        return d
    if len(_sizes(index)) != len(_sizes(self)):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    dims = range(len(_sizes(self)))  # (src's sizes read on self's dims: an IndexError past a 1-d src's, say)
    too_large = any(k != d and _nonempty_size(index, k) > _nonempty_size(self, k) for k in dims) or any(
        _nonempty_size(index, k) > _nonempty_size(src, k) for k in dims)
    if len(_sizes(index)) != len(_sizes(src)):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if too_large:
        raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(self.shape)} apart "
                           f"from dimension {d} and to be no larger size than src {list(src.shape)}")
    return d


def _sizes(t):
    return list(t.shape) if t.dim() else [1]


def _scatter_reduce_kernel(self, dim, index, src, reduce, *, include_self=True):
    reduce = _reduction(reduce)
    d = _check_scatter(self, dim, index, src)
    out = np.array(self._np, order="C").reshape(_sizes(self))
    if index.numel() == 0:
        return out.reshape(self.shape)
    idx = index._np.reshape(_sizes(index))
    bad = first_out_of_range(idx, out.shape[d])
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {out.shape[d]}")
    grids = np.indices(idx.shape, sparse=True)
    target = tuple(idx if k == d else g for k, g in enumerate(grids))
    values = src._np.reshape(_sizes(src))[tuple(slice(0, n) for n in idx.shape)]
    acc_dtype = np.float32 if self.dtype in _dtype.HALVES and reduce in ("sum", "mean") else out.dtype
    acc = out.astype(acc_dtype)
    ufunc, identity = _REDUCTIONS[reduce]
    if not include_self:
        acc[target] = _identity(identity, acc.dtype)
    with np.errstate(invalid="ignore"):  # (a NaN among the values propagates, as in ATen)
        ufunc.at(acc, target, values.astype(acc_dtype))
    if reduce == "mean":
        acc = _mean_of(acc, target, include_self, self.dtype)
    return acc.astype(out.dtype).reshape(self.shape)


def _identity(value, dtype):
    """A reduction's starting value in `dtype`: +-inf for floats, the extreme integers otherwise."""
    if np.isinf(value) and dtype not in _dtype.NP_FLOATS:
        info = np.iinfo(dtype) if dtype.kind in "iu" else None
        return (info.max if value > 0 else info.min) if info else value > 0
    return value


def _mean_of(total, target, include_self, dtype):
    """The sum divided by the number of values that went into each position (self counting as one);
    integer means round down, as ATen's floor division does."""
    counts = np.ones(total.shape, np.int64)
    counts[target] = 1 if include_self else 0
    np.add.at(counts, target, 1)
    counts[counts == 0] = 1
    if dtype.is_floating_point:
        return total / counts.astype(total.dtype)
    return np.floor_divide(total, counts.astype(total.dtype))


def _scatter_reduce_meta(self, dim, index, src, reduce, *, include_self=True):
    _reduction(reduce)
    _check_scatter(self, dim, index, src)
    return fake_empty(self.shape, self.dtype)


scatter_reduce = (_scatter_reduce_kernel, _scatter_reduce_meta)


# ---------------------------------------------------------------- index_copy
def _check_index_copy(self, dim, index, source):
    d = wrap_dim(dim, self.dim())
    if index.dim() >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    count = index.numel()
    if source.dim() == 0 and count != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {count})")
    if source.dim() != self.dim() and source.dim() != 0 and self.dim() != 0:
        raise IndexError("index_copy_(): When source and destination are not scalars, their dimensionality must "
                         f"match. Source dimensionality ({source.dim()}), destination dimensionality ({self.dim()})")
    if index.dtype is not _dtype.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_dtype_title(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_dtype_title(self.dtype)} and (source) {_dtype_title(source.dtype)}")
    self_slice = [n for k, n in enumerate(self.shape) if k != d]
    source_slice = [n for k, n in enumerate(source.shape) if k != d]
    if self_slice != source_slice:
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice shapes. Destination "
                           f"slice shape: {' '.join(map(str, self_slice))} at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, source_slice))} at dimension 0.")
    if source.dim() and count != source.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to source.size(dim) "
                         f"({source.shape[d]})")
    return d


def _index_copy_kernel(self, dim, index, source):
    d = _check_index_copy(self, dim, index, source)
    out = np.array(self._np, order="C")
    rows = np.moveaxis(out.reshape(_sizes(self)), d, 0)
    positions = index._np.reshape(-1)
    size = rows.shape[0]
    bad = first_out_of_range(positions, size)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with size {size}")
    values = np.moveaxis(source._np.reshape(_sizes(source)), d, 0)
    for row, position in enumerate(positions):  # one row at a time: a repeated index keeps the last row
        rows[position] = values[row]
    return out


def _index_copy_meta(self, dim, index, source):
    _check_index_copy(self, dim, index, source)
    return fake_empty(self.shape, self.dtype)


index_copy = (_index_copy_kernel, _index_copy_meta)


# ---------------------------------------------------------------- index_fill
def _check_index_fill(self, dim, index, value):
    if isinstance(value, Tensor) and value.dim() != 0:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.dim()} dimension(s).")
    if index.dtype is not _dtype.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    d = wrap_dim(dim, self.dim())
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if not isinstance(value, Tensor):
        _dtype.checked_scalar(value, self.dtype, half_overflows=True)
    return d


def _index_fill_kernel(self, dim, index, value):
    d = _check_index_fill(self, dim, index, value)
    out = self._np.copy()
    rows = np.moveaxis(out.reshape(_sizes(self)), d, 0)
    positions, size = index._np.reshape(-1), rows.shape[0]
    bad = (positions < -size) | (positions >= size)
    if bad.any():
        first = int(positions[np.argmax(bad)])
        raise IndexError(f"index {first} is out of bounds for dimension {d} with size {size}")
    fill = value._np if isinstance(value, Tensor) else _dtype.checked_scalar(value, self.dtype)
    rows[positions] = np.array(fill).astype(self.dtype.np)
    return with_strides(out, preserve_format_strides(self))


def _index_fill_meta(self, dim, index, value):
    _check_index_fill(self, dim, index, value)
    return fake_empty(self.shape, self.dtype, preserve_format_strides(self))


index_fill = (_index_fill_kernel, _index_fill_meta)


# ---------------------------------------------------------------- decompositions
def take_decomposition(self, index):
    """self flattened, indexed: torch's decomposition (the index op wraps negative positions as take does)."""
    if index.dtype is not _dtype.int64 or self.numel() == 0:
        return NotImplemented  # the op itself raises torch's error
    return aten.index.Tensor(_reshape(self, [-1]), [index])


def index_copy_decomposition(self, dim, index, source):
    """An index_put at `index` along dim (a 0-d self as one element; the result contiguous), as torch's."""
    dim = _check_index_copy(self, dim, index, source)
    out = aten.index_put.default(_as_1d(self), _leading_nones(dim) + [_as_1d(index)], source)
    if self.dim() == 0:
        return aten.squeeze.dims(out, [0])
    return out if out.is_contiguous() else aten.clone.default(out, memory_format=contiguous_format)


def index_fill_decomposition(self, dim, index, value):
    """value (a scalar_tensor of self's dtype) expanded to the filled slices, then copied in by index_copy's
    decomposition (whose index_put counts a negative index from the end, as index_fill does)."""
    dim = _check_index_fill(self, dim, index, value)
    if isinstance(value, Tensor):
        value = value if value.dtype is self.dtype else aten._to_copy.default(value, dtype=self.dtype)
    else:
        value = aten.scalar_tensor.default(value, dtype=self.dtype)
    target = _as_1d(self)
    shape = list(target.shape)
    shape[dim] = index.numel()
    out = index_copy_decomposition(target, dim, index, aten.expand.default(value, shape))
    return aten.clone.default(aten.squeeze.dims(out, [0])) if self.dim() == 0 else out


def _as_1d(t):
    return aten.unsqueeze.default(t, 0) if t.dim() == 0 else t


def _leading_nones(count):
    return [None] * count


