"""Upsampling kernels: nearest, nearest-exact and (bi/tri)linear over the last one to three dims, and their backward
ops (bicubic and the antialiased modes are in nn_upsample_filters.py).

Runtime layer: the upsample rows of the op table, reached by F.interpolate and
nn.Upsample. One kernel serves 1-d, 2-d and 3-d: each spatial dim gets its source
positions from the output size and the optional scale, exactly as ATen
computes them in the input's opmath type (float32 for float):

    nearest:  src = min(floor(dst * scale), in - 1)         scale = 1/scale_factor or in/out
    nearest-exact: src = min(floor((dst + 0.5) * scale), in - 1)
    linear:   src = scale * (dst + 0.5) - 0.5 (>= 0)         align_corners=False
              src = dst * (in - 1) / (out - 1)               align_corners=True
              i0 = min(floor(src), in - 1), i1 = i0 + (i0 < in - 1), w1 = src - i0, w0 = 1 - w1

A 2-d linear output is w0h * (row h0 interpolated along w) + w1h * (row h1 ...),
the order of ATen's loop. The backward ops scatter-add the gradient back
through the same positions and weights.
"""
import itertools
from fractions import Fraction

import numpy as np

from .. import _dtype
from .meta_util import channels_last_strides, contiguous_strides, fake_empty
from .nn_ops import compute_dtype, is_channels_last, require_float, scalar_type_name, with_strides


def _scale(in_size, out_size, scale, dtype):
    if scale is not None and scale > 0:
        return dtype(1.0 / scale)
    return dtype(in_size) / dtype(out_size)


def _nearest_positions(in_size, out_size, scale, exact=False):
    scale = _scale(in_size, out_size, scale, np.float32)  # ATen's nearest index math is float for every dtype
    dst = np.arange(out_size, dtype=np.float32) + np.float32(0.5 if exact else 0)
    return np.minimum(np.floor(dst * scale).astype(np.int64), in_size - 1)


def _linear_positions(in_size, out_size, align_corners, scale, dtype):
    """(i0, i1, w0, w1) per output position along one dim. An unchanged size reads each position twice, weighted 1
    and 0, as ATen does (so an inf turns into a nan there, and never spreads to its neighbours)."""
    dst = np.arange(out_size, dtype=dtype)
    if in_size == out_size:
        return np.arange(in_size), np.arange(in_size), np.ones(in_size, dtype), np.zeros(in_size, dtype)
    if align_corners:
        step = dtype(in_size - 1) / dtype(out_size - 1) if out_size > 1 else dtype(0)
        src = step * dst
    else:
        src = np.maximum(_fused_source(_scale(in_size, out_size, scale, dtype), dst), dtype(0))
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    w1 = np.clip(src - i0.astype(dtype), dtype(0), dtype(1))
    i1 = i0 + (i0 < in_size - 1)
    return i0, i1, dtype(1) - w1, w1


def _fused_source(scale, dst):
    """scale * (dst + 0.5) - 0.5 rounded once, as ATen's compiled multiply-and-subtract (a fused multiply-add): exact
    in float64 for float32, exact as fractions for float64."""
    if dst.dtype == np.float32:
        return (scale * (dst + np.float32(0.5)).astype(np.float64) - 0.5).astype(np.float32)
    exact = [Fraction(float(scale)) * Fraction(float(d) + 0.5) - Fraction(1, 2) for d in dst]
    return np.array([float(v) for v in exact], dst.dtype)


# (the kernel a float-only upsampling's dtype dispatch names refusing another dtype: the one computing its weights)
_WEIGHTS_KERNEL = {"upsample_linear1d": "compute_indices_weights_linear", "upsample_trilinear3d":
                   "compute_indices_weights_linear", "upsample_bilinear2d": "upsample_bilinear2d_channels_last",
                   "upsample_bicubic2d": "compute_indices_weights_cubic", "_upsample_bilinear2d_aa":
                   "compute_index_ranges_weights", "_upsample_bicubic2d_aa": "compute_index_ranges_weights"}


def _check(self, output_size, nd, name, float_only=False):
    if float_only:
        require_float(self, _WEIGHTS_KERNEL.get(name, name))
    elif not (self.dtype.is_floating_point or self.dtype is _dtype.uint8):  # ATen's nearest: floats and bytes
        kernel = "compute_indices_weights_nearest" if nd == 1 else f"{name}_channels_last"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type_name(self.dtype)}\'')
    if self.dim() != nd + 2:
        raise RuntimeError(f"It is expected input_size equals to {nd + 2}, but got size {self.dim()}")
    if len(output_size) != nd:
        raise RuntimeError(f"It is expected output_size equals to {nd}, but got size {len(output_size)}")
    spatial = tuple(self.shape[2:])
    if any(s <= 0 for s in spatial) or any(s <= 0 for s in output_size):
        labels = ("D", "H", "W")[3 - nd:]
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({_labelled(labels, spatial)}) "
                           f"output ({_labelled(labels, output_size)})")
    return tuple(self.shape[:2]) + tuple(output_size)


def _labelled(labels, sizes):
    return ", ".join(f"{label}: {size}" for label, size in zip(labels, sizes))


def _grid(index_per_dim):
    """Open-mesh index arrays over the spatial dims, batch and channel dims taken whole."""
    mesh = np.ix_(*index_per_dim)
    return (slice(None), slice(None)) + tuple(mesh)


# ---------------------------------------------------------------- nearest
def _nearest(nd, exact=False):
    name = f"_upsample_nearest_exact{nd}d" if exact else f"upsample_nearest{nd}d"

    def kernel(self, output_size, *scales):
        _check(self, output_size, nd, name)
        positions = [_nearest_positions(i, o, s, exact) for i, o, s in
                     zip(self.shape[2:], output_size, _pad(scales, nd))]
        return _laid_out(self._np[_grid(positions)], self, self.dtype)

    def meta(self, output_size, *scales):
        shape = _check(self, output_size, nd, name)
        return fake_empty(shape, self.dtype, _layout(self, shape))

    def backward_kernel(grad_output, output_size, input_size, *scales):
        dtype = compute_dtype(grad_output.dtype)
        positions = [_nearest_positions(i, o, s, exact) for i, o, s in
                     zip(input_size[2:], output_size, _pad(scales, nd))]
        grad = np.zeros(tuple(input_size), dtype)
        np.add.at(grad, _grid(positions), grad_output._np.astype(dtype))
        return _laid_out(grad, grad_output, grad_output.dtype)

    def backward_meta(grad_output, output_size, input_size, *scales):
        return fake_empty(tuple(input_size), grad_output.dtype, _layout(grad_output, tuple(input_size)))

    return (kernel, meta), (backward_kernel, backward_meta)


def _layout(like, shape):
    """The result's strides: ATen's upsample kernels allocate it in the suggested memory format of `like` (the input,
    or for a backward the incoming gradient), channels-last where that is."""
    return channels_last_strides(shape) if is_channels_last(like) else contiguous_strides(shape)


def _laid_out(array, like, dtype):
    return with_strides(array, dtype, _layout(like, array.shape))


def _pad(scales, nd):
    return (tuple(scales) + (None,) * nd)[:nd]


# ---------------------------------------------------------------- linear
def _interpolate(x, weights_per_dim, index_per_dim):
    """Sum over the 2**nd corners of weight products times corner values, outer dim outermost."""
    if not index_per_dim:
        return x
    (i0, i1), (w0, w1) = index_per_dim[0], weights_per_dim[0]
    axis = x.ndim - len(index_per_dim)
    shape = [1] * x.ndim
    shape[axis] = -1
    t0 = _interpolate(np.take(x, i0, axis=axis), weights_per_dim[1:], index_per_dim[1:])
    t1 = _interpolate(np.take(x, i1, axis=axis), weights_per_dim[1:], index_per_dim[1:])
    return t0 * w0.reshape(shape) + t1 * w1.reshape(shape)


def _linear(nd):
    name = {1: "upsample_linear1d", 2: "upsample_bilinear2d", 3: "upsample_trilinear3d"}[nd]

    def positions(in_sizes, output_size, align_corners, scales, dtype):
        return [_linear_positions(i, o, align_corners, s, dtype) for i, o, s in
                zip(in_sizes, output_size, _pad(scales, nd))]

    def kernel(self, output_size, align_corners, *scales):
        _check(self, output_size, nd, name, float_only=True)
        dtype = compute_dtype(self.dtype)
        per_dim = positions(self.shape[2:], output_size, align_corners, scales, dtype)
        out = _interpolate(self._np.astype(dtype), [p[2:] for p in per_dim], [p[:2] for p in per_dim])
        return _laid_out(out, self, self.dtype)

    def meta(self, output_size, align_corners, *scales):
        shape = _check(self, output_size, nd, name, float_only=True)
        return fake_empty(shape, self.dtype, _layout(self, shape))

    def backward_kernel(grad_output, output_size, input_size, align_corners, *scales):
        dtype = compute_dtype(grad_output.dtype)
        per_dim = positions(input_size[2:], output_size, align_corners, scales, dtype)
        grad = np.zeros(tuple(input_size), dtype)
        g = grad_output._np.astype(dtype)
        for corner in itertools.product((0, 1), repeat=nd):
            indices = [per_dim[d][corner[d]] for d in range(nd)]
            weight = np.ones((), dtype)
            for d in range(nd):
                w = per_dim[d][2 + corner[d]]
                weight = np.multiply.outer(weight, w) if d else w
            np.add.at(grad, _grid(indices), g * weight)
        return _laid_out(grad, grad_output, grad_output.dtype)

    def backward_meta(grad_output, output_size, input_size, align_corners, *scales):
        return fake_empty(tuple(input_size), grad_output.dtype, _layout(grad_output, tuple(input_size)))

    return (kernel, meta), (backward_kernel, backward_meta)


upsample_nearest1d, upsample_nearest1d_backward = _nearest(1)
upsample_nearest2d, upsample_nearest2d_backward = _nearest(2)
upsample_linear1d, upsample_linear1d_backward = _linear(1)
upsample_bilinear2d, upsample_bilinear2d_backward = _linear(2)
upsample_nearest3d, upsample_nearest3d_backward = _nearest(3)
upsample_trilinear3d, upsample_trilinear3d_backward = _linear(3)
upsample_nearest_exact1d, upsample_nearest_exact1d_backward = _nearest(1, exact=True)
upsample_nearest_exact2d, upsample_nearest_exact2d_backward = _nearest(2, exact=True)
upsample_nearest_exact3d, upsample_nearest_exact3d_backward = _nearest(3, exact=True)
