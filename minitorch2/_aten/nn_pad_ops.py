"""reflection_pad{1,2,3}d and replication_pad{1,2,3}d with their backward ops: F.pad's 'reflect' and 'replicate'.

Runtime layer, coverage surface: rows of the op table (table_nn_apart.py) that F.pad (nn/_functional_more.py)
calls after its argument checks, so traced graphs keep each pad whole as torch's do (aten.reflection_pad2d and
reflection_pad2d_backward), and the inductor gets torch's decomposition: one `_unsafe_index` per padded dim.

Each padded dim of size n, padded by (left, right), reads output position j in [-left, n + right) from

    reflect:    (n - 1) - |(n - 1) - |j||         (the border pixel is not repeated)
    replicate:  clamp(j, 0, n - 1)

The backward op scatter-adds the gradient onto those source positions.
"""
import numpy as np

from .. import _dtype
from .._ops import ops
from .._tensor import channels_last
from .meta_util import fake_empty
from .nn_ops import compute_dtype, is_channels_last
from .nn_upsample import _grid, _laid_out, _layout

aten = ops.aten


def _sources(kind, size, left, right):
    j = np.arange(-left, size + right)
    if kind == "replication":
        return np.clip(j, 0, size - 1)
    return (size - 1) - np.abs((size - 1) - np.abs(j))


def _per_dim(kind, shape, padding):
    """Source indices of the padded (last len(padding) // 2) dims, outermost first."""
    nd = len(padding) // 2
    return [_sources(kind, shape[-nd + i], padding[2 * (nd - 1 - i)], padding[2 * (nd - 1 - i) + 1])
            for i in range(nd)]


def _out_shape(shape, padding):
    nd = len(padding) // 2
    return tuple(shape[:-nd]) + tuple(shape[-nd + i] + padding[2 * (nd - 1 - i)] + padding[2 * (nd - 1 - i) + 1]
                                      for i in range(nd))


def _index(array, positions):
    """array indexed by an open mesh over its last len(positions) dims, the leading ones taken whole."""
    leading = (slice(None),) * (array.ndim - len(positions))
    return leading + _grid(positions)[2:]


def _pad(kind, nd):
    def kernel(self, padding):
        if self.dtype is _dtype.bool_:  # (ATen's pad kernels compute every dtype but bool)
            raise NotImplementedError(f"\"{kind}_pad{nd}d\" not implemented for 'Bool'")
        return _laid_out(self._np[_index(self._np, _per_dim(kind, self.shape, padding))], self, self.dtype)

    def meta(self, padding):
        shape = _out_shape(self.shape, padding)
        return fake_empty(shape, self.dtype, _layout(self, shape))

    def backward_kernel(grad_output, self, padding):
        grad = np.zeros(tuple(self.shape), compute_dtype(grad_output.dtype))
        np.add.at(grad, _index(grad, _per_dim(kind, self.shape, padding)), grad_output._np.astype(grad.dtype))
        return _laid_out(grad, self, grad_output.dtype)

    def backward_meta(grad_output, self, padding):
        return fake_empty(tuple(self.shape), grad_output.dtype, _layout(self, tuple(self.shape)))

    def decomposition(self, padding):
        """torch._decomp's _reflection_or_replication_pad: per padded dim, its source indices from an arange, then
        one _unsafe_index; the input's channels-last layout kept."""
        result = self
        for i in range(nd):
            size, left, right = self.shape[-nd + i], padding[2 * (nd - 1 - i)], padding[2 * (nd - 1 - i) + 1]
            j = aten.arange.start(-left, size + right, device=self.device)
            if kind == "replication":
                source = aten.clamp.default(j, 0, size - 1)
            else:
                source = aten.rsub.Scalar(aten.abs.default(aten.rsub.Scalar(aten.abs.default(j), size - 1)), size - 1)
            index = [None] * result.dim()
            index[self.dim() - nd + i] = source
            result = aten._unsafe_index.Tensor(result, index)
        if is_channels_last(self) and not is_channels_last(result):
            return aten.clone.default(result, memory_format=channels_last)
        return result

    return (kernel, meta), (backward_kernel, backward_meta), decomposition


def formulas(kind, nd):
    """The derivative of the pad (its backward op) and of the backward op (the pad again: both are linear)."""
    name = f"{kind}_pad{nd}d"  # (the ops are looked up at call time: the table is being built when this runs)

    def derivative(grad, self, padding):
        return getattr(aten, f"{name}_backward").default(grad, self, padding)

    def backward_derivative(grad, padding):
        return getattr(aten, name).default(grad, padding), None

    return derivative, backward_derivative


PADS = {(kind, nd): _pad(kind, nd) for kind in ("reflection", "replication") for nd in (1, 2, 3)}
