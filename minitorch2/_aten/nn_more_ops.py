"""Kernels and meta functions of table_nn_more.py's ops: embedding bags, grid sampling, affine grids, CTC loss.

Runtime layer, coverage surface, beside nn_ops.py. Each op is the ATen op of the same schema, with the same extra
outputs (an embedding bag's offset2bag, bag_size and max_indices; CTC's log_alpha), so the backward ops, which take
those outputs, are ATen's too. Kernels read `t._np` and return numpy arrays; values are computed in the inputs'
dtype, as ATen's CPU kernels compute.

The one idea a reader must hold for grid sampling: a grid point's coordinate in [-1, 1] becomes a pixel position
(`_source_index`), is folded into the image by the padding mode, and samples the 4 pixels around it (bilinear) or
the nearest one; bicubic weighs the 16 pixels around the unfolded position and folds each of those instead. The
backward reuses the same positions: the input's gradient is the forward's weights scattered back, the grid's
gradient the weights' slopes times the chain factor each fold contributes (0 where a coordinate was clipped, -1
where reflection turned it around).
"""
import numpy as np

from .. import _dtype
from . import more_ops
from .meta_util import fake_empty
from .nn_ops import require_float, scalar_type_name, sizes

INDEX_DTYPES = (_dtype.int64, _dtype.int32)


# ---------------------------------------------------------------- embedding bags
def _embedding_bag_check(weight, indices, offsets, per_sample_weights):
    for t, name in ((indices, "indices"), (offsets, "offsets")):
        if t.dtype not in INDEX_DTYPES:
            raise RuntimeError(f"Expected tensor for argument #1 '{name}' to have one of the following scalar types: "
                               f"Long, Int; but got {t.type()} instead (while checking arguments for embedding_bag)")
    if not weight.dtype.is_floating_point:  # (c10 names an integer type by its legacy class, the others by their own)
        got = weight.type() if weight.dtype.category == 1 else f"CPU{scalar_type_name(weight.dtype)}Type"
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, "
                           f"BFloat16, Float, Double; but got {got} instead (while checking arguments for embedding_bag)")
    if per_sample_weights is not None and per_sample_weights.dtype is not weight.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                           f"'per_sample_weights'; but type {weight.type()} does not equal "
                           f"{per_sample_weights.type()} (while checking arguments for embedding_bag)")


def _bag_count(offsets, include_last_offset):
    return offsets.shape[0] - 1 if include_last_offset else offsets.shape[0]


def _index_select_path(weight, padding_idx):
    """ATen's fast path for sums and means (an index_select_add over a float weight with unit row stride, no padding
    index). It sums each bag up to the next offset, where the other paths, and the bag sizes a mean divides by, run
    an include_last_offset's last bag to the end of the indices; with mode sum it returns an empty offset2bag."""
    return padding_idx < 0 and weight.dtype in (_dtype.float32, _dtype.float16) and weight.stride()[1] == 1


def _bag_bounds(indices, offsets, include_last_offset, last_to_end):
    """(starts, ends) of every bag in `indices`, checked as ATen checks the offsets."""
    offs = offsets._np.astype(np.int64)
    length = indices.shape[0]
    if offs.size and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {offs[0]}\n[ torch.LongTensor{{}} ]")  # ATen prints the 0-d
    if offs.size and offs[-1] > length:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {length} but got offsets[-1] of "
                           f"{offs[-1]}")
    count = _bag_count(offsets, include_last_offset)
    ends = np.append(offs[1:], length)[:count]
    if last_to_end and count:
        ends[-1] = length
    return offs[:count], ends


def _embedding_bag_kernel(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                          per_sample_weights=None, include_last_offset=False, padding_idx=-1):
    _embedding_bag_check(weight, indices, offsets, per_sample_weights)
    idx = indices._np.astype(np.int64)
    bad = np.nonzero((idx < 0) | (idx >= weight.shape[0]))[0]
    if bad.size:
        raise RuntimeError(f"Index {bad[0]} of input takes value {idx[bad[0]]} which is not in the valid range "
                           f"[0, {weight.shape[0]})")
    fast = mode != 2 and _index_select_path(weight, padding_idx)
    starts, ends = _bag_bounds(indices, offsets, include_last_offset, last_to_end=True)
    summed_ends = _bag_bounds(indices, offsets, include_last_offset, last_to_end=not fast)[1]
    rows, dim = weight._np[idx], weight.shape[1]
    if per_sample_weights is not None:
        rows = rows * per_sample_weights._np[:, None]
    keep = idx != padding_idx if padding_idx >= 0 else np.ones(idx.shape, bool)
    count = len(starts)
    output = np.zeros((count, dim), weight.dtype.np)
    bag_size = np.zeros(count, np.int64)  # ATen fills it for mean and max only
    max_indices = np.zeros((count, dim), np.int64)
    offset2bag = np.zeros(idx.shape[0], np.int64)
    for bag, (start, end, summed_end) in enumerate(zip(starts, ends, summed_ends)):
        offset2bag[start:end] = bag
        members = np.arange(start, end)[keep[start:end]]
        bag_size[bag] = members.size if mode != 0 else 0
        if members.size == 0:
            continue
        if mode == 2:
            best = np.argmax(rows[members], axis=0)  # the first of equal maxima, as ATen's strict comparison
            output[bag] = rows[members[best], np.arange(dim)]
            max_indices[bag] = idx[members[best]]
        else:
            output[bag] = rows[members[members < summed_end]].sum(0, dtype=weight.dtype.np)
            if mode == 1:
                output[bag] /= weight.dtype.np.type(members.size)
    offset2bag = offset2bag[:0] if fast and mode == 0 else offset2bag
    return output, offset2bag, bag_size, max_indices if mode == 2 else bag_size.copy()


def _embedding_bag_meta(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                        per_sample_weights=None, include_last_offset=False, padding_idx=-1):
    _embedding_bag_check(weight, indices, offsets, per_sample_weights)
    count = _bag_count(offsets, include_last_offset)
    max_shape = (count, weight.shape[1]) if mode == 2 else (count,)
    links = 0 if mode == 0 and _index_select_path(weight, padding_idx) else indices.shape[0]
    return (fake_empty((count, weight.shape[1]), weight.dtype), fake_empty((links,), _dtype.int64),
            fake_empty((count,), _dtype.int64), fake_empty(max_shape, _dtype.int64))


embedding_bag = (_embedding_bag_kernel, _embedding_bag_meta)


def _embedding_bag_backward_kernel(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
                                   scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx=-1):
    idx = indices._np.astype(np.int64)
    g = grad._np
    grad_weight = np.zeros((num_weights, g.shape[1]), g.dtype)
    if mode == 2:
        chosen = maximum_indices._np
        bags, columns = np.nonzero(np.broadcast_to(bag_size._np[:, None] > 0, chosen.shape))  # empty bags chose none
        np.add.at(grad_weight, (chosen[bags, columns], columns), g[bags, columns])
        return grad_weight
    bag_of = _bag_of_each_index(offset2bag, offsets, idx.size, g.shape[0])
    contributions = g[bag_of]
    if per_sample_weights is not None:
        contributions = contributions * per_sample_weights._np[:, None]
    if mode == 1:
        contributions = contributions / np.maximum(bag_size._np[bag_of], 1).astype(g.dtype)[:, None]
    if scale_grad_by_freq:
        contributions = contributions / _frequency_divisors(idx, num_weights).astype(g.dtype)[:, None]
    keep = idx != padding_idx if padding_idx >= 0 else np.ones(idx.shape, bool)
    np.add.at(grad_weight, idx[keep], contributions[keep])
    return grad_weight


def _bag_of_each_index(offset2bag, offsets, length, count):
    """offset2bag, rebuilt from the offsets where the forward's fast path left it empty (as ATen's backward does; an
    index past an include_last_offset's last offset counts for the last bag, where ATen reads past the gradient)."""
    if offset2bag.shape[0] == length:
        return offset2bag._np
    bags = np.searchsorted(offsets._np.astype(np.int64), np.arange(length), side="right") - 1
    return np.minimum(bags, count - 1)


def _frequency_divisors(idx, num_weights):
    """What ATen's CPU kernel divides each index's gradient by under scale_grad_by_freq: it reads the count of the
    k-th smallest *occurrence* for the k-th distinct index (so with repeated indices, the wrong count; kept as
    torch 2.13 computes it, since values are compared with torch's)."""
    counts = np.bincount(idx, minlength=num_weights)
    distinct = np.unique(idx)
    by_value = dict(zip(distinct.tolist(), counts[np.sort(idx)[:distinct.size]].tolist()))
    return np.array([by_value[i] for i in idx.tolist()], np.int64)


def _embedding_bag_backward_meta(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
                                 scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx=-1):
    return fake_empty((num_weights, grad.shape[1]), grad.dtype)


embedding_bag_backward = (_embedding_bag_backward_kernel, _embedding_bag_backward_meta)


def _per_sample_weights_backward_kernel(grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1):
    if mode != 0:
        raise RuntimeError("embedding_bag_backward: per_sample_weights only supported for mode='sum'")
    idx = indices._np.astype(np.int64)
    bag_of = _bag_of_each_index(offset2bag, offsets, idx.size, grad.shape[0])
    result = (grad._np[bag_of] * weight._np[idx]).sum(1, dtype=grad.dtype.np)
    if padding_idx >= 0:
        result[idx == padding_idx] = 0
    return result


def _per_sample_weights_backward_meta(grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1):
    return fake_empty((indices.shape[0],), grad.dtype)


embedding_bag_per_sample_weights_backward = (_per_sample_weights_backward_kernel, _per_sample_weights_backward_meta)


# ---------------------------------------------------------------- grid sampling (4-d input, 2-d grid)
BILINEAR, NEAREST, BICUBIC = 0, 1, 2
ZEROS, BORDER, REFLECTION = 0, 1, 2


def grid_sampler_check(input, grid, interpolation_mode, spatial=2):
    """ATen's checks of grid_sampler_2d (spatial=2) and grid_sampler_3d (spatial=3), in its order."""
    if input.dtype is not grid.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(input.dtype)} but found "
                           f"{scalar_type_name(grid.dtype)}")
    shapes = f"input with sizes {sizes(input.shape)} and grid with sizes {sizes(grid.shape)}"
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got {shapes}")
    if grid.shape[-1] != spatial:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {spatial} in last dimension, but got grid with "
                           f"sizes {sizes(grid.shape)}")
    if input.dim() != spatial + 2 or grid.dim() != spatial + 2:
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
                           f"got {shapes}")
    if spatial == 3 and interpolation_mode == BICUBIC:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    require_float(input, f"grid_sampler_{spatial}d_cpu")


def _reflected(coord, twice_low, twice_high):
    """coord folded into [low, high] by reflection, and the slope of the fold (±1)."""
    if twice_low == twice_high:
        return np.zeros_like(coord), np.zeros_like(coord)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    shifted = coord - low
    slope = np.where(shifted < 0, -1, 1).astype(coord.dtype)
    shifted = np.abs(shifted)
    extra, flips = np.fmod(shifted, span), np.floor(shifted / span)
    even = flips % 2 == 0
    return np.where(even, extra + low, span - extra + low).astype(coord.dtype), np.where(even, slope, -slope)


def _unnormalized(coord, size, align_corners):
    """Pixel positions of grid coordinates in [-1, 1], and d position / d coordinate."""
    dtype = coord.dtype.type
    if align_corners:
        slope = dtype((size - 1) / 2)
        position = ((coord + 1) / 2) * dtype(size - 1)
    else:
        slope = dtype(size / 2)
        position = ((coord + 1) * dtype(size) - 1) / 2
    return position, np.full(coord.shape, slope, coord.dtype)


def _source_index(coord, size, padding_mode, align_corners):
    """Pixel positions of grid coordinates, and d position / d coordinate, as ATen's grid_sampler_compute_source_index
    (with its _set_grad variant): unnormalize, then fold by the padding mode."""
    return _folded(*_unnormalized(coord, size, align_corners), size, padding_mode, align_corners)


def _folded(position, slope, size, padding_mode, align_corners):
    """A position folded into the image by the padding mode (zeros leaves it: reads outside are 0), and its slope."""
    if padding_mode == BORDER:
        position, slope = _clipped(position, size, slope)
    elif padding_mode == REFLECTION:
        twice = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        position, fold_slope = _reflected(position, *twice)
        position, slope = _clipped(position, size, slope * fold_slope)
    return position, slope


def _clipped(position, size, slope):
    inside = (position > 0) & (position < size - 1)
    return np.clip(position, 0, size - 1).astype(position.dtype), np.where(inside, slope, 0).astype(slope.dtype)


def _corners(x, y):
    """The four pixels around each (x, y) and their bilinear weights."""
    x0, y0 = np.floor(x), np.floor(y)
    x1, y1 = x0 + 1, y0 + 1
    return [(x0, y0, (x1 - x) * (y1 - y)), (x1, y0, (x - x0) * (y1 - y)),
            (x0, y1, (x1 - x) * (y - y0)), (x1, y1, (x - x0) * (y - y0))]


def _gather(image, xs, ys):
    """image[n, :, ys, xs] for every grid point, 0 outside: (N, C, Ho, Wo), and where it was inside."""
    n, c, h, w = image.shape
    inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
    xi, yi = np.where(inside, xs, 0).astype(np.int64), np.where(inside, ys, 0).astype(np.int64)
    batch = np.arange(n)[:, None, None]
    values = image[batch, :, yi, xi]  # (N, Ho, Wo, C)
    return np.moveaxis(np.where(inside[..., None], values, 0), -1, 1), inside  # (a +0: not inf * 0, nor -x * 0)


def _positions(input, grid, padding_mode, align_corners):
    g = grid._np
    x, dx = _source_index(g[..., 0], input.shape[3], padding_mode, align_corners)
    y, dy = _source_index(g[..., 1], input.shape[2], padding_mode, align_corners)
    return x, dx, y, dy


CUBIC_A = -0.75  # the cubic convolution kernel's free parameter, as ATen's (and OpenCV's) bicubic


def _cubic_near(x, a):
    """The kernel on |x| <= 1, and its derivative."""
    return ((a + 2) * x - (a + 3)) * x * x + 1, (3 * (a + 2) * x - 2 * (a + 3)) * x


def _cubic_far(x, a):
    """The kernel on 1 < |x| < 2, and its derivative."""
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, (3 * a * x - 10 * a) * x + 8 * a


def _cubic_weights(t):
    """Weights of the taps at -1, 0, 1, 2 around a point t in [0, 1) past tap 0, and their derivatives in t."""
    a = t.dtype.type(CUBIC_A)
    taps = [_cubic_far(t + 1, a), _cubic_near(t, a), _cubic_near(1 - t, a), _cubic_far(2 - t, a)]
    signs = (1, 1, -1, -1)  # the last two taps are functions of (1 - t) and (2 - t)
    return [w for w, _ in taps], [sign * dw for sign, (_, dw) in zip(signs, taps)]


def _bicubic_taps(input, grid, padding_mode, align_corners):
    """The 16 pixels around every grid point: (x, y, weight, d weight / d x, d weight / d y) each, positions folded
    tap by tap as ATen's get_value_bounded folds them; and the unnormalizing slopes (dx, dy)."""
    x, dx = _unnormalized(grid._np[..., 0], input.shape[3], align_corners)
    y, dy = _unnormalized(grid._np[..., 1], input.shape[2], align_corners)
    x0, y0 = np.floor(x), np.floor(y)
    (wx, sx), (wy, sy) = _cubic_weights(x - x0), _cubic_weights(y - y0)
    taps = []
    for j in range(4):
        ys = _folded(y0 + (j - 1), dy, input.shape[2], padding_mode, align_corners)[0]
        for i in range(4):
            xs = _folded(x0 + (i - 1), dx, input.shape[3], padding_mode, align_corners)[0]
            taps.append((xs, ys, wx[i] * wy[j], sx[i] * wy[j], wx[i] * sy[j]))
    return taps, dx, dy


def _grid_sampler_2d_kernel(input, grid, interpolation_mode, padding_mode, align_corners):
    grid_sampler_check(input, grid, interpolation_mode)
    image = input._np
    if interpolation_mode == BICUBIC:
        out = np.zeros((image.shape[0], image.shape[1]) + grid.shape[1:3], input.dtype.np)
        for xs, ys, weight, _, _ in _bicubic_taps(input, grid, padding_mode, align_corners)[0]:
            out += _gather(image, np.rint(xs), np.rint(ys))[0] * weight[:, None]
        return out
    x, _, y, _ = _positions(input, grid, padding_mode, align_corners)
    if interpolation_mode == NEAREST:
        return _gather(image, np.rint(x), np.rint(y))[0].astype(input.dtype.np)
    out = np.zeros((image.shape[0], image.shape[1]) + x.shape[1:], input.dtype.np)
    for xs, ys, weight in _corners(x, y):
        out += _gather(image, xs, ys)[0] * weight[:, None]
    return out


def _grid_sampler_2d_meta(input, grid, interpolation_mode, padding_mode, align_corners):
    grid_sampler_check(input, grid, interpolation_mode)
    return fake_empty((input.shape[0], input.shape[1], grid.shape[1], grid.shape[2]), input.dtype)


grid_sampler_2d = (_grid_sampler_2d_kernel, _grid_sampler_2d_meta)


def _scatter(target, xs, ys, values):
    """target[n, :, ys, xs] += values (N, C, Ho, Wo) for the points inside the image."""
    n, c, h, w = target.shape
    inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
    batch, rows, cols = np.nonzero(inside)
    np.add.at(target, (batch, slice(None), ys[inside].astype(np.int64), xs[inside].astype(np.int64)),
              np.moveaxis(values, 1, -1)[batch, rows, cols])


def _grid_sampler_2d_backward_kernel(grad_output, input, grid, interpolation_mode, padding_mode, align_corners,
                                     output_mask):
    g, image = grad_output._np, input._np
    grad_input = np.zeros(image.shape, image.dtype)
    grad_grid = np.zeros(grid.shape, grid.dtype.np)
    if interpolation_mode == BICUBIC:
        taps, dx, dy = _bicubic_taps(input, grid, padding_mode, align_corners)
        for xs, ys, weight, slope_x, slope_y in taps:
            xs, ys = np.rint(xs), np.rint(ys)
            if output_mask[0]:
                _scatter(grad_input, xs, ys, g * weight[:, None])
            values = (_gather(image, xs, ys)[0] * g).sum(1)
            grad_grid[..., 0] += values * slope_x
            grad_grid[..., 1] += values * slope_y
        grad_grid[..., 0] *= dx
        grad_grid[..., 1] *= dy
        return grad_input, grad_grid
    x, dx, y, dy = _positions(input, grid, padding_mode, align_corners)
    if interpolation_mode == NEAREST:
        if output_mask[0]:
            _scatter(grad_input, np.rint(x), np.rint(y), g)
        return grad_input, grad_grid
    x0, y0 = np.floor(x), np.floor(y)
    x1, y1 = x0 + 1, y0 + 1
    slopes = [(-(y1 - y), -(x1 - x)), ((y1 - y), -(x - x0)), (-(y - y0), (x1 - x)), ((y - y0), (x - x0))]
    for (xs, ys, weight), (slope_x, slope_y) in zip(_corners(x, y), slopes):
        if output_mask[0]:
            _scatter(grad_input, xs, ys, g * weight[:, None])
        values = (_gather(image, xs, ys)[0] * g).sum(1)  # (N, Ho, Wo): grad_output · the pixel, over channels
        grad_grid[..., 0] += values * slope_x
        grad_grid[..., 1] += values * slope_y
    grad_grid[..., 0] *= dx
    grad_grid[..., 1] *= dy
    return grad_input, grad_grid


def _grid_sampler_2d_backward_meta(grad_output, input, grid, interpolation_mode, padding_mode, align_corners,
                                   output_mask):
    return fake_empty(tuple(input.shape), input.dtype), fake_empty(tuple(grid.shape), grid.dtype)


grid_sampler_2d_backward = (_grid_sampler_2d_backward_kernel, _grid_sampler_2d_backward_meta)


# ---------------------------------------------------------------- affine grids
def _base_grid(spatial, align_corners, dtype):
    """(*spatial, len(spatial) + 1): x, y(, z) from -1 to 1 across each spatial dim (x along the last), then 1. Each
    axis is ATen's linspace, without align_corners times (steps - 1), then over steps, each rounded in the dtype: a
    grid point one bit off a pixel centre takes the other side's gradient in grid_sample."""
    axes = []
    for steps in spatial:
        line = more_ops.linspace[0](-1, 1, steps, dtype=dtype) if steps > 1 else np.zeros(steps, dtype.np)
        if not align_corners and steps > 1:
            line = line * dtype.np.type(steps - 1) / dtype.np.type(steps)
        axes.append(line)
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack([*reversed(mesh), np.ones(tuple(spatial), dtype.np)], axis=-1)


def _affine_grid_kernel(theta, size, align_corners):
    spatial = tuple(size[2:])
    base = _base_grid(spatial, align_corners, theta.dtype).reshape(1, -1, len(spatial) + 1)
    grid = np.matmul(base, np.swapaxes(theta._np, 1, 2))
    return grid.reshape((size[0],) + spatial + (len(spatial),)).astype(theta.dtype.np)


def _affine_grid_meta(theta, size, align_corners):
    return fake_empty((size[0],) + tuple(size[2:]) + (len(size) - 2,), theta.dtype)


affine_grid_generator = (_affine_grid_kernel, _affine_grid_meta)


def _affine_grid_backward_kernel(grad, size, align_corners):
    spatial = tuple(size[2:])
    base = _base_grid(spatial, align_corners, grad.dtype).reshape(1, -1, len(spatial) + 1)
    flat = grad._np.reshape(size[0], -1, len(spatial))
    return np.swapaxes(np.matmul(np.swapaxes(base, 1, 2), flat), 1, 2).astype(grad.dtype.np)


def _affine_grid_backward_meta(grad, size, align_corners):
    return fake_empty((size[0], len(size) - 2, len(size) - 1), grad.dtype)


affine_grid_generator_backward = (_affine_grid_backward_kernel, _affine_grid_backward_meta)


# ---------------------------------------------------------------- CTC loss
def _ctc_check(log_probs, targets, input_lengths, target_lengths, blank):
    require_float(log_probs, "ctc_loss_cpu")
    if log_probs.dim() != 3:
        raise RuntimeError(f"log_probs must be 3-D (batch_size, input length, num labels), but got {log_probs.dim()}")
    batch, classes = log_probs.shape[1], log_probs.shape[2]
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    for lengths, name in ((input_lengths, "input_lengths"), (target_lengths, "target_lengths")):
        if len(lengths) != batch:
            raise RuntimeError(f"{name} must be of size batch_size")
    if targets.dim() == 2:
        for length in target_lengths:
            if length > targets.shape[1]:
                raise RuntimeError(f"Expected tensor to have size at least {length} at dimension 1, but got size "
                                   f"{targets.shape[1]} for argument #2 'targets' (while checking arguments for "
                                   "ctc_loss_allocate_outputs)")
    for length in input_lengths:
        if length > log_probs.shape[0]:
            raise RuntimeError(f"Expected input_lengths to have value at most {log_probs.shape[0]}, but got value "
                               f"{length} (while checking arguments for ctc_loss_allocate_outputs)")


def _target_rows(targets, target_lengths):
    """Each batch element's labels: the rows of a padded (N, S) targets, or slices of a concatenated 1-d one."""
    labels = targets._np.astype(np.int64)
    if targets.dim() == 1:
        ends = np.cumsum(target_lengths)
        return [labels[end - length:end] for end, length in zip(ends, target_lengths)]
    return [labels[b, :length] for b, length in enumerate(target_lengths)]


def _extended(labels, blank):
    """The label sequence with blanks around every label: l' of length 2 * len + 1."""
    out = np.full(2 * len(labels) + 1, blank, np.int64)
    out[1::2] = labels
    return out


def _log_alpha(lp, ext, steps):
    """The forward variables: log_alpha[t, s], the log probability of the prefix ext[:s+1] after t+1 frames."""
    alpha = np.full((lp.shape[0], len(ext)), -np.inf, lp.dtype)
    if steps == 0:
        return alpha
    alpha[0, 0] = lp[0, ext[0]]
    if len(ext) > 1:
        alpha[0, 1] = lp[0, ext[1]]
    skip = np.zeros(len(ext), bool)
    skip[2:] = ext[2:] != ext[:-2]  # a label may follow the previous label directly unless the two are equal
    for t in range(1, steps):
        previous = alpha[t - 1]
        terms = [previous, np.append(-np.inf, previous[:-1]), np.where(skip, np.append([-np.inf] * 2, previous[:-2]),
                                                                       -np.inf)]
        alpha[t] = np.logaddexp.reduce(np.stack(terms), axis=0) + lp[t, ext]
    return alpha


def _log_beta(lp, ext, steps):
    beta = np.full((lp.shape[0], len(ext)), -np.inf, lp.dtype)
    if steps == 0:
        return beta
    last = steps - 1
    beta[last, -1] = lp[last, ext[-1]]
    if len(ext) > 1:
        beta[last, -2] = lp[last, ext[-2]]
    skip = np.zeros(len(ext), bool)
    skip[:-2] = ext[:-2] != ext[2:]
    for t in range(last - 1, -1, -1):
        following = beta[t + 1]
        terms = [following, np.append(following[1:], -np.inf), np.where(skip, np.append(following[2:], [-np.inf] * 2),
                                                                        -np.inf)]
        beta[t] = np.logaddexp.reduce(np.stack(terms), axis=0) + lp[t, ext]
    return beta


def _ctc_loss_kernel(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    _ctc_check(log_probs, targets, input_lengths, target_lengths, blank)
    steps, batch, _ = log_probs.shape
    longest = max(target_lengths, default=0)
    losses = np.zeros(batch, log_probs.dtype.np)
    log_alpha = np.full((batch, steps, 2 * longest + 1), -np.inf, log_probs.dtype.np)
    for b, labels in enumerate(_target_rows(targets, target_lengths)):
        ext = _extended(labels, blank)
        alpha = _log_alpha(log_probs._np[:, b], ext, input_lengths[b])
        log_alpha[b, :, :len(ext)] = alpha
        ends = alpha[input_lengths[b] - 1, -2:] if input_lengths[b] > 0 else np.array([-np.inf])
        losses[b] = -np.logaddexp.reduce(ends)
    return losses, log_alpha


def _ctc_loss_meta(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    _ctc_check(log_probs, targets, input_lengths, target_lengths, blank)
    steps, batch, _ = log_probs.shape
    longest = max(target_lengths, default=0)
    return fake_empty((batch,), log_probs.dtype), fake_empty((batch, steps, 2 * longest + 1), log_probs.dtype)


ctc_loss = (_ctc_loss_kernel, _ctc_loss_meta)


def _ctc_loss_backward_kernel(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood,
                              log_alpha, blank, zero_infinity=False):
    lp_all = log_probs._np
    result = np.zeros(lp_all.shape, lp_all.dtype)
    for b, labels in enumerate(_target_rows(targets, target_lengths)):
        steps, nll = input_lengths[b], neg_log_likelihood._np[b]
        if zero_infinity and np.isinf(nll):
            continue
        lp, ext = lp_all[:, b], _extended(labels, blank)
        alpha = log_alpha._np[b, :, :len(ext)]
        beta = _log_beta(lp, ext, steps)
        with np.errstate(divide="ignore", invalid="ignore"):
            occupancy = np.full(lp.shape, -np.inf, lp.dtype)  # log Σ alpha·beta over the positions of each class
            for s, label in enumerate(ext):
                occupancy[:steps, label] = np.logaddexp(occupancy[:steps, label], alpha[:steps, s] + beta[:steps, s])
            frames = np.exp(lp[:steps]) - np.exp(occupancy[:steps] + nll - lp[:steps])
        result[:steps, b] = frames * grad._np[b]
    return result


def _ctc_loss_backward_meta(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha,
                            blank, zero_infinity=False):
    return fake_empty(tuple(log_probs.shape), log_probs.dtype)


ctc_loss_backward = (_ctc_loss_backward_kernel, _ctc_loss_backward_meta)
