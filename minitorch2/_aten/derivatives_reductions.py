"""Derivative formulas of the reductions: sum, mean, amax/amin, max, var/std.

Runtime layer, read by the autograd layer through the op table (via derivatives.py, whose docstring gives the rules
for the order of the op calls inside a formula). A reduction's gradient is the output gradient with the reduced dims
restored (unsqueezed back unless `keepdim`) and expanded to the input's shape, then weighted: divided by the count for
mean, shared among the tied elements for amax and a full max, scattered to the chosen index for max over a dim.
"""
import math

from .._ops import ops
from .derivatives_util import _dims, _pad, _restore_reduced_dims

aten = ops.aten


# ---------------------------------------------------------------- reductions
def sum_default(grad, self_shape):
    return aten.expand.default(grad, list(self_shape))


def sum_dim(grad, self_shape, dim, keepdim=False):
    grad = _restore_reduced_dims(grad, _dims(dim, len(self_shape)), keepdim, len(self_shape))
    return aten.expand.default(grad, list(self_shape))


def mean_default(grad, self_shape):
    return aten.div.Scalar(sum_default(grad, self_shape), math.prod(self_shape))


def mean_dim(grad, self_shape, dim, keepdim=False):
    n = math.prod(self_shape[d] if self_shape else 1 for d in _dims(dim, len(self_shape)))
    return aten.div.Scalar(sum_dim(grad, self_shape, dim, keepdim), n)


def amax(grad, self, result, dim=(), keepdim=False):
    """Also amin's. scale_grad_by_count(restore_reduced_dims(grad), restore_reduced_dims(result) == self, dim): the
    mask first."""
    dims = _dims(dim, self.dim())
    # a 0-d self reduced over its one wrappable dim restores to [1]; the engine sums the [1] gradient back
    shape = [1 if i in dims else s for i, s in enumerate(self.shape)] if self.dim() else [1] * len(dims)
    restore = not keepdim and shape
    mask = aten.eq.Tensor(aten.view.default(result, shape) if restore else result, self)
    if restore:
        grad = aten.view.default(grad, shape)
    count = aten.sum.dim_IntList(mask, list(dim) if isinstance(dim, (list, tuple)) and dim else dims, True)
    return aten.mul.Tensor(aten.div.Tensor(grad, count), mask)


def max_default(grad, self, result):
    """ATen's evenly_distribute_backward as traced: the gradient is shared by every element equal to the
    result (NaN counting as equal to a NaN result)."""
    both_nan = aten.logical_and.default(aten.isnan.default(self), aten.isnan.default(result))
    mask = aten.logical_or.default(aten.eq.Tensor(self, result), both_nan)
    return aten.mul.Tensor(mask, aten.div.Tensor(grad, aten.sum.default(mask)))


def max_dim(grads, self_shape, dim, result1, keepdim=False):
    grad = grads[0]
    return None if grad is None else _value_selecting_backward(grad, dim, result1, self_shape, keepdim)


def _value_selecting_backward(grad, dim, indices, shape, keepdim):
    ndim = len(shape)
    if not keepdim and ndim:
        grad = aten.unsqueeze.default(grad, dim)
        indices = aten.unsqueeze.default(indices, dim)
    zeros = aten.new_zeros.default(grad, list(shape))
    return aten.scatter.src(zeros, dim, indices, grad)


def var_correction(grad, self, dim=None, correction=None, keepdim=False):
    return _var_backward(grad, self, dim, correction, keepdim, replayed_view=False)


def _var_backward(grad, self, dim, correction, keepdim, replayed_view):
    """ATen's var_backward: (2 / (n - correction)) * grad * (self - self.mean(dim, true))."""
    c = 1 if correction is None else correction
    if self.dim() == 0 or dim is None:
        centered = aten.sub.Tensor(self, aten.mean.default(self))
        return aten.mul.Tensor(aten.mul.Scalar(grad, _var_scale(self.numel(), c)), centered)
    dims = _dims(dim, self.dim())
    n = math.prod(self.shape[d] for d in dims)
    restore = not keepdim and self.dim() > 1  # a 1-d input's 0-d grad broadcasts as it is
    if restore and not replayed_view:
        grad = _restore_reduced_dims(grad, dims, keepdim, self.dim())
    centered = aten.sub.Tensor(self, aten.mean.dim(self, list(dim) if isinstance(dim, (list, tuple)) else [dim], True))
    if restore and replayed_view:
        grad = _restore_reduced_dims(grad, dims, keepdim, self.dim())
    return aten.mul.Tensor(aten.mul.Scalar(grad, _var_scale(n, c)), centered)


def _var_scale(n, correction):
    """2 / (n - correction) in C++ double arithmetic: infinite when n == correction."""
    return 2.0 / (n - correction) if n != correction else math.inf


def std_correction(grad, self, result, dim=None, correction=None, keepdim=False):
    """ATen's std_backward: var_backward of (grad / (result * 2)).masked_fill_(result == 0, 0)."""
    grad = aten.div.Tensor(grad, aten.mul.Scalar(result, 2))
    grad = aten.masked_fill.Scalar(grad, aten.eq.Scalar(result, 0), 0)  # a zero std has a zero (sub)gradient
    # ATen fills in place (masked_fill_); PyTorch's functionalization then replays var_backward's unsqueeze of
    # the mutated tensor where it is first read, after the mean: the traced graph has it there
    return _var_backward(grad, self, dim, correction, keepdim, replayed_view=True)


def var_mean(grads, self, dim=None, correction=None, keepdim=False):
    """The sum of var's and mean's backward, for whichever of the two outputs has a gradient."""
    var_grad, mean_grad = _pad(grads, 2)
    result = None
    if var_grad is not None:
        result = var_correction(var_grad, self, dim, correction, keepdim)
    if mean_grad is not None:
        from_mean = mean_dim(mean_grad, tuple(self.shape), dim if dim is not None else [], keepdim)
        result = from_mean if result is None else aten.add.Tensor(result, from_mean)
    return result





