"""The size arithmetic ATen's C++ composite ops do on SymInts outside any kernel, in ATen's order.

Runtime layer, fidelity to PyTorch's tracer (reshape and flatten decide with it; their values never depend on it).
torch's make_fx records every SymInt operation that runs outside an op's kernel, a C++ composite's included, dead
ones too; each takes a node name, so the nodes after it are numbered as torch's (`mul_9`, not `mul_10`) only where
ours run the same operations. c10 computes a tensor's numel and its contiguity once per tensor and caches them
(SymbolicShapeMeta): under a tracer, each is computed once per tensor per trace (the tracer's `size_memo`), so
only the first question records nodes. Static sizes take the plain path: no node is recorded for plain ints.
"""
import math
import operator

from .._dispatch import current_modes
from .._sym import _traced, is_symbolic, sym_max


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
            return _contiguity_expression_then_plain_check(shape, stride, numel)
        expected_max = expected_max * sym_max(size, 1)
        expected = expected * size
    return True


def _contiguity_expression_then_plain_check(shape, stride, numel):
    """Where the quick check above says no: c10 builds contiguity as one SymBool (each dim: size 1 or the stride
    expected; or empty), then checks again without max(size, 1); only the nodes matter, no guard is taken."""
    is_empty = _c10_bool(operator.eq, numel, 0)
    condition, expected = (True, False), 1
    for size, step in zip(reversed(shape), reversed(stride)):
        dim_ok = _c10_bool(operator.or_, _c10_bool(operator.eq, size, 1), _c10_bool(operator.eq, step, expected))
        condition = _c10_bool(operator.and_, condition, dim_ok)
        expected = expected * size
    _c10_bool(operator.or_, condition, is_empty)
    if _known(numel == 0, False):
        return True
    expected = 1
    for size, step in zip(reversed(shape), reversed(stride)):
        if _known(size == 1, False):
            continue
        if _known(step != expected, True):
            return False
        expected = expected * size
    return True


def _c10_bool(op, a, b):
    """(value, whether a SymBool) of c10's sym_eq, sym_or or sym_and: a SymBool, so a traced node, wherever a side
    is symbolic, even when its value is decided (ours are then plain bools: the node is recorded here)."""
    (x, x_sym), (y, y_sym) = [v if isinstance(v, tuple) else (v, is_symbolic(v)) for v in (a, b)]
    if is_symbolic(x) or is_symbolic(y):
        return op(x, y) if is_symbolic(x) else op(y, x), True  # (their operators record the node)
    value = op(x, y)
    if x_sym or y_sym:
        _traced(op, (x, y), value)
    return value, x_sym or y_sym


def flattened_shape(tensor, start, end):
    """flatten's target shape: the product of sizes start..end (from 1, as c10's multiply_integers) in their place."""
    shape = list(tensor.shape)
    return shape[:start] + [math.prod(shape[start:end + 1])] + shape[end + 1:]


def folds_without_copy(t1):
    """torch._decomp's matmul folding t1's batch dims into mm rows (should_fold): t1 is empty, or contiguous where
    its sizes are not 1, each asked without a guard; the numel and strides' products are computed afresh."""
    if _known(math.prod(t1.shape) == 0, False):
        return True
    expected = [1]
    for size in reversed(t1.shape[1:]):
        expected.append(size * expected[-1])
    return all(_known(size == 1, False) or _known(step == want, False)
               for step, want, size in zip(t1.stride(), reversed(expected), t1.shape))
