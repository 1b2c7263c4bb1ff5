"""im2col and col2im, F.unfold's and F.fold's ops, kept whole as ATen's: kernels, metas, derivatives (each is the
other's) and decompositions.

Runtime layer, coverage surface: rows of the op table (table_nn_apart.py) that no stage of the pipeline needs; they
make a traced F.unfold / F.fold record one op, as torch's does. im2col takes a (N, C, H, W) input (or (C, H, W))
to (N, C*kh*kw, L): for each kernel offset (i, j), every L = bh*bw sliding block's element at that offset of the
zero-padded input. col2im is its adjoint: each column added back at its place, overlapping blocks summed, the padding
cropped. The decompositions spell the same thing with views (constant_pad_nd, unfold, slices, permute), which the
backend lowers.
"""
import numpy as np

from .._ops import ops
from .meta_util import fake_empty
from .pointwise_factories import _not_implemented

aten = ops.aten


def _blocks(size, kernel, dilation, padding, stride):
    """How many sliding blocks fit along each spatial dim."""
    return [(s + 2 * p - (d * (k - 1) + 1)) // st + 1 for s, k, d, p, st in zip(size, kernel, dilation, padding, stride)]


def _offsets(kernel, dilation, stride, blocks):
    """For each kernel offset (i, j) in ATen's order, the strided slices of the padded image it reads."""
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            rows = slice(i * dilation[0], i * dilation[0] + stride[0] * (blocks[0] - 1) + 1, stride[0])
            columns = slice(j * dilation[1], j * dilation[1] + stride[1] * (blocks[1] - 1) + 1, stride[1])
            yield i * kernel[1] + j, rows, columns


def _refuse_integers(self, kernel):
    """ATen's im2col and col2im dispatch floating, complex and bool tensors."""
    if self.dtype.category == 1:
        raise _not_implemented(kernel, self.dtype)


# ---------------------------------------------------------------- im2col
def _im2col_kernel(self, kernel_size, dilation, padding, stride):
    _refuse_integers(self, "im2col_out_cpu")
    x = self._np[None] if self.dim() == 3 else self._np
    n, c, h, w = x.shape
    blocks = _blocks((h, w), kernel_size, dilation, padding, stride)
    padded = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    columns = np.empty((n, c, kernel_size[0] * kernel_size[1], blocks[0], blocks[1]), x.dtype)
    for k, rows, cols in _offsets(kernel_size, dilation, stride, blocks):
        columns[:, :, k] = padded[:, :, rows, cols]
    out = columns.reshape(n, -1, blocks[0] * blocks[1])
    return np.ascontiguousarray(out[0] if self.dim() == 3 else out)


def _im2col_meta(self, kernel_size, dilation, padding, stride):
    _refuse_integers(self, "im2col_out_cpu")
    blocks = _blocks(self.shape[-2:], kernel_size, dilation, padding, stride)
    shape = [self.shape[-3] * kernel_size[0] * kernel_size[1], blocks[0] * blocks[1]]
    return fake_empty(self.shape[:-3] + tuple(shape), self.dtype)


im2col = (_im2col_kernel, _im2col_meta)


def im2col_formula(grad, self, kernel_size, dilation, padding, stride):
    return aten.col2im.default(grad, list(self.shape[-2:]), kernel_size, dilation, padding, stride)


def im2col_decomposition(self, kernel_size, dilation, padding, stride):
    """The padded input's windows as views: one unfold per spatial dim over the dilated extent, every dilation-th
    element of each, the kernel offsets moved next to the channels."""
    x = aten.unsqueeze.default(self, 0) if self.dim() == 3 else self
    extent = [d * (k - 1) + 1 for k, d in zip(kernel_size, dilation)]
    blocks = _blocks(x.shape[2:], kernel_size, dilation, padding, stride)
    x = aten.constant_pad_nd.default(x, [padding[1], padding[1], padding[0], padding[0]], 0.0)
    x = aten.unfold.default(aten.unfold.default(x, 2, extent[0], stride[0]), 3, extent[1], stride[1])
    x = aten.slice.Tensor(aten.slice.Tensor(x, 4, 0, None, dilation[0]), 5, 0, None, dilation[1])
    n, c = x.shape[:2]
    x = aten.permute.default(x, [0, 1, 4, 5, 2, 3])
    x = x.reshape([n, c * kernel_size[0] * kernel_size[1], blocks[0] * blocks[1]])
    return aten.squeeze.dim(x, 0) if self.dim() == 3 else x


# ---------------------------------------------------------------- col2im
def _col2im_kernel(self, output_size, kernel_size, dilation, padding, stride):
    _refuse_integers(self, "col2im_out_cpu")
    columns = self._np[None] if self.dim() == 2 else self._np
    n = columns.shape[0]
    c = columns.shape[1] // (kernel_size[0] * kernel_size[1])
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    columns = columns.reshape(n, c, kernel_size[0] * kernel_size[1], blocks[0], blocks[1])
    padded = np.zeros((n, c, output_size[0] + 2 * padding[0], output_size[1] + 2 * padding[1]), columns.dtype)
    for k, rows, cols in _offsets(kernel_size, dilation, stride, blocks):
        padded[:, :, rows, cols] += columns[:, :, k]
    out = padded[:, :, padding[0]:padding[0] + output_size[0], padding[1]:padding[1] + output_size[1]]
    return np.ascontiguousarray(out[0] if self.dim() == 2 else out)


def _col2im_meta(self, output_size, kernel_size, dilation, padding, stride):
    _refuse_integers(self, "col2im_out_cpu")
    channels = self.shape[-2] // (kernel_size[0] * kernel_size[1])
    return fake_empty(self.shape[:-2] + (channels, *output_size), self.dtype)


col2im = (_col2im_kernel, _col2im_meta)


def col2im_formula(grad, self, output_size, kernel_size, dilation, padding, stride):
    return aten.im2col.default(grad, kernel_size, dilation, padding, stride)


def col2im_decomposition(self, output_size, kernel_size, dilation, padding, stride):
    """im2col's views run backwards: the columns spread over a zeroed (blocks, extent) buffer at every dilation-th
    place, unfold_backward summing the overlapping windows, then the padding cropped."""
    x = aten.unsqueeze.default(self, 0) if self.dim() == 2 else self
    kh, kw = kernel_size
    extent = [d * (k - 1) + 1 for k, d in zip(kernel_size, dilation)]
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    n, c = x.shape[0], x.shape[1] // (kh * kw)
    cols = aten.permute.default(x.reshape([n, c, kh, kw, blocks[0], blocks[1]]), [0, 1, 4, 5, 2, 3])
    padded = [o + 2 * p for o, p in zip(output_size, padding)]
    undilated = aten.zeros.default([n, c, blocks[0], blocks[1], extent[0], extent[1]], dtype=x.dtype)
    spread = aten.slice_scatter.default(undilated, aten.slice_scatter.default(
        aten.slice.Tensor(undilated, 4, 0, None, dilation[0]), cols, 5, 0, None, dilation[1]), 4, 0, None, dilation[0])
    rows = aten.unfold_backward.default(spread, [n, c, blocks[0], padded[1], extent[0]], 3, extent[1], stride[1])
    out = aten.unfold_backward.default(rows, [n, c, *padded], 2, extent[0], stride[0])
    out = aten.slice.Tensor(aten.slice.Tensor(out, 2, padding[0], padding[0] + output_size[0]), 3, padding[1],
                            padding[1] + output_size[1])
    return aten.squeeze.dim(out, 0) if self.dim() == 2 else out
