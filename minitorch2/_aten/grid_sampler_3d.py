"""grid_sampler_3d and its backward: F.grid_sample of a 5-d (volumetric) input at a 5-d grid of (x, y, z) points.

Runtime layer, coverage surface: the grid_sampler_3d rows of the op table (table_nn_more.py), beside the 2-d
sampler in nn_more_ops.py, whose coordinate rules it shares: each coordinate in [-1, 1] is unnormalized to a pixel
position along its dim (x along the width, y the height, z the depth) and folded by the padding mode. Trilinear
sampling blends the 8 voxels around a point, nearest reads the one at the rounded position (half to even);
reads outside the volume are +0. The backward scatters the gradient onto the same voxels and, for the grid,
sums (d weight / d position) * voxel * gradient over the corners and channels, times d position / d coordinate.
"""
import itertools

import numpy as np

from .meta_util import fake_empty
from .nn_more_ops import NEAREST, _source_index, grid_sampler_check


def _positions(input, grid, padding_mode, align_corners):
    """(position, d position / d coordinate) along the width, height and depth, each (N, Do, Ho, Wo)."""
    g = grid._np
    return [_source_index(g[..., axis], input.shape[4 - axis], padding_mode, align_corners) for axis in range(3)]


def _inside(volume, xyz):
    d, h, w = volume.shape[2:]
    x, y, z = xyz
    return (x >= 0) & (x <= w - 1) & (y >= 0) & (y <= h - 1) & (z >= 0) & (z <= d - 1)


def _gather(volume, xyz):
    """volume[n, :, z, y, x] at every grid point, +0 outside: (N, C, Do, Ho, Wo)."""
    inside = _inside(volume, xyz)
    x, y, z = (np.where(inside, p, 0).astype(np.int64) for p in xyz)
    batch = np.arange(volume.shape[0])[:, None, None, None]
    values = volume[batch, :, z, y, x]  # (N, Do, Ho, Wo, C)
    return np.moveaxis(np.where(inside[..., None], values, 0), -1, 1)


def _scatter(target, xyz, values):
    """target[n, :, z, y, x] += values (N, C, Do, Ho, Wo) at the points inside the volume."""
    inside = _inside(target, xyz)
    batch, *points = np.nonzero(inside)
    x, y, z = (p[inside].astype(np.int64) for p in xyz)
    np.add.at(target, (batch, slice(None), z, y, x), np.moveaxis(values, 1, -1)[(batch, *points)])


def _corners(xyz):
    """The 8 voxels around each point: (their positions, weight, d weight / d x, d y, d z)."""
    low = [np.floor(p) for p in xyz]
    near = [[l + 1 - p, p - l] for p, l in zip(xyz, low)]  # per axis: the weight of the low and the high voxel
    for bits in itertools.product((0, 1), repeat=3):
        weights = [near[axis][bit] for axis, bit in enumerate(bits)]
        slopes = []
        for axis, bit in enumerate(bits):
            others = [w for a, w in enumerate(weights) if a != axis]
            slopes.append((1 if bit else -1) * others[0] * others[1])
        yield [l + bit for l, bit in zip(low, bits)], weights[0] * weights[1] * weights[2], slopes


def _kernel(input, grid, interpolation_mode, padding_mode, align_corners):
    grid_sampler_check(input, grid, interpolation_mode, spatial=3)
    volume = input._np
    xyz = [p for p, _ in _positions(input, grid, padding_mode, align_corners)]
    if interpolation_mode == NEAREST:
        return _gather(volume, [np.rint(p) for p in xyz]).astype(input.dtype.np)
    out = np.zeros(volume.shape[:2] + grid.shape[1:4], input.dtype.np)
    for corner, weight, _ in _corners(xyz):
        out += _gather(volume, corner) * weight[:, None]
    return out


def _meta(input, grid, interpolation_mode, padding_mode, align_corners):
    grid_sampler_check(input, grid, interpolation_mode, spatial=3)
    return fake_empty(tuple(input.shape[:2]) + tuple(grid.shape[1:4]), input.dtype)


def _backward_kernel(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask):
    g, volume = grad_output._np, input._np
    grad_input = np.zeros(volume.shape, volume.dtype)
    grad_grid = np.zeros(grid.shape, grid.dtype.np)
    positions = _positions(input, grid, padding_mode, align_corners)
    xyz = [p for p, _ in positions]
    if interpolation_mode == NEAREST:
        if output_mask[0]:
            _scatter(grad_input, [np.rint(p) for p in xyz], g)
        return grad_input, grad_grid
    for corner, weight, slopes in _corners(xyz):
        if output_mask[0]:
            _scatter(grad_input, corner, g * weight[:, None])
        values = (_gather(volume, corner) * g).sum(1)  # grad_output · the voxel, over channels
        for axis in range(3):
            grad_grid[..., axis] += values * slopes[axis]
    for axis, (_, slope) in enumerate(positions):
        grad_grid[..., axis] *= slope
    return grad_input, grad_grid


def _backward_meta(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask):
    return fake_empty(tuple(input.shape), input.dtype), fake_empty(tuple(grid.shape), grid.dtype)


grid_sampler_3d = (_kernel, _meta)
grid_sampler_3d_backward = (_backward_kernel, _backward_meta)
