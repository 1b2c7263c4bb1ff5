"""View ops: new (shape, stride, offset) over the same storage, never a copy.

Runtime layer. Each view op is one geometry function computing the output's shape, strides and storage offset
exactly as PyTorch's kernels do (so `stride()` and `storage_offset()` print the same numbers). The same function
serves as eager kernel and as meta function, because a view touches no data: `Tensor._make_view` builds the numpy
window when there is memory behind it and a FakeTensor when there is not.
"""
import math
import sys

from .._tensor import Tensor, contiguous_strides, view_strides_of_dense
from .memory import _dtype_title
from .meta_util import wrap_dim


def view_op(geometry, differentiable_view=True):
    def kernel(self, *args, **kwargs):
        shape, stride, offset = geometry(self, *args, **kwargs)
        out = Tensor._make_view(self, shape, stride, offset)
        if not differentiable_view:
            out._base = None
        return out

    return kernel, kernel


def infer_size(shape, numel):
    shape = list(shape)
    infer = None
    known = 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape [{', '.join(map(str, shape))}]")
        else:
            known *= s
    if infer is not None:
        if known == 0 or numel % known != 0:  # (0 of 0 elements: any size fits, so ATen calls it ambiguous)
            raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}" if numel
                               else f"cannot reshape tensor of 0 elements into shape [{', '.join(map(str, shape))}] "
                               "because the unspecified dimension size -1 can be any value and is ambiguous")
        shape[infer] = numel // known
    elif numel != known:  # (torch checks `numel == known`: the guard's sides in that order)
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    return tuple(shape)


def view_strides(old_shape, old_stride, new_shape):
    """Strides for viewing (old_shape, old_stride) as new_shape, or None when impossible (ATen's computeStride)."""
    if not old_shape:
        return tuple(1 for _ in new_shape)
    if math.prod(old_shape) == 0:
        return contiguous_strides(new_shape) if tuple(old_shape) != tuple(new_shape) else tuple(old_stride)
    if tuple(old_stride)[::-1] == contiguous_strides(old_shape)[::-1]:  # the common case (innermost first: torch's)
        return view_strides_of_dense(tuple(new_shape))
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_stride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    return None if view_d != -1 else tuple(new_stride)


def _view(self, size):
    shape = infer_size(size, self.numel())
    stride = view_strides(tuple(self.shape), self.stride(), shape)
    if stride is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead."
        )
    return shape, stride, self.storage_offset()


def _type_name(self):
    """ATen's name of self's type: the legacy tensor type's, else CPU<scalar type>Type (bool, bfloat16, complex)."""
    legacy = self.dtype.np.kind in "iuf" and "bfloat" not in str(self.dtype)
    return self.type() if legacy else f"CPU{_dtype_title(self.dtype)}Type"


def _expand(self, size, *, implicit=False):
    size = list(size)
    if len(size) < self.dim():
        raise RuntimeError(
            f"expand({_type_name(self)}{{[{', '.join(map(str, self.shape))}]}}, size=[{', '.join(map(str, size))}]): the number "
            f"of sizes provided ({len(size)}) must be greater or equal to the number of dimensions in the tensor ({self.dim()})"
        )
    offset = len(size) - self.dim()
    shape, stride = list(size), [0] * len(size)
    for i in reversed(range(len(size))):  # (from the last dim, as ATen's inferExpandGeometry: its first error)
        target, j = size[i], i - offset
        if j < 0:
            if target < 0:
                raise RuntimeError(f"The expanded size of the tensor ({target}) isn't allowed in a leading, non-existing dimension {i}")
            continue
        cur, cur_stride = self.shape[j], self.stride()[j]
        if target == -1:
            target = shape[i] = cur
        if cur == target:
            stride[i] = cur_stride
        elif cur != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({target}) must match the existing size ({cur}) at non-singleton "
                f"dimension {i}.  Target sizes: [{', '.join(map(str, size))}].  Tensor sizes: [{', '.join(map(str, self.shape))}]"
            )
    if self.dim():  # ATen's inferExpandGeometry: a new dim of size 1 strides like a contiguous one
        for i in reversed(range(offset)):
            if shape[i] == 1:
                stride[i] = shape[i + 1] * stride[i + 1]
    return shape, stride, self.storage_offset()


def _permute(self, dims):
    if len(dims) != self.dim():
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
            f"ordering of dimensions i.e. input.dim() = {self.dim()} is not equal to len(dims) = {len(dims)}"
        )
    dims = [wrap_dim(d, self.dim()) for d in dims]
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return [self.shape[d] for d in dims], [self.stride()[d] for d in dims], self.storage_offset()


def _transpose(self, dim0, dim1):
    n = self.dim()
    d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
    if n == 0:
        return (), (), self.storage_offset()
    order = list(range(n))
    order[d0], order[d1] = order[d1], order[d0]
    return _permute(self, order)


def _t(self):
    if self.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    return _transpose(self, 0, 1) if self.dim() == 2 else (self.shape, self.stride(), self.storage_offset())


def _unsqueeze(self, dim):
    dim = wrap_dim(dim, self.dim() + 1)
    shape, stride = list(self.shape), list(self.stride())
    new_stride = 1 if dim >= self.dim() else shape[dim] * stride[dim]
    shape.insert(dim, 1)
    stride.insert(dim, new_stride)
    return shape, stride, self.storage_offset()


def _squeeze_dims(self, dims):
    n = self.dim()
    dims = {wrap_dim(d, n) for d in dims}
    keep = [i for i in range(n) if not (i in dims and self.shape[i] == 1)]
    return [self.shape[i] for i in keep], [self.stride()[i] for i in keep], self.storage_offset()


def _select(self, dim, index):
    if self.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = wrap_dim(dim, self.dim())
    size = self.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(self.shape)} at dimension {dim}")
    if index < 0:
        index += size
    shape, stride = list(self.shape), list(self.stride())
    offset = self.storage_offset() + index * stride[dim]
    del shape[dim], stride[dim]
    return shape, stride, offset


def _slice_index(size, index):
    """A slice bound clamped into [0, size], decided in torch's order (its fake slice's), so that a symbolic
    bound records the same guards: `index <= size` first, the clamps only where that fails."""
    return index if index >= 0 and index <= size else index + size if index < 0 and index >= -size else \
        0 if index < 0 else size


def _slice(self, dim=0, start=None, end=None, step=1):
    if self.dim() == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    dim = wrap_dim(dim, self.dim())
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    size = self.shape[dim]
    start = 0 if start is None else _slice_index(size, start)
    end = size if end is None or end is sys.maxsize else _slice_index(size, end)
    length = (end - start + step - 1) // step if end >= start else 0
    shape, stride = list(self.shape), list(self.stride())
    offset = self.storage_offset() + start * stride[dim]
    shape[dim] = length
    stride[dim] *= step
    return shape, stride, offset


def _as_strided(self, size, stride, storage_offset=None):
    offset = self.storage_offset() if storage_offset is None else storage_offset
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    storage = self.untyped_storage().nbytes() // self.dtype.itemsize
    if self._np is not None and needed > storage:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {self.dtype.itemsize} requiring a storage size of {needed * self.dtype.itemsize}"
                           f" are out of bounds for storage of size {storage * self.dtype.itemsize}")
    return list(size), list(stride), offset


def _alias(self):
    return self.shape, self.stride(), self.storage_offset()


def _diagonal(self, offset=0, dim1=0, dim2=1):
    n = self.dim()
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    stride = self.stride()
    above, below = max(offset, 0), -min(offset, 0)  # the diagonal starts `above` columns right or `below` rows down
    length = max(min(self.shape[d1] - below, self.shape[d2] - above), 0)
    storage_offset = self.storage_offset() + above * stride[d2] + below * stride[d1]
    keep = [i for i in range(n) if i not in (d1, d2)]
    return ([self.shape[i] for i in keep] + [length], [stride[i] for i in keep] + [stride[d1] + stride[d2]],
            storage_offset if length else self.storage_offset())


view = view_op(_view)
unsafe_view = view_op(_view, differentiable_view=False)
expand = view_op(_expand)
permute = view_op(_permute)
transpose = view_op(_transpose)
t = view_op(_t)
unsqueeze = view_op(_unsqueeze)
squeeze = view_op(lambda self: _squeeze_dims(self, range(self.dim())))
squeeze_dim = view_op(lambda self, dim: _squeeze_dims(self, [dim]))
squeeze_dims = view_op(_squeeze_dims)
select = view_op(_select)
slice_ = view_op(_slice)
as_strided = view_op(_as_strided)
alias = view_op(_alias)
detach = view_op(_alias, differentiable_view=False)
diagonal = view_op(_diagonal)


def split_sizes(shape, split_size, dim):
    """(split's pieces' sizes, the dim), computed as torch's decomposition does (over sizes, its guards)."""
    if len(shape) == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = wrap_dim(dim, len(shape))
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
    if shape[dim] == 0:
        return [0], dim
    if split_size == 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {shape[dim]}")
    chunks = int((shape[dim] + split_size - 1) // split_size)
    return [split_size] * (chunks - 1) + [split_size - (split_size * chunks - shape[dim])], dim


def _split_with_sizes_kernel(self, split_sizes, dim=0):
    if self.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = wrap_dim(dim, self.dim())
    if any(length < 0 for length in split_sizes):
        raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, but got "
                           f"split_sizes=[{', '.join(map(str, split_sizes))}]")
    if sum(split_sizes) != self.shape[dim]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {self.shape[dim]} (input tensor's size at dimension "
            f"{dim}), but got split_sizes=[{', '.join(map(str, split_sizes))}]"
        )
    outputs, start = [], 0
    for length in split_sizes:
        outputs.append(Tensor._make_view(self, *_slice(self, dim, start, start + length)))
        start += length
    return outputs


def _split_kernel(self, split_size, dim=0):
    return _split_with_sizes_kernel(self, *split_sizes(self.shape, split_size, dim))


def _unbind_kernel(self, dim=0):
    dim = wrap_dim(dim, self.dim(), wrap_scalar=False)
    return tuple(Tensor._make_view(self, *_select(self, dim, i)) for i in range(self.shape[dim]))


split = (_split_kernel, _split_kernel)
split_with_sizes = (_split_with_sizes_kernel, _split_with_sizes_kernel)
unbind = (_unbind_kernel, _unbind_kernel)
