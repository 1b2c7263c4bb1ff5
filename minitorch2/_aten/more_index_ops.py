"""Kernels and meta functions of the commonly used ops beyond the pipeline's core set that move elements or
compute indices.

Runtime layer: (kernel, meta) pairs for the rows of table_more.py, beside more_ops.py's math ones. Triangles, flips,
repeats and constant padding (tril/triu, flip, repeat, constant_pad_nd), windows and rotations (unfold, rot90,
diagonal_copy, diag_embed), the ops whose output size depends on data (masked_select, nonzero, unique, bincount,
repeat_interleave) and the integer-valued lookups (isin, searchsorted, bucketize, tril/triu_indices), each with ATen's dtype rules and error messages. The data-dependent ones refuse FakeTensors, so a compiled program
breaks its graph there, as torch's does without dynamic shapes.
"""
import numpy as np

from .. import _dtype
from .._tensor import DynamicOutputShapeException, Tensor, contiguous_strides
from .memory import _dtype_title
from .meta_util import c_order, fake_empty, new_tensor_shape, preserve_format_strides, with_strides, wrap_dim
from .sorting import sort_array
from .tie_order import unique_rows


# ---------------------------------------------------------------- shapes and copies
def _tri(np_fn):
    def kernel(self, diagonal=0):
        if self.dim() < 2:
            raise RuntimeError(f"{np_fn.__name__}: input tensor must have at least 2 dimensions")
        return c_order(np_fn(self._np, k=diagonal))

    def meta(self, diagonal=0):
        return fake_empty(self.shape, self.dtype)

    return kernel, meta


tril = _tri(np.tril)
triu = _tri(np.triu)


def _flip_kernel(self, dims):
    axes = tuple(wrap_dim(d, self.dim()) for d in dims)
    return c_order(np.flip(self._np, axis=axes if self.dim() else ()))  # (a 0-d tensor's dim 0 flips nothing)


def _flip_meta(self, dims):  # ATen flips into empty_like(self) (preserve_format)
    return fake_empty(self.shape, self.dtype, preserve_format_strides(self))


flip = ((lambda self, dims: with_strides(_flip_kernel(self, dims), _flip_meta(self, dims).stride())), _flip_meta)


def _repeat_shape(self, repeats):
    if len(repeats) < self.dim():
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    padded = (1,) * (len(repeats) - self.dim()) + tuple(self.shape)
    return list(new_tensor_shape([s * r for s, r in zip(padded, repeats)], self.dtype)), padded


def _repeat_kernel(self, repeats):
    _, padded = _repeat_shape(self, repeats)
    return np.tile(self._np.reshape(padded), repeats)


repeat = (_repeat_kernel, lambda self, repeats: fake_empty(_repeat_shape(self, repeats)[0], self.dtype))


def _pad_widths(self, pad):
    if len(pad) % 2 or len(pad) // 2 > self.dim():
        raise RuntimeError(
            f"Length of pad must be even but instead it equals {len(pad)}" if len(pad) % 2 else
            "Length of pad should be no more than twice the number of dimensions of the input."
        )
    widths = [(0, 0)] * self.dim()
    for i in range(len(pad) // 2):
        widths[self.dim() - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    for size, (lo, hi) in zip(self.shape, widths):  # (ATen narrows by negative pads first; no guard on a symbol)
        negative = type(lo) is int and type(hi) is int and (lo < 0 or hi < 0)
        if negative and (size + min(lo, 0) < 0 or size + min(lo, 0) + min(hi, 0) < 0):
            raise RuntimeError("narrow(): length must be non-negative.")
    return widths


def _constant_pad_kernel(self, pad, value=0):
    widths = _pad_widths(self, pad)
    x = self._np
    crop = tuple(slice(max(-lo, 0), x.shape[i] - max(-hi, 0)) for i, (lo, hi) in enumerate(widths))
    x = x[crop]
    return c_order(np.pad(x, [(max(lo, 0), max(hi, 0)) for lo, hi in widths], constant_values=value))


def _constant_pad_meta(self, pad, value=0):
    widths = _pad_widths(self, pad)
    return fake_empty([s + lo + hi for s, (lo, hi) in zip(self.shape, widths)], self.dtype)


constant_pad_nd = (_constant_pad_kernel, _constant_pad_meta)


def _unfold_geometry(self, dimension, size, step):
    n = self.dim()
    d = wrap_dim(dimension, n)
    length = self.shape[d] if n else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    stride = self.stride()[d] if n else 1
    shape, strides = list(self.shape), list(self.stride())
    if n:
        shape[d], strides[d] = (length - size) // step + 1, step * stride
    return shape + [size], strides + [stride], self.storage_offset()


def _unfold_kernel(self, dimension, size, step):
    shape, stride, offset = _unfold_geometry(self, dimension, size, step)
    return Tensor._make_view(self, shape, stride, offset)


unfold = (_unfold_kernel, _unfold_kernel)


def _unfold_backward_kernel(grad_in, input_sizes, dim, size, step):
    out = np.zeros(input_sizes, grad_in.dtype.np)
    d = wrap_dim(dim, len(input_sizes))
    target = np.moveaxis(out, d, -1) if input_sizes else out.reshape(1)
    grad = np.moveaxis(grad_in._np, d, -2) if input_sizes else grad_in._np.reshape(1, -1)
    for i in range(grad.shape[-2]):
        target[..., i * step:i * step + size] += grad[..., i, :]
    return out


unfold_backward = (_unfold_backward_kernel, lambda grad_in, input_sizes, *args: fake_empty(input_sizes, grad_in.dtype))


def _rot90_check(self, k, dims):
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {self.dim()}")
    d0, d1 = wrap_dim(dims[0], self.dim()), wrap_dim(dims[1], self.dim())
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    return d0, d1


def _rot90_geometry(self, k, dims):
    """ATen's rot90 flips and then transposes: an odd k gives the transposed layout of a contiguous flip."""
    d0, d1 = _rot90_check(self, k, dims)
    shape = list(self.shape)
    if k % 2 == 0:
        return shape, contiguous_strides(shape)
    flipped = contiguous_strides(shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    stride = list(flipped)
    stride[d0], stride[d1] = flipped[d1], flipped[d0]
    return shape, stride


def _rot90_kernel(self, k=1, dims=(0, 1)):
    _, stride = _rot90_geometry(self, k, dims)
    return with_strides(np.rot90(self._np, k, axes=(dims[0], dims[1])), stride)


def _rot90_meta(self, k=1, dims=(0, 1)):
    shape, stride = _rot90_geometry(self, k, dims)
    return fake_empty(shape, self.dtype, stride)


rot90 = (_rot90_kernel, _rot90_meta)


def _diagonal_copy_kernel(self, offset=0, dim1=0, dim2=1):
    return np.ascontiguousarray(np.diagonal(self._np, offset, wrap_dim(dim1, self.dim()), wrap_dim(dim2, self.dim())))


def _diagonal_copy_meta(self, offset=0, dim1=0, dim2=1):
    n = self.dim()
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if offset >= 0:
        length = max(min(self.shape[d1], self.shape[d2] - offset), 0)
    else:
        length = max(min(self.shape[d1] + offset, self.shape[d2]), 0)
    return fake_empty([self.shape[i] for i in range(n) if i not in (d1, d2)] + [length], self.dtype)


diagonal_copy = (_diagonal_copy_kernel, _diagonal_copy_meta)


def _diag_embed_shape(self, offset, dim1, dim2):
    n = self.dim() + 1
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    side = self.shape[-1] + abs(offset)
    rest = iter(self.shape[:-1])
    return [side if i in (d1, d2) else next(rest) for i in range(n)], d1, d2


def _diag_embed_kernel(self, offset=0, dim1=-2, dim2=-1):
    shape, d1, d2 = _diag_embed_shape(self, offset, dim1, dim2)
    out = np.zeros(shape, self.dtype.np)
    window = np.diagonal(out, offset, d1, d2)
    window.setflags(write=True)
    window[...] = self._np
    return out


def _diag_embed_meta(self, offset=0, dim1=-2, dim2=-1):
    return fake_empty(_diag_embed_shape(self, offset, dim1, dim2)[0], self.dtype)


diag_embed = (_diag_embed_kernel, _diag_embed_meta)


# ---------------------------------------------------------------- data-dependent sizes
def _nonzero_kernel(self):
    # torch returns the (n, ndim) indices column-major: strides (1, n)
    n = int(np.count_nonzero(self._np))
    if not self.dim():
        return with_strides(np.zeros((n, 0), np.int64), (1, n))
    return with_strides(np.stack(np.nonzero(self._np), axis=1).astype(np.int64), (1, n))


def _nonzero_meta(self):
    raise DynamicOutputShapeException("aten.nonzero has a data-dependent output shape; FakeTensors cannot run it")


nonzero = (_nonzero_kernel, _nonzero_meta)


def _data_dependent(name):
    def meta(*args, **kwargs):
        raise DynamicOutputShapeException(f"aten.{name} has a data-dependent output shape; FakeTensors cannot run it")

    return meta


def _masked_select_kernel(self, mask):
    if mask.dtype is not _dtype.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    x, m = np.broadcast_arrays(self._np, mask._np)
    return np.ascontiguousarray(x[m])


masked_select = (_masked_select_kernel, _data_dependent("masked_select"))


def _unique_kernel(self, sorted=True, return_inverse=False, return_counts=False):
    """ATen's unique (sorted or not): the flat elements sorted (its unstable sort, so among -0.0 and 0.0 the
    sort's first), then the first of each run of equal ones (each NaN a run of its own)."""
    x = self._np.reshape(-1)
    values, order = sort_array(x, 0, descending=False, stable=False)
    starts = np.ones(len(values), bool)
    starts[1:] = values[1:] != values[:-1]
    inverse = np.zeros(len(x), np.int64)
    inverse[order] = np.cumsum(starts) - 1
    inverse = inverse.reshape(self.shape) if return_inverse else np.zeros(0, np.int64)
    counts = np.diff(np.append(np.flatnonzero(starts), len(x))) if return_counts else np.zeros(0, np.int64)
    return values[starts], inverse, counts.astype(np.int64)


unique2 = (_unique_kernel, _data_dependent("_unique2"))


def _unique_dim_kernel(self, dim, sorted=True, return_inverse=False, return_counts=False):
    """The distinct slices along dim, sorted lexicographically, with inverse and counts: numpy's where no NaN
    or -0.0 makes ATen's sort-and-compare order differ (tie_order.unique_rows)."""
    d = wrap_dim(dim, self.dim())
    x = self._np
    if x.dtype.kind not in "fV" or not x.size or not (np.isnan(x).any() or np.signbit(x[x == 0]).any()):
        values, inverse, counts = np.unique(x, axis=d, return_inverse=True, return_counts=True)
        return c_order(values), inverse.reshape(-1).astype(np.int64), counts.astype(np.int64)
    rows = np.moveaxis(x, d, 0)
    kept, inverse, counts = unique_rows(rows.reshape(len(rows), -1))
    return c_order(np.moveaxis(rows[kept], 0, d)), inverse, counts


def _unique_consecutive_kernel(self, return_inverse=False, return_counts=False, dim=None):
    """One element (or slice along dim) per run of equal ones, in order; inverse numbers each element's run."""
    d = None if dim is None else wrap_dim(dim, self.dim())
    x = self._np.reshape(-1) if d is None else np.moveaxis(self._np, d, 0)
    starts = np.ones(len(x), bool)
    starts[1:] = (x[1:] != x[:-1]).reshape(len(x) - 1, -1).any(1) if len(x) > 1 else starts[1:]
    values = x[starts] if d is None else np.moveaxis(x[starts], 0, d)
    inverse = (np.cumsum(starts) - 1).reshape(self.shape if d is None else -1)
    counts = np.diff(np.append(np.flatnonzero(starts), len(x)))
    return c_order(values), inverse.astype(np.int64), counts.astype(np.int64)


unique_dim = (_unique_dim_kernel, _data_dependent("unique_dim"))
unique_consecutive = (_unique_consecutive_kernel, _data_dependent("unique_consecutive"))


def _bincount_kernel(self, weights=None, minlength=0):
    if self.dtype.is_inexact or self.dtype is _dtype.bool_:  # (the dtype is checked first)
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_dtype_title(self.dtype)}'")
    if self.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if self.numel() and self._np.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return np.bincount(self._np, minlength=minlength).astype(np.int64)
    if tuple(weights.shape) != tuple(self.shape):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out = _dtype.float32 if weights.dtype is _dtype.float32 else _dtype.float64
    return np.bincount(self._np, weights._np.astype(np.float64), minlength).astype(out.np)


bincount = (_bincount_kernel, _data_dependent("bincount"))


def _repeat_interleave_kernel(repeats, *, output_size=None):
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.dtype not in (_dtype.int64, _dtype.int32):  # (ATen's kernel is written for these two types only)
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{_dtype_title(repeats.dtype)}'")
    if repeats.numel() and repeats._np.min() < 0:
        raise RuntimeError("repeats can not be negative")
    return np.repeat(np.arange(repeats.numel(), dtype=np.int64), repeats._np).astype(repeats.dtype.np)


repeat_interleave = (_repeat_interleave_kernel, _data_dependent("repeat_interleave"))


# ---------------------------------------------------------------- lookups
def _isin_arrays(elements, test_elements):
    as_array = (lambda v: v._np if isinstance(v, Tensor) else np.asarray(v))
    return as_array(elements), as_array(test_elements).reshape(-1)


def _isin_kernel(elements, test_elements, *, assume_unique=False, invert=False):
    x, pool = _isin_arrays(elements, test_elements)
    return np.asarray(np.isin(x, pool, invert=invert))


def _isin_meta(elements, test_elements, *, assume_unique=False, invert=False):
    return fake_empty(elements.shape if isinstance(elements, Tensor) else (), _dtype.bool_)


isin = (_isin_kernel, _isin_meta)


def _search_check(sorted_sequence, values_shape, side, right):
    if side not in (None, "left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left while "
                           "right was True")
    if sorted_sequence.dim() > 1 and tuple(sorted_sequence.shape[:-1]) != tuple(values_shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           "of boundaries tensor and input value tensor must match")


def _searchsorted_kernel(sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None):
    values = self._np if isinstance(self, Tensor) else np.asarray(self)
    _search_check(sorted_sequence, values.shape, side, right)
    side = side or ("right" if right else "left")
    seq = sorted_sequence._np
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._np, -1)
    out = _binary_search(seq if seq.ndim <= 1 else seq.reshape(values.shape[:-1] + seq.shape[-1:]), values,
                         side == "right")
    return np.asarray(out, np.int32 if out_int32 else np.int64)


def _binary_search(seq, values, right):
    """ATen's bisection over the last axis of seq (broadcast against values' rows): a step goes right unless the
    middle element is >= the value (> for right), so a NaN on either side always goes right."""
    start, end = np.zeros(values.shape, np.int64), np.full(values.shape, seq.shape[-1], np.int64)
    rows = np.broadcast_to(seq, values.shape[:-1] + seq.shape[-1:]) if values.ndim else seq
    while (start < end).any():
        mid = start + (end - start) // 2
        middle = np.take_along_axis(rows, np.minimum(mid, max(seq.shape[-1] - 1, 0)).reshape(
            rows.shape[:-1] + (-1,)), -1).reshape(values.shape)
        right_of = ~(middle > values) if right else ~(middle >= values)
        active = start < end
        start, end = np.where(active & right_of, mid + 1, start), np.where(active & ~right_of, mid, end)
    return start


def _searchsorted_meta(sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None):
    shape = tuple(self.shape) if isinstance(self, Tensor) else ()
    _search_check(sorted_sequence, shape, side, right)
    return fake_empty(shape, _dtype.int32 if out_int32 else _dtype.int64)


searchsorted = (_searchsorted_kernel, _searchsorted_meta)


def _bucketize_kernel(self, boundaries, *, out_int32=False, right=False):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return _searchsorted_kernel(boundaries, self, out_int32=out_int32, right=right)


def _bucketize_meta(self, boundaries, *, out_int32=False, right=False):
    return fake_empty(tuple(self.shape) if isinstance(self, Tensor) else (), _dtype.int32 if out_int32 else _dtype.int64)


bucketize = (_bucketize_kernel, _bucketize_meta)


def _triangle_indices(upper):
    def kernel(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
        rows, cols = (np.triu_indices if upper else np.tril_indices)(row, offset, col)
        return np.stack([rows, cols]).astype((dtype or _dtype.int64).np).reshape(2, -1)

    def meta(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
        return fake_empty(kernel(row, col, offset).shape, dtype or _dtype.int64)

    return kernel, meta


tril_indices = _triangle_indices(upper=False)
triu_indices = _triangle_indices(upper=True)
