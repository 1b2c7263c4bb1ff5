"""`once_differentiable`, the decorator for a custom Function's backward that is not itself differentiable.

Runtime layer, coverage surface (function.py is the Function machinery every stage uses). The decorated backward
runs with grad mode off. When grad mode is on and a gradient it received requires grad (a backward run with
create_graph=True), its results are handed on through `_DelayedError`, a node that raises only if a second
backward reaches it: a first backward works, differentiating it again fails as torch's does.
"""
import functools

from .._dispatch import state
from .._tensor import Tensor
from .function import Function
from .grad_mode import no_grad

_TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


class _DelayedError(Function):
    @staticmethod
    def forward(ctx, *outputs):
        return tuple(o.view_as(o) if o is not None else None for o in outputs)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(_TWICE)


def once_differentiable(backward):
    @functools.wraps(backward)
    def wrapper(ctx, *grads, **kwargs):
        with no_grad():
            outputs = backward(ctx, *grads, **kwargs)
        if not state.grad_enabled or not any(isinstance(g, Tensor) and g.requires_grad for g in grads):
            return outputs
        single = not isinstance(outputs, tuple)
        detached = [_requiring_grad(o) for o in ((outputs,) if single else outputs)]
        delayed = _DelayedError.apply(*detached)
        return delayed[0] if single else delayed

    return wrapper


def _requiring_grad(output):
    if not isinstance(output, Tensor):
        return output
    output = output.detach()
    output.requires_grad = True
    return output
