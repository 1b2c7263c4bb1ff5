"""clip_grad_norm_ (get_total_norm, then clip_grads_with_norm_) and clip_grad_value_ (as torch.nn.utils).
Runtime layer, coverage surface."""
import math
import warnings

from ... import _factories, _functions
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of all `tensors` together (the norm of their norms), as clip_grad_norm_ measures gradients."""
    tensors = [tensors] if isinstance(tensors, Tensor) else [t for t in tensors if t is not None]
    if not tensors:
        return _factories.tensor(0.0)
    norm_type = float(norm_type)
    with no_grad():
        if norm_type == math.inf:
            total = _functions.max(_functions.stack([t.abs().max() for t in tensors]))
        else:
            norms = _functions.stack([(t.abs() ** norm_type).sum() ** (1.0 / norm_type) for t in tensors])
            total = (norms ** norm_type).sum() ** (1.0 / norm_type)
    if error_if_nonfinite and not math.isfinite(total.item()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """The gradients of `parameters` scaled in place by max_norm / total_norm where that is below 1."""
    parameters = [parameters] if isinstance(parameters, Tensor) else parameters
    grads = [p.grad for p in parameters if p.grad is not None]
    with no_grad():
        coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    total = get_total_norm([p.grad for p in parameters], norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The pre-0.4 name: warns, then clips as clip_grad_norm_."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Each gradient clamped in place to [-clip_value, clip_value]."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    with no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)
