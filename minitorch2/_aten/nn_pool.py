"""Pooling kernels: max, average and adaptive average pooling over the last two dims, and their backward ops.

Runtime layer, coverage surface: rows of table_nn_apart.py, reached by F.max_pool2d, F.avg_pool2d,
F.adaptive_avg_pool2d and nn's pooling layers (backend/lowering_pooling.py lowers the same ops). Like a convolution
(nn_conv.py), a pooling kernel is a window view of the padded input plus dense numpy work: the forward reduces the
kernel axes of nn_conv's `windows`, the backward adds each kernel offset's share into a strided slice
(`offset_slices`). Argument checks, output sizes (ceil_mode included) and messages follow ATen's pooling_shape_check.
"""
import itertools
import math

import numpy as np

from .. import _dtype
from .meta_util import wrap_dim
from .nn_conv import offset_slices, windows
from .nn_ops import fake_in_layout, in_layout, is_channels_last, require_float, scalar_type_name, sizes


# ---------------------------------------------------------------- arguments
class _Pool2d:
    """Pooling geometry after ATen's argument rules: (height, width) pairs and the output size."""

    def __init__(self, input, kernel_size, stride, padding, dilation, ceil_mode, name):
        self.kernel = _pair(kernel_size, f"{name}: kernel_size must either be a single int, or a tuple of two ints")
        if len(stride) not in (0, 1, 2):
            raise RuntimeError(f"{name}: stride must either be omitted, a single int, or a tuple of two ints")
        self.stride = self.kernel if not stride else _pair(stride, "")
        self.padding = _pair(padding, f"{name}: padding must either be a single int, or a tuple of two ints")
        self.dilation = _pair(dilation, f"{name}: dilation must be either a single int, or a tuple of two ints")
        self.channels_last = is_channels_last(input)
        if name == "max_pool2d" and not self.channels_last and input.dim() not in (3, 4):
            raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
        planes = input.shape[wrap_dim(-3, input.dim())]
        self.in_size = tuple(input.shape[-2:])
        self.out_size = tuple(_pool_out_size(i, k, p, s, d, ceil_mode)
                              for i, k, p, s, d in zip(self.in_size, self.kernel, self.padding, self.stride, self.dilation))
        self._shape_check(input, planes)
        narrow_int = input.dtype.category == 1 and input.dtype.itemsize < 8  # avg_pool2d's kernel: floats and int64
        if input.dtype is _dtype.bool_ or input.dtype.is_complex or name == "avg_pool2d" and narrow_int:
            raise NotImplementedError(f'"{name}" not implemented for \'{scalar_type_name(input.dtype)}\'')

    def _shape_check(self, input, planes):
        (kh, kw), (sh, sw), (ph, pw), (dh, dw) = self.kernel, self.stride, self.padding, self.dilation
        if kh <= 0 or kw <= 0:
            raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
        if sh <= 0 or sw <= 0:
            raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
        if dh <= 0 or dw <= 0:
            raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
        shape = input.shape
        valid = shape[1] != 0 and shape[2] != 0
        if not ((input.dim() == 3 and shape[0] != 0 and valid) or (input.dim() == 4 and valid and shape[3] != 0)):
            raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                               f"{sizes(shape)}")
        if kw // 2 < pw or kh // 2 < ph:
            raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, "
                               f"padH = {ph}, kW = {kw}, kH = {kh}")
        (ih, iw), (oh, ow) = self.in_size, self.out_size
        if oh < 1 or ow < 1:
            raise RuntimeError(f"Given input size: ({planes}x{ih}x{iw}). Calculated output size: ({planes}x{oh}x{ow}). "
                               "Output size is too small")

    def out_shape(self, input):
        return tuple(input.shape[:-2]) + self.out_size

    def padded(self, x, fill):
        """x (..., H, W) padded so that every window, ceil-mode ones included, lies inside."""
        pads = [(0, 0)] * (x.ndim - 2)
        for i, k, p, s, d, o in zip(self.in_size, self.kernel, self.padding, self.stride, self.dilation, self.out_size):
            pads.append((p, max(p, (o - 1) * s + d * (k - 1) + 1 - i - p)))
        return np.pad(x, pads, constant_values=fill)


def _pair(values, message):
    values = [values] if isinstance(values, int) else list(values)
    if len(values) not in (1, 2):
        raise RuntimeError(message)
    return (values[0], values[-1])


def _pool_out_size(size, kernel, pad, stride, dilation, ceil_mode):
    """ATen's pooling_output_shape."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((kernel - 1) * dilation + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pad}, "
                           f"kernel_size={kernel} and dilation={dilation}")
    out = (size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _check_grad_output(grad_output, expected):
    """ATen's check_dim_size on each dim of the incoming gradient."""
    got = tuple(grad_output.shape)
    for d, want in enumerate(expected):
        if len(got) != len(expected) or got[d] != want:
            actual = got[d] if d < len(got) else None
            raise RuntimeError(f"Expected tensor of dimension {len(expected)} and tensor.size[{d}] == {want} but got: "
                               f"dimension {len(got)} and tensor.size[{d}] = {actual}")


def _pool_output(array, input, pool, dtype=None):
    return in_layout(array.reshape(pool.out_shape(input)), dtype or input.dtype, pool.channels_last)


# ---------------------------------------------------------------- max pooling
def _lowest(dtype):
    return -np.inf if dtype.is_floating_point else np.iinfo(dtype.np).min


def _first_valid(pool):
    """Per output position, the flat input index of its window's first in-bounds element."""
    starts = []
    for i, k, p, s, d, o in zip(pool.in_size, pool.kernel, pool.padding, pool.stride, pool.dilation, pool.out_size):
        start = np.arange(o) * s - p
        starts.append(np.where(start < 0, start + (-start + d - 1) // d * d, start))
    return starts[0][:, None] * pool.in_size[1] + starts[1][None, :]


def _argmax_last_nan(flat):
    """ATen's scan keeps the first maximum but lets every NaN replace it, so the last NaN wins."""
    arg = np.argmax(flat, axis=-1)
    if flat.dtype in _dtype.NP_FLOATS:
        nan = np.isnan(flat)
        if nan.any():
            last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
            arg = np.where(nan.any(axis=-1), last_nan, arg)
    return arg


def _max_pool_kernel(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    pool = _Pool2d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d")
    (kh, kw), (oh, ow), (ih, iw) = pool.kernel, pool.out_size, pool.in_size
    x = self._np.reshape((-1, ih, iw))
    win = windows(pool.padded(x, _lowest(self.dtype)), pool.kernel, pool.stride, pool.dilation, pool.out_size)
    flat = win.reshape(x.shape[0], oh, ow, kh * kw)
    arg = _argmax_last_nan(flat)
    values = np.take_along_axis(flat, arg[..., None], axis=-1)[..., 0]
    row_offset, col_offset = np.divmod(arg, kw)
    rows = (np.arange(oh) * pool.stride[0] - pool.padding[0])[:, None] + row_offset * pool.dilation[0]
    cols = (np.arange(ow) * pool.stride[1] - pool.padding[1])[None, :] + col_offset * pool.dilation[1]
    indices = np.where(values == _lowest(self.dtype), _first_valid(pool), rows * iw + cols)
    return _pool_output(values, self, pool), _pool_output(indices, self, pool, _dtype.int64)


def _max_pool_meta(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    pool = _Pool2d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d")
    values = fake_in_layout(pool.out_shape(self), self.dtype, pool.channels_last)
    return values, fake_in_layout(pool.out_shape(self), _dtype.int64, pool.channels_last)


max_pool2d_with_indices = (_max_pool_kernel, _max_pool_meta)


def _max_pool_backward_kernel(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    pool = _Pool2d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d")
    _check_grad_output(grad_output, pool.out_shape(self))
    plane = math.prod(pool.in_size)
    idx = indices._np.reshape(-1, math.prod(pool.out_size)).astype(np.int64)
    flat = (np.arange(idx.shape[0])[:, None] * plane + idx).ravel()
    grad = np.bincount(flat, weights=grad_output._np.reshape(-1).astype(np.float64), minlength=idx.shape[0] * plane)
    return in_layout(grad.reshape(self.shape), self.dtype, pool.channels_last)


def _max_pool_backward_meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    pool = _Pool2d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d")
    _check_grad_output(grad_output, pool.out_shape(self))
    return fake_in_layout(self.shape, self.dtype, pool.channels_last)


max_pool2d_with_indices_backward = (_max_pool_backward_kernel, _max_pool_backward_meta)


# ---------------------------------------------------------------- average pooling
def _avg_pool(self, kernel_size, stride, padding, ceil_mode, divisor_override):
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    return _Pool2d(self, kernel_size, stride, padding, [1], ceil_mode, "avg_pool2d")


def _avg_divisor(pool, count_include_pad, divisor_override):
    """(OH, OW) divisors: the window clipped to the padded input, or to the input itself."""
    if divisor_override is not None:
        return np.full(pool.out_size, float(divisor_override))
    counts = []
    for i, k, p, s, o in zip(pool.in_size, pool.kernel, pool.padding, pool.stride, pool.out_size):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, i + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, i)
        counts.append(end - start)
    return np.outer(counts[0], counts[1]).astype(np.float64)


def _divide(sums, divisor, dtype):
    if dtype.is_floating_point:
        return sums / divisor
    quotient = np.abs(sums) // divisor.astype(np.int64)  # C++ integer division truncates toward zero
    return np.sign(sums) * quotient


def _avg_pool_kernel(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                     divisor_override=None):
    pool = _avg_pool(self, kernel_size, stride, padding, ceil_mode, divisor_override)
    accumulate = np.float64 if self.dtype.is_floating_point else np.int64
    x = self._np.reshape((-1,) + pool.in_size).astype(accumulate)
    sums = windows(pool.padded(x, 0), pool.kernel, pool.stride, (1, 1), pool.out_size).sum(axis=(-2, -1))
    out = _divide(sums, _avg_divisor(pool, count_include_pad, divisor_override), self.dtype)
    return _pool_output(out, self, pool)


def _avg_pool_meta(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                   divisor_override=None):
    pool = _avg_pool(self, kernel_size, stride, padding, ceil_mode, divisor_override)
    return fake_in_layout(pool.out_shape(self), self.dtype, pool.channels_last)


avg_pool2d = (_avg_pool_kernel, _avg_pool_meta)


def _avg_pool_backward_kernel(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                              divisor_override):
    pool = _avg_pool(self, kernel_size, stride, padding, ceil_mode, divisor_override)
    _check_grad_output(grad_output, pool.out_shape(self))
    delta = grad_output._np.reshape((-1,) + pool.out_size) / _avg_divisor(pool, count_include_pad, divisor_override)
    grad = pool.padded(np.zeros((delta.shape[0],) + pool.in_size), 0)
    for offset in itertools.product(*(range(k) for k in pool.kernel)):
        grad[(slice(None),) + offset_slices(offset, pool.stride, (1, 1), pool.out_size)] += delta
    (ph, pw), (ih, iw) = pool.padding, pool.in_size
    return in_layout(grad[:, ph:ph + ih, pw:pw + iw].reshape(self.shape), self.dtype, pool.channels_last)


def _avg_pool_backward_meta(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                            divisor_override):
    pool = _avg_pool(self, kernel_size, stride, padding, ceil_mode, divisor_override)
    _check_grad_output(grad_output, pool.out_shape(self))
    return fake_in_layout(self.shape, self.dtype, pool.channels_last)


avg_pool2d_backward = (_avg_pool_backward_kernel, _avg_pool_backward_meta)


# ---------------------------------------------------------------- adaptive average pooling
def _adaptive_matrix(in_size, out_size):
    """(out, in) averaging matrix: row o averages input [floor(o*in/out), ceil((o+1)*in/out))."""
    o = np.arange(out_size)
    start = (o * in_size) // out_size
    end = -((-(o + 1) * in_size) // out_size)
    cols = np.arange(in_size)
    inside = (cols[None, :] >= start[:, None]) & (cols[None, :] < end[:, None])
    return inside / (end - start)[:, None]


def _adaptive_check(self, output_size):
    if len(output_size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if self.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {sizes(self.shape)}")
    for d in (-2, -1):
        if self.shape[d] <= 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {sizes(self.shape)} with dimension {d + self.dim()} being empty")
    require_float(self, "adaptive_avg_pool2d")
    return tuple(self.shape[:-2]) + tuple(output_size)


def _window_means(values, axis, out_size):
    """The mean of each adaptive window along `axis`, window by window (a matrix product with the averaging matrix
    would turn an inf outside a window into a nan: inf * 0)."""
    in_size = values.shape[axis]
    means = [np.take(values, range(o * in_size // out_size, -(-(o + 1) * in_size // out_size)), axis).mean(axis)
             for o in range(out_size)]
    return np.stack(means, axis) if means else np.take(values, [], axis)


def _adaptive_kernel(self, output_size):
    shape = _adaptive_check(self, output_size)
    out = _window_means(_window_means(self._np.astype(np.float64), -1, output_size[1]), -2, output_size[0])
    return in_layout(out.reshape(shape), self.dtype, is_channels_last(self))


def _adaptive_meta(self, output_size):
    shape = _adaptive_check(self, output_size)
    return fake_in_layout(shape, self.dtype, is_channels_last(self))


adaptive_avg_pool2d = (_adaptive_kernel, _adaptive_meta)


def _adaptive_backward_check(grad_output, self):
    for d in range(1, grad_output.dim()):
        if grad_output.shape[d] <= 0:
            raise RuntimeError("adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch "
                               f"dimensions, but grad_output has sizes {sizes(grad_output.shape)} with dimension {d} "
                               "being empty")
    if grad_output.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got {sizes(self.shape)}")
    if grad_output.dtype is not self.dtype:
        raise RuntimeError(f"expected dtype {self.dtype} for `grad_output` but got dtype {grad_output.dtype}")


def _adaptive_backward_kernel(grad_output, self):
    _adaptive_backward_check(grad_output, self)
    rows = _adaptive_matrix(self.shape[-2], grad_output.shape[-2])
    cols = _adaptive_matrix(self.shape[-1], grad_output.shape[-1])
    grad = np.matmul(rows.T, np.matmul(grad_output._np.astype(np.float64), cols))
    return in_layout(grad.reshape(self.shape), self.dtype, is_channels_last(self))


def _adaptive_backward_meta(grad_output, self):
    _adaptive_backward_check(grad_output, self)
    return fake_in_layout(self.shape, self.dtype, is_channels_last(self))


adaptive_avg_pool2d_backward = (_adaptive_backward_kernel, _adaptive_backward_meta)
