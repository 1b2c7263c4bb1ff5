"""Decompositions of the upsampling ops into gathers (`index.Tensor`, `_unsafe_index`), as torch._decomp writes them.

Runtime layer, the decomposition column of the upsample rows. Nearest is one
gather at positions floor(dst * scale); (bi)linear gathers the 2**nd corners
and blends them one dim at a time, innermost dim first, with
`v0 + (v1 - v0) * alpha` (torch's decomposition, which rounds a little
differently from the eager kernel's `w0 * v0 + w1 * v1`). Under compile the
gathers lower to indirect loads, so upsampling fuses with its neighbours, as
in torch's inductor.
"""
from .. import _dtype
from .._ops import ops
from .._tensor import channels_last
from .nn_ops import is_channels_last

aten = ops.aten


def _arange_float(length, device, dtype=_dtype.float32, traced=False):
    """0, 1, ... as floats: an int64 arange converted (traced as torch traces it; under the inductor, its iota)."""
    positions = (aten.arange.default(length, device=device) if traced else
                 ops.prims.iota.default(length, start=0, step=1, dtype=_dtype.int64, device=device,
                                        requires_grad=False))
    return aten._to_copy.default(positions, dtype=dtype)


def _trailing_view(t, trailing):
    """t (one entry per output position along a dim) shaped to broadcast over `trailing` later dims. (torch's trace
    records a same-shape view for the last dim too, which its inductor's no-op removal drops before the graph is
    lowered; ours drops no-ops later, so the view is left out here: see test_vision_kernels_s36's xfail.)"""
    return aten.view.default(t, [t.shape[0]] + [1] * trailing) if trailing else t


def _nearest(self, output_size, scales, exact=False):
    nd = len(output_size)
    indices = [None, None]
    for d, (out_size, scale) in enumerate(zip(output_size, scales)):
        in_size = self.shape[2 + d]
        step = in_size / (in_size * scale) if scale is not None else in_size / out_size
        positions = _arange_float(out_size, self.device)
        source = aten.mul.Tensor(aten.add.Tensor(positions, 0.5) if exact else positions, step)
        indices.append(_trailing_view(aten._to_copy.default(source, dtype=_dtype.int64), nd - 1 - d))
    return aten.index.Tensor(self, indices)


def nearest_traced(self, output_size, scales, exact=False):
    """upsample_nearest{1,2,3}d.vec (and _upsample_nearest_exact's) as torch traces it (its Python form, torch._decomp's
    _upsample_nearest): per dim source indices ((arange + 0.0, or + 0.5 for exact) * scale truncated), unsqueezed to
    broadcast, then one _unsafe_index."""
    indices = []
    for d, (out_size, scale) in enumerate(zip(output_size, scales)):
        in_size = self.shape[2 + d]
        step = in_size / (in_size * scale) if scale is not None else in_size / out_size
        positions = aten.arange.default(out_size, dtype=_dtype.float32, device=self.device)
        source = aten._to_copy.default(aten.mul.Tensor(aten.add.Tensor(positions, 0.5 if exact else 0.0), step), dtype=_dtype.int64)
        for _ in range(len(output_size) - 1 - d):
            source = aten.unsqueeze.default(source, -1)
        indices.append(source)
    out = aten._unsafe_index.Tensor(self, [None, None, *indices])
    if self.dim() == 4 and is_channels_last(self) and not is_channels_last(out):  # (its suggest_memory_format)
        out = aten.clone.default(out, memory_format=channels_last)
    return out


def unsafe_index_put(self, indices, values, accumulate=False):
    """inductor's table: _unsafe_index_put as index_put."""
    return aten.index_put.default(self, indices, values, accumulate)


def upsample_nearest1d(self, output_size, scales=None):
    return _nearest(self, output_size, [scales])


def upsample_nearest2d(self, output_size, scales_h=None, scales_w=None):
    return _nearest(self, output_size, [scales_h, scales_w])


def upsample_nearest3d(self, output_size, scales_d=None, scales_h=None, scales_w=None):
    return _nearest(self, output_size, [scales_d, scales_h, scales_w])


def upsample_nearest_exact1d(self, output_size, scales=None):
    return _nearest(self, output_size, [scales], exact=True)


def upsample_nearest_exact2d(self, output_size, scales_h=None, scales_w=None):
    return _nearest(self, output_size, [scales_h, scales_w], exact=True)


def upsample_nearest_exact3d(self, output_size, scales_d=None, scales_h=None, scales_w=None):
    return _nearest(self, output_size, [scales_d, scales_h, scales_w], exact=True)


def _source_index(dst, in_size, out_size, align_corners, scale):
    """torch._decomp's _compute_source_index: the input position each output position reads, unclamped."""
    if align_corners:
        return aten.mul.Tensor(dst, (in_size - 1.0) / (out_size - 1.0) if out_size > 1 else 0)
    step = 1.0 / scale if scale is not None and scale > 0 else in_size / out_size
    return aten.sub.Tensor(aten.mul.Tensor(aten.add.Tensor(dst, 0.5), step), 0.5)


def _source_positions(in_size, out_size, align_corners, scale, trailing, dtype, device, traced=False):
    """(source position as a float, its floor, the next position) along one dim."""
    dst = _arange_float(out_size, device, dtype, traced)
    source = _source_index(dst, in_size, out_size, align_corners, scale)
    source = _trailing_view(aten.clamp.default(source, 0.0), trailing)
    low = aten._to_copy.default(source, dtype=_dtype.int64)
    high = aten.clamp.default(aten.add.Tensor(low, 1), None, in_size - 1)
    return source, low, high


def _linear(self, output_size, align_corners, scales, traced=False):
    if not self.dtype.is_floating_point:
        return NotImplemented  # the op itself raises torch's error
    nd = len(output_size)
    per_dim = [_source_positions(self.shape[2 + d], output_size[d], align_corners, scales[d], nd - 1 - d,
                                 self.dtype, self.device, traced) for d in range(nd)]
    corners = [[]]
    for _, low, high in per_dim:
        corners = [c + [i] for c in corners for i in (low, high)]
    values = [aten._unsafe_index.Tensor(self, [None, None] + corner) for corner in corners]
    for source, low, _ in reversed(per_dim):
        alpha = aten.clamp.default(aten.sub.Tensor(source, low), 0.0, 1.0)
        values = [aten.add.Tensor(v0, aten.mul.Tensor(aten.sub.Tensor(v1, v0), alpha))
                  for v0, v1 in zip(values[::2], values[1::2])]
    out = values[0]  # (torch's `.contiguous(memory_format=suggest_memory_format(input))`: a copy only if needed)
    if self.dim() == 4 and is_channels_last(self) and not is_channels_last(out):
        return aten.clone.default(out, memory_format=channels_last)
    return out if out.is_contiguous() or self.dim() == 4 and is_channels_last(self) else aten.clone.default(out)


def linear_traced(self, output_size, align_corners, scales):
    """upsample_{linear1d,bilinear2d,trilinear3d}.vec as torch traces them (their Python form, torch._decomp's
    _upsample_linear): the corners gathered with _unsafe_index and blended one dim at a time."""
    return _linear(self, output_size, align_corners, scales, traced=True)


def upsample_linear1d(self, output_size, align_corners, scales=None):
    return _linear(self, output_size, align_corners, [scales])


def upsample_bilinear2d(self, output_size, align_corners, scales_h=None, scales_w=None):
    return _linear(self, output_size, align_corners, [scales_h, scales_w])


def upsample_trilinear3d(self, output_size, align_corners, scales_d=None, scales_h=None, scales_w=None):
    return _linear(self, output_size, align_corners, [scales_d, scales_h, scales_w])


# ---------------------------------------------------------------- bicubic, as torch traces it
CUBIC_A = -0.75


def _cubic_near(x):
    """The cubic convolution kernel on |x| <= 1, ((A + 2) x - (A + 3)) x x + 1, in torch._decomp's op order."""
    return aten.add.Tensor(aten.mul.Tensor(aten.mul.Tensor(aten.sub.Tensor(
        aten.mul.Tensor(x, CUBIC_A + 2), CUBIC_A + 3), x), x), 1)


def _cubic_far(x):
    """The kernel on 1 < |x| < 2, ((A x - 5 A) x + 8 A) x - 4 A."""
    return aten.sub.Tensor(aten.mul.Tensor(aten.add.Tensor(aten.mul.Tensor(aten.sub.Tensor(
        aten.mul.Tensor(x, CUBIC_A), 5 * CUBIC_A), x), 8 * CUBIC_A), x), 4 * CUBIC_A)


def _cubic_weights(t):
    """The weights of the taps at -1, 0, 1, 2 around t (CPU's form: the near and far pairs stacked)."""
    near = aten.stack.default([t, aten.rsub.Scalar(t, 1.0)])
    far = aten.stack.default([aten.add.Tensor(t, 1.0), aten.rsub.Scalar(t, 2.0)])
    outer, inner = _cubic_far(far), _cubic_near(near)
    (w0, w3), (w1, w2) = aten.unbind.int(outer), aten.unbind.int(inner)
    return w0, w1, w2, w3


def _weighted_sum(values, weights):
    total = aten.mul.Tensor(values[0], weights[0])
    for value, weight in zip(values[1:], weights[1:]):
        total = aten.add.Tensor(total, aten.mul.Tensor(value, weight))
    return total


def bicubic_traced(self, output_size, align_corners, scales):
    """upsample_bicubic2d as torch traces it (torch._decomp's upsample_bicubic2d_default): 4 taps per dim around
    floor(src), read clamped into the image, weighted by the cubic kernel (A = -0.75); rows blended along the
    width, then the rows along the height."""
    in_h, in_w = self.shape[2:]
    rows = _arange_float(output_size[0], self.device, self.dtype, traced=True)
    cols = _arange_float(output_size[1], self.device, self.dtype, traced=True)
    x_float = _source_index(cols, in_w, output_size[1], align_corners, scales[1])
    y_float = aten.unsqueeze.default(_source_index(rows, in_h, output_size[0], align_corners, scales[0]), -1)
    x, y = aten.floor.default(x_float), aten.floor.default(y_float)
    y_scale = aten.clamp.default(aten.sub.Tensor(y_float, y), 0.0, 1.0)
    x_scale = aten.clamp.default(aten.sub.Tensor(x_float, x), 0.0, 1.0)
    x, y = aten._to_copy.default(x, dtype=_dtype.int64), aten._to_copy.default(y, dtype=_dtype.int64)
    y_taps = (aten.sub.Tensor(y, 1), y, aten.add.Tensor(y, 1), aten.add.Tensor(y, 2))
    x_taps = (aten.sub.Tensor(x, 1), x, aten.add.Tensor(x, 1), aten.add.Tensor(x, 2))
    x_weights, y_weights = _cubic_weights(x_scale), _cubic_weights(y_scale)

    def row(y_tap):
        values = [aten._unsafe_index.Tensor(self, [None, None, aten.clamp.default(y_tap, 0, in_h - 1),
                                                   aten.clamp.default(x_tap, 0, in_w - 1)]) for x_tap in x_taps]
        return _weighted_sum(values, x_weights)

    out = _weighted_sum([row(y_tap) for y_tap in y_taps], y_weights)
    if is_channels_last(self) and not is_channels_last(out):
        return aten.clone.default(out, memory_format=channels_last)
    return out
