"""Shared helpers for meta functions: broadcasting, dims, fake outputs.

Runtime layer. A meta function computes an op's outputs' shape, dtype and strides from input metadata only; it is
what runs when the inputs are FakeTensors, and eager kernels use the same shape rules (so a shape error has the same
message on real and fake tensors).
"""
import math

import numpy as np

from .._sym import is_symbolic
from .._tensor import CHANNELS_LAST_ORDERS, FakeTensor, Size, Tensor, contiguous_strides, wrap_dim


def fake_empty(shape, dtype, stride=None):
    return FakeTensor._make(Size(shape), dtype, contiguous_strides(shape) if stride is None else tuple(stride))


def new_tensor_shape(size, dtype):
    """The shape of a tensor about to be made, refused as ATen refuses it: a negative dim, or more bytes
    than an int64 can count (numpy would raise ValueError for both)."""
    shape = tuple(s if is_symbolic(s) else int(s) for s in size)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, shape))}]")
    # (a symbolic size's range says nothing useful about overflow: no guard)
    if not any(map(is_symbolic, shape)) and dtype.itemsize * math.prod(shape) >= 2 ** 63:
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{', '.join(map(str, shape))}]")
    return shape


def broadcast_shapes(*shapes):
    result = ()
    for shape in shapes:
        result = _broadcast_pair(result, tuple(shape))
    return result


def _broadcast_pair(a, b):
    """ATen's infer_size: align from the right; the first mismatch from the end is the one reported."""
    ndim = max(len(a), len(b))
    out = [1] * ndim
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        size_a = a[len(a) - 1 - offset] if offset < len(a) else 1
        size_b = b[len(b) - 1 - offset] if offset < len(b) else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise RuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at non-singleton dimension {i}"
            )
        out[i] = size_b if size_a == 1 else size_a
    return tuple(out)


def reduction_dims(dims, ndim):
    """Normalise a reduction's `dim` argument (None or [] means all dims)."""
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return tuple(range(ndim))
    if isinstance(dims, int):
        dims = [dims]
    result = [wrap_dim(d, ndim) for d in dims]  # (every dim wrapped first: ATen's order of errors)
    for i, d in enumerate(result):
        if d in result[:i]:  # (a 0-d tensor's one "dim" is 0 or -1: both at once are a repeat)
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return () if ndim == 0 else tuple(sorted(result))  # a 0-d tensor's dim is no dim at all


def reduced_shape(shape, dims, keepdim):
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)


def fake_pointwise(dtype, operands):
    """A pointwise op's fake result: its tensor operands broadcast, laid out as TensorIterator lays it out."""
    tensors = [t for t in operands if isinstance(t, Tensor)]
    shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
    return fake_empty(shape, dtype, pointwise_strides(shape, tensors))


def pointwise_strides(shape, tensors):
    """Output strides of a pointwise op, as TensorIterator computes them from its operands (a Python scalar counts
    as 0-d): operands all of the output's shape and all contiguous (or all dense with equal strides) give their
    layout; otherwise the output is dense in TensorIterator's order of the dims (tensor_iterator_order)."""
    shape = tuple(shape)
    ops = [t for t in tensors if t is not None]
    # (lengths first: a tuple compares items before lengths, and a symbolic size compared with an int is a guard)
    if ops and all(isinstance(t, Tensor) and t.dim() == len(shape) and tuple(t.shape) == shape for t in ops):
        if all(t.is_contiguous() for t in ops):
            return contiguous_strides(shape)
        fixed = not any(is_symbolic(s) for t in ops for s in t.stride())  # (else: torch's fake asks no such thing)
        if fixed and all(is_non_overlapping_and_dense(t) and t.stride() == ops[0].stride() for t in ops):
            return tuple(ops[0].stride())
    perm = tensor_iterator_order(shape, [broadcast_strides(t, shape) for t in ops if isinstance(t, Tensor)])
    if perm == list(range(len(shape) - 1, -1, -1)):
        return contiguous_strides(shape)
    result, running = [0] * len(shape), 1
    for d in perm:
        result[d] = running
        running *= shape[d]
    return tuple(result)


def channels_last_strides(shape):
    return strides_in_order(shape, (1, 3, 2, 0))  # NHWC: C innermost, then W, H, N


def memory_format_strides(shape, memory_format, like=None):
    """The strides memory_format asks for: `like`'s (preserve_format), a channels-last order's, or contiguous."""
    if like is not None and memory_format in (None, "torch.preserve_format"):
        return preserve_format_strides(like)
    order = CHANNELS_LAST_ORDERS.get(memory_format)
    if order and len(shape) != len(order):
        raise RuntimeError(f"required rank {len(order)} tensor to use {memory_format[6:]} format")
    return strides_in_order(shape, order) if order else contiguous_strides(shape)


def preserve_format_strides(t):
    """Strides of `empty_like(t)` (and clone, _to_copy, ...) with memory_format=preserve_format: `t`'s own
    strides when it is non-overlapping and dense, otherwise dense strides in the order of `t`'s
    (ATen's infer_dense_strides; zero strides keep their place)."""
    if is_non_overlapping_and_dense(t):
        return tuple(t.stride())
    shape, stride = tuple(t.shape), t.stride()

    def should_swap(d0, d1):
        s0, s1 = stride[d0], stride[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return 1 if s0 > s1 else -1
        return 1 if shape[d0] > shape[d1] else 0

    return strides_in_order(shape, fastest_first(len(shape), should_swap))


def strides_in_order(shape, perm):
    """Dense strides with the dims of `perm` laid out innermost first."""
    result, running = [0] * len(shape), 1
    for d in perm:
        result[d] = running
        running *= max(shape[d], 1)
    return tuple(result)


def fastest_first(ndim, should_swap):
    """Dims ordered fastest-first by ATen's insertion sort (it stops at the first decisive comparison,
    so ties keep their place): the shared core of TensorIterator's and infer_dense_strides' layouts."""
    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    return perm


def tensor_iterator_order(shape, strides):
    """TensorIterator's dims, fastest first: the operands' strides vote in turn (broadcast dims do not; equal
    strides put the smaller dim first). Also the order eager's loop visits elements in (loop_order.py)."""
    def at_least(a, b):  # (asked as torch's fake tensors ask it, so that symbolic strides record its guards)
        return b == 0 or a != 0 and (a >= b or a % b == 0)

    def should_swap(d0, d1):
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if at_least(s1, s0) else 1
            if not at_least(shape[d1], shape[d0]):
                return 1
        return 0

    return fastest_first(len(shape), should_swap)


def broadcast_strides(t, shape):
    lead = len(shape) - t.dim()
    return [0 if i < lead or (t.shape[i - lead] == 1 and size != 1) else t.stride()[i - lead]
            for i, size in enumerate(shape)]


def is_non_overlapping_and_dense(t):  # c10's rule: the elements fill a block of memory once each
    if 0 in t.shape:
        return True  # (empty, so contiguous, which c10 counts as dense)
    # (by stride alone: dims tied on a stride overlap whatever their sizes, and comparing symbolic sizes would guard)
    # (dims of size 0 or 1 count for nothing, as in c10's is_non_overlapping_and_dense)
    pairs = sorted(((st, sz) for sz, st in zip(t.shape, t.stride()) if sz != 1), key=lambda pair: pair[0])
    expected = 1
    for st, sz in pairs:
        if st != expected:
            return False
        expected *= sz
    return True


def c_order(array):
    """A kernel's result in C order, copied only when numpy picked another (ATen's results are contiguous)."""
    return array if array.flags.c_contiguous else np.array(array, order="C")


def with_strides(result, stride):
    """A kernel's result (numpy array or Tensor) laid out with `stride`, the strides its meta
    function computes, whatever memory order numpy happened to pick."""
    if isinstance(result, Tensor):
        if result.stride() == tuple(stride):
            return result
        result = result._np
    stride = tuple(stride)
    if stride == contiguous_strides(result.shape):
        return c_order(result)
    size = 1 + sum((n - 1) * st for n, st in zip(result.shape, stride)) if result.size else 0
    out = Tensor._make_view(Tensor._from_numpy(np.empty(size, result.dtype)), result.shape, stride, 0)
    out._base = None
    np.copyto(out._np, result)
    return out
