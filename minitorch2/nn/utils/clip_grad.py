"""clip_grad_norm_ and clip_grad_value_ (as torch.nn.utils). Runtime layer, coverage surface."""
import math

from ... import _factories, _functions
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return _factories.tensor(0.0)
    with no_grad():
        if norm_type == math.inf:
            total = _functions.max(_functions.stack([g.abs().max() for g in grads]))
        else:
            norms = _functions.stack([(g.abs() ** norm_type).sum() ** (1.0 / norm_type) for g in grads])
            total = (norms ** norm_type).sum() ** (1.0 / norm_type)
        if error_if_nonfinite and not math.isfinite(total.item()):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                               "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                               "norm anyway, set `error_if_nonfinite=False`")
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef)
    return total


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Each gradient clamped in place to [-clip_value, clip_value]."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    with no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)
