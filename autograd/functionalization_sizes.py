"""The size arithmetic torch's functionalization does on SymInts around each op it wraps, traced as it runs.

autograd layer, fidelity to PyTorch's AOT traces (proxy_tensor.py calls it after each op of a functionalized trace;
no value depends on it). torch's make_fx records every SymInt operation that runs while it traces, and AOT traces
through functionalization, whose C++ computes sizes of its own: its nodes are dead (AOT's dead code elimination
drops them), but each takes a name, so the nodes after them are numbered as torch's (`mul_9`, not `mul_4`) only
where ours run the same operations:

  - an _unsafe_view's size and strides, inferred once more from its input (ATen's _unsafe_view_functionalize:
    infer_size, then computeStride);
  - the storage size of each fresh output it wraps (c10's computeStorageNbytes; an in-place op's output is its
    input, not fresh).
A joint trace's backward records neither, only asks their questions: torch's has no such nodes after its tangents,
and has their guards (tag_forward_nodes).
"""
import contextlib

from minitorch2._aten.composite_sizes import maybe_as_int, reshape_geometry
from minitorch2._ops import ops
from minitorch2._tensor import Tensor
from minitorch2.utils import _pytree as pytree


def replay_functionalization_sizes(mode, func, args, out):
    """Run, under the tracing `mode` (None: recorded nowhere, its questions still guards), what functionalization
    computes on sizes after `func(*args)` gave `out`."""
    with mode or contextlib.nullcontext():
        if func is ops.aten._unsafe_view.default:
            reshape_geometry(*args)
        for tensor in pytree.tree_leaves(out):
            if isinstance(tensor, Tensor) and not any(tensor is a for a in args):
                _storage_nbytes(tensor)


def _storage_nbytes(tensor):
    size = 1
    for length, stride in zip(map(maybe_as_int, tensor.shape), map(maybe_as_int, tensor.stride())):
        if length == 0:  # (torch's guard_or_false: a guard where a symbolic size is not known nonzero)
            return
        size = size + stride * (length - 1)
    offset = maybe_as_int(tensor.storage_offset())
    _ = tensor.element_size() * (offset + size)
    _ = offset >= 0  # (then whether the offset is valid: traced where it is a symbol)

