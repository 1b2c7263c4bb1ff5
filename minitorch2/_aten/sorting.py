"""Sorting kernels: sort (stable or not, either direction) and topk, with their meta functions.

Runtime layer: the sort and topk rows of the op table. Both return (values,
indices); argsort is sort's indices, as torch's composite argsort is.

The order is ATen's comparator's: NaN ranked above every number (last
ascending, first descending), -0.0 equal to 0.0. A stable sort keeps equal keys
in index order (numpy's stable argsort of the reversed row, read backwards, when
descending). The unstable sort (the default) and topk order equal keys as
ATen's std::sort, std::partial_sort and std::nth_element leave them: rows
without ties take numpy's stable path (any sort agrees there), rows with ties
replay those algorithms (tie_order.py). Their derivative formula (sort_backward,
the gradient scattered back to the sorted indices) closes the module.
"""
import numpy as np

from .. import _dtype
from .derivatives_reductions import _value_selecting_backward
from .meta_util import fake_empty, preserve_format_strides, with_strides, wrap_dim
from .tie_order import THRESHOLD, by_key, has_ties, nth_element, order_keys, partial_sort, std_sort


def stable_order(x, axis, descending):
    """Indices that sort x along axis stably (NaN above everything)."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(flipped, axis)


def _sorted_along(self, dim, descending, stable=True, k=None, sorted=True):
    """(values, int64 indices) of self sorted along dim (sort_array's); a 0-d tensor is its own sort."""
    if self.dim() == 0:
        return self._np.copy(), np.zeros((), np.int64)
    return sort_array(self._np, dim, descending, stable, k, sorted, broadcast=self.stride(dim) == 0)


def sort_array(x, dim, descending, stable=True, k=None, sorted=True, broadcast=False):
    """(values, int64 indices) of x sorted along dim, or topk's first k of them (unsorted past the k-th where
    sorted=False and ATen's nth_element leaves them so)."""
    rows = np.moveaxis(x, dim, -1)
    n = rows.shape[-1]
    topk, k = k is not None, n if k is None else k
    keys = order_keys(rows, descending)
    order = np.argsort(keys, axis=-1, kind="stable")
    # No replay for a stable sort, for std::sort of at most 16 (an insertion sort alone: stable), nor for ATen's
    # sort of a broadcast row (which it leaves as it is).
    if stable or not n or (not topk and (broadcast or n <= THRESHOLD)):
        order = order[..., :k]
    else:
        replay = has_ties(np.take_along_axis(keys, order[..., :k + 1], -1))
        replay |= not sorted and 1 < k and k * 64 > n  # (nth_element's order of the first k - 1, ties or not)
        order = order[..., :k].copy()
        for r in map(tuple, np.argwhere(replay)):
            a = list(range(n))
            less = by_key(keys[r])
            if not topk:
                std_sort(a, 0, n, less)
            elif k * 64 <= n:  # (ATen's topk: a heap select for a small k)
                partial_sort(a, 0, k, n, less)
            elif k:
                nth_element(a, 0, k - 1, n, less)
                if sorted:
                    std_sort(a, 0, k - 1, less)
            order[r] = a[:k]
    values = np.take_along_axis(rows, order, -1)
    return np.moveaxis(values, -1, dim), np.moveaxis(order.astype(np.int64), -1, dim)


# ---------------------------------------------------------------- sort
RADIX_SORT_FROM = 32768  # ATen's GRAIN_SIZE: from this many elements a 1-D ascending integer sort is a radix sort


def _sort_stable_kernel(self, *, stable=None, dim=-1, descending=False):
    dim = wrap_dim(dim, self.dim())
    radix = self.dim() == 1 and self.numel() >= RADIX_SORT_FROM and not descending and \
        self.dtype.category == 1  # (an integer dtype: fbgemm's radix sort, which is stable)
    values, indices = _sorted_along(self, dim, descending, stable=bool(stable) or radix)
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
    if not 0 <= k <= (self.shape[dim] if self.dim() else 1):
        raise RuntimeError("selected index k out of range")
    if self.dtype is _dtype.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    shape = list(self.shape)
    if self.dim():
        shape[dim] = k
    return dim, tuple(shape)


def _topk_kernel(self, k, dim=-1, largest=True, sorted=True):
    dim, shape = _topk_check(self, k, dim)
    values, indices = _sorted_along(self, dim, largest, stable=False, k=k if self.dim() else None, sorted=sorted)
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
