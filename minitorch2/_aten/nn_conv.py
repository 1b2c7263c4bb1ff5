"""Convolution and pooling kernels: convolution, max/avg/adaptive pooling, and their backward ops.

Runtime layer: nn rows of the op table, called by nn.functional (`conv1d`, `conv2d`, the pooling functions) and
recorded by name in traced graphs, where the backend treats them as extern kernels.

The one idea a reader must hold: every kernel here is a *window view* plus dense numpy work, never a Python loop
over output pixels. `sliding_window_view` turns the padded input into an array indexed by (output position, kernel
offset) without copying:

    windows[n, c, oh, ow, kh, kw] = padded[n, c, oh*stride + kh*dilation, ow*stride + kw*dilation]

A convolution reshapes those windows into an im2col matrix and multiplies it by the weight (one batched matmul over
groups); pooling reduces the kernel axes. Backward ops go the other way ("col2im"), adding each kernel offset's
contribution into a strided slice of the input gradient (a loop over the few kernel offsets only). A transposed
convolution is the input-gradient of an ordinary one, so it reuses the same routines with the roles swapped.
"""
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import _dtype
from .meta_util import fake_empty, wrap_dim
from .nn_ops import compute_dtype, fake_in_layout, in_layout, is_channels_last, require_float, scalar_type_name, sizes


def _windows(padded, kernel, stride, dilation, out_size):
    """(lead..., *out_size, *kernel) view of `padded` whose trailing len(kernel) dims are spatial."""
    nd = len(kernel)
    spatial = tuple(range(padded.ndim - nd, padded.ndim))
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    view = sliding_window_view(padded, extent, axis=spatial)
    lead = (slice(None),) * (padded.ndim - nd)
    positions = tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(out_size, stride))
    offsets = tuple(slice(None, None, d) for d in dilation)
    return view[lead + positions + offsets]


def _offset_slices(offset, stride, dilation, out_size):
    """Where kernel offset `offset` reads from, for every output position: one strided slice per dim."""
    return tuple(slice(j * d, j * d + (o - 1) * s + 1, s) for j, s, d, o in zip(offset, stride, dilation, out_size))


# ---------------------------------------------------------------- convolution: numpy routines
def _im2col(x, kernel, stride, padding, dilation, groups, out_size):
    """(G, N*L, Cg*K) matrix of input patches, L output positions, K kernel elements."""
    n, c = x.shape[:2]
    nd = len(kernel)
    padded = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    win = _windows(padded, kernel, stride, dilation, out_size)
    win = win.reshape((n, groups, c // groups) + tuple(out_size) + tuple(kernel))
    order = (1, 0) + tuple(range(3, 3 + nd)) + (2,) + tuple(range(3 + nd, 3 + 2 * nd))
    return win.transpose(order).reshape(groups, n * math.prod(out_size), (c // groups) * math.prod(kernel))


def _as_group_rows(y, groups):
    """(N, O, *spatial) -> (G, N*L, O/G): output channels as matrix columns, per group."""
    n, o = y.shape[:2]
    length = math.prod(y.shape[2:])
    return y.reshape(n, groups, o // groups, length).transpose(1, 0, 3, 2).reshape(groups, n * length, o // groups)


def _from_group_rows(rows, n, out_size):
    groups, _, per_group = rows.shape
    nd = len(out_size)
    y = rows.reshape((groups, n) + tuple(out_size) + (per_group,))
    y = y.transpose((1, 0, 2 + nd) + tuple(range(2, 2 + nd)))
    return y.reshape((n, groups * per_group) + tuple(out_size))


def _conv_np(x, w, stride, padding, dilation, groups):
    kernel = w.shape[2:]
    out_size = _conv_out_size(x.shape[2:], kernel, stride, padding, dilation)
    cols = _im2col(x, kernel, stride, padding, dilation, groups, out_size)
    weight = w.reshape(groups, w.shape[0] // groups, -1).transpose(0, 2, 1)
    return _from_group_rows(np.matmul(cols, weight), x.shape[0], out_size)


def _conv_input_grad_np(gy, w, in_size, stride, padding, dilation, groups):
    """col2im: each kernel offset adds its share of the gradient into a strided slice of the input."""
    n = gy.shape[0]
    kernel, out_size = w.shape[2:], gy.shape[2:]
    per_group = w.shape[1]
    weight = w.reshape(groups, w.shape[0] // groups, per_group * math.prod(kernel))
    cols = np.matmul(_as_group_rows(gy, groups), weight)
    nd = len(kernel)
    cols = cols.reshape((groups, n) + tuple(out_size) + (per_group,) + tuple(kernel))
    cols = cols.transpose((1, 0, 2 + nd) + tuple(range(3 + nd, 3 + 2 * nd)) + tuple(range(2, 2 + nd)))
    padded = np.zeros((n, groups, per_group) + tuple(i + 2 * p for i, p in zip(in_size, padding)), cols.dtype)
    for offset in itertools.product(*(range(k) for k in kernel)):
        region = (slice(None),) * 3 + _offset_slices(offset, stride, dilation, out_size)
        padded[region] += cols[(slice(None),) * 3 + offset]
    crop = (slice(None),) * 3 + tuple(slice(p, p + i) for p, i in zip(padding, in_size))
    return padded[crop].reshape((n, groups * per_group) + tuple(in_size))


def _conv_weight_grad_np(x, gy, kernel, stride, padding, dilation, groups):
    cols = _im2col(x, kernel, stride, padding, dilation, groups, gy.shape[2:])
    grad = np.matmul(_as_group_rows(gy, groups).transpose(0, 2, 1), cols)
    return grad.reshape((gy.shape[1], x.shape[1] // groups) + tuple(kernel))


# ---------------------------------------------------------------- convolution: argument checks
def _conv_out_size(in_size, kernel, stride, padding, dilation):
    return tuple((i + 2 * p - d * (k - 1) - 1) // s + 1 for i, k, s, p, d in zip(in_size, kernel, stride, padding, dilation))


def _transposed_out_size(in_size, kernel, stride, padding, dilation, output_padding):
    return tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1
                 for i, k, s, p, d, op in zip(in_size, kernel, stride, padding, dilation, output_padding))


def _expand(values, name, nd):
    values = list(values)
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {nd} values to match the "
                           f"convolution dimensions, but got {name}={sizes(values)}")
    return values


def _conv_params(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """ATen's _convolution argument handling and check_shape_forward; returns expanded params."""
    nd = weight.dim() - 2
    if nd <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride, padding = _expand(stride, "stride", nd), _expand(padding, "padding", nd)
    dilation, output_padding = _expand(dilation, "dilation", nd), _expand(output_padding, "output_padding", nd)
    for name, values in (("padding", padding), ("output_padding", output_padding)):
        if any(v < 0 for v in values):
            raise RuntimeError(f"negative {name} is not supported")
    for name, values in (("stride", stride), ("dilation", dilation)):
        if any(v <= 0 for v in values):
            raise RuntimeError(f"non-positive {name} is not supported")
    _check_conv_shapes(input, weight, bias, padding, dilation, transposed, groups)
    if transposed:
        _check_output_padding(output_padding, stride, dilation)
    _check_conv_dtypes(input, weight, bias)
    return stride, padding, dilation, output_padding


def _check_conv_shapes(input, weight, bias, padding, dilation, transposed, groups):
    ws = tuple(weight.shape)
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight {sizes(ws)}, "
                           f"but got {input.dim()}-dimensional input of size {sizes(input.shape)} instead")
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {sizes(ws)} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
                           f"weight of size [{sizes(ws)}] instead")
    channels = ws[0] if transposed else ws[1] * groups
    bias_size = ws[1] * groups if transposed else ws[0]
    given = f"Given transposed={int(transposed)}" if transposed else f"Given groups={groups}"
    if input.shape[1] != channels:
        raise RuntimeError(f"{given}, weight of size {sizes(ws)}, expected input{sizes(input.shape)} to have {channels} "
                           f"channels, but got {input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != bias_size):
        prefix = f"{given}, weight of size {sizes(ws)}" if transposed else f"Given weight of size {sizes(ws)}"
        raise RuntimeError(f"{prefix}, expected bias to be 1-dimensional with {bias_size} elements, but got bias of "
                           f"size {sizes(bias.shape)} instead")
    if not transposed:
        padded = [i + 2 * p for i, p in zip(input.shape[2:], padding)]
        extent = [d * (k - 1) + 1 for k, d in zip(ws[2:], dilation)]
        if any(p < e for p, e in zip(padded, extent)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                               f"({' x '.join(map(str, extent))}). Kernel size can't be greater than actual input size")


def _check_output_padding(output_padding, stride, dilation):
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        names = ("height", "width") if len(stride) == 2 else tuple(f"dim{i}" for i in range(len(stride)))
        given = {"output_padding": output_padding, "stride": stride, "dilation": dilation}
        parts = [f"{arg}_{n}: {v}" for arg, values in given.items() for n, v in zip(names, values)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(parts))


def _check_conv_dtypes(input, weight, bias):
    if weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(input.dtype)} but found "
                           f"{scalar_type_name(weight.dtype)}")
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({input.type()}) and bias type ({bias.type()}) should be the same or input "
                           "should be a MKLDNN tensor and bias is a dense tensor")


def _conv_output_shape(input, weight, stride, padding, dilation, transposed, output_padding, groups):
    kernel = tuple(weight.shape[2:])
    if transposed:
        out = _transposed_out_size(input.shape[2:], kernel, stride, padding, dilation, output_padding)
        return (input.shape[0], weight.shape[1] * groups) + out
    return (input.shape[0], weight.shape[0]) + _conv_out_size(input.shape[2:], kernel, stride, padding, dilation)


def _channels_last(*tensors):
    """mkldnn's rule: a 4-d convolution runs (and answers) channels-last if an operand is channels-last."""
    return any(t is not None and is_channels_last(t) for t in tensors)


# ---------------------------------------------------------------- convolution: the ops
def _convolution_kernel(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    stride, padding, dilation, output_padding = _conv_params(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    dtype = compute_dtype(input.dtype)
    x, w = input._np.astype(dtype), weight._np.astype(dtype)
    if transposed:
        out_size = _transposed_out_size(x.shape[2:], w.shape[2:], stride, padding, dilation, output_padding)
        y = _conv_input_grad_np(x, w, out_size, stride, padding, dilation, groups)
    else:
        y = _conv_np(x, w, stride, padding, dilation, groups)
    if bias is not None:
        y = y + bias._np.astype(dtype).reshape((1, -1) + (1,) * (y.ndim - 2))
    return in_layout(y, input.dtype, _channels_last(input, weight))


def _convolution_meta(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    stride, padding, dilation, output_padding = _conv_params(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    shape = _conv_output_shape(input, weight, stride, padding, dilation, transposed, output_padding, groups)
    return fake_in_layout(shape, input.dtype, _channels_last(input, weight))


convolution = (_convolution_kernel, _convolution_meta)


def _convolution_backward_kernel(grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
                                 output_padding, groups, output_mask):
    stride, padding, dilation, output_padding = _conv_params(
        input, weight, None, stride, padding, dilation, transposed, output_padding, groups)
    dtype = compute_dtype(input.dtype)
    gy, x, w = grad_output._np.astype(dtype), input._np.astype(dtype), weight._np.astype(dtype)
    channels_last = _channels_last(input, weight)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        if transposed:  # the input gradient of a transposed convolution is an ordinary one
            grad_input = _conv_np(gy, w, stride, padding, dilation, groups)
        else:
            grad_input = _conv_input_grad_np(gy, w, x.shape[2:], stride, padding, dilation, groups)
        grad_input = in_layout(grad_input, input.dtype, channels_last)
    if output_mask[1]:
        patches, grads = (gy, x) if transposed else (x, gy)
        grad_weight = _conv_weight_grad_np(patches, grads, w.shape[2:], stride, padding, dilation, groups)
        grad_weight = in_layout(grad_weight, weight.dtype, channels_last and weight.dim() == 4)
    if output_mask[2]:
        axes = (0,) + tuple(range(2, gy.ndim))
        grad_bias = np.asarray(gy.sum(axis=axes, dtype=np.float64), grad_output.dtype.np)
    return grad_input, grad_weight, grad_bias


def _convolution_backward_meta(grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
                               output_padding, groups, output_mask):
    _conv_params(input, weight, None, stride, padding, dilation, transposed, output_padding, groups)
    channels_last = _channels_last(input, weight)
    return (fake_in_layout(input.shape, input.dtype, channels_last) if output_mask[0] else None,
            fake_in_layout(weight.shape, weight.dtype, channels_last and weight.dim() == 4) if output_mask[1] else None,
            fake_empty((grad_output.shape[1],), grad_output.dtype) if output_mask[2] else None)


convolution_backward = (_convolution_backward_kernel, _convolution_backward_meta)


# ---------------------------------------------------------------- pooling: arguments
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
    if flat.dtype.kind == "f":
        nan = np.isnan(flat)
        if nan.any():
            last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
            arg = np.where(nan.any(axis=-1), last_nan, arg)
    return arg


def _max_pool_kernel(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    pool = _Pool2d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d")
    (kh, kw), (oh, ow), (ih, iw) = pool.kernel, pool.out_size, pool.in_size
    x = self._np.reshape((-1, ih, iw))
    win = _windows(pool.padded(x, _lowest(self.dtype)), pool.kernel, pool.stride, pool.dilation, pool.out_size)
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
    sums = _windows(pool.padded(x, 0), pool.kernel, pool.stride, (1, 1), pool.out_size).sum(axis=(-2, -1))
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
        grad[(slice(None),) + _offset_slices(offset, pool.stride, (1, 1), pool.out_size)] += delta
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


def _adaptive_kernel(self, output_size):
    shape = _adaptive_check(self, output_size)
    rows, cols = _adaptive_matrix(self.shape[-2], output_size[0]), _adaptive_matrix(self.shape[-1], output_size[1])
    out = np.matmul(rows, np.matmul(self._np.astype(np.float64), cols.T))
    return in_layout(out.reshape(shape), self.dtype, is_channels_last(self))


def _adaptive_meta(self, output_size):
    shape = _adaptive_check(self, output_size)
    return fake_in_layout(shape, self.dtype, is_channels_last(self))


adaptive_avg_pool2d = (_adaptive_kernel, _adaptive_meta)


def _adaptive_backward_check(grad_output, self):
    for d in range(1, grad_output.dim()):
        if grad_output.shape[d] <= 0:
            raise RuntimeError("adaptive_avg_pooling_backward(): Expected grad_output to have non-zero size for non-batch "
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
