"""nll_loss2d_forward and nll_loss2d_backward: the negative log likelihood over a batch of spatial maps, input
(N, C, H, W) and target (N, H, W), ATen's own ops beside nll_loss_forward's rows.

Runtime layer, rows in table_nn_more.py. F.nll_loss (and so F.cross_entropy) of an input with more than two dims
calls them as ATen's nll_loss_nd does (nn/_losses.py): a 4-d input directly, a 3-d or 5-d-and-more one viewed as
(N, C, 1, -1), so a language model's loss over logits rearranged to (batch, classes, positions) records
nll_loss2d_forward in traced graphs, as torch's. The kernels move the classes last and reuse nll_loss's; the
derivative formulas and the inductor's decompositions are nll_loss's with the classes at dim 1.
"""
import functools

import numpy as np

from .._ops import ops
from . import decompositions_nn as dec
from .derivatives_nn import first, needs_grad
from .meta_util import fake_empty
from .nn_ops import _nll_backward_kernel, _nll_dtypes, _nll_forward_kernel, sizes

aten = ops.aten
_NONE = 0


def _check(self, target, weight):
    """ATen's nll_loss2d shape checks, in its order and words."""
    if self.dim() != 4:
        raise RuntimeError(f"only batches of spatial inputs supported (4D tensors), but got input of dimension: "
                           f"{self.dim()}")
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    n, _, h, w = self.shape
    if tuple(target.shape) != (n, h, w):
        raise RuntimeError(f"size mismatch (got input: {sizes(self.shape)} , target: {sizes(target.shape)}")
    if weight is not None and weight.numel() != self.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")


class _Rows:
    """An (N, C, H, W) array seen as nll_loss's (N*H*W, C) rows, or a target or gradient flattened to match: the
    kernels read `_np`, `dtype`, `shape`, `dim()` and `numel()`."""

    def __init__(self, array, dtype):
        self._np, self.dtype = array, dtype
        self.shape = array.shape

    def dim(self):
        return self._np.ndim

    def numel(self):
        return self._np.size


def _rows(t):
    return _Rows(np.moveaxis(t._np, 1, -1).reshape(-1, t.shape[1]), t.dtype)


def _forward_kernel(self, target, weight, reduction, ignore_index):
    _check(self, target, weight)
    _nll_dtypes(self, target, weight, "nll_loss2d_forward_out_frame")
    losses, total_weight = _nll_forward_kernel(_rows(self), _Rows(target._np.reshape(-1), target.dtype), weight,
                                               reduction, ignore_index)
    return (np.reshape(losses, target.shape) if reduction == _NONE else losses), total_weight


def _forward_meta(self, target, weight, reduction, ignore_index):
    _check(self, target, weight)
    _nll_dtypes(self, target, weight, "nll_loss2d_forward_out_frame")
    return fake_empty(tuple(target.shape) if reduction == _NONE else (), self.dtype), fake_empty((), self.dtype)


def _backward_check(grad_output, self, target, weight, reduction, total_weight):
    _check(self, target, weight)
    if total_weight.numel() != 1:
        raise RuntimeError(f"expected total_weight to be a single element tensor, got: {sizes(total_weight.shape)} "
                           f"({total_weight.numel()} elements)")
    if reduction == _NONE and grad_output.dim() != 3:
        raise RuntimeError(f"grad_output must have same dimension as target (3) but got dimension: "
                           f"{sizes(grad_output.shape)}")
    if reduction != _NONE and grad_output.numel() != 1:
        raise RuntimeError(f"Expected a single element grad_output tensor, but got: {sizes(grad_output.shape)}")


def _backward_kernel(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    _backward_check(grad_output, self, target, weight, reduction, total_weight)
    _nll_dtypes(self, target, weight, "nll_loss2d_backward_out_frame")
    rows = _rows(self)
    flat_grad = _Rows(grad_output._np.reshape(-1) if reduction == _NONE else grad_output._np, grad_output.dtype)
    grad = _nll_backward_kernel(flat_grad, rows, _Rows(target._np.reshape(-1), target.dtype), weight, reduction,
                                ignore_index, total_weight)
    n, c, h, w = self.shape
    return np.ascontiguousarray(np.moveaxis(grad.reshape(n, h, w, c), -1, 1))


def _backward_meta(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    _backward_check(grad_output, self, target, weight, reduction, total_weight)
    return fake_empty(tuple(self.shape), self.dtype)


nll_loss2d_forward = (_forward_kernel, _forward_meta)
nll_loss2d_backward = (_backward_kernel, _backward_meta)
forward_decomposition = functools.partial(dec.nll_loss_forward, check=_check)
backward_decomposition = functools.partial(dec.nll_loss_backward, check=_check)


def forward_formula(grads, self, target, weight, reduction, ignore_index, result1):
    grad = first(grads)
    if grad is None:
        return None, None, None
    return aten.nll_loss2d_backward.default(grad, self, target, weight, reduction, ignore_index, result1), None, None


def backward_formula(grad, grad_output, target, weight, reduction, ignore_index):
    grad_output_grad = None
    if needs_grad(grad_output):
        grad_output_grad = aten.nll_loss2d_forward.default(grad, target, weight, reduction, ignore_index)[0]
    return grad_output_grad, aten.zeros_like.default(grad), None, None, None
