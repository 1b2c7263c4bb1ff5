"""Normalization kernels: native_layer_norm, the batch-norm family, and their backward ops.

Runtime layer: nn rows of the op table, called by nn.functional's `layer_norm` and `batch_norm`, recorded by name in
traced graphs. The one idea a reader must hold: a normalization op returns the statistics its backward needs next to
its result. `native_layer_norm` returns `(out, mean, rstd)`, the statistics shaped like the input with the normalized
dims kept as 1s; the batch-norm ops return `(out, save_mean, save_invstd)`, per channel in training and empty in
evaluation. The batch-norm overloads differ only in what they do with the running statistics:

    native_batch_norm / _native_batch_norm_legit   update them in place (eager nn.BatchNorm)
    _native_batch_norm_legit_functional            return the new ones instead (functionalized graphs)
    _native_batch_norm_legit_no_training           read them (evaluation)
    _native_batch_norm_legit.no_stats              have none (training without tracking)

The running variance is updated with the unbiased variance, as in PyTorch. Statistics are computed in float64, as
ATen's CPU kernels accumulate in a wider type, then rounded to the tensor's dtype.
"""
import math

import numpy as np

from .. import _dtype
from .meta_util import fake_empty, wrap_dim
from .norm_mixed_half import column_sums, rstd_with_float32_overflows
from .nn_ops import fake_in_layout, in_layout, is_channels_last, require_float, sizes


# ---------------------------------------------------------------- layer norm
def _layer_norm_check(input, normalized_shape, weight, bias):
    """ATen's _check_layer_norm_inputs; returns the first normalized axis."""
    normalized_shape = list(normalized_shape)
    if not normalized_shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {sizes(normalized_shape)}")
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and list(param.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{sizes(param.shape)} and normalized_shape = {sizes(normalized_shape)}")
    axis = input.dim() - len(normalized_shape)
    if axis < 0 or list(input.shape[axis:]) != normalized_shape:
        expected = "".join(f", {s}" for s in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={sizes(normalized_shape)}, expected input with shape "
                           f"[*{expected}], but got input of size{sizes(input.shape)}")
    return axis


def _stat_shape(input, axis):
    return tuple(input.shape[:axis]) + (1,) * (input.dim() - axis)


def _rows(t, axis):
    """A tensor as (M, N) float64 rows: M normalized groups of N elements each."""
    return t._np.astype(np.float64).reshape(math.prod(t.shape[:axis]), math.prod(t.shape[axis:]))


def _layer_norm_kernel(input, normalized_shape, weight, bias, eps):
    axis = _layer_norm_check(input, normalized_shape, weight, bias)
    require_float(input, "LayerNormKernelImpl")
    x = _rows(input, axis)
    with np.errstate(all="ignore"):
        mean = x.mean(axis=1, keepdims=True)
        var = np.square(x - mean).mean(axis=1, keepdims=True)
        rstd = rstd_with_float32_overflows(var, x.shape[1], mean, input.dtype, eps)
        out = (x - mean) * rstd
    if weight is not None:
        out = out * weight._np.reshape(1, -1)
    if bias is not None:
        out = out + bias._np.reshape(1, -1)
    # (statistics in the weights' dtype: a half input with float32 weights is ATen's mixed type, float32 statistics)
    stats_dtype = next((p.dtype.np for p in (weight, bias) if p is not None), input.dtype.np)
    stat_shape = _stat_shape(input, axis)
    return (out.reshape(input.shape).astype(input.dtype.np), mean.reshape(stat_shape).astype(stats_dtype),
            rstd.reshape(stat_shape).astype(stats_dtype))


def _layer_norm_meta(input, normalized_shape, weight, bias, eps):
    axis = _layer_norm_check(input, normalized_shape, weight, bias)
    stat_shape = _stat_shape(input, axis)
    return fake_empty(input.shape, input.dtype), fake_empty(stat_shape, input.dtype), fake_empty(stat_shape, input.dtype)


native_layer_norm = (_layer_norm_kernel, _layer_norm_meta)


def _layer_norm_backward_kernel(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    axis = _layer_norm_check(input, normalized_shape, weight, bias)
    x, g = _rows(input, axis), _rows(grad_out, axis)
    mean, rstd = (stat._np.astype(np.float64).reshape(-1, 1) for stat in (mean, rstd))
    x_hat = (x - mean) * rstd
    param_dtype = (weight if weight is not None else input).dtype.np
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        gw = g * weight._np.reshape(1, -1) if weight is not None else g
        grad_input = rstd * (gw - gw.mean(axis=1, keepdims=True) - x_hat * (gw * x_hat).mean(axis=1, keepdims=True))
        grad_input = grad_input.reshape(input.shape).astype(input.dtype.np)
    if output_mask[1]:
        grad_weight = column_sums(g * x_hat, input.dtype, param_dtype).reshape(normalized_shape).astype(param_dtype)
    if output_mask[2]:
        grad_bias = column_sums(g, input.dtype, param_dtype).reshape(normalized_shape).astype(param_dtype)
    return grad_input, grad_weight, grad_bias


def _layer_norm_backward_meta(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    _layer_norm_check(input, normalized_shape, weight, bias)
    param_dtype = (weight if weight is not None else input).dtype
    return (fake_empty(input.shape, input.dtype) if output_mask[0] else None,
            fake_empty(normalized_shape, param_dtype) if output_mask[1] else None,
            fake_empty(normalized_shape, param_dtype) if output_mask[2] else None)


native_layer_norm_backward = (_layer_norm_backward_kernel, _layer_norm_backward_meta)


# ---------------------------------------------------------------- batch norm: shared pieces
def _batch_norm_check(input, weight, bias=None, running_mean=None, running_var=None):
    """Channel count, and the dtype of the statistics."""
    channels = input.shape[wrap_dim(1, input.dim())]
    require_float(input, "batch_norm")
    stat_dtype = input.dtype
    params = {"weight": weight, "bias": bias, "running_mean": running_mean, "running_var": running_var}
    for name, p in params.items():
        if p is None:
            continue
        mixed = input.dtype in _dtype.HALVES and p.dtype is _dtype.float32
        if p.dtype is not input.dtype and not mixed:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        if p.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {p.numel()}")
        stat_dtype = p.dtype
    return channels, stat_dtype


def _channel_view(values, ndim):
    """Per-channel values shaped to broadcast against (N, C, *spatial)."""
    return np.asarray(values, np.float64).reshape((1, -1) + (1,) * (ndim - 2))


def _reduce_axes(ndim):
    return (0,) + tuple(range(2, ndim))


def _eval_invstd(running_var, eps):
    with np.errstate(all="ignore"):
        return 1.0 / np.sqrt(running_var._np.astype(np.float64) + eps)


def _batch_norm_np(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """(out, save_mean, save_invstd, new_running_mean, new_running_var) as arrays; nothing is mutated."""
    channels, stat_dtype = _batch_norm_check(input, weight, bias, running_mean, running_var)
    x = input._np.astype(np.float64)
    axes = _reduce_axes(input.dim())
    new_mean = new_var = None
    with np.errstate(all="ignore"):
        if training:
            n = x.size // max(channels, 1)
            mean = x.mean(axis=axes)
            var = np.square(x - _channel_view(mean, x.ndim)).mean(axis=axes)
            invstd = rstd_with_float32_overflows(var, n, mean, input.dtype, eps, merges_moments=False)
            if running_mean is not None:
                new_mean = momentum * mean + (1 - momentum) * running_mean._np
            if running_var is not None:
                new_var = momentum * var * n / (n - 1) + (1 - momentum) * running_var._np
            save_mean, save_invstd = mean, invstd
        else:
            if running_mean is None or running_var is None:
                raise RuntimeError("batch_norm: running_mean and running_var must be defined in evaluation mode")
            mean, invstd = running_mean._np.astype(np.float64), _eval_invstd(running_var, eps)
            save_mean = save_invstd = np.empty((0,))
        out = (x - _channel_view(mean, x.ndim)) * _channel_view(invstd, x.ndim)
    if weight is not None:
        out = out * _channel_view(weight._np, x.ndim)
    if bias is not None:
        out = out + _channel_view(bias._np, x.ndim)
    out = in_layout(out, input.dtype, is_channels_last(input))
    as_running = (lambda v, old: v.astype(old.dtype.np) if v is not None else None)
    return (out, save_mean.astype(stat_dtype.np), save_invstd.astype(stat_dtype.np),
            as_running(new_mean, running_mean), as_running(new_var, running_var))


def _batch_norm_meta(input, weight, bias, running_mean, running_var, training, momentum=None, eps=None):
    channels, stat_dtype = _batch_norm_check(input, weight, bias, running_mean, running_var)
    out = fake_in_layout(input.shape, input.dtype, is_channels_last(input))
    stat_shape = (channels,) if training else (0,)
    return out, fake_empty(stat_shape, stat_dtype), fake_empty(stat_shape, stat_dtype)


def _write_running(target, value):
    """Running statistics change in place without a version bump, as in ATen (the schema does not mark them)."""
    if target is not None and value is not None:
        target._np[...] = value


# ---------------------------------------------------------------- batch norm: the overloads
def _native_batch_norm_kernel(input, weight, bias, running_mean, running_var, training, momentum, eps):
    out, save_mean, save_invstd, new_mean, new_var = _batch_norm_np(
        input, weight, bias, running_mean, running_var, training, momentum, eps)
    _write_running(running_mean, new_mean)
    _write_running(running_var, new_var)
    return out, save_mean, save_invstd


native_batch_norm = (_native_batch_norm_kernel, _batch_norm_meta)  # (also _native_batch_norm_legit's)


def _functional_kernel(input, weight, bias, running_mean, running_var, training, momentum, eps):
    out, save_mean, save_invstd, new_mean, new_var = _batch_norm_np(
        input, weight, bias, running_mean, running_var, training, momentum, eps)
    new_mean = running_mean._np.copy() if new_mean is None else new_mean
    new_var = running_var._np.copy() if new_var is None else new_var
    return out, save_mean, save_invstd, new_mean, new_var


def _functional_meta(input, weight, bias, running_mean, running_var, training, momentum, eps):
    outputs = _batch_norm_meta(input, weight, bias, running_mean, running_var, training)
    return outputs + tuple(fake_empty(stat.shape, stat.dtype) for stat in (running_mean, running_var))


batch_norm_legit_functional = (_functional_kernel, _functional_meta)


def _in_evaluation(fn):
    """_native_batch_norm_legit_no_training's kernel or meta: native_batch_norm's with training=False."""
    return lambda input, weight, bias, running_mean, running_var, momentum, eps: fn(
        input, weight, bias, running_mean, running_var, False, momentum, eps)


batch_norm_legit_no_training = tuple(map(_in_evaluation, native_batch_norm))


def _check_no_stats_training(training):
    if not training:
        raise RuntimeError("_native_batch_norm_legit.no_stats: evaluation mode needs running statistics "
                           "(use _native_batch_norm_legit_no_training)")


def _no_stats_kernel(input, weight, bias, training, momentum, eps):
    _check_no_stats_training(training)
    return _native_batch_norm_kernel(input, weight, bias, None, None, True, momentum, eps)


def _no_stats_meta(input, weight, bias, training, momentum, eps):
    _check_no_stats_training(training)
    return _batch_norm_meta(input, weight, bias, None, None, True)


batch_norm_legit_no_stats = (_no_stats_kernel, _no_stats_meta)


# ---------------------------------------------------------------- batch norm backward
def _batch_norm_backward_kernel(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
                                output_mask):
    channels, stat_dtype = _batch_norm_check(input, weight)
    x, g = input._np.astype(np.float64), grad_out._np.astype(np.float64)
    axes = _reduce_axes(input.dim())
    if train:
        mean, invstd = save_mean._np.astype(np.float64), save_invstd._np.astype(np.float64)
    else:
        mean, invstd = running_mean._np.astype(np.float64), _eval_invstd(running_var, eps)
    centered = x - _channel_view(mean, x.ndim)
    grad_sum = g.sum(axis=axes)
    dot = (g * centered).sum(axis=axes)
    w = weight._np.astype(np.float64) if weight is not None else np.ones(channels)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        scale = _channel_view(invstd * w, x.ndim)
        if train:
            n = x.size // max(channels, 1)
            projection = centered * _channel_view(dot * invstd * invstd / n, x.ndim)
            grad_input = (g - projection - _channel_view(grad_sum / n, x.ndim)) * scale
        else:
            grad_input = g * scale
        grad_input = in_layout(grad_input, input.dtype, is_channels_last(input))
    param_dtype = (weight.dtype if weight is not None else stat_dtype).np
    if output_mask[1]:
        grad_weight = (dot * invstd).astype(param_dtype)
    if output_mask[2]:
        grad_bias = grad_sum.astype(param_dtype)
    return grad_input, grad_weight, grad_bias


def _batch_norm_backward_meta(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
                              output_mask):
    channels, stat_dtype = _batch_norm_check(input, weight)
    param_dtype = weight.dtype if weight is not None else stat_dtype
    return (fake_in_layout(input.shape, input.dtype, is_channels_last(input)) if output_mask[0] else None,
            fake_empty((channels,), param_dtype) if output_mask[1] else None,
            fake_empty((channels,), param_dtype) if output_mask[2] else None)


native_batch_norm_backward = (_batch_norm_backward_kernel, _batch_norm_backward_meta)
