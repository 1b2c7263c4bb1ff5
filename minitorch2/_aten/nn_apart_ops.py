"""The kernels of mse_loss (F.mse_loss, nn.MSELoss) and of binary_cross_entropy_with_logits, the logit-space binary
cross entropy F.binary_cross_entropy_with_logits and nn.BCEWithLogitsLoss reach.

Runtime layer, coverage surface: rows of table_nn_apart.py, beside the probability-space binary cross entropy of
nn_bce.py. Both reduce their pointwise loss (summed in float64) as ATen's do. The logits loss is
(1 - target) * x - log_weight * log(sigmoid(x)), log_weight = (pos_weight - 1) * target + 1, each step rounded to
its tensor's dtype as ATen's composite does, with log(sigmoid(x)) as min(x, 0) - log1p(exp(-|x|)).
"""
import math

import numpy as np

from .. import _dtype
from .._dtype import result_type
from .memory import _dtype_title as scalar_type_name
from .meta_util import broadcast_shapes, fake_empty, fake_pointwise, pointwise_strides
from .nn_ops import _MEAN, _NONE, pointwise_result, require_float, sizes


# ---------------------------------------------------------------- mse_loss
def _reduce(loss, reduction, dtype, tensors):
    if reduction == _NONE:
        return pointwise_result(loss, dtype, tensors)
    total = np.sum(loss, dtype=np.float64)
    return np.asarray(total / loss.size if reduction == _MEAN else total, dtype.np)


def _reduced_meta(shape, tensors, reduction, dtype):
    if reduction == _NONE:
        return fake_empty(shape, dtype, pointwise_strides(shape, tensors))
    return fake_empty((), dtype)


def _mse_check(self, target):
    dtype = result_type(self, target)
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{scalar_type_name(dtype)}\'')
    return dtype, broadcast_shapes(tuple(self.shape), tuple(target.shape))


def _mse_kernel(self, target, reduction=_MEAN):
    dtype, _ = _mse_check(self, target)
    diff = self._np.astype(dtype.np) - target._np.astype(dtype.np)
    return _reduce(diff * diff, reduction, dtype, [self, target])


def _mse_meta(self, target, reduction=_MEAN):
    dtype, shape = _mse_check(self, target)
    return _reduced_meta(shape, [self, target], reduction, dtype)


mse_loss = (_mse_kernel, _mse_meta)


def _mse_backward_kernel(grad_output, self, target, reduction):
    dtype, _ = _mse_check(self, target)
    count = self.numel() if reduction == _MEAN else 1
    norm = dtype.np.type(2.0 / count if count else math.inf)  # (ATen's 2. / 0 is inf: an empty input's norm)
    diff = self._np.astype(dtype.np) - target._np.astype(dtype.np)
    return pointwise_result(norm * diff * grad_output._np.astype(dtype.np), dtype, [self, target, grad_output])


def _mse_backward_meta(grad_output, self, target, reduction):
    return fake_pointwise(_mse_check(self, target)[0], [self, target, grad_output])


mse_loss_backward = (_mse_backward_kernel, _mse_backward_meta)


# ---------------------------------------------------------------- binary_cross_entropy_with_logits


def _bce_check(self, target, weight, pos_weight):
    """-> (dtype, shape): target's dtype, as ATen computes the loss in place into (1 - target)."""
    require_float(self, "log_sigmoid_cpu")
    if target.dtype is _dtype.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")  # (1 - target: ATen's words)
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"result type {scalar_type_name(result_type(self, target))} can't be cast to the desired "
                           f"output type {scalar_type_name(target.dtype)}")
    dtype = target.dtype
    shape = broadcast_shapes(tuple(self.shape), tuple(target.shape))
    if shape != tuple(target.shape):  # ATen computes (1 - target).mul_(input) in place
        raise RuntimeError(f"output with shape {sizes(target.shape)} doesn't match the broadcast shape {sizes(shape)}")
    for extra in (weight, pos_weight):
        if extra is not None:
            broadcast_shapes(shape, tuple(extra.shape))
    return dtype, shape


def _bce_kernel(self, target, weight=None, pos_weight=None, reduction=_MEAN):
    """ATen's composite, each step rounded to its tensor's dtype: a float16 (1 - target) * x overflows there."""
    dtype, _ = _bce_check(self, target, weight, pos_weight)
    x = self._np.astype(np.float64)
    log_sigmoid = (np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))).astype(self.dtype.np)  # ATen's, in self's dtype
    if pos_weight is not None:
        log_weight = _in_place((pos_weight._np - 1) * target._np, 1, np.add)
        log_sigmoid = _in_place(log_sigmoid, log_weight, np.multiply)
    loss = _in_place(_in_place(1 - target._np, self._np, np.multiply), log_sigmoid, np.subtract)
    if weight is not None:
        loss = _in_place(loss, weight._np, np.multiply)
    return _reduce(loss, reduction, dtype, [target])


def _in_place(a, b, op):
    """`a.op_(b)`: computed in the two dtypes' common one, written back into a's."""
    common = np.result_type(a, b)
    with np.errstate(all="ignore"):
        return op(a.astype(common), np.asarray(b, common)).astype(a.dtype)


def _bce_meta(self, target, weight=None, pos_weight=None, reduction=_MEAN):
    dtype, shape = _bce_check(self, target, weight, pos_weight)
    return _reduced_meta(shape, [target], reduction, dtype)


binary_cross_entropy_with_logits = (_bce_kernel, _bce_meta)
