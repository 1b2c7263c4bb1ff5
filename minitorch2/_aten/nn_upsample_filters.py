"""Upsampling by filters of several taps: bicubic, and the antialiased bilinear and bicubic modes, with backward ops.

Runtime layer, coverage surface: the upsample_bicubic2d and _upsample_{bilinear,bicubic,lanczos}2d_aa rows of the
op table, reached by F.interpolate(mode="bicubic"), antialias=True and mode="lanczos" (ViT position embeddings resized,
torchvision-style image resizing).

The one idea: each spatial dim is resampled on its own. Per output position a dim has a few input taps (indices)
and their weights; the 2-d result applies the width's taps, then the height's, as ATen's separable loops do. Only
the taps a position reads are multiplied, so an inf stays in the windows that hold it.

    bicubic:   src = scale * (dst + 0.5) - 0.5 (no clamp at 0; align_corners: dst * (in-1)/(out-1)),
               taps floor(src) - 1 .. + 2 clamped into the image, weights of the cubic kernel with A = -0.75
    antialias: center = scale * (dst + 0.5), support = filter radius * max(scale, 1), taps
               [center - support + 0.5, center + support + 0.5) inside the image, weights filter((tap - center
               + 0.5) / max(scale, 1)) normalized to sum 1; the filter is the triangle (bilinear, radius 1), the
               cubic kernel with A = -0.5 (bicubic, radius 2, as PIL's) or Lanczos-3 (radius 3)

The backward ops scatter-add the gradient through the same taps and weights.
"""
import numpy as np

from .meta_util import fake_empty
from .nn_ops import compute_dtype
from .nn_upsample import _check, _laid_out, _layout, _pad


def _area_scale(in_size, out_size, align_corners, scale):
    """ATen's area_pixel_compute_scale: input positions per output position."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / scale if scale is not None and scale > 0 else in_size / out_size


def _cubic(x, a):
    """The cubic convolution kernel at |x| (0 beyond 2)."""
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x <= 1, near, np.where(x < 2, far, 0))


def _triangle(x):
    return np.maximum(1 - np.abs(x), 0)


def _lanczos3(x):
    """sinc(x) * sinc(x / 3) inside |x| < 3 (numpy's sinc is the normalized one, sin(pi x) / (pi x))."""
    return np.where(np.abs(x) < 3, np.sinc(x) * np.sinc(x / 3), 0)


def _bicubic_taps(in_size, out_size, align_corners, scale, dtype):
    """(indices, weights, valid) per output position, each (out, 4)."""
    step = dtype(_area_scale(in_size, out_size, align_corners, scale))
    dst = np.arange(out_size, dtype=dtype)
    src = step * dst if align_corners else step * (dst + dtype(0.5)) - dtype(0.5)
    first = np.floor(src)
    t = (src - first)[:, None]
    offsets = np.arange(-1, 3)
    weights = _cubic(t - offsets.astype(dtype), dtype(-0.75)).astype(dtype)
    indices = np.clip(first.astype(np.int64)[:, None] + offsets, 0, in_size - 1)
    return indices, weights, np.ones(indices.shape, bool)


def _antialias_taps(filter, radius):
    def taps(in_size, out_size, align_corners, scale, dtype):
        step = _area_scale(in_size, out_size, align_corners, scale)
        support = radius * step if step >= 1.0 else radius
        stretch = max(step, 1.0)
        center = step * (np.arange(out_size) + 0.5)
        low = np.maximum((center - support + 0.5).astype(np.int64), 0)
        count = np.minimum((center + support + 0.5).astype(np.int64), in_size) - low
        width = max(int(count.max()), 1)
        indices = low[:, None] + np.arange(width)
        valid = np.arange(width) < count[:, None]
        weights = np.where(valid, filter((indices - center[:, None] + 0.5) / stretch), 0.0)
        total = weights.sum(1, keepdims=True)
        weights = np.where(total != 0, weights / np.where(total != 0, total, 1), 0.0)
        return np.minimum(indices, in_size - 1), weights.astype(dtype), valid
    return taps


def _apply(x, axis, indices, weights, valid):
    """Sum over taps of weight * x along `axis`, reading only the valid taps."""
    shape = [1] * x.ndim
    shape[axis] = indices.shape[0]
    out = np.zeros(x.shape[:axis] + (indices.shape[0],) + x.shape[axis + 1:], x.dtype)
    with np.errstate(invalid="ignore"):  # (an inf at a padded tap is weighted 0 and never read; inf - inf is nan)
        for k in range(indices.shape[1]):
            term = np.take(x, indices[:, k], axis=axis) * weights[:, k].reshape(shape)
            out += np.where(valid[:, k].reshape(shape), term, 0)
    return out


def _scatter(grad, axis, in_size, indices, weights, valid):
    """The transpose of _apply: each output position's gradient spread back onto its taps."""
    out = np.zeros(grad.shape[:axis] + (in_size,) + grad.shape[axis + 1:], grad.dtype)
    moved_out, moved_grad = np.moveaxis(out, axis, 0), np.moveaxis(grad, axis, 0)
    extra = (1,) * (grad.ndim - 1)
    for k in range(indices.shape[1]):
        rows = valid[:, k]
        np.add.at(moved_out, indices[rows, k], moved_grad[rows] * weights[rows, k].reshape((-1,) + extra))
    return out


def _filtered(name, taps_of):
    def per_dim(in_sizes, output_size, align_corners, scales, dtype):
        return [taps_of(i, o, align_corners, s, dtype) for i, o, s in zip(in_sizes, output_size, _pad(scales, 2))]

    def kernel(self, output_size, align_corners, *scales):
        _check(self, output_size, 2, name, float_only=True)
        dtype = compute_dtype(self.dtype)
        out = self._np.astype(dtype)
        for d, taps in reversed(list(enumerate(per_dim(self.shape[2:], output_size, align_corners, scales, dtype)))):
            out = _apply(out, 2 + d, *taps)
        return _laid_out(out, self, self.dtype)

    def meta(self, output_size, align_corners, *scales):
        shape = _check(self, output_size, 2, name, float_only=True)
        return fake_empty(shape, self.dtype, _layout(self, shape))

    def backward_kernel(grad_output, output_size, input_size, align_corners, *scales):
        dtype = compute_dtype(grad_output.dtype)
        grad = grad_output._np.astype(dtype)
        for d, taps in enumerate(per_dim(input_size[2:], output_size, align_corners, scales, dtype)):
            grad = _scatter(grad, 2 + d, input_size[2 + d], *taps)
        return _laid_out(grad, grad_output, grad_output.dtype)

    def backward_meta(grad_output, output_size, input_size, align_corners, *scales):
        return fake_empty(tuple(input_size), grad_output.dtype, _layout(grad_output, tuple(input_size)))

    return (kernel, meta), (backward_kernel, backward_meta)


upsample_bicubic2d, upsample_bicubic2d_backward = _filtered("upsample_bicubic2d", _bicubic_taps)
upsample_bilinear2d_aa, upsample_bilinear2d_aa_backward = _filtered(
    "_upsample_bilinear2d_aa", _antialias_taps(_triangle, 1.0))
upsample_bicubic2d_aa, upsample_bicubic2d_aa_backward = _filtered(
    "_upsample_bicubic2d_aa", _antialias_taps(lambda x: _cubic(x, -0.5), 2.0))
upsample_lanczos2d_aa, upsample_lanczos2d_aa_backward = _filtered("_upsample_lanczos2d_aa",
                                                                  _antialias_taps(_lanczos3, 3.0))
