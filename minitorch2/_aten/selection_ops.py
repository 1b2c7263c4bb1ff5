"""Kernels and meta functions of the selections along one dim: median, kthvalue, cummax and cummin.

Runtime layer: (kernel, meta) pairs for rows of table_more.py (beside more_ops.py's math ones); each returns the
values with the indices they came from, with ATen's checks and messages for an empty dim.
"""
import numpy as np

from .. import _dtype, _tensor_data
from .meta_util import c_order, fake_empty, reduced_shape, wrap_dim
from .pointwise_factories import _not_implemented
from .tie_order import by_key, nth_element, order_keys, quick_select


def _rows(self, dim):
    """self's values with `dim` moved last (a 0-d tensor as one row of one), and the wrapped dim."""
    d = wrap_dim(dim, self.dim())
    return np.moveaxis(self._np.reshape(self._np.shape or (1,)), d if self.dim() else 0, -1), d


def _unrows(values, indices, self, d, keepdim):
    if not self.dim():
        return values.reshape(()), indices.reshape(())
    values, indices = np.moveaxis(values[..., None], -1, d), np.moveaxis(indices[..., None], -1, d)
    if not keepdim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return c_order(values), c_order(indices.astype(np.int64))


def _kth_smallest(rows, k, quickselect=False):
    """The k-th smallest (0-based) of each row and its index; NaN counts as the largest. Among equal keys the
    median's comparator picks by index (a stable sort's pick); kthvalue's quickselect picks as ATen's does."""
    keys = order_keys(rows)
    order = np.argsort(keys, axis=-1, kind="stable")
    index = order[..., k]
    if quickselect:
        chosen = np.take_along_axis(keys, index[..., None], -1)
        for r in map(tuple, np.argwhere((keys == chosen).sum(-1) > 1)):
            a, row = list(range(rows.shape[-1])), keys[r].tolist()
            quick_select(a, k, lambda i, j: row[i] > row[j])
            index[r] = a[k]
    return np.take_along_axis(rows, index[..., None], -1)[..., 0], index


def _median_dim_kernel(self, dim, keepdim=False):
    rows, d = _rows(self, dim)
    _check_selection(self, d, "median()")
    k = (rows.shape[-1] - 1) // 2
    values, index = _kth_smallest(rows, k)
    if rows.dtype in _dtype.NP_FLOATS:
        nan = np.isnan(rows)
        has_nan = nan.any(-1)
        values = np.where(has_nan, np.nan, values).astype(rows.dtype)
        index = np.where(has_nan, np.argmax(nan, -1), index)
    return _unrows(values, index, self, d, keepdim)


def _check_selection(self, d, name, k=None):
    if self.dim() and self.shape[d] == 0:
        raise IndexError(f"{name}: Expected reduction dim {d} to have non-zero size.")
    k is None or _check_k(self, k, d)
    if self.dtype is _dtype.bool_ and name != "mode()":  # ATen's median and kthvalue kernels have no bool
        raise _not_implemented("kthvalue_cpu" if name == "kthvalue()" else "median_out", self.dtype)


def _selection_meta(name):
    def meta(self, dim, keepdim=False):
        d = wrap_dim(dim, self.dim())
        _check_selection(self, d, name)
        shape = reduced_shape(self.shape, (d,) if self.dim() else (), keepdim)
        return fake_empty(shape, self.dtype), fake_empty(shape, _dtype.int64)

    return meta


median_dim = (_median_dim_kernel, _selection_meta("median()"))


def refuse_bool_median(self):
    if self.dtype is _dtype.bool_ and self.numel():  # (an empty input's NaN comes before ATen's dispatch)
        raise _not_implemented("median_cpu", self.dtype)


def nan_as(dtype):
    """The median of nothing: NaN, converted into `dtype` as ATen converts it (INT_MIN for int32 and int64)."""
    _tensor_data.copy_as_aten(result := np.empty((), dtype.np), np.asarray(np.nan))
    return result


def _median_kernel(self):
    refuse_bool_median(self)
    x = self._np.ravel(order="K")  # (ATen partitions a clone, which keeps self's memory order)
    if x.size == 0:
        return nan_as(self.dtype)
    if x.dtype in _dtype.NP_FLOATS and np.isnan(x).any():
        return np.asarray(np.nan, x.dtype)
    return np.asarray(median_value(x, (x.size - 1) // 2), x.dtype)


def median_value(x, nth):
    """ATen's std::nth_element's pick from the flat x: the nth smallest, NaN last; among -0.0 and 0.0 the
    algorithm's."""
    value = np.sort(x)[nth]
    if value == 0 and np.signbit(x[x == 0]).any() and not np.signbit(x[x == 0]).all():
        a = list(range(x.size))
        nth_element(a, 0, nth, x.size, by_key(order_keys(x)))
        value = x[a[nth]]
    return value


median = (_median_kernel, lambda self: refuse_bool_median(self) or fake_empty((), self.dtype))


def _check_k(self, k, d):
    size = self.shape[d] if self.dim() else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")


def _kthvalue_kernel(self, k, dim=-1, keepdim=False):
    rows, d = _rows(self, dim)
    _check_selection(self, d, "kthvalue()", k)  # eager refuses an empty dim before reading k (the meta after)
    values, index = _kth_smallest(rows, k - 1, quickselect=True)
    return _unrows(values, index, self, d, keepdim)


def _kthvalue_meta(self, k, dim=-1, keepdim=False):
    d = wrap_dim(dim, self.dim())
    _check_k(self, k, d)
    return _selection_meta("kthvalue()")(self, dim, keepdim)


kthvalue = (_kthvalue_kernel, _kthvalue_meta)


def _cumulative_extreme(better):
    """cummax / cummin: the running extreme and the index where it was last reached (ties move the index on,
    NaN wins and stays), as ATen's loop."""
    def kernel(self, dim):
        if not self.numel():  # (before the dim is wrapped: ATen returns an empty input as it is)
            return np.empty(self.shape, self.dtype.np), np.empty(self.shape, np.int64)
        rows, d = _rows(self, dim)
        values, indices = np.empty_like(rows), np.zeros(rows.shape, np.int64)
        if rows.shape[-1]:
            best, where = rows[..., 0].copy(), np.zeros(rows.shape[:-1], np.int64)
            for i in range(rows.shape[-1]):
                x = rows[..., i]
                take = (x == best) | better(x, best) | (np.isnan(x) if x.dtype in _dtype.NP_FLOATS else False)
                if x.dtype in _dtype.NP_FLOATS:
                    take &= ~np.isnan(best) | np.isnan(x)
                best, where = np.where(take, x, best), np.where(take, i, where)
                values[..., i], indices[..., i] = best, where
        if not self.dim():
            return values.reshape(()), indices.reshape(())
        return c_order(np.moveaxis(values, -1, d)), c_order(np.moveaxis(indices, -1, d))

    def meta(self, dim):
        self.numel() and wrap_dim(dim, self.dim())
        return fake_empty(self.shape, self.dtype), fake_empty(self.shape, _dtype.int64)

    return kernel, meta


cummax = _cumulative_extreme(np.greater)
cummin = _cumulative_extreme(np.less)
