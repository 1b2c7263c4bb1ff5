"""Derivative formulas for view, shape and indexing ops, and for the functional forms of in-place ops.

Runtime layer, the second half of the op table's autograd column (the first is derivatives.py, whose conventions apply
here too: parameter names say what is saved, op calls come in the order PyTorch's generated code makes them). A view's
backward usually reshapes or scatters the gradient back into its base's shape; an indexing op's backward accumulates
it into zeros at the indexed places.
"""
from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format
from .derivatives_util import _options, _pad, _reshape, _scale, _shape, for_input, sum_to
from .meta_util import wrap_dim
from .views import split_sizes

aten = ops.aten


# ---------------------------------------------------------------- views and shape ops
def view(grad, self_shape):
    """Also _unsafe_view's."""
    return _reshape(grad, self_shape)


def expand(grad, self_shape):
    if not self_shape:  # ATen's sum_to of an empty shape is always a sum, even of a 0-d gradient
        return aten.sum.default(grad)
    return sum_to(grad, self_shape)


def permute(grad, dims):
    inverse = sorted(range(len(dims)), key=lambda i: dims[i] % len(dims))  # (the permutation that undoes dims)
    return aten.permute.default(grad, inverse)


def transpose(grad, dim0, dim1):
    return aten.transpose.int(grad, dim0, dim1)


def t(grad):
    return aten.t.default(grad)


def unsqueeze(grad, dim):
    return aten.squeeze.dim(grad, dim)


def _unsqueeze_to(grad, self_shape, dims):
    """ATen's unsqueeze_to: one unsqueeze per squeezed dim of size 1, in increasing order."""
    for d in sorted(dims):
        if self_shape[d] == 1:
            grad = aten.unsqueeze.default(grad, d)
    return grad


def squeeze_default(grad, self_shape):
    return _unsqueeze_to(grad, self_shape, range(len(self_shape)))


def squeeze_dim(grad, self_shape, dim):
    return _unsqueeze_to(grad, self_shape, [wrap_dim(dim, len(self_shape))] if self_shape else [])


def squeeze_dims(grad, self_shape, dim):
    return _unsqueeze_to(grad, self_shape, {wrap_dim(d, len(self_shape)) for d in dim} if self_shape else [])


def select(grad, self_shape, dim, index):
    return aten.select_backward.default(grad, list(self_shape), dim, index)


def slice_tensor(grad, self_shape, dim=0, start=None, end=None, step=1):
    return aten.slice_backward.default(grad, list(self_shape), dim, 0 if start is None else start,
                                       9223372036854775807 if end is None else end, step)


def as_strided(grad, self_geometry, size, stride, storage_offset=None):
    """Sum `grad` into the storage positions the view reads (overlapping views read some twice),
    then gather `self`'s elements back from that storage. Only self's geometry is kept, as torch's
    formula keeps it: a later in-place change of self does not stop this backward."""
    self_shape, self_stride, self_offset = self_geometry
    offset = self_offset if storage_offset is None else storage_offset
    out_positions = _storage_positions(grad, size, stride, offset)
    in_positions = _storage_positions(grad, self_shape, self_stride, self_offset)
    length = 1 + max(_last_position(size, stride, offset), _last_position(self_shape, self_stride, self_offset))
    storage = aten.new_zeros.default(grad, [length])
    flat_grad = aten._unsafe_view.default(aten.clone.default(grad, memory_format=contiguous_format), [-1])
    storage = aten.index_put.default(storage, [out_positions], flat_grad, True)
    return aten.view.default(aten.index.Tensor(storage, [in_positions]), list(self_shape))


def _storage_positions(like, size, stride, offset):
    """The flat storage index of each element of a (size, stride, offset) view, as an int64 vector."""
    positions = aten.full.default([1] * len(size), offset, dtype=_dtype.int64)
    for d, (n, st) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        steps = aten.mul.Scalar(aten.arange.start_step(0, n, dtype=_dtype.int64), st)
        positions = aten.add.Tensor(positions, aten.view.default(steps, shape))
    return aten.view.default(aten.clone.default(aten.expand.default(positions, list(size))), [-1])


def _last_position(size, stride, offset):
    return offset if any(n == 0 for n in size) else offset + sum((n - 1) * st for n, st in zip(size, stride))


def alias(grad):
    """Also clone's."""
    return grad


def to_copy(grad, self_dtype):  # (a real input's: the real part, uncast where that has self's dtype, as torch's)
    return g if (g := for_input(grad, self_dtype)).dtype == self_dtype else aten._to_copy.default(g, dtype=self_dtype)


def diagonal(grad, self_shape, offset=0, dim1=0, dim2=1):
    return aten.diagonal_backward.default(grad, list(self_shape), offset, dim1, dim2)


def cat(grad, tensors_shapes, dim=0):
    ndim = max(len(s) for s in tensors_shapes)
    d = dim % ndim
    grads, start = [], 0
    for shape in tensors_shapes:
        if len(shape) == 1 and shape[0] == 0:  # a legacy empty input: ATen's zeros({0}), a gradient all the same
            grads.append(aten.zeros.default([0], dtype=grad.dtype, layout="torch.strided", device=grad.device))
            continue
        size = shape[d]
        grads.append(aten.slice.Tensor(grad, d, start, start + size))
        start += size
    return grads


def stack(grad, tensors_shapes, dim=0):
    return [aten.select.int(grad, dim, i) for i in range(len(tensors_shapes))]  # stack_tensors_backward


def split(grads, self_shape, self_dtype, split_size, dim=0):
    return _split_backward(grads, self_shape, self_dtype, *split_sizes(self_shape, split_size, dim))  # (ATen's sizes)


def split_with_sizes(grads, self_shape, self_dtype, split_sizes, dim=0):
    return _split_backward(grads, self_shape, self_dtype, split_sizes, dim % len(self_shape))


def _split_backward(grads, shape, dtype, sizes, d):
    filled = []
    for g, size in zip(_pad(grads, len(sizes)), sizes):
        if g is None:
            piece = list(shape)
            piece[d] = size
            g = aten.zeros.default(piece, dtype=dtype)
        filled.append(g)
    return aten.cat.default(filled, d)


def unbind(grads, self, dim=0):
    d = dim % self.dim()
    filled = [g if g is not None else aten.zeros.default(list(self.shape[:d] + self.shape[d + 1:]), dtype=self.dtype)
              for g in _pad(grads, self.shape[d])]
    return aten.stack.default(filled, d)


# ---------------------------------------------------------------- indexing
def index(grad, self, indices):
    zeros = aten.new_zeros.default(grad, list(self.shape))
    return aten.index_put.default(zeros, indices, grad, True), None


def index_put(grad, indices, values, needs_grad, accumulate=False):
    self_grad = values_grad = None
    if needs_grad[0]:
        self_grad = grad if accumulate else aten.index_put.default(grad, indices, aten.zeros_like.default(values), False)
    if needs_grad[2]:
        values_grad = aten.index.Tensor(grad, indices)
    return self_grad, None, sum_to(values_grad, _shape(values))


def gather(grad, self_shape, dim, index):
    zeros = aten.new_zeros.default(grad, list(self_shape))
    return aten.scatter_add.default(zeros, dim, index, grad), None


def index_select(grad, self_shape, dim, index):
    zeros = aten.new_zeros.default(grad, list(self_shape), **_options(grad))
    return aten.index_add.default(zeros, dim, index, grad), None


def scatter_src(grad, dim, index):
    src_grad = aten.gather.default(grad, dim, index)
    return aten.scatter.value(grad, dim, index, 0), None, src_grad


def scatter_value(grad, dim, index):
    return aten.scatter.value(grad, dim, index, 0), None


def scatter_add(grad, dim, index):
    return grad, None, aten.gather.default(grad, dim, index)


def index_add(grad, dim, index, source, alpha=1):
    selected = aten.index_select.default(grad, dim, index)  # (torch's formula expands it as source: an expand node)
    return grad, None, _scale(aten.expand.default(selected, list(source.shape)) if source.dim() else selected, alpha)


def select_backward(grad, dim, index):
    return aten.select.int(grad, dim, index)


def slice_backward(grad, dim, start, end, step):
    return aten.slice.Tensor(grad, dim, start, end, step)


def as_strided_scatter(grad, src, size, stride, storage_offset=None):
    self_grad = aten.as_strided_scatter.default(grad, aten.zeros_like.default(src), size, stride, storage_offset)
    src_grad = aten.as_strided.default(aten.clone.default(grad, memory_format=contiguous_format), size, stride,
                                       storage_offset)
    return self_grad, src_grad


# ---------------------------------------------------------------- functional forms of in-place ops
def copy(grad, src_shape):
    return aten.zeros_like.default(grad), sum_to(grad, src_shape)


def slice_scatter(grad, src_shape, dim=0, start=None, end=None, step=1):
    src_grad = aten.slice.Tensor(grad, dim, start, end, step)
    self_grad = aten.slice_scatter.default(grad, aten.zeros_like.default(src_grad), dim, start, end, step)
    return self_grad, src_grad


def select_scatter(grad, dim, index):
    src_grad = aten.select.int(grad, dim, index)
    return aten.select_scatter.default(grad, aten.zeros_like.default(src_grad), dim, index), src_grad


def diagonal_scatter(grad, offset=0, dim1=0, dim2=1):
    src_grad = aten.diagonal.default(grad, offset, dim1, dim2)
    return aten.diagonal_scatter.default(grad, aten.zeros_like.default(src_grad), offset, dim1, dim2), src_grad
