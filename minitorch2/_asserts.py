"""torch._assert_async: a tensor's truth asserted where the graph runs, not read back into Python; torch._check_is_size.

Runtime layer, coverage surface. Dynamo rewrites `assert t` on a tensor into a call of this function in its graph
(frontend/variables/tensor.py), so compiled code checks the condition without a graph break; it is the aten
_assert_async.msg operator (a RuntimeError with the message when the one value is zero), recorded as itself by AOT.

torch._check_is_size(n) (deprecated in torch 2.13, a FutureWarning) is torch._check(n >= 0) and, with max=,
n <= max; Dynamo records it as a call in its graph, which AOT runs as the checks.
"""
import warnings

from ._sym import _check
from ._ops import ops
from .fx._spelling import register_spelling


def _assert_async(input, assert_msg="Expected Tensor with single nonzero value, but got zero"):
    ops.aten._assert_async.msg(input, assert_msg)


register_spelling("torch._assert_async", _assert_async)


def _check_is_size(i, message=None, *, max=None):
    warnings.warn("_check_is_size will be removed in a future PyTorch release along with guard_size_oblivious.     "
                  "Use _check(i >= 0) instead.", FutureWarning, stacklevel=2)
    _check(i >= 0, message)
    if max is not None:
        _check(i <= max, message)


register_spelling("torch._check_is_size", _check_is_size)
