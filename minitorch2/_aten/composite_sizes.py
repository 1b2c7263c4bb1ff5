"""The size arithmetic ATen's C++ composite ops do on SymInts outside any kernel, in ATen's order.

Runtime layer, fidelity to PyTorch's tracer (reshape and flatten decide with it; their values never depend on it).
torch's make_fx records every SymInt operation that runs outside an op's kernel, a C++ composite's included, dead
ones too; each takes a node name, so the nodes after it are numbered as torch's (`mul_9`, not `mul_10`) only where
ours run the same operations. c10 computes a tensor's numel and its contiguity once per tensor and caches them
(SymbolicShapeMeta): under a tracer, each is computed once per tensor per trace (the tracer's `size_memo`), so
only the first question records nodes. Static sizes take the plain path: no node is recorded for plain ints.
"""
import math
import sys

from .._dispatch import current_modes
from .._sym import is_symbolic, sym_max


def _once(tensor, key, compute):
    """compute() the first time the innermost tracer asks `key` of this tensor; its answer after that."""
    mode = next((m for m in reversed(current_modes()) if hasattr(m, "size_memo")), None)
    if mode is None:
        return compute()
    entry = mode.size_memo.get(id(tensor))
    if entry is None or entry[0] is not tensor:  # (the tensor is kept so that its id stays unique)
        entry = mode.size_memo[id(tensor)] = (tensor, {})
    if key not in entry[1]:
        entry[1][key] = compute()
    return entry[1][key]


def _symbolic(tensor):
    return any(map(is_symbolic, (*tensor.shape, *tensor.stride())))


def _known(condition, otherwise):
    """c10's TORCH_GUARD_OR_FALSE / _OR_TRUE: the answer where the ShapeEnv knows it, else `otherwise`; no guard."""
    if not is_symbolic(condition):
        return bool(condition)
    node = condition.node
    known = node.shape_env.static_value(node.shape_env.simplify(node.expr))
    return otherwise if known is None else known


def sym_numel(tensor):
    """The product of the sizes, from 1 (the first multiplication by 1 records nothing, as torch's tracer)."""
    if not _symbolic(tensor):
        return tensor.numel()
    return _once(tensor, "numel", lambda: math.prod(tensor.shape))


def is_contiguous_or_false(tensor):
    """c10's _compute_contiguous_sym: True where the sizes and strides are contiguous without a guard, checking
    each stride against the product of the sizes after it, with and without max(size, 1)."""
    if not _symbolic(tensor):
        return tensor.is_contiguous()
    return _once(tensor, "contiguous", lambda: _contiguous_or_false(tensor.shape, tensor.stride(), sym_numel(tensor)))


def _contiguous_or_false(shape, stride, numel):
    if _known(numel == 0, False):
        return True
    expected, expected_max = 1, 1
    for size, step in zip(reversed(shape), reversed(stride)):
        if _known(size == 1, False):
            continue
        if _known(step != expected, True) and _known(step != expected_max, True):
            return False
        expected_max = expected_max * sym_max(size, 1)
        expected = expected * size
    return True


def covers_whole_dim(length, start, stop, step):
    """applySlicing's test for a slice it skips: start 0 and stop >= length, each known without a guard (on symbols
    its comparisons are recorded: `le = s77 <= 9223372036854775807`)."""
    if not _known(start == 0, False):
        return False
    covered = length <= stop
    if is_symbolic(length) and not is_symbolic(stop) and _upper_bound(length) >= sys.maxsize - 1:
        return False  # (torch's sizes have no upper bound: no number is known to be >= one; ours stop below int64's)
    return _known(covered, False) and step == 1


def _upper_bound(size):
    return size.node.shape_env.bounds(size.node.shape_env.simplify(size.node.expr))[1]


def check_select_index(size, index):
    """applySelect's bounds check, `(size > -1 - index) & (size > index)`, recorded where the size is a symbol (the
    check itself, and its error, are select's meta function's)."""
    if is_symbolic(size) or is_symbolic(index):
        (size > -1 - index) & (size > index)


def flattened_shape(tensor, start, end):
    """flatten's target shape: the product of sizes start..end (from 1, as c10's multiply_integers) in their place."""
    shape = list(tensor.shape)
    return shape[:start] + [math.prod(shape[start:end + 1])] + shape[end + 1:]
