"""torch._assert_async: a tensor's truth asserted where the graph runs, not read back into Python.

Runtime layer, coverage surface. Dynamo rewrites `assert t` on a tensor into a call of this function in its graph
(frontend/variables/tensor.py), so compiled code checks the condition without a graph break; it is the aten
_assert_async.msg operator (a RuntimeError with the message when the one value is zero), recorded as itself by AOT.
"""
from ._ops import ops
from .fx._spelling import register_spelling


def _assert_async(input, assert_msg="Expected Tensor with single nonzero value, but got zero"):
    ops.aten._assert_async.msg(input, assert_msg)


register_spelling("torch._assert_async", _assert_async)
