"""torch.distributed.nn.functional: collectives that autograd differentiates, over the group of one.

Runtime layer, coverage surface. Each returns new tensors where torch.distributed's functions work in place, so
the result joins the autograd graph. With one rank every collective is the identity, and so is its gradient: a
copy made by an autograd Function keeps the graph's shape (a node between the input and the output) as torch's.
Like torch's, each warns that it is deprecated for torch.distributed._functional_collectives, and needs the
process group to exist (its rank and size are read first).
"""
import warnings

from ... import contiguous_format
from ...autograd import Function
from .. import ReduceOp, get_world_size

__all__ = ["ReduceOp", "all_gather", "all_reduce", "broadcast", "reduce"]


def _deprecated(name, suggestion):
    warnings.warn(f"torch.distributed.nn.functional.{name} is deprecated, use "
                  f"torch.distributed._functional_collectives.{suggestion} instead.", FutureWarning, stacklevel=3)


class _IdentityCollective(Function):
    """The one rank's collective: a contiguous copy forward, the gradient passed on unchanged backward."""

    @staticmethod
    def forward(ctx, tensor):
        get_world_size()  # (raises torch's error where no process group was initialized)
        return tensor.clone(memory_format=contiguous_format)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def all_reduce(tensor, op=ReduceOp.SUM, group=None):
    _deprecated("all_reduce", "all_reduce")
    return _IdentityCollective.apply(tensor)


def all_gather(tensor, group=None):
    _deprecated("all_gather", "all_gather_single")
    return (_IdentityCollective.apply(tensor),)


def broadcast(tensor, src, group=None):
    _deprecated("broadcast", "broadcast")
    return _IdentityCollective.apply(tensor)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None):
    _deprecated("reduce", "reduce")
    return _IdentityCollective.apply(tensor)
