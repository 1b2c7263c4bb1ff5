"""log_sigmoid and binary_cross_entropy kernels (and their backward ops).

Runtime layer: nn rows of the op table, next to nn_apart_ops.py (which holds
binary_cross_entropy_with_logits). These are the probability-space losses
F.logsigmoid, F.binary_cross_entropy and nn.BCELoss reach.

`log_sigmoid_forward` returns (output, buffer) as ATen's CPU kernel does:
buffer = exp(-|x|), the one temporary its backward reuses. binary_cross_entropy
clamps each log at -100, so a probability of exactly 0 or 1 costs 100, not inf,
and refuses an input outside [0, 1] (NaN included) with ATen's words.
"""
import numpy as np

from .memory import _dtype_title
from .meta_util import broadcast_shapes, fake_empty
from .nn_ops import compute_dtype, require_float

_NONE, _MEAN, _SUM = 0, 1, 2


# ---------------------------------------------------------------- log_sigmoid
def _log_sigmoid_forward_kernel(self):
    require_float(self, "log_sigmoid_cpu")
    x = self._np.astype(compute_dtype(self.dtype))
    with np.errstate(all="ignore"):
        z = np.exp(-np.abs(x))
        out = np.minimum(x, 0) - np.log1p(z)
    return np.asarray(out.astype(self.dtype.np), order="C"), np.asarray(z.astype(self.dtype.np), order="C")


def _log_sigmoid_forward_meta(self):
    require_float(self, "log_sigmoid_cpu")
    return fake_empty(self.shape, self.dtype), fake_empty(self.shape, self.dtype)


log_sigmoid_forward = (_log_sigmoid_forward_kernel, _log_sigmoid_forward_meta)


def _log_sigmoid_backward_kernel(grad_output, self, buffer):
    require_float(self, "log_sigmoid_backward_cpu")
    dtype = compute_dtype(self.dtype)
    x, g = self._np.astype(dtype), grad_output._np.astype(dtype)
    z = buffer._np.astype(dtype) if buffer.numel() else np.exp(-np.abs(x))
    negative = x < 0
    with np.errstate(all="ignore"):
        grad = g * (negative.astype(dtype) - np.where(negative, dtype(1), dtype(-1)) * (z / (1 + z)))
    return np.asarray(grad.astype(self.dtype.np), order="C")


def _log_sigmoid_backward_meta(grad_output, self, buffer):
    require_float(self, "log_sigmoid_backward_cpu")
    return fake_empty(broadcast_shapes(tuple(grad_output.shape), tuple(self.shape)), self.dtype)


log_sigmoid_backward = (_log_sigmoid_backward_kernel, _log_sigmoid_backward_meta)


# ---------------------------------------------------------------- binary_cross_entropy
def _bce_shape(self, target, weight, name):
    require_float(self, name)
    shape = broadcast_shapes(tuple(self.shape), tuple(target.shape))
    if weight is not None:
        shape = broadcast_shapes(shape, tuple(weight.shape))
    return shape


def _check_probabilities(x, t):
    """ATen's loop checks each element's input, then its target: the first element failing names which."""
    with np.errstate(invalid="ignore"):
        bad_x, bad_t = (np.ravel(~((v >= 0) & (v <= 1))) for v in np.broadcast_arrays(x, t))  # (NaN fails both)
    failing = np.flatnonzero(bad_x | bad_t)
    if failing.size:
        name = "input" if bad_x[failing[0]] else "target"
        raise RuntimeError(f"all elements of {name} should be between 0 and 1")


def _bce_kernel(self, target, weight=None, reduction=_MEAN):
    _bce_shape(self, target, weight, "binary_cross_entropy")
    if target.dtype is not self.dtype:  # (TensorIterator's check: a target of class indices is the usual mistake)
        raise RuntimeError(f"Found dtype {_dtype_title(target.dtype)} but expected {_dtype_title(self.dtype)}")
    dtype = compute_dtype(self.dtype)
    x, t = self._np.astype(dtype), target._np.astype(dtype)
    _check_probabilities(x, t)
    with np.errstate(divide="ignore"):
        loss = (t - 1) * np.maximum(np.log1p(-x), dtype(-100)) - t * np.maximum(np.log(x), dtype(-100))
    if weight is not None:
        loss = loss * weight._np.astype(dtype)
    if reduction == _NONE:
        return np.asarray(loss.astype(self.dtype.np), order="C")
    total = np.sum(loss, dtype=np.float64)
    return np.asarray(total / loss.size if reduction == _MEAN else total, self.dtype.np)


def _bce_meta(self, target, weight=None, reduction=_MEAN):
    shape = _bce_shape(self, target, weight, "binary_cross_entropy")
    return fake_empty(shape if reduction == _NONE else (), self.dtype)


binary_cross_entropy = (_bce_kernel, _bce_meta)


def _bce_backward_kernel(grad_output, self, target, weight=None, reduction=_MEAN):
    shape = _bce_shape(self, target, weight, "binary_cross_entropy_backward")
    dtype = compute_dtype(self.dtype)
    x, t, g = (a._np.astype(dtype) for a in (self, target, grad_output))
    with np.errstate(all="ignore"):
        grad = g * (x - t) / np.maximum((1 - x) * x, dtype(1e-12))
    if weight is not None:
        grad = grad * weight._np.astype(dtype)
    if reduction == _MEAN:
        grad = grad / dtype(self.numel())
    return np.asarray(np.broadcast_to(grad, shape).astype(self.dtype.np), order="C")


def _bce_backward_meta(grad_output, self, target, weight=None, reduction=_MEAN):
    return fake_empty(_bce_shape(self, target, weight, "binary_cross_entropy_backward"), self.dtype)


binary_cross_entropy_backward = (_bce_backward_kernel, _bce_backward_meta)
