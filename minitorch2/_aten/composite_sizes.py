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
import sys

from .._dispatch import current_modes
from .._sym import SymBool, _check, _traced, is_symbolic, sym_max
from .._tensor import contiguous_strides
from .views import infer_size, view_strides


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
    """c10's _compute_contiguous_sym, cached per tensor: True where the sizes and strides are contiguous without a
    guard; where that quick check fails, one SymBool for contiguity, which decides only where statically known (torch's
    traces then show the quick check asked once more)."""
    if not _symbolic(tensor):
        return tensor.is_contiguous()
    shape, stride, numel = tensor.shape, tensor.stride(), sym_numel(tensor)
    contiguous = _once(tensor, "contiguous", lambda: _quick_contiguous(shape, stride, numel) or _contiguity(
        shape, stride, numel))
    return _known(contiguous, False) or _quick_contiguous(shape, stride, numel)


def _quick_contiguous(shape, stride, numel):
    """Each stride against the product of the sizes after it, with and without max(size, 1)."""
    if _decide(operator.eq, numel, 0, False):
        return True
    expected, expected_max = 1, 1
    for size, step in zip(reversed(shape), reversed(stride)):
        if _decide(operator.eq, size, 1, False):
            continue
        if _decide(operator.ne, step, expected, True) and _decide(operator.ne, step, expected_max, True):
            return False
        expected_max = expected_max * sym_max(size, 1)
        expected = expected * size
    return True


def _contiguity(shape, stride, numel):
    empty, contiguous, expected = _compare(operator.eq, numel, 0), True, 1
    for size, step in zip(reversed(shape), reversed(stride)):
        contiguous = contiguous & (_compare(operator.eq, size, 1) | _compare(operator.eq, step, expected))
        expected = expected * size
    return contiguous | empty


def _decide(op, a, b, otherwise):
    return _known(_compare(op, a, b), otherwise)


def _compare(op, a, b):
    """a op b as torch's SymNode answers it: a SymBool wherever an operand is one, its value known or not (C++'s
    SymBool logic then records its and/or on it, as on any other)."""
    a, b = maybe_as_int(a), maybe_as_int(b)
    if not (is_symbolic(a) or is_symbolic(b)):
        return op(a, b)
    node = a.node if is_symbolic(a) else b.node
    result = a.node.binary(op, b, False) if is_symbolic(a) else b.node.binary(op, a, True)
    if not is_symbolic(result):
        import sympy  # (loaded already: a symbol exists)
        result = SymBool(type(node)(sympy.true if result else sympy.false, node.shape_env, bool, result))
    return _traced(op, (a, b), result)


def maybe_as_int(value):
    """A SymInt whose expression the ShapeEnv's replacements made a number is that int to C++ (c10's maybe_as_int:
    comparing a size pinned to 8 is no traced operation)."""
    if is_symbolic(value) and (expr := value.node.shape_env.simplify(value.node.expr)).is_Integer:
        return int(expr)
    return value


def reshape_geometry(tensor, shape):
    """(the inferred shape, its strides as a view of tensor or None where no view can): at::reshape's infer_size_dv
    and computeStride, asked in ATen's order where sizes are symbols."""
    if not _symbolic(tensor) and not any(map(is_symbolic, shape)):
        target = infer_size(shape, tensor.numel())
        return list(target), view_strides(tuple(tensor.shape), tensor.stride(), target)
    target = _infer_size(list(shape), sym_numel(tensor))
    return target, _compute_stride(list(tensor.shape), list(tensor.stride()), target)


def _infer_size(shape, numel):
    """ATen's infer_size_impl: the checks it cannot decide statically are assumed to hold (torch's runtime asserts;
    the view's meta function checks again)."""
    newsize, inferred = 1, None
    for dim, size in enumerate(shape):
        if _decide(operator.eq, size, -1, False):
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = dim
        else:
            if not _decide(operator.gt, size, -1, True):
                raise RuntimeError(f"invalid shape dimension {size} at index {dim} of shape [{', '.join(map(str, shape))}]")
            newsize = newsize * size
    if inferred is None:
        if not _decide(operator.eq, numel, newsize, True):
            raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
        return shape
    if is_symbolic(newsize) or newsize != 0:  # (a number 0 would divide by zero)
        divisible = (_compare(operator.gt, newsize, 0) & _compare(operator.eq, numel % newsize, 0)) | _compare(
            operator.eq, numel, newsize)
    else:
        divisible = _compare(operator.eq, numel, newsize)
    if not _known(divisible, True) or not _decide(operator.ne, newsize, 0, True):
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    shape[inferred] = numel // newsize
    return shape


def _compute_stride(old_shape, old_stride, new_shape):
    """ATen's computeStride: split the old dims into chunks that are contiguous among themselves and lay the new
    dims over each chunk; None where a new dim straddles two chunks."""
    if not old_shape:
        return [1] * len(new_shape)
    numel = math.prod(old_shape)
    if _decide(operator.eq, numel, 0, False):
        return list(old_stride) if old_shape == new_shape else list(contiguous_strides(new_shape))
    new_stride = [0] * len(new_shape)
    view_d, chunk_base_stride, tensor_numel, view_numel = len(new_shape) - 1, old_stride[-1], 1, 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel = tensor_numel * old_shape[tensor_d]
        chunk_ends = tensor_d == 0 or (_decide(operator.ne, old_shape[tensor_d - 1], 1, True) and _decide(
            operator.ne, old_stride[tensor_d - 1], tensor_numel * chunk_base_stride, True))
        if chunk_ends:
            while view_d >= 0 and (_decide(operator.lt, view_numel, tensor_numel, True)
                                   or _decide(operator.eq, new_shape[view_d], 1, False)):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel = view_numel * new_shape[view_d]
                view_d -= 1
            if _decide(operator.ne, view_numel, tensor_numel, True):
                return None
            if tensor_d > 0:
                chunk_base_stride, tensor_numel, view_numel = old_stride[tensor_d - 1], 1, 1
    return None if view_d != -1 else new_stride


def covers_whole_dim(length, start, stop, step):
    """applySlicing's test for a slice it skips: start 0 and stop >= length, each known without a guard (on symbols
    its comparisons are recorded: `le = s77 <= 9223372036854775807`)."""
    if not _decide(operator.eq, start, 0, False):
        return False
    covered = _compare(operator.le, length, stop)
    if is_symbolic(length) and not is_symbolic(stop) and _upper_bound(length) >= sys.maxsize - 1:
        return False  # (torch's sizes have no upper bound: no number is known to be >= one; ours stop below int64's)
    return _known(covered, False) and step == 1


def _upper_bound(size):
    return size.node.shape_env.bounds(size.node.shape_env.simplify(size.node.expr))[1]


def check_select_index(size, index, position):
    """applySelect's bounds check, `(size > -1 - index) & (size > index)`, recorded where the size is a symbol (the
    check itself, and its error, are select's meta function's). Returns the index: a symbolic one stays so (select.int
    takes a SymInt: x[x.shape[0] - 1] does not specialize the size), anything else becomes an int. torch's error
    names the index's position in the subscript as its dimension."""
    if not is_symbolic(index):
        index = int(index)
        if not -2 ** 63 <= index < 2 ** 63:  # (the index is read as a C int64 before any bounds check)
            raise ValueError("Overflow when unpacking long long")
    if is_symbolic(size) or is_symbolic(index):
        _compare(operator.gt, size, -1 - index) & _compare(operator.gt, size, index)
    elif not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {position} with size {size}")
    return index


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


def refs_broadcast_shapes(*shapes):
    """torch._refs' _broadcast_shapes, which torch._decomp's matmul calls for its batch dims: each size against the
    common one so far, asked without guards in its order (traced over SymInts); an undecided pair is checked equal."""
    common = [1] * max(len(shape) for shape in shapes)
    for shape in shapes:
        for idx in range(-1, -1 - len(shape), -1):
            if _known(shape[idx] == common[idx], False):
                continue
            if _known(common[idx] == 1, False):
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            if not _known(shape[idx] == 1, False):
                _check(common[idx] == shape[idx], lambda: f"Attempting to broadcast a dimension of length "
                       f"{shape[idx]} at {idx}! Mismatching argument had {shape}; but expected shape should be "
                       f"broadcastable to {common}")
    return common
