"""Sorting kernels: sort (stable or not, either direction) and topk, with their meta functions.

Runtime layer: the sort and topk rows of the op table. Both return (values,
indices); argsort is sort's indices, as torch's composite argsort is.

The one idea a reader must hold: every sort here is a stable sort with NaN
ranked above every number (last ascending, first descending), which is what
ATen's sort(stable=True) gives. An unstable sort (the default) and topk may
order ties in any way, so a stable answer is one of the answers ATen is
allowed to give; for distinct values the results are ATen's exactly. A
descending stable sort is the ascending stable sort of the reversed row, read
backwards: ties keep their index order and NaN comes first. Their derivative formula (sort_backward, the
gradient scattered back to the sorted indices) closes the module.
"""
import numpy as np

from .. import _dtype
from .derivatives_reductions import _value_selecting_backward
from .meta_util import fake_empty, preserve_format_strides, with_strides, wrap_dim


def stable_order(x, axis, descending):
    """Indices that sort x along axis stably (NaN above everything)."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(flipped, axis)


def _sorted_along(self, dim, descending):
    """(values, int64 indices) of self sorted along dim; a 0-d tensor is its own sort."""
    x = self._np
    if self.dim() == 0:
        return x.copy(), np.zeros((), np.int64)
    order = stable_order(x, dim, descending)
    return np.take_along_axis(x, order, dim), order.astype(np.int64)


# ---------------------------------------------------------------- sort
def _sort_stable_kernel(self, *, stable=None, dim=-1, descending=False):
    dim = wrap_dim(dim, self.dim())
    values, indices = _sorted_along(self, dim, descending)
    stride = preserve_format_strides(self)  # ATen sorts into empty_like(self)
    return with_strides(values, stride), with_strides(indices, stride)


def _sort_stable_meta(self, *, stable=None, dim=-1, descending=False):
    wrap_dim(dim, self.dim())
    stride = preserve_format_strides(self)
    return fake_empty(self.shape, self.dtype, stride), fake_empty(self.shape, _dtype.int64, stride)


sort_stable = (_sort_stable_kernel, _sort_stable_meta)
sort = (lambda self, dim=-1, descending=False: _sort_stable_kernel(self, dim=dim, descending=descending),
        lambda self, dim=-1, descending=False: _sort_stable_meta(self, dim=dim, descending=descending))


# ---------------------------------------------------------------- topk
def _topk_check(self, k, dim):
    dim = wrap_dim(dim, self.dim())
    if self.dtype is _dtype.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    size = self.shape[dim] if self.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    shape = list(self.shape)
    if self.dim():
        shape[dim] = k
    return dim, tuple(shape)


def _topk_kernel(self, k, dim=-1, largest=True, sorted=True):
    dim, shape = _topk_check(self, k, dim)
    values, indices = _sorted_along(self, dim, descending=largest)
    if self.dim():
        values, indices = np.take(values, range(k), axis=dim), np.take(indices, range(k), axis=dim)
    return np.asarray(values, order="C"), np.asarray(indices, order="C")


def _topk_meta(self, k, dim=-1, largest=True, sorted=True):
    _, shape = _topk_check(self, k, dim)
    return fake_empty(shape, self.dtype), fake_empty(shape, _dtype.int64)


topk = (_topk_kernel, _topk_meta)


def sort_backward(grads, self_shape, dim, result1):
    """sort and topk: derivatives.yaml's value_selecting_reduction_backward(grad, dim, indices, sizes, true)."""
    grad = grads[0]
    if grad is None:
        return None
    return _value_selecting_backward(grad, dim, result1, self_shape, keepdim=True)
