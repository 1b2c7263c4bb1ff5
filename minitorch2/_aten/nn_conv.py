"""Convolution kernels: convolution and its backward op.

Runtime layer: nn rows of the op table, called by nn.functional (`conv1d`, `conv2d`, the transposed forms) and
recorded by name in traced graphs, where the backend treats them as extern kernels.

The one idea a reader must hold: every kernel here is a *window view* plus dense numpy work, never a Python loop
over output pixels. `sliding_window_view` turns the padded input into an array indexed by (output position, kernel
offset) without copying:

    windows[n, c, oh, ow, kh, kw] = padded[n, c, oh*stride + kh*dilation, ow*stride + kw*dilation]

A convolution reshapes those windows into an im2col matrix and multiplies it by the weight (one batched matmul over
groups); pooling (nn_pool.py, counted apart) reduces their kernel axes. Backward ops go the other way ("col2im"),
adding each kernel offset's contribution into a strided slice of the input gradient (a loop over the few kernel
offsets only). A transposed convolution is the input-gradient of an ordinary one, so it reuses the same routines
with the roles swapped.
"""
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .conv_checks import check_conv_sizes
from .meta_util import fake_empty
from .nn_ops import compute_dtype, fake_in_layout, in_layout, is_channels_last, scalar_type_name, sizes


def windows(padded, kernel, stride, dilation, out_size):
    """(lead..., *out_size, *kernel) view of `padded` whose trailing len(kernel) dims are spatial."""
    nd = len(kernel)
    spatial = tuple(range(padded.ndim - nd, padded.ndim))
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    view = sliding_window_view(padded, extent, axis=spatial)
    lead = (slice(None),) * (padded.ndim - nd)
    positions = tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(out_size, stride))
    offsets = tuple(slice(None, None, d) for d in dilation)
    return view[lead + positions + offsets]


def offset_slices(offset, stride, dilation, out_size):
    """Where kernel offset `offset` reads from, for every output position: one strided slice per dim."""
    return tuple(slice(j * d, j * d + (o - 1) * s + 1, s) for j, s, d, o in zip(offset, stride, dilation, out_size))


# ---------------------------------------------------------------- convolution: numpy routines
def _im2col(x, kernel, stride, padding, dilation, groups, out_size):
    """(G, N*L, Cg*K) matrix of input patches, L output positions, K kernel elements."""
    n, c = x.shape[:2]
    nd = len(kernel)
    padded = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    win = windows(padded, kernel, stride, dilation, out_size)
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
        region = (slice(None),) * 3 + offset_slices(offset, stride, dilation, out_size)
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
    for name, values, least in (("padding", padding, 0), ("output_padding", output_padding, 0), ("stride", stride, 1),
                                ("dilation", dilation, 1)):
        if any(v < least for v in values):
            raise RuntimeError(f"{'negative' if least == 0 else 'non-positive'} {name} is not supported")
    _check_conv_shapes(input, weight, bias, padding, dilation, transposed, groups)
    check_conv_sizes(input, weight, stride, padding, dilation, transposed, output_padding)
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
        if transposed:  # the input gradient of a transposed convolution is an ordinary one (output_padding's rows cut)
            grad_input = _conv_np(gy, w, stride, padding, dilation, groups)[(...,) + tuple(map(slice, x.shape[2:]))]
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
