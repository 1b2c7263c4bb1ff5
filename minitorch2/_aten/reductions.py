"""Reduction kernels (sum, mean, amax, var, ...) and their meta functions.

Runtime layer. Reductions follow PyTorch's dtype rules: `sum` of integer or bool tensors accumulate in int64,
`mean`/`var` need a floating input, and an explicit `dtype=` casts before reducing. Dims are normalised once
(`reduction_dims`), so `dim=None`, `dim=[]` and a full list agree.
"""
import math
import warnings

import numpy as np

from .. import _dtype
from .memory import _dtype_title
from .meta_util import c_order, fake_empty, reduced_shape, reduction_dims, wrap_dim


def _contiguous_out(impl):
    """ATen allocates reduction outputs contiguous, whatever the input's layout (numpy keeps it)."""
    kernel, meta = impl

    def contiguous_kernel(*args, **kwargs):
        result = kernel(*args, **kwargs)
        return tuple(c_order(r) for r in result) if isinstance(result, tuple) else c_order(result)

    return contiguous_kernel, meta


def sum_dtype(self, dtype):
    """sum's and prod's result dtype: `dtype` if given, else int64 for bool and integers (tensors and IR nodes)."""
    return dtype if dtype is not None else (_dtype.int64 if self.dtype.category < 2 else self.dtype)


def _sum_kernel(self, dim=None, keepdim=False, *, dtype=None):
    out_dtype = sum_dtype(self, dtype)
    dims = reduction_dims(dim, self.dim())
    x = self._np.astype(out_dtype.np, copy=False)
    return np.asarray(np.sum(x, axis=dims, keepdims=keepdim, dtype=_dtype.opmath(out_dtype).np), out_dtype.np)


def _sum_meta(self, dim=None, keepdim=False, *, dtype=None):
    dims = reduction_dims(dim, self.dim())
    return fake_empty(reduced_shape(self.shape, dims, keepdim), sum_dtype(self, dtype))


sum_dim = _contiguous_out((_sum_kernel, _sum_meta))  # (also sum.default's: it reduces every dim when given none)


def _mean_dtype(self, dtype, name="mean"):
    out = dtype or self.dtype
    if not out.is_inexact:
        raise RuntimeError(f"{name}(): could not infer output dtype. {'Optional' if dtype else 'Input'} dtype must be "
                           f"either a floating point or complex dtype. Got: {_dtype_title(out)}")
    return out


def _mean_kernel(self, dim=None, keepdim=False, *, dtype=None):
    out_dtype = _mean_dtype(self, dtype)
    dims = reduction_dims(dim, self.dim())
    count = math.prod(self.shape[d] for d in dims)
    total = np.sum(self._np.astype(out_dtype.np, copy=False), axis=dims, keepdims=keepdim, dtype=_dtype.opmath(out_dtype).np)
    with np.errstate(all="ignore"):  # the mean of nothing is nan, without numpy's warning
        return np.asarray(total / np.asarray(count, total.dtype), out_dtype.np)


def _mean_meta(self, dim=None, keepdim=False, *, dtype=None):
    return fake_empty(reduced_shape(self.shape, reduction_dims(dim, self.dim()), keepdim), _mean_dtype(self, dtype))


mean_dim = mean_default = _contiguous_out((_mean_kernel, _mean_meta))


def _nonempty_dims(self, dim, name):
    """The dims an extremum reduces, refusing to reduce nothing: RuntimeError when no dim was named (amax() of an
    empty tensor), IndexError for a named dim of size 0, as ATen's kernel (not its meta: see _extremum)."""
    if not dim and self.numel() == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
    for given in ([dim] if isinstance(dim, int) else list(dim or ())) if self.dim() else ():
        if not self.shape[wrap_dim(given, self.dim())] > 0:  # (ATen names the dim as given; torch's ref asks `> 0`)
            raise IndexError(f"{name}(): Expected reduction dim {given} to have non-zero size.")
    return reduction_dims(dim, self.dim())  # (a repeated dim after the empty ones, as ATen checks)


def _extremum(np_fn, name):
    def kernel(self, dim=(), keepdim=False):
        dims = _nonempty_dims(self, dim, name)
        return np.asarray(np_fn(self._np, axis=dims, keepdims=keepdim))

    def meta(self, dim=(), keepdim=False):  # torch's refuses amax of a size-0 dim (RuntimeError); max() fails when run
        dims = reduction_dims(dim, self.dim())
        if name in ("amax", "amin") and self.dim() and not all(self.shape[d] > 0 for d in dims):  # (guards `> 0`)
            raise RuntimeError("reducing over zero-size dimension for reduction operation without identity")
        return fake_empty(reduced_shape(self.shape, dims, keepdim), self.dtype)

    return kernel, meta


def zero_tie(np_fn, last=False):
    """np.max/np.min with ATen's sign for a zero extremum: the first of the tied zeros along the reduced
    dims (amax, max.dim), the last for max()/min() of everything (numpy's may be either). Only the sign
    of zero differs between tied values; NaN and nonzero results are numpy's."""
    def fn(x, axis=None, keepdims=False):
        result = np.asarray(np_fn(x, axis=axis, keepdims=keepdims))
        if x.dtype not in _dtype.NP_FLOATS or x.ndim == 0 or x.size == 0 or not (result == 0).any():
            return result
        axes = tuple(range(x.ndim)) if axis is None else tuple(np.atleast_1d(axis) % x.ndim)
        kept = [d for d in range(x.ndim) if d not in axes]
        rows = np.transpose(x, kept + list(axes)).reshape([x.shape[d] for d in kept] + [-1])
        if last:
            rows = rows[..., ::-1]
        first_zero = np.take_along_axis(rows, np.argmax(rows == 0, axis=-1)[..., None], -1)[..., 0]
        flat = np.asarray(np_fn(x, axis=axes))
        fixed = np.where(flat == 0, first_zero, flat)
        return np.expand_dims(fixed, axes) if keepdims else fixed

    return fn


amax = _contiguous_out(_extremum(zero_tie(np.max), "amax"))
amin = _contiguous_out(_extremum(zero_tie(np.min), "amin"))


max_default = _extremum(zero_tie(np.max, last=True), "max")  # (max() of everything: amax's kernel with no dim)
min_default = _extremum(zero_tie(np.min, last=True), "min")


def _check_index_reduction(self, dim, name, error=IndexError):
    """argmax/argmin/max.dim/min.dim of nothing: IndexError, as ATen's kernel (torch's meta: `error`, argmax() only)."""
    if dim is None:
        if self.numel() == 0:
            raise error(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        return
    d = wrap_dim(dim, self.dim())
    if self.dim() and self.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _arg_index(np_arg, name):
    def kernel(self, dim=None, keepdim=False):
        _check_index_reduction(self, dim, name)
        if dim is None:
            idx = np_arg(self._np.reshape(-1))
            return np.asarray(idx, dtype=np.int64).reshape((1,) * self.dim() if keepdim else ())
        d = wrap_dim(dim, self.dim())
        x = self._np if self.dim() else self._np.reshape(1)
        idx = np_arg(x, axis=d if self.dim() else 0)
        if keepdim and self.dim():
            idx = np.expand_dims(idx, d)
        return np.asarray(idx, dtype=np.int64)

    def meta(self, dim=None, keepdim=False):
        _check_index_reduction(self, dim, name, RuntimeError)
        dims = tuple(range(self.dim())) if dim is None else (wrap_dim(dim, self.dim()),)
        return fake_empty(reduced_shape(self.shape, dims, keepdim), _dtype.int64)

    return kernel, meta


def _nan_first(fn):
    def arg(x, axis=None):
        # torch propagates NaN: the index of the first NaN wins
        if x.dtype in _dtype.NP_FLOATS:
            nan = np.isnan(x)
            if nan.any():
                return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), fn(np.where(nan, 0, x), axis=axis))
        return fn(x, axis=axis)

    return arg


def _refuse_bool(impl, name):
    kernel, meta = impl

    def checked(self, dim=None, keepdim=False):
        if self.dtype is _dtype.bool_:
            raise RuntimeError(f"{name}(): does not support bool input")
        return kernel(self, dim, keepdim)

    return checked, meta


_argmax = _contiguous_out(_arg_index(_nan_first(np.argmax), "argmax"))
_argmin = _contiguous_out(_arg_index(_nan_first(np.argmin), "argmin"))
argmax = _refuse_bool(_argmax, "argmax")  # (max.dim takes bool inputs; argmax does not)
argmin = _refuse_bool(_argmin, "argmin")


def _max_dim(np_fn, np_arg, name):
    def kernel(self, dim, keepdim=False):
        d = wrap_dim(dim, self.dim())
        _check_index_reduction(self, d, name)
        values = np.asarray(np_fn(self._np, axis=d if self.dim() else None, keepdims=keepdim))
        return values, (_argmax if name == "max" else _argmin)[0](self, dim, keepdim)

    def meta(self, dim, keepdim=False):
        shape = reduced_shape(self.shape, (wrap_dim(dim, self.dim()),) if self.dim() else (), keepdim)
        return fake_empty(shape, self.dtype), fake_empty(shape, _dtype.int64)

    return kernel, meta


max_dim = _contiguous_out(_max_dim(zero_tie(np.max), np.argmax, "max"))
min_dim = _contiguous_out(_max_dim(zero_tie(np.min), np.argmin, "min"))


def _var_kernel(self, dim=None, *, correction=None, keepdim=False, name="var", then=np.asarray):
    """`then` (std's sqrt) applies before the result rounds to self's dtype: float16's std rounds once, as ATen's.
    ATen's CPU kernel accumulates float32 in double too: numpy's float32 var is off in its last bit 3 times in 4."""
    out_dtype = _var_meta(self, dim, name="var_mean" if name == "var_mean" else "std and var").dtype  # (checked)
    dims = reduction_dims(dim, self.dim())
    ddof = 1 if correction is None else correction
    n = math.prod(self.shape[d] for d in dims)
    with np.errstate(all="ignore"):
        x = self._np.astype(np.promote_types(self._np.dtype, np.float64))
        if n - ddof > 0:
            return np.asarray(then(np.var(x, axis=dims, ddof=ddof, keepdims=keepdim))).astype(out_dtype.np)
        # ATen's warning, and the sum of squares divided by max(n - correction, 0), as ATen (np.var would warn)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).", UserWarning, stacklevel=2)
        squares = np.square(np.abs(x - np.sum(x, axis=dims, keepdims=True) / np.float64(n)))
        return np.asarray(then(np.sum(squares, axis=dims, keepdims=keepdim) / np.float64(max(n - ddof, 0)))).astype(
            out_dtype.np)


def _var_meta(self, dim=None, *, correction=None, keepdim=False, name="std and var"):
    if not self.dtype.is_inexact:  # (when traced too: a compiled graph would compute)
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    real = {_dtype.complex64: _dtype.float32, _dtype.complex128: _dtype.float64}.get(self.dtype, self.dtype)
    return fake_empty(reduced_shape(self.shape, reduction_dims(dim, self.dim()), keepdim), real)


var = _contiguous_out((_var_kernel, _var_meta))


def _var_mean_kernel(self, dim=None, *, correction=None, keepdim=False):
    variance = _var_kernel(self, dim, correction=correction, keepdim=keepdim, name="var_mean")  # (dtype, then dims)
    return variance, np.asarray(np.mean(self._np, axis=reduction_dims(dim, self.dim()), keepdims=keepdim,
                                        dtype=np.promote_types(self._np.dtype, np.float64))).astype(self.dtype.np)


def _var_mean_meta(self, dim=None, *, correction=None, keepdim=False):
    variance = _var_meta(self, dim, keepdim=keepdim, name="var_mean")
    return variance, fake_empty(variance.shape, self.dtype)


var_mean = _contiguous_out((_var_mean_kernel, _var_mean_meta))


def _std_kernel(self, dim=None, *, correction=None, keepdim=False):
    return _var_kernel(self, dim, correction=correction, keepdim=keepdim, name="std", then=np.sqrt)


std = _contiguous_out((_std_kernel, _var_meta))


def _any_all(np_fn):
    """any / all: bool, but uint8 for a uint8 input (as ATen's kernels give); an empty dim list reduces nothing."""
    def kernel(self, dim=None, keepdim=False):
        dims = _any_all_dims(self, dim)
        truth = np.asarray(np_fn(self._np.astype(bool, copy=False), axis=dims, keepdims=keepdim))
        return truth.astype(_out_dtype(self).np, copy=False)

    def meta(self, dim=None, keepdim=False):
        return fake_empty(reduced_shape(self.shape, _any_all_dims(self, dim), keepdim), _out_dtype(self))

    def _out_dtype(self):
        return _dtype.uint8 if self.dtype == _dtype.uint8 else _dtype.bool_

    return kernel, meta


def _any_all_dims(self, dim):
    return () if isinstance(dim, (list, tuple)) and not dim else reduction_dims(dim, self.dim())


any_dims = any_default = _contiguous_out(_any_all(np.any))
all_dims = all_default = _contiguous_out(_any_all(np.all))


