"""Shared helpers for meta functions: broadcasting, dims, fake outputs.

Runtime layer. A meta function computes an op's outputs' shape, dtype and
strides from input metadata only; it is what runs when the inputs are
FakeTensors, and eager kernels use the same shape rules (so a shape error has
the same message on real and fake tensors).
"""
from .._tensor import Size, contiguous_strides


def fake_empty(shape, dtype, stride=None):
    from .._subclasses.fake_tensor import FakeTensor

    return FakeTensor._make(Size(shape), dtype, contiguous_strides(shape) if stride is None else tuple(stride))


def broadcast_shapes(*shapes):
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        offset = ndim - len(shape)
        for i, size in enumerate(shape):
            j = offset + i
            if size == result[j] or size == 1:
                continue
            if result[j] == 1:
                result[j] = size
            else:
                raise RuntimeError(
                    f"The size of tensor a ({result[j]}) must match the size of tensor b ({size}) "
                    f"at non-singleton dimension {i}"
                )
    return tuple(result)


def wrap_dim(dim, ndim):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def reduction_dims(dims, ndim):
    """Normalise a reduction's `dim` argument (None or [] means all dims)."""
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return tuple(range(ndim))
    if isinstance(dims, int):
        dims = [dims]
    result = []
    for d in dims:
        d = wrap_dim(d, ndim)
        if d in result:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        result.append(d)
    return tuple(sorted(result))


def reduced_shape(shape, dims, keepdim):
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)


def pointwise_strides(shape, tensors):
    """Output strides of a pointwise op, as TensorIterator picks them: follow the layout
    of the first input that already has the output's shape, contiguous otherwise."""
    for t in tensors:
        if tuple(t.shape) == tuple(shape) and not t.is_contiguous():
            order = sorted(range(len(shape)), key=lambda d: (-t.stride()[d] if shape[d] != 1 else 0, d))
            if any(shape[d] != 1 for d in order) and _is_dense(t):
                dense = contiguous_strides([shape[d] for d in order])
                strides = [0] * len(shape)
                for pos, d in enumerate(order):
                    strides[d] = dense[pos]
                return tuple(strides)
            break
    return contiguous_strides(shape)


def _is_dense(t):
    pairs = sorted((st, sz) for sz, st in zip(t.shape, t.stride()) if sz != 1)
    expected = 1
    for st, sz in pairs:
        if st != expected:
            return False
        expected *= sz
    return True
