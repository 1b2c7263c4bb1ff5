"""torch.autograd.Variable: the constructor from before tensors and variables merged, kept for old scripts.

Runtime layer, coverage surface. `Variable(data, requires_grad=False)` returns a plain Tensor, as torch's legacy
constructor does: the data detached (the same memory, no history) with requires_grad set, or an empty float tensor
when no data is given. Every tensor is an instance of Variable; Variable is no class of any tensor.
"""
import warnings

from .._tensor import Tensor
from .function import BackwardCFunction

__all__ = ["Variable", "_is_checkpoint_valid"]


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None, name=None, **unknown):
        if unknown:
            raise TypeError(f"'{next(iter(unknown))}' is an invalid keyword argument for this function")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if _grad_fn is not None and not isinstance(_grad_fn, BackwardCFunction):  # (torch's THPFunction_Check)
            raise TypeError(f"_grad_fn has to be a Function object or None, but got {type(_grad_fn).__name__}")
        if data is None:
            from .. import _factories  # import cycle: this package loads while the op table is being registered
            tensor = _factories.empty(0)
        elif isinstance(data, Tensor):
            tensor = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if _grad_fn is not None:
            raise RuntimeError("_grad_fn argument to legacy Variable constructor is no longer supported.  Instead, "
                               "please invoke your _grad_fn to produce a variable with it as the _grad_fn.")
        if requires_grad and not (tensor.is_floating_point() or tensor.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        return tensor.requires_grad_(bool(requires_grad))


def _is_checkpoint_valid():
    """torch.autograd._is_checkpoint_valid: False only inside a backward the engine runs for torch.autograd.grad's
    reentrant checkpoints; minitorch2's engine runs no such backward, so it is always True."""
    return True
