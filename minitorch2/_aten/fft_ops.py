"""torch.fft's three aten ops: _fft_c2c (complex to complex), _fft_r2c (real to complex, full or one-sided) and
_fft_c2r (one-sided complex to real), their kernels, meta functions and derivative formulas.

Runtime layer, coverage surface (rows in table_complex.py; torch.fft's functions over them are in
minitorch2/fft.py). Each op transforms over the dims `dim` without normalization, then scales as `normalization`
says: 0 not at all, 1 by 1/sqrt(n), 2 by 1/n, n the signal's element count over those dims (for c2r the real
output's). numpy's pocketfft computes the transforms; an inverse transform is the conjugate-direction one, unscaled.
Each output is laid out in memory (its strides) as ATen's CPU kernel writes it, which the compiled graphs' meta
functions give too (see "output layouts" below).
"""
import math

import numpy as np

from .. import _dtype
from .._ops import ops
from .meta_util import fake_empty

aten = ops.aten


def _scaled(values, normalization, n, dtype):
    if normalization:
        values = values * (1 / (math.sqrt(n) if normalization == 1 else n))
    return np.asarray(values, dtype.np)


def _signal_size(shape, dim):
    return math.prod(shape[d] for d in dim)


# ---------------------------------------------------------------- output layouts
# ATen's CPU kernels (SpectralOps' _exec_fft) write an output dense in one order of its dims, outermost first: the
# dims not transformed, by the input's strides (largest first), then the transformed ones, those before the last
# sorted by the input's strides too (all of them for c2c; r2c and c2r keep the last, the one-sided one, innermost).
# c2r over several dims runs c2c over all but the last first, and orders its batch by that result's strides.
def _sorted_dims(strides, dim, keep_last):
    end = len(dim) - keep_last
    return sorted(dim[:end], key=lambda d: -strides[d]) + list(dim[end:])


def _order(strides, dims):
    return sorted((d for d in range(len(strides)) if d not in dims), key=lambda d: -strides[d]) + list(dims)


def _dense_strides(shape, order):
    stride, step = [0] * len(shape), 1
    for d in reversed(order):
        stride[d], step = step, step * shape[d]
    return stride


def _c2c_order(self, dim):
    return _order(self.stride(), _sorted_dims(self.stride(), dim, keep_last=False))


def _r2c_order(self, dim):
    return _order(self.stride(), _sorted_dims(self.stride(), dim, keep_last=True))


def _c2r_order(self, dim):
    strides = self.stride() if len(dim) == 1 else _dense_strides(self.shape, _c2c_order(self, dim[:-1]))
    return _order(strides, dim[-1:])


def _laid_out(values, order):
    """values written into memory dense in `order`."""
    laid_out = np.empty([values.shape[d] for d in order], values.dtype).transpose(np.argsort(order))
    laid_out[...] = values
    return laid_out


def _c2c_kernel(self, dim, normalization, forward):
    transform = np.fft.fftn if forward else np.fft.ifftn
    values = transform(self._np, axes=dim, norm="backward" if forward else "forward")
    return _laid_out(_scaled(values, normalization, _signal_size(self.shape, dim), self.dtype), _c2c_order(self, dim))


def _c2c_meta(self, dim, normalization, forward):
    return fake_empty(self.shape, self.dtype, _dense_strides(self.shape, _c2c_order(self, dim)))


def _r2c_shape(shape, dim, onesided):
    shape = list(shape)
    if onesided:
        shape[dim[-1]] = shape[dim[-1]] // 2 + 1
    return shape


def _r2c_kernel(self, dim, normalization, onesided):
    values = (np.fft.rfftn if onesided else np.fft.fftn)(self._np, axes=dim)
    values = _scaled(values, normalization, _signal_size(self.shape, dim), _dtype.to_complex(self.dtype))
    return _laid_out(values, _r2c_order(self, dim))


def _r2c_meta(self, dim, normalization, onesided):
    shape = _r2c_shape(self.shape, dim, onesided)
    return fake_empty(shape, _dtype.to_complex(self.dtype), _dense_strides(shape, _r2c_order(self, dim)))


def _c2r_shape(shape, dim, last_dim_size):
    shape = list(shape)
    shape[dim[-1]] = last_dim_size
    return shape


def _c2r_kernel(self, dim, normalization, last_dim_size):
    shape = _c2r_shape(self.shape, dim, last_dim_size)
    values = np.fft.irfftn(self._np, s=[shape[d] for d in dim], axes=dim, norm="forward")
    return _laid_out(_scaled(values, normalization, _signal_size(shape, dim), _real(self.dtype)), _c2r_order(self, dim))


def _c2r_meta(self, dim, normalization, last_dim_size):
    shape = _c2r_shape(self.shape, dim, last_dim_size)
    return fake_empty(shape, _real(self.dtype), _dense_strides(shape, _c2r_order(self, dim)))


def _real(dtype):
    return {_dtype.complex64: _dtype.float32, _dtype.complex128: _dtype.float64}[dtype]


fft_c2c = (_c2c_kernel, _c2c_meta)
fft_r2c = (_r2c_kernel, _r2c_meta)
fft_c2r = (_c2r_kernel, _c2r_meta)


# ---------------------------------------------------------------- derivative formulas (derivatives.yaml's)
def d_fft_c2c(grad, dim, normalization, forward):
    return aten._fft_c2c.default(grad, dim, normalization, not forward)


def d_fft_r2c(grad, self_shape, dim, normalization, onesided):
    """fft_r2c_backward: a one-sided gradient written into zeros of the full length, transformed back, its real
    part."""
    full, last = grad, dim[-1]
    if onesided and self_shape[last] > grad.shape[last]:
        shape = list(grad.shape)
        shape[last] = self_shape[last]
        full = aten.new_zeros.default(grad, shape)
        aten.copy_.default(aten.slice.Tensor(full, last, 0, grad.shape[last]), grad)
    result = aten._fft_c2c.default(full, dim, normalization, False)
    return aten.select.int(aten.view_as_real.default(result), result.dim(), 0)


def d_fft_c2r(grad, dim, normalization):
    """fft_c2r_backward: the one-sided transform of the gradient, the elements with a mirror image doubled."""
    result = aten._fft_r2c.default(grad, dim, normalization, True)
    doubled = grad.shape[dim[-1]] - result.shape[dim[-1]]
    if doubled > 0:
        aten.mul_.Scalar(aten.slice.Tensor(result, dim[-1], 1, 1 + doubled), 2)
    return result
