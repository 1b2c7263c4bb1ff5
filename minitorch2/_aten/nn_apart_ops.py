"""binary_cross_entropy_with_logits's kernel: the logit-space binary cross entropy F.binary_cross_entropy_with_logits
and nn.BCEWithLogitsLoss reach.

Runtime layer, coverage surface: a row of table_nn_apart.py, beside the probability-space binary cross entropy of
nn_bce.py. The loss is (1 - target) * x - log_weight * log(sigmoid(x)), log_weight = (pos_weight - 1) * target + 1,
computed in float64 with log(sigmoid(x)) as min(x, 0) - log1p(exp(-|x|)), then reduced as mse_loss is (nn_ops.py).
"""
import numpy as np

from .._dtype import result_type
from .meta_util import broadcast_shapes
from .nn_ops import _MEAN, _reduce, _reduced_meta, require_float, sizes


def _bce_check(self, target, weight, pos_weight):
    dtype = result_type(self, target)
    require_float(self, "log_sigmoid_cpu")
    shape = broadcast_shapes(tuple(self.shape), tuple(target.shape))
    if shape != tuple(target.shape):  # ATen computes (1 - target).mul_(input) in place
        raise RuntimeError(f"output with shape {sizes(target.shape)} doesn't match the broadcast shape {sizes(shape)}")
    for extra in (weight, pos_weight):
        if extra is not None:
            broadcast_shapes(shape, tuple(extra.shape))
    return dtype, shape


def _bce_kernel(self, target, weight=None, pos_weight=None, reduction=_MEAN):
    dtype, _ = _bce_check(self, target, weight, pos_weight)
    x, t = self._np.astype(np.float64), target._np.astype(np.float64)
    log_sigmoid = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight._np - 1) * t + 1)
    loss = (1 - t) * x - log_sigmoid
    if weight is not None:
        loss = loss * weight._np
    return _reduce(loss, reduction, dtype, [target])


def _bce_meta(self, target, weight=None, pos_weight=None, reduction=_MEAN):
    dtype, shape = _bce_check(self, target, weight, pos_weight)
    return _reduced_meta(shape, [target], reduction, dtype)


binary_cross_entropy_with_logits = (_bce_kernel, _bce_meta)
