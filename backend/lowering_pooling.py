"""Lowerings of 2-d pooling to windowed reductions (plays torch._inductor's pooling lowerings).

Backend layer, called by `lowering.GraphLowering`. A pooling window is a reduction range: output element (n, c, oh,
ow) reduces over (i, j) in the kernel window the input at (oh*stride + i, ow*stride + j). Only windows that never
leave the input are lowered here (no padding, no dilation, no ceil mode), because a loop_ir load has no mask; the
others raise NotImplementedError and run as their eager kernel. The backwards are lowered for non-overlapping windows
(stride == kernel size) that tile the input exactly: then every input element belongs to exactly one window.

Counted apart from the lesson (coverage surface, .ci/line_budget.py): pooling is outside the core op set, and
without these lowerings it still compiles, as eager fallbacks. `LOWERINGS` is merged into lowering.py's table.
"""
import sympy

from minitorch2 import _dtype
from minitorch2.fx.experimental.symbolic_shapes import Mod as SizeMod

from . import loop_ir as L
from . import lowering_pointwise as P
from . import lowering_reductions as R


def _pair(value):
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    return value * 2 if len(value) == 1 else value


def _check_simple(kernel_size, stride, padding, dilation=(1, 1), ceil_mode=False):
    kernel, stride = _pair(kernel_size), _pair(stride or kernel_size)
    if any(_pair(padding)) or _pair(dilation) != [1, 1] or ceil_mode:
        raise NotImplementedError("pooling with padding, dilation or ceil_mode")
    return kernel, stride


def _divides(k, size):
    """Does k divide the size, at every size its symbols may take?"""
    return L.known(sympy.Eq(SizeMod(size, k), 0))


def _window_reduction(x, kernel, stride, reduction_type, dtype=None):
    *lead, height, width = x.get_size()
    out_size = lead + [L.floordiv(height - kernel[0], stride[0]) + 1, L.floordiv(width - kernel[1], stride[1]) + 1]
    load = x.make_loader()

    def inner_fn(idx, ridx):
        *batch, oh, ow = idx
        return load(batch + [oh * stride[0] + ridx[0], ow * stride[1] + ridx[1]])

    return R.reduction_node(out_size, kernel, reduction_type, inner_fn, dtype or x.dtype)


def max_pool2d_with_indices(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    values, offsets = max_pool_with_offsets(x, kernel_size, stride, padding, dilation, ceil_mode, _dtype.int64)
    return values, offsets_to_indices(offsets, kernel_size, x.get_size()[-2:], stride or kernel_size)


def max_pool_with_offsets(x, kernel_size, stride, padding, dilation, ceil_mode, offset_dtype=_dtype.int8):
    """The maxima and, per output, its maximum's position in its window (prims._low_memory_max_pool_with_offsets)."""
    kernel, stride = _check_simple(kernel_size, stride, padding, dilation, ceil_mode)
    position = _window_reduction(x, kernel, stride, "argmax")
    return _window_reduction(x, kernel, stride, "max"), P.to_dtype(position, offset_dtype)


def offsets_to_indices(offsets, kernel_size, input_size, stride, padding=0, dilation=1):
    """Window positions as indices into the input plane (prims._low_memory_max_pool_offsets_to_indices):
    (oh*s - pad + p // kw * dil) * W + ow*s - pad + p % kw * dil."""
    kernel, stride, padding, dilation = _pair(kernel_size), _pair(stride), _pair(padding), _pair(dilation)
    width, i64 = input_size[-1], _dtype.int64
    load = P.to_dtype(offsets, i64).make_loader()

    def flat_index(idx):
        p = load(idx)
        steps = (P.op("floordiv", p, P.constant(kernel[1], i64)), P.op("remainder", p, P.constant(kernel[1], i64)))
        row, col = (P.op("add", P.op("sub", L.IndexValue(idx[d - 2] * stride[d], i64), P.constant(padding[d], i64)),
                         P.op("mul", steps[d], P.constant(dilation[d], i64))) for d in (0, 1))
        return P.op("add", P.op("mul", row, P.constant(width, i64)), col)

    return P.pointwise_node(offsets.get_size(), i64, flat_index)


def _tiling_window(x, kernel, stride):
    """The window of a pooling whose windows tile `x` exactly (the backwards need it); else raise."""
    *_, height, width = x.get_size()
    if kernel != stride or not (_divides(kernel[0], height) and _divides(kernel[1], width)):
        raise NotImplementedError("pooling backward with overlapping or partial windows")
    return kernel


def max_pool2d_with_indices_backward(grad, x, kernel_size, stride, padding, dilation, ceil_mode, indices):
    kernel = _tiling_window(x, *_check_simple(kernel_size, stride, padding, dilation, ceil_mode))
    width = x.get_size()[-1]
    load_grad, load_index = grad.make_loader(), indices.make_loader()

    def inner_fn(idx):
        *batch, h, w = idx
        window = batch + [h // kernel[0], w // kernel[1]]
        here = P.compare("eq", load_index(window), L.IndexValue(h * width + w, _dtype.int64))
        value = load_grad(window)
        return P.op("where", here, value, P.constant(0, value.dtype))

    return P.pointwise_node(x.get_size(), grad.dtype, inner_fn)


def avg_pool2d(x, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    kernel, stride = _check_simple(kernel_size, stride, padding, ceil_mode=ceil_mode)
    total = _window_reduction(x, kernel, stride, "sum")
    divisor = divisor_override or kernel[0] * kernel[1]
    division = "truediv" if x.dtype.is_floating_point else "truncdiv"  # int64's: C's division, as ATen's kernel
    return P.pointwise(lambda s: P.op(division, s, P.constant(divisor, s.dtype)), total)


def avg_pool2d_backward(grad, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    kernel = _tiling_window(x, *_check_simple(kernel_size, stride, padding, ceil_mode=ceil_mode))
    divisor = divisor_override or kernel[0] * kernel[1]
    load_grad = grad.make_loader()

    def inner_fn(idx):
        *batch, h, w = idx
        value = load_grad(batch + [h // kernel[0], w // kernel[1]])
        return P.op("truediv", value, P.constant(divisor, value.dtype))

    return P.pointwise_node(x.get_size(), grad.dtype, inner_fn)


def adaptive_avg_pool2d(x, output_size):
    """Lowered when the output size divides the input: then it is avg_pool2d with window input/output."""
    *_, height, width = x.get_size()
    out_h, out_w = _pair(output_size)
    if not (_divides(out_h, height) and _divides(out_w, width)):
        raise NotImplementedError("adaptive pooling with uneven windows")
    window = [L.floordiv(height, out_h), L.floordiv(width, out_w)]
    return avg_pool2d(x, window, window)


LOWERINGS = {
    "max_pool2d_with_indices": max_pool2d_with_indices,
    "prims::_low_memory_max_pool_with_offsets": max_pool_with_offsets,
    "prims::_low_memory_max_pool_offsets_to_indices": offsets_to_indices,
    "max_pool2d_with_indices_backward": max_pool2d_with_indices_backward,
    "avg_pool2d": avg_pool2d, "avg_pool2d_backward": avg_pool2d_backward,
    "_adaptive_avg_pool2d": adaptive_avg_pool2d,
}
