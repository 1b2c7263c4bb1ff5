"""Gather-like and joining ops: index, index_put, gather, scatter, index_select, index_add, cat, stack, and the new_*
factories.

Runtime layer. These ops move elements around by index; each checks its indices as PyTorch does (IndexError for
out-of-range indices, RuntimeError for mismatched shapes) before handing the work to numpy. The writes into a
view's window (slice_scatter, select_backward, ...) are in view_scatters.py.
"""
import numpy as np

from .. import _dtype
from .._tensor import DynamicOutputShapeException, Tensor
from . import factories
from .index_checks import index_add_reads_indices, check_index_dtype, check_indices
from .memory import _dtype_title, written_meta
from .meta_util import (broadcast_shapes, c_order, fake_empty, new_tensor_shape, preserve_format_strides, with_strides,
                        wrap_dim)


def _index_arrays(self, indices, values=None):
    """Turn ATen-style `indices` (one optional tensor per leading dim, a k-dim mask covering k) into a numpy index
    tuple, once ATen's checks pass. An empty result reads no index, so each may be any in-range one (zeros)."""
    empty = check_indices(self, indices, values)  # (masks' shapes, broadcasting, values' shape, bounds)
    return tuple(slice(None) if idx is None else idx._np.astype(bool) if idx.dtype in (_dtype.bool_, _dtype.uint8)
                 else np.zeros_like(idx._np) if empty else idx._np for idx in indices)


def _index_kernel(self, indices):
    return c_order(np.asarray(self._np[_index_arrays(self, indices)]))


def _index_meta(self, indices):
    if any(i is not None and i.dtype in (_dtype.bool_, _dtype.uint8) for i in indices):
        raise DynamicOutputShapeException("index with a boolean mask has a data-dependent output shape; "
                                          "FakeTensors cannot run it")
    positions = [k for k, i in enumerate(indices) if i is not None]
    index_shape = broadcast_shapes(*(tuple(indices[k].shape) for k in positions))
    before = list(self.shape[: positions[0]])
    after = list(self.shape[len(indices):])
    contiguous = positions == list(range(positions[0], positions[-1] + 1))
    middle = [self.shape[k] for k in range(positions[0], len(indices)) if indices[k] is None]
    if contiguous:
        shape = before + list(index_shape) + middle + after
    else:
        shape = list(index_shape) + [self.shape[k] for k in range(len(indices)) if indices[k] is None] + after
    return fake_empty(shape, self.dtype)


index = (_index_kernel, _index_meta)


def _index_put_values(self, indices, values, accumulate):
    target = _index_arrays(self, indices, values)  # (with values' shape and dtype checked)
    data = values._np.astype(self.dtype.np, copy=False)
    if accumulate:
        np.add.at(self._np, target, data)
    else:
        self._np[target] = data


def _index_put_kernel(self, indices, values, accumulate=False):
    out = self._np.copy()
    _index_put_values(Tensor._from_numpy(out), indices, values, accumulate)
    return with_strides(out, preserve_format_strides(self))  # a clone of self, layout preserved


def _index_put_inplace_kernel(self, indices, values, accumulate=False):
    _index_put_values(self, indices, values, accumulate)
    self._bump_version()
    return self


def _index_put_meta(self, indices, values, accumulate=False):
    for idx in indices:
        if idx is not None:
            check_index_dtype(idx)
    return fake_empty(self.shape, self.dtype, preserve_format_strides(self))


index_put = (_index_put_kernel, _index_put_meta)
index_put_ = (_index_put_inplace_kernel, written_meta)


# ---- ATen's argument checks of gather, scatter, index_select and index_add: run by the kernels and the
# metas alike, so a compiled call (traced on fake tensors) refuses what eager refuses, and the backend's
# kernels never read or write outside the tensors they are given.


def _sizes(t):
    return f"[{', '.join(map(str, t.shape))}]"


def _nonempty_size(t, d):
    """ATen's ensure_nonempty_size: a 0-d tensor has one element along dim 0."""
    return t.shape[wrap_dim(d, t.dim())] if t.dim() else 1


def _is_integer_index(index):
    return index.dtype is _dtype.int64 or index.dtype is _dtype.int32


def check_gather(self, dim, index):
    """gather's meta: an int32/int64 index with self's number of dims, no longer than self on the other
    dims (nothing is checked for an empty index)."""
    if index.numel() == 0:
        return
    if not _is_integer_index(index):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if max(self.dim(), 1) != max(index.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d in range(max(self.dim(), 1)):
        if d != dim and _nonempty_size(index, d) > _nonempty_size(self, d):
            raise RuntimeError(f"Size does not match at dimension {d} expected index {_sizes(index)} to be no larger "
                               f"than self {_sizes(self)} apart from dimension {dim}")


def check_scatter(self, dim, index, src):
    """scatter's meta (scatter_gather_dtype_check, scatter_shape_check): an int32/int64 index with self's and a
    tensor src's number of dims, no longer than self on the other dims nor than src on any; src of self's dtype."""
    if index.numel() and not _is_integer_index(index):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    src_tensor = isinstance(src, Tensor)
    if src_tensor and src.dtype is not self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.numel() == 0:
        return
    if max(self.dim(), 1) != max(index.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    dims = range(max(self.dim(), 1))  # (src's sizes read on self's dims: an IndexError past a 1-d src's, say)
    too_large = any(d != dim and _nonempty_size(index, d) > _nonempty_size(self, d) for d in dims) or (
        src_tensor and any(_nonempty_size(index, d) > _nonempty_size(src, d) for d in dims))
    if src_tensor and max(src.dim(), 1) != max(index.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if too_large:
        than_src = f" and to be no larger size than src {_sizes(src)}" if src_tensor else ""
        raise RuntimeError(f"Expected index {_sizes(index)} to be no larger than self {_sizes(self)} apart from "
                           f"dimension {dim}{than_src}")


def check_index_select(self, index):
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if self.dim() == 0 and index.numel() != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.numel()} value(s)")
    if not _is_integer_index(index):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")


def check_index_add(self, dim, index, source, name="index_add"):
    """index_add's meta (index_func_meta_impl; index_reduce's too, `name`): a vector of int32/int64 indices, one per
    slice of a source of self's dtype and shape apart from dim."""
    if index.dim() > 1:
        raise IndexError(f"{name}_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_dtype_title(index.dtype)} and size: {_sizes(index)}")
    if not _is_integer_index(index):
        raise RuntimeError(f"{name}_(): Expected dtype int32/int64 for index but got: {_dtype_title(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"{name}_(): self ({_dtype_title(self.dtype)}) and source ({_dtype_title(source.dtype)}) "
                           "must have the same scalar type")
    if not (dim == 0 or dim < source.dim()):
        raise (IndexError if name == "index_add" else RuntimeError)(  # (ATen's index_reduce: a plain check)
            f"{name}_(): Indexing dim {dim} is out of bounds of the source tensor with dim {source.dim()}")
    slices = source.shape[dim] if source.dim() else 1
    if index.numel() != slices:
        raise RuntimeError(f"{name}_(): Number of indices ({index.numel()}) should be equal to source.size(dim): "
                           f"({slices}), for dim: {dim}")
    self_rest, source_rest = list(self.shape), list(source.shape)
    if self.dim() and source.dim():
        del self_rest[dim], source_rest[dim]
    if self_rest != source_rest:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {_sizes(self)} source.shape = {_sizes(source)}")


def first_out_of_range(indices, size, low=0):
    """The first index outside [low, size) in memory order, as ATen's loops meet it (gather, scatter...), or None."""
    bad = (indices < low) | (indices >= size)  # laid out as indices (numpy's order="K"), so both flatten alike
    return int(indices.ravel(order="K")[np.argmax(bad.ravel(order="K"))]) if bad.any() else None


def check_in_range(indices, d, size):
    """gather's, scatter's and index_add's error for the first index outside [0, size)."""
    bad = first_out_of_range(indices, size)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")


def _gather_kernel(self, dim, index, *, sparse_grad=False):
    d = wrap_dim(dim, self.dim())
    check_gather(self, d, index)
    idx = index._np
    check_in_range(idx, d, self.shape[d] if self.dim() else 1)
    if self.dim() == 0 or index.numel() == 0:  # every index is 0: self's one element, at each (or at none)
        return np.full(index.shape, self._np.reshape(-1)[:1].sum(), self.dtype.np)
    if index.dim() == 0:  # (a 0-d index is a one-element one)
        return self._np[idx[()]].copy()
    src = self._np[tuple(slice(0, s) if i != d else slice(None) for i, s in enumerate(index.shape))]
    return np.take_along_axis(src, idx, axis=d)


def _gather_meta(self, dim, index, *, sparse_grad=False):
    check_gather(self, wrap_dim(dim, self.dim()), index)
    return fake_empty(index.shape, self.dtype)


gather = (_gather_kernel, _gather_meta)


def _scatter(self, dim, index, src, reduce=None):
    check_scatter(self, wrap_dim(dim, self.dim()), index, src)
    if any(isinstance(t, Tensor) and t.dim() == 0 for t in (self, index, src)):  # a 0-d operand is a 1-element one
        self_1d, index_1d, src_1d = (Tensor._from_numpy(t._np.reshape(1)) if isinstance(t, Tensor) and t.dim() == 0
                                     else t for t in (self, index, src))
        return _scatter(self_1d, dim, index_1d, src_1d, reduce).reshape(self.shape)
    d = wrap_dim(dim, self.dim())
    out = self._np.copy()
    if index.numel() == 0:
        return out
    idx = index._np
    check_in_range(idx, d, self.shape[d])
    grids = np.indices(index.shape, sparse=True)
    target = tuple(idx if i == d else g for i, g in enumerate(grids))
    if isinstance(src, Tensor):
        values = src._np[tuple(slice(0, s) for s in index.shape)].astype(self.dtype.np, copy=False)
    else:
        values = np.full(index.shape, _dtype.checked_scalar(src, self.dtype), self.dtype.np)
    if reduce == "add":  # (in place; the halves in float32, rounded once, as ATen sums them)
        acc = out.astype(_dtype.opmath(self.dtype).np, copy=False)
        np.add.at(acc, target, values.astype(acc.dtype, copy=False))
        out = acc.astype(self.dtype.np, copy=False)
    else:
        out[target] = values
    return out


def _scatter_meta(self, dim, index, src, *args, **kwargs):
    check_scatter(self, wrap_dim(dim, self.dim()), index, src)
    if not isinstance(src, Tensor):
        _dtype.checked_scalar(src, self.dtype)
    return fake_empty(self.shape, self.dtype)


scatter_src = ((lambda self, dim, index, src: _scatter(self, dim, index, src)), _scatter_meta)
scatter_value = ((lambda self, dim, index, value: _scatter(self, dim, index, value)), _scatter_meta)
scatter_add = ((lambda self, dim, index, src: _scatter(self, dim, index, src, "add")), _scatter_meta)


def _index_select_kernel(self, dim, index):
    d = wrap_dim(dim, self.dim())
    check_index_select(self, index)
    idx = index._np.reshape(-1)
    size = self.shape[d] if self.dim() else 1
    bad = first_out_of_range(idx, size)
    if bad is not None and d > 0:  # ATen's loop over the other dims checks every index itself
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
    if bad is not None:
        raise IndexError("index out of range in self")
    return self._np.reshape(()).copy() if self.dim() == 0 else np.take(self._np, idx, axis=d)


def _index_select_meta(self, dim, index):
    d = wrap_dim(dim, self.dim())
    check_index_select(self, index)
    shape = list(self.shape)
    if shape:
        shape[d] = index.numel()
    return fake_empty(shape, self.dtype)


index_select = (_index_select_kernel, _index_select_meta)


def _cat_shape(tensors, dim):
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    ref = next((t for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)), None)
    if ref is None:  # (only legacy empty tensors, shape (0,): their dim is never read)
        return [0], 0
    d = wrap_dim(dim, ref.dim())
    total = 0
    for i, t in enumerate(tensors):
        if t.dim() == 1 and t.shape[0] == 0:
            continue
        if t.dim() != ref.dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.dim()} and {t.dim()}")
        for k in range(ref.dim()):
            if k != d and t.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size {ref.shape[k]} "
                                   f"but got size {t.shape[k]} for tensor number {i} in the list.")
        total += t.shape[d]
    shape = list(ref.shape)
    shape[d] = total
    return shape, d


def _cat_kernel(tensors, dim=0):
    shape, d = _cat_shape(tensors, dim)
    out_dtype = _dtype.result_type(*tensors)
    parts = [t._np.astype(out_dtype.np, copy=False) for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)]
    return c_order(np.concatenate(parts, axis=d)) if parts else np.empty(shape, out_dtype.np)


def _cat_meta(tensors, dim=0):
    shape, _ = _cat_shape(tensors, dim)
    return fake_empty(shape, _dtype.result_type(*tensors))


cat = (_cat_kernel, _cat_meta)


def _stacked_dim(tensors, dim):
    """dim wrapped, then the sizes checked (on fakes too: a symbolic size stacked with another is guarded equal)."""
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    d = wrap_dim(dim, tensors[0].dim() + 1)
    for i, t in enumerate(tensors):
        if tuple(t.shape) != tuple(tensors[0].shape):
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got [{', '.join(map(str, tensors[0].shape))}] at entry 0 "
                f"and [{', '.join(map(str, t.shape))}] at entry {i}"
            )
    return d


def _stack_kernel(tensors, dim=0):
    d = _stacked_dim(tensors, dim)
    out_dtype = _dtype.result_type(*tensors)
    return c_order(np.stack([t._np.astype(out_dtype.np, copy=False) for t in tensors], axis=d))


def _stack_meta(tensors, dim=0):
    d = _stacked_dim(tensors, dim)
    shape = list(tensors[0].shape)
    shape.insert(d, len(tensors))
    return fake_empty(shape, _dtype.result_type(*tensors))


stack = (_stack_kernel, _stack_meta)


def _with_self_dtype(factory, *leading):
    """new_zeros, new_full, ...: the factory's (kernel, meta) in self's dtype unless one is given; `leading`
    fixes its first arguments after the size (new_ones is new_full of 1)."""
    def of_self(fn):
        return lambda self, size, *args, dtype=None, **options: fn(size, *leading, *args, dtype=dtype or self.dtype,
                                                                    **options)

    return tuple(of_self(fn) for fn in factory)


new_zeros, new_empty = _with_self_dtype(factories.zeros), _with_self_dtype(factories.empty)
new_full, new_ones = _with_self_dtype(factories.full), _with_self_dtype(factories.full, 1)


def _new_empty_strided_kernel(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=None):
    return with_strides(np.empty(new_tensor_shape(size, dtype or self.dtype), (dtype or self.dtype).np), stride)


def _new_empty_strided_meta(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=None):
    return fake_empty(size, dtype or self.dtype, stride)


new_empty_strided = (_new_empty_strided_kernel, _new_empty_strided_meta)


def _index_add_kernel(self, dim, index, source, *, alpha=1):
    d = wrap_dim(dim, self.dim())
    check_index_add(self, d, index, source)
    out = self._np.copy()
    if not index_add_reads_indices(self, d, index):
        return out
    values = source._np if alpha == 1 else source._np * alpha
    np.add.at(np.moveaxis(out, d, 0) if self.dim() else out.reshape(1), index._np.reshape(-1),
              np.moveaxis(values, d, 0) if source.dim() else values.reshape(1))
    return out


def _index_add_meta(self, dim, index, source, *, alpha=1):
    check_index_add(self, wrap_dim(dim, self.dim()), index, source)
    return fake_empty(self.shape, self.dtype)


index_add = (_index_add_kernel, _index_add_meta)


lift_fresh_copy = (lambda self: self._np.copy(), lambda self: fake_empty(self.shape, self.dtype))
