"""3-d pooling, adaptive max pooling and max unpooling: kernels, meta functions, derivative formulas and table rows.

Runtime layer, coverage surface: table_extra.py appends ROWS; F.max_pool3d, F.avg_pool3d, F.adaptive_avg_pool3d,
F.adaptive_max_pool3d and F.max_unpool1d/2d/3d (nn/_functional_pool3d.py) reach them, as torch's functions reach
max_pool3d_with_indices, avg_pool3d, _adaptive_avg_pool3d, adaptive_max_pool3d, max_unpool2d and max_unpool3d.
The kernels work over any number of spatial dims: each output position's window is a table of flat input indices
(`_window_table`), out-of-bounds slots marked, so a window reduction is a gather and a backward a bincount.
Max pooling keeps ATen's scan order: the first maximum, the last NaN, the window's first in-bounds slot when nothing
beats -inf. Average pooling divides as ATen's avg_pool3d: by the window clipped to the padded input (or to the input,
without count_include_pad), or by divisor_override. Adaptive windows are [floor(o·in/out), ceil((o+1)·in/out)).
"""
import math

import numpy as np

from .. import _dtype, _settings
from .._ops import ops
from .._tensor import contiguous_strides, strided
from .meta_util import fake_empty
from .nn_ops import contiguous, is_channels_last, require_float, sizes
from .table_row import CORE, op

aten = ops.aten


# ---------------------------------------------------------------- window tables
def _triple(values, name, what, nd=3):
    values = [values] if isinstance(values, int) else list(values)
    if len(values) not in (1, nd):
        raise RuntimeError(f"{name}: {what} must either be a single int, or a tuple of {nd} ints")
    return tuple(values) * (nd if len(values) == 1 else 1)


def _out_size(size, k, p, s, d, ceil_mode):
    """ATen's pooling_output_shape."""
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    return out - 1 if ceil_mode and (out - 1) * s >= size + p else out


def _axis_positions(size, out, k, p, s, d):
    """(out, k) input positions along one dim (clipped into it) and whether each lies inside the input."""
    pos = (np.arange(out) * s - p)[:, None] + np.arange(k)[None, :] * d
    return np.clip(pos, 0, size - 1), (pos >= 0) & (pos < size)


def _window_table(in_size, out_size, kernel, padding, stride, dilation):
    """(prod(out), prod(kernel)) flat input indices of every window slot, and which slots are in bounds."""
    flat, valid = np.zeros((1, 1), np.int64), np.ones((1, 1), bool)
    for i, o, k, p, s, d in zip(in_size, out_size, kernel, padding, stride, dilation):
        pos, inside = _axis_positions(i, o, k, p, s, d)
        flat = (flat[:, None, :, None] * i + pos[None, :, None, :]).reshape(flat.shape[0] * o, -1)
        valid = (valid[:, None, :, None] & inside[None, :, None, :]).reshape(flat.shape)
    return flat, valid


class _Pool3d:
    """Pooling geometry over the last three dims after ATen's argument rules (pool3d_shape_check)."""

    def __init__(self, input, kernel_size, stride, padding, dilation, ceil_mode, name):
        self.kernel = _triple(kernel_size, name, "kernel_size")
        self.stride = self.kernel if not stride else _triple(stride, name, "stride")
        self.padding = _triple(padding, name, "padding")
        self.dilation = _triple(dilation, name, "dilation")
        if input.dim() not in (4, 5):
            raise RuntimeError(f"non-empty 4D or 5D (batch mode) tensor expected for input, but got: "
                               f"{sizes(input.shape)}" if name == "avg_pool3d" else
                               "non-empty 4D or 5D (batch mode) tensor expected for input")
        if min(self.kernel) <= 0 or min(self.stride) <= 0 or min(self.dilation) <= 0:
            raise RuntimeError(f"{name}: kernel size, stride and dilation should be greater than zero")
        for k, p, d in zip(self.kernel, self.padding, self.dilation):
            if p > (d * (k - 1) + 1) // 2:
                raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                                   f"kernel_size={k} and dilation={d}")
        if any(n == 0 for n in input.shape[-4:]):  # (ATen's message names dimension 0 whichever is empty)
            where = "max_pool3d_with_indices_out_cpu_template" if name == "max_pool3d" else name
            raise RuntimeError(f"{where}(): Expected input's non-batch dimensions to have positive length, but input "
                               f"has a shape of {sizes(input.shape)} and non-batch dimension 0 has length zero!")
        if any(k // 2 < p for k, p in zip(self.kernel, self.padding)):  # (the kernel's own check, without dilation)
            raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got kT: "
                               f"{self.kernel[0]} kW: {self.kernel[2]} kH: {self.kernel[1]} padT: {self.padding[0]} "
                               f"padW: {self.padding[2]} padH: {self.padding[1]}")
        self.in_size = tuple(input.shape[-3:])
        if name == "avg_pool3d" and any(i < k for i, k in zip(self.in_size, self.kernel)):
            (t, h, w), (kt, kh, kw) = self.in_size, self.kernel
            raise RuntimeError(f"input image (T: {t} H: {h} W: {w}) smaller than kernel size (kT: {kt} kH: {kh} "
                               f"kW: {kw})")
        self.out_size = tuple(_out_size(*a, ceil_mode) for a in zip(self.in_size, self.kernel, self.padding,
                                                                        self.stride, self.dilation))
        if min(self.out_size) < 1:
            planes = input.shape[-4]
            raise RuntimeError(f"Given input size: ({planes}x{'x'.join(map(str, self.in_size))}). Calculated output "
                               f"size: ({planes}x{'x'.join(map(str, self.out_size))}). Output size is too small")
        if input.dtype is _dtype.bool_ or name == "avg_pool3d" and not input.dtype.is_floating_point \
                and input.dtype is not _dtype.int64:
            raise NotImplementedError(f'"{name}" not implemented for \'{_dtype_title(input.dtype)}\'')
        if name == "max_pool3d" and input.dim() == 4 and is_channels_last(input):  # (ATen's kernel picks by layout)
            raise RuntimeError("Unsupported memory format. Supports only ChannelsLast3d, Contiguous")

    def table(self):
        return _window_table(self.in_size, self.out_size, self.kernel, self.padding, self.stride, self.dilation)

    def out_shape(self, input):
        return tuple(input.shape[:-3]) + self.out_size


def _dtype_title(dtype):
    from .memory import _dtype_title as title  # reason: memory imports the op table's modules
    return title(dtype)


def _planes(x, nd):
    return x._np.reshape((-1, math.prod(x.shape[-nd:])))


def _fake(shape, dtype):
    return fake_empty(tuple(shape), dtype, contiguous_strides(tuple(shape)))


def _scan_max(planes, flat, valid):
    """ATen's max scan over each window: values and flat input indices, (P, out) each. The table `flat` is
    (out, K), the same for every plane, or (P, out, K), a plane's own (fractional pooling's)."""
    lowest = np.iinfo(planes.dtype).min if planes.dtype.kind in "iu" else -np.inf  # (bfloat16's kind is "V")
    flat, valid = np.broadcast_to(flat, (len(planes),) + flat.shape[-2:]), np.broadcast_to(valid, flat.shape[-2:])
    picked = np.take_along_axis(planes, flat.reshape(len(planes), -1), 1).reshape(flat.shape)
    gathered = np.where(valid, picked, lowest)
    arg = np.argmax(gathered, axis=-1)
    if planes.dtype.kind == "f":
        nan = np.isnan(gathered)
        last_nan = gathered.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
        arg = np.where(nan.any(axis=-1), last_nan, arg)
    values = np.take_along_axis(gathered, arg[..., None], -1)[..., 0]
    first_valid = np.take_along_axis(flat, np.broadcast_to(np.argmax(valid, axis=-1)[:, None], flat.shape[:-1] + (1,)),
                                     -1)[..., 0]
    indices = np.where(values == lowest, first_valid, np.take_along_axis(flat, arg[..., None], -1)[..., 0])
    return values, indices


def _scatter_add(grad, indices, plane_size, shape, dtype):
    """Each plane's gradient values added at their flat indices (a bincount over all planes at once)."""
    idx = indices.reshape(grad.shape[0], -1).astype(np.int64)
    inside = ((idx >= 0) & (idx < plane_size)).ravel()  # (a window of padding only reports an index past its plane)
    flat = (np.arange(idx.shape[0])[:, None] * plane_size + idx).ravel()[inside]
    summed = np.bincount(flat, weights=grad.reshape(-1).astype(np.float64)[inside],
                         minlength=idx.shape[0] * plane_size)
    return contiguous(summed.reshape(shape), dtype)


# ---------------------------------------------------------------- max_pool3d_with_indices
def _first_dilated_starts(pool):
    """Per output position, the flat index ATen's kernel starts from: each dim's window start moved past the padding
    in steps of the dilation (outside the input where the whole window is padding, which is what it then reports)."""
    flat = np.zeros(1, np.int64)
    for i, o, p, s, d in zip(pool.in_size, pool.out_size, pool.padding, pool.stride, pool.dilation):
        start = np.arange(o) * s - p
        start = np.where(start < 0, start % d, start)  # (past the padding in whole steps of the dilation)
        flat = (flat[:, None] * i + start[None, :]).reshape(-1)
    return flat


def _max_pool3d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    pool = _Pool3d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool3d")
    flat, valid = pool.table()
    values, indices = _scan_max(_planes(self, 3), flat, valid)
    indices = np.where(valid.any(-1), indices, _first_dilated_starts(pool))  # (a window of padding only)
    shape = pool.out_shape(self)
    return contiguous(values.reshape(shape), self.dtype), contiguous(indices.reshape(shape), _dtype.int64)


def _max_pool3d_meta(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    shape = _Pool3d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool3d").out_shape(self)
    return _fake(shape, self.dtype), _fake(shape, _dtype.int64)


def _max_pool3d_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    _Pool3d(self, kernel_size, stride, padding, dilation, ceil_mode, "max_pool3d")
    grad = grad_output._np.reshape(-1, math.prod(grad_output.shape[-3:]))
    return _scatter_add(grad, indices._np, math.prod(self.shape[-3:]), self.shape, self.dtype)


def _max_pool3d_backward_meta(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    return _fake(self.shape, self.dtype)


def _max_pool3d_formula(grads, self, kernel_size, stride, padding, dilation, ceil_mode, result1):
    return aten.max_pool3d_with_indices_backward.default(grads[0], self, kernel_size, stride, padding, dilation,
                                                         ceil_mode, result1)


def _gather_at(grad, indices, nd):
    """torch's max_pool_double_backward: the gradient read back at the indices, plane by plane."""
    flat = aten.view.default(grad, list(grad.shape[:-nd]) + [-1])
    picked = aten.gather.default(flat, -1, aten.view.default(indices, list(indices.shape[:-nd]) + [-1]))
    return aten.view.default(picked, list(indices.shape))


def _max_pool3d_backward_formula(grad, grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                                 indices):
    return _gather_at(grad, indices, 3), aten.zeros_like.default(self), None


# ---------------------------------------------------------------- avg_pool3d
def _divisors(pool, count_include_pad, divisor_override):
    """(prod(out),) divisors: the window clipped to the padded input (or to the input), or divisor_override."""
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        return np.full(math.prod(pool.out_size), float(divisor_override))
    counts = np.ones(1)
    for i, k, p, s, o in zip(pool.in_size, pool.kernel, pool.padding, pool.stride, pool.out_size):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, i + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, i)
        counts = np.multiply.outer(counts, end - start).reshape(-1)
    return counts.astype(np.float64)


def _avg_pool3d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                divisor_override=None):
    pool = _Pool3d(self, kernel_size, stride, padding, 1, ceil_mode, "avg_pool3d")
    flat, valid = pool.table()
    floating = self.dtype.is_floating_point
    planes = _planes(self, 3).astype(np.float64 if floating else np.int64)
    sums = np.where(valid, planes[:, flat], 0).sum(-1)
    divisor = _divisors(pool, count_include_pad, divisor_override)
    out = sums / divisor if floating else np.sign(sums) * (np.abs(sums) // divisor.astype(np.int64))
    return contiguous(out.reshape(pool.out_shape(self)), self.dtype)


def _avg_pool3d_meta(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                     divisor_override=None):
    pool = _Pool3d(self, kernel_size, stride, padding, 1, ceil_mode, "avg_pool3d")
    _divisors(pool, count_include_pad, divisor_override)
    return _fake(pool.out_shape(self), self.dtype)


def _avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                         divisor_override):
    pool = _Pool3d(self, kernel_size, stride, padding, 1, ceil_mode, "avg_pool3d")
    flat, valid = pool.table()
    share = grad_output._np.reshape(-1, flat.shape[0]) / _divisors(pool, count_include_pad, divisor_override)
    weights = np.where(valid[None], share[..., None], 0.0)
    return _scatter_add(weights, np.broadcast_to(flat, weights.shape), math.prod(pool.in_size), self.shape,
                        self.dtype)


def _avg_pool3d_backward_meta(grad_output, self, *args):
    return _fake(self.shape, self.dtype)


def _avg_pool3d_formula(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    return aten.avg_pool3d_backward.default(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                            divisor_override)


def _avg_pool3d_backward_formula(grad, grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                 divisor_override):
    return (aten.avg_pool3d.default(grad, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                    divisor_override), aten.zeros_like.default(self))


# ---------------------------------------------------------------- adaptive pooling
def _adaptive_table(in_size, out_size):
    """Window tables for adaptive windows: each padded to the widest by repeating its last index."""
    flat, valid = np.zeros((1, 1), np.int64), np.ones((1, 1), bool)
    for i, o in zip(in_size, out_size):
        start = np.arange(o) * i // o
        end = -(-(np.arange(o) + 1) * i // o)
        width = int((end - start).max(initial=1))  # (an output size of 0 has no windows: an empty table)
        pos = start[:, None] + np.arange(width)[None, :]
        inside = pos < end[:, None]
        pos = np.minimum(pos, end[:, None] - 1)
        flat = (flat[:, None, :, None] * i + pos[None, :, None, :]).reshape(flat.shape[0] * o, flat.shape[1] * width)
        valid = (valid[:, None, :, None] & inside[None, :, None, :]).reshape(flat.shape)
    return flat, valid


def _adaptive_check(self, output_size, nd, name):
    if len(output_size) != nd:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {nd}")
    if self.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: {sizes(self.shape)}")
    for d in range(self.dim() - nd, self.dim()):
        if self.shape[d] <= 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {sizes(self.shape)} with dimension {d} being empty")
    require_float(self, name)
    return tuple(self.shape[:-nd]) + tuple(int(s) for s in output_size)


def _adaptive_avg(self, output_size):
    shape = _adaptive_check(self, output_size, 3, "adaptive_avg_pool3d")
    flat, valid = _adaptive_table(self.shape[-3:], output_size)
    sums = np.where(valid, _planes(self, 3).astype(np.float64)[:, flat], 0).sum(-1)
    return contiguous((sums / valid.sum(-1)).reshape(shape), self.dtype)


def _check_backward_sizes(grad_output, name):
    for d in range(1, grad_output.dim()):
        if grad_output.shape[d] <= 0:
            raise RuntimeError(f"{name}(): Expected grad_output to have non-zero size for non-batch dimensions, but "
                               f"grad_output has sizes {sizes(grad_output.shape)} with dimension {d} being empty")


def _adaptive_avg_backward(grad_output, self):
    _check_backward_sizes(grad_output, "adaptive_avg_pool3d_backward")
    flat, valid = _adaptive_table(self.shape[-3:], grad_output.shape[-3:])
    share = grad_output._np.reshape(-1, flat.shape[0]) / valid.sum(-1)
    weights = np.where(valid[None], share[..., None], 0.0)
    return _scatter_add(weights, np.broadcast_to(flat, weights.shape), math.prod(self.shape[-3:]), self.shape,
                        self.dtype)


def _adaptive_max(nd):
    name = f"adaptive_max_pool{nd}d"

    def kernel(self, output_size):
        shape = _adaptive_check(self, output_size, nd, name)
        values, indices = _scan_max(_planes(self, nd), *_adaptive_table(self.shape[-nd:], output_size))
        return contiguous(values.reshape(shape), self.dtype), contiguous(indices.reshape(shape), _dtype.int64)

    def meta(self, output_size):
        shape = _adaptive_check(self, output_size, nd, name)
        return _fake(shape, self.dtype), _fake(shape, _dtype.int64)
    return kernel, meta


def _adaptive_max_backward_of(nd):
    def kernel(grad_output, self, indices):
        _check_backward_sizes(grad_output, f"adaptive_max_pool{nd}d_backward")
        grad = grad_output._np.reshape(-1, math.prod(grad_output.shape[-nd:]))
        return _scatter_add(grad, indices._np, math.prod(self.shape[-nd:]), self.shape, self.dtype)
    return kernel, lambda grad_output, self, indices: _fake(self.shape, self.dtype)


def _adaptive_max_formula(nd):
    return lambda grads, self, result1: getattr(aten, f"adaptive_max_pool{nd}d_backward").default(grads[0], self,
                                                                                                  result1)


def _adaptive_max_backward_formula(nd):
    return lambda grad, grad_output, self, indices: (_gather_at(grad, indices, nd), aten.zeros_like.default(self),
                                                     None)


# ---------------------------------------------------------------- max_unpool2d / max_unpool3d
def _unpool_check(self, indices, output_size, nd):
    name = f"max_unpooling{nd}d_forward_out"
    if indices.dtype is not _dtype.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype.name.title()}")
    if len(output_size) != nd:
        raise RuntimeError(f"There should be exactly {'two' if nd == 2 else 'three'} elements (height, width) in "
                           f"output_size, but got {len(output_size)} elements." if nd == 2 else
                           f"There should be exactly three elements (depth, height, width) in output_size, but got: "
                           f"{len(output_size)}")
    if self.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to {name} should be a {nd + 1}d or {nd + 2}d Tensor, but got a tensor with "
                           f"{self.dim()} dimensions.")
    if tuple(self.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({sizes(self.shape)}) "
                           f"but got indices tensor with shape: {sizes(indices.shape)}")
    return tuple(self.shape[:-nd]) + tuple(int(s) for s in output_size)


def _max_unpool(nd):
    def kernel(self, indices, output_size, *geometry):
        shape = _unpool_check(self, indices, output_size, nd)
        _settings.alert_not_deterministic(f"max_unpooling{nd}d_forward_out")
        plane = math.prod(shape[-nd:])
        idx = indices._np.reshape(-1, math.prod(self.shape[-nd:]))
        if idx.size and plane and (idx.min() < 0 or idx.max() >= plane):  # (an empty output: no index is read)
            bad = int(idx[(idx < 0) | (idx >= plane)][0])
            raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                               f"{'x'.join(map(str, shape[-nd:]))}")
        out = np.zeros((idx.shape[0], plane), self.dtype.np)
        if plane:
            np.put_along_axis(out, idx, self._np.reshape(idx.shape), -1)
        return contiguous(out.reshape(shape), self.dtype)

    def meta(self, indices, output_size, *geometry):
        return _fake(_unpool_check(self, indices, output_size, nd), self.dtype)
    return kernel, meta


# ---------------------------------------------------------------- fractional max pooling
def _intervals(samples, in_size, out_size, kernel):
    """ATen's generate_intervals, in the samples' dtype: window starts ⌊(i + u)α⌋ - ⌊uα⌋, α = (in - k)/(out - 1),
    the last window flush with the input's end. samples (P,) -> (P, out)."""
    alpha = samples.dtype.type(in_size - kernel) / samples.dtype.type(max(out_size - 1, 1))
    i = np.arange(out_size, dtype=samples.dtype)[None, :]
    starts = ((i + samples[:, None]) * alpha).astype(np.int64) - (samples[:, None] * alpha).astype(np.int64)
    starts[:, -1:] = in_size - kernel
    return starts


def _fractional_check(self, kernel_size, output_size, random_samples, nd):
    name = f"fractional_max_pool{nd}d()"
    if self.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}: Expected {nd + 1}D or {nd + 2}D tensor, but got: {sizes(self.shape)}")
    if len(kernel_size) != nd or len(output_size) != nd:
        raise RuntimeError(f"{name}: kernel_size and output_size must each have {nd} elements")
    for axis, i, o, k in zip(("time", "height", "width")[3 - nd:], self.shape[-nd:], output_size, kernel_size):
        if o + k - 1 > i:
            raise RuntimeError(f"{name}: pool {axis} {k} too large relative to input {axis} {i}")
    return tuple(self.shape[:-nd]) + tuple(output_size)


def _fractional(nd):
    def kernel(self, kernel_size, output_size, random_samples):
        shape = _fractional_check(self, kernel_size, output_size, random_samples, nd)
        samples = random_samples._np.reshape(-1, nd)  # one row per plane, nd samples: W, H (2-d); T, H, W (3-d)
        order = (1, 0) if nd == 2 else (0, 1, 2)
        flat = np.zeros((len(samples), 1, 1), np.int64)
        for axis, (i, o, k) in enumerate(zip(self.shape[-nd:], output_size, kernel_size)):
            pos = _intervals(samples[:, order[axis]], i, o, k)[:, :, None] + np.arange(k)
            flat = (flat[:, :, None, :, None] * i + pos[:, None, :, None, :]).reshape(len(samples), -1,
                                                                                     flat.shape[-1] * k)
        values, indices = _scan_max(_planes(self, nd), flat, np.ones(flat.shape[-2:], bool))
        return contiguous(values.reshape(shape), self.dtype), contiguous(indices.reshape(shape), _dtype.int64)

    def meta(self, kernel_size, output_size, random_samples):
        shape = _fractional_check(self, kernel_size, output_size, random_samples, nd)
        return _fake(shape, self.dtype), _fake(shape, _dtype.int64)
    return kernel, meta


def _fractional_backward(nd):
    def kernel(grad_output, self, kernel_size, output_size, indices):
        grad = grad_output._np.reshape(-1, math.prod(grad_output.shape[-nd:]))
        return _scatter_add(grad, indices._np, math.prod(self.shape[-nd:]), self.shape, self.dtype)
    return kernel, lambda grad_output, self, kernel_size, output_size, indices: _fake(self.shape, self.dtype)


def _fractional_formula(nd):
    return lambda grads, self, kernel_size, output_size, result1: (getattr(
        aten, f"fractional_max_pool{nd}d_backward").default(grads[0], self, kernel_size, output_size, result1), None)


def _fractional_backward_formula(nd):
    return lambda grad, self, indices: (_gather_at(grad, indices, nd), aten.zeros_like.default(self), None)


def _max_unpool_decomposition(nd):
    """torch's core table: the indices offset by each plane's start, one index_put of the values into zeros."""
    def decomposition(self, indices, output_size, stride=None, padding=None):
        shape = list(self.shape[:-nd]) + list(output_size)
        if any(s == 0 for s in shape):
            return aten.new_zeros.default(self, shape)
        planes = aten.view.default(aten.arange.default(math.prod(self.shape[:-nd]), layout=strided,
                                                       device=self.device, pin_memory=False),
                                   list(self.shape[:-nd]) + [1] * nd)
        flat = aten.view.default(aten.add.Tensor(indices, aten.mul.Tensor(planes, math.prod(output_size))), [-1])
        output = aten.new_zeros.default(self, shape)
        put = aten._unsafe_index_put.default(aten.view.default(output, [-1]), [flat], aten.view.default(self, [-1]))
        return aten.view.default(put, shape)
    return decomposition


def _max_unpool2d_formula(grad, self, indices):
    return _gather_at(grad, indices, 2), None


def _max_unpool3d_formula(grad, self, indices):
    return _gather_at(grad, indices, 3), None


ROWS = [
    op("max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
       "int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)", CORE, (_max_pool3d, _max_pool3d_meta),
       _max_pool3d_formula, grad_fn="MaxPool3DWithIndicesBackward0", output_differentiability=(True, False)),
    op("max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, "
       "int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor", (),
       (_max_pool3d_backward, _max_pool3d_backward_meta), _max_pool3d_backward_formula,
       grad_fn="MaxPool3DWithIndicesBackwardBackward0"),
    op("avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, "
       "bool count_include_pad=True, int? divisor_override=None) -> Tensor", CORE, (_avg_pool3d, _avg_pool3d_meta),
       _avg_pool3d_formula, grad_fn="AvgPool3DBackward0"),
    op("avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, "
       "bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor", (),
       (_avg_pool3d_backward, _avg_pool3d_backward_meta), _avg_pool3d_backward_formula,
       grad_fn="AvgPool3DBackwardBackward0"),
    op("_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor", CORE,
       (_adaptive_avg, lambda self, size: _fake(_adaptive_check(self, size, 3, "adaptive_avg_pool3d"), self.dtype)),
       lambda grad, self: aten._adaptive_avg_pool3d_backward.default(grad, self), grad_fn="AdaptiveAvgPool3DBackward0"),
    op("_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor", (),
       (_adaptive_avg_backward, lambda grad_output, self: _fake(self.shape, self.dtype)),
       lambda grad, grad_output, self: (aten._adaptive_avg_pool3d.default(grad, list(grad_output.shape[-3:])),
                                        aten.zeros_like.default(self)),
       grad_fn="AdaptiveAvgPool3DBackwardBackward0"),
    *[row for nd in (2, 3) for row in (
        op(f"adaptive_max_pool{nd}d(Tensor self, int[{nd}] output_size) -> (Tensor, Tensor)", (), _adaptive_max(nd),
           _adaptive_max_formula(nd), grad_fn=f"AdaptiveMaxPool{nd}DBackward0", output_differentiability=(True, False)),
        op(f"adaptive_max_pool{nd}d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor", (),
           _adaptive_max_backward_of(nd), _adaptive_max_backward_formula(nd),
           grad_fn=f"AdaptiveMaxPool{nd}DBackwardBackward0"))],
    *[row for nd in (2, 3) for row in (
        op(f"fractional_max_pool{nd}d(Tensor self, int[{nd}] kernel_size, int[{nd}] output_size, "
           "Tensor random_samples) -> (Tensor output, Tensor indices)", (), _fractional(nd), _fractional_formula(nd),
           grad_fn=f"FractionalMaxPool{nd}DBackward0", output_differentiability=(True, False)),
        op(f"fractional_max_pool{nd}d_backward(Tensor grad_output, Tensor self, int[{nd}] kernel_size, "
           f"int[{nd}] output_size, Tensor indices) -> Tensor", (), _fractional_backward(nd),
           _fractional_backward_formula(nd), grad_fn=f"FractionalMaxPool{nd}DBackwardBackward0"))],
    op("max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor", (), _max_unpool(2),
       _max_unpool2d_formula, grad_fn="MaxUnpool2DBackward0", decomposition=_max_unpool_decomposition(2)),
    op("max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] padding) -> Tensor",
       (), _max_unpool(3), _max_unpool3d_formula, grad_fn="MaxUnpool3DBackward0",
       decomposition=_max_unpool_decomposition(3)),
]
