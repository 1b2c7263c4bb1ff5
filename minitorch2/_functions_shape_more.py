"""The torch-level shape functions beyond the core set: diff, tile, repeat_interleave, meshgrid, tensordot, inner,
unflatten, take_along_dim, atleast_*d, column_stack, dstack, diag, tril/triu, flip, rot90 and their kin.

Runtime layer (gathered into the `minitorch2` namespace by _functions.py), beside _functions_shape.py's core ones.
The ones PyTorch composes from other ops in C++ or in torch/functional.py are composed here of the same ops in the
same order, so traced graphs record what torch's record.
"""
import warnings
from builtins import range as builtins_range

from . import _dtype
from ._aten.memory import _dtype_title
from ._aten.meta_util import broadcast_shapes as broadcast_shapes_of
from ._aten.views import infer_size
from ._functions_pointwise import mul
from ._functions_shape import _dims, _function_of, _t, alias_of, cat, expand, flatten, permute, reshape, unsqueeze, view
from ._ops import ops
from ._out import CAT, EXACT, TENSORDOT, out_variant
from ._tensor import Tensor, wrap_dim

aten = ops.aten


def narrow(input, dim, start, length):
    """ATen's narrow, a slice of `length` from `start` (from the end where negative; a tensor start gives its value),
    with its checks in its order."""
    start = start.item() if isinstance(start, Tensor) else start
    if input.dim() == 0 or length < 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor." if input.dim() == 0 else
                           "narrow(): length must be non-negative.")
    size = input.shape[wrap_dim(dim, input.dim())]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return aten.slice.Tensor(input, dim, start, start + length)


def unflatten(input, dim, sizes):
    """ATen's unflatten: a view of `dim` split into `sizes` (one of them may be -1), with its checks and words."""
    d = wrap_dim(dim, input.dim()) if len(sizes) else None
    if len(sizes) == 0 or input.dim() == 0:
        raise RuntimeError("unflatten: sizes must be non-empty" if len(sizes) == 0 else "unflatten got an unexpected "
                           f"error:\nDimension specified as {dim} but tensor has no dimensions")
    if isinstance(input.shape[d], int) and all(isinstance(size, int) for size in sizes):
        try:  # the -1 is the dim's size over the others, not the tensor's numel (which 0 elements leave open)
            sizes = infer_size(sizes, input.shape[d])
        except RuntimeError as error:
            if "is invalid for input of size" not in str(error):
                raise RuntimeError(f"unflatten got an unexpected error:\n{error}") from None
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {d} "
                               f"({input.shape[d]}) in the input tensor") from None
    return view(input, list(input.shape[:d]) + list(sizes) + list(input.shape[d + 1:]))


def diff(input, n=1, dim=-1, prepend=None, append=None):
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = wrap_dim(dim, input.dim())
    for t in (prepend, append):
        if t is not None and t.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    if n == 0:  # ATen's diff_helper: a copy, prepend and append ignored
        return aten.copy_.default(aten.zeros_like.default(input), input)
    if prepend is not None or append is not None:
        input = aten.cat.default([t for t in (prepend, input, append) if t is not None], dim)
    length = input.shape[dim]
    xor = input.dtype is _dtype.bool_
    for _ in builtins_range(min(n, length)):
        length -= 1
        earlier = aten.slice.Tensor(input, dim, 0, length)
        later = aten.slice.Tensor(input, dim, 1, length + 1)
        input = aten.logical_xor.default(later, earlier) if xor else aten.sub.Tensor(later, earlier)
    return input


def tile(input, dims, *more):
    dims = [dims, *more] if isinstance(dims, int) else list(dims)
    dims = [1] * (input.dim() - len(dims)) + dims
    return aten.repeat.default(input, dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(repeats): the indices each repeated
        return aten.repeat_interleave.Tensor(input, output_size=output_size)
    if dim is None:
        input, dim = flatten(input), 0
    dim = wrap_dim(int(dim), input.dim())  # (int(): a SymInt dim is pinned, as torch's int argument)
    if _t(repeats):
        if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.shape[0] == 1):
            repeats = expand(repeats, [input.shape[dim]])
        elif repeats.dim() == 1 and repeats.shape[0] != input.shape[dim]:
            raise RuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{repeats.shape[0]} and input.size({dim}) = {input.shape[dim]}")
        return aten.index_select.default(input, dim, aten.repeat_interleave.Tensor(repeats, output_size=output_size))
    if repeats < 0:
        raise RuntimeError("repeats can not be negative")
    shape = list(input.shape)
    expanded = aten.expand.default(aten.unsqueeze.default(input, dim + 1), shape[:dim + 1] + [repeats] + shape[dim + 1:])
    copied = aten.clone.default(expanded, memory_format="torch.contiguous_format")
    return aten.view.default(copied, shape[:dim] + [shape[dim] * repeats] + shape[dim + 1:])


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    swap = indexing == "xy" and len(tensors) >= 2
    order = [tensors[1], tensors[0], *tensors[2:]] if swap else list(tensors)
    shape = [t.numel() for t in order]
    grids = []
    for i, t in enumerate(order):
        view_shape = [1] * len(order)
        view_shape[i] = -1
        grids.append(aten.expand.default(aten.view.default(t, view_shape), shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@out_variant(TENSORDOT, differentiable=False)
def tensordot(a, b, dims=2):
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        dims_a, dims_b = list(builtins_range(-dims, 0)), list(builtins_range(dims))
    elif _t(dims):
        return tensordot(a, b, dims.tolist() if dims.dim() else int(dims.item()))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    return _tensordot(a, b, dims_a, dims_b)


def _tensordot(t1, t2, dims1, dims2):
    """ATen's tensordot: a broadcast (size-1) contracted dim is summed away first, the rest permuted to the
    end of t1 and the start of t2, and the two reshaped into one mm (a dot when nothing is left free)."""
    if len(dims1) != len(dims2):
        raise RuntimeError("both dimensions lists should have same length")
    csize = 1
    for d1, d2 in zip(dims1, dims2):
        s1, s2 = t1.shape[d1], t2.shape[d2]
        if s2 == 1:
            t1 = aten.sum.dim_IntList(t1, [d1], True)
        elif s1 == 1:
            t2 = aten.sum.dim_IntList(t2, [d2], True)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {d1} and second "
                               f"has size {s2} in dim {d2}")
        else:
            csize *= s1
    wrapped1, wrapped2 = {d % t1.dim() for d in dims1}, {d % t2.dim() for d in dims2}
    free1 = [i for i in builtins_range(t1.dim()) if i not in wrapped1]
    free2 = [i for i in builtins_range(t2.dim()) if i not in wrapped2]
    rsizes = [t1.shape[i] for i in free1] + [t2.shape[i] for i in free2]
    size1, size2 = _prod(t1.shape[i] for i in free1), _prod(t2.shape[i] for i in free2)
    if not free1 and not free2:
        p1, p2 = aten.permute.default(t1, free1 + dims1), aten.permute.default(t2, dims2 + free2)
        flat2, flat1 = reshape(p2, [csize]), reshape(p1, [csize])
        return reshape(aten.dot.default(flat1, flat2), rsizes)
    m1 = reshape(aten.permute.default(t1, free1 + dims1), [size1, csize])
    m2 = reshape(aten.permute.default(t2, dims2 + free2), [csize, size2])
    return reshape(aten.mm.default(m1, m2), rsizes)


def _prod(sizes):
    result = 1
    for s in sizes:
        result *= s
    return result


def inner(input, other):
    if input.dim() == 0 or other.dim() == 0:
        return mul(input, other)
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return _tensordot(input, other, [-1], [-1])


def movedim(input, source, destination):
    """The dims `source` moved to `destination`, the others kept in their order: one permute, after ATen's checks."""
    source, destination, n = _dims(source), _dims(destination), input.dim()
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({source} dims) should contain the "
                           f"same number of dims as destination ({destination} dims)")
    src, dst = [wrap_dim(int(d), n) for d in source], [wrap_dim(int(d), n) for d in destination]  # (SymInts pinned)
    for name, given, wrapped in (("source", source, src), ("destination", destination, dst)):
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    if n == 0:  # (ATen's: a 0-d tensor's alias, not a permute of no dims)
        return aten.alias.default(input)
    moved_to = dict(zip(dst, src))  # destination dim -> the source dim moved there; the others keep their order
    unmoved = iter(i for i in builtins_range(n) if i not in src)
    return permute(input, [moved_to[i] if i in moved_to else next(unmoved) for i in builtins_range(n)])


moveaxis = alias_of(movedim, "moveaxis")


def take_along_dim(input, indices, dim=None):
    if indices.dtype is not _dtype.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {_dtype_title(indices.dtype)}")
    if dim is None:
        return aten.gather.default(aten.view.default(input, [-1]), 0, aten.view.default(indices, [-1]))
    if input.dim() != indices.dim():
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, but "
                           f"got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    d = wrap_dim(dim, input.dim())
    input_sizes, index_sizes = list(input.shape), list(indices.shape)
    input_sizes[d], index_sizes[d] = indices.shape[d], input.shape[d]
    index_b = aten.expand.default(indices, list(broadcast_shapes_of(tuple(input_sizes), tuple(indices.shape))))
    input_b = aten.expand.default(input, list(broadcast_shapes_of(tuple(index_sizes), tuple(input.shape))))
    return aten.gather.default(input_b, d, aten.remainder.Scalar(index_b, input.shape[d]))


def _tensors(tensors):
    return tuple(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors


def _atleast(ndim):
    def shape_up(t):
        if t.dim() >= ndim:
            return t
        if t.dim() == 0:
            return reshape(t, [1] * ndim)
        if ndim == 2 or t.dim() == 2:
            t = unsqueeze(t, 0) if t.dim() == 1 else t
            return t if ndim == 2 else unsqueeze(t, -1)
        return unsqueeze(unsqueeze(t, 0), -1)

    def atleast(*tensors):
        many = len(tensors) != 1 or isinstance(tensors[0], (list, tuple))
        results = tuple(shape_up(t) for t in _tensors(tensors))
        return results if many else results[0]

    atleast.__name__ = f"atleast_{ndim}d"
    return atleast


atleast_1d, atleast_2d, atleast_3d = _atleast(1), _atleast(2), _atleast(3)


@out_variant(CAT, name="cat", no_overlap="inputs")
def hstack(tensors):
    if not len(tensors):
        raise RuntimeError("hstack expects a non-empty TensorList")
    rows = [atleast_1d(t) for t in tensors]
    return cat(rows, 0 if rows[0].dim() == 1 else 1)


@out_variant(CAT, name="cat", no_overlap="inputs")
def vstack(tensors):
    if not len(tensors):
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat([atleast_2d(t) for t in tensors], 0)


def column_stack(tensors):
    if not len(tensors):
        raise RuntimeError("column_stack expects a non-empty TensorList")
    columns = [reshape(t, [t.numel(), 1]) if t.dim() <= 1 else t for t in tensors]
    return aten.cat.default(columns, 1)


def dstack(tensors):
    if not len(tensors):
        raise RuntimeError("dstack expects a non-empty TensorList")
    return aten.cat.default(list(atleast_3d(*tensors)) if len(tensors) > 1 else [atleast_3d(tensors[0])], 2)


def diag(input, diagonal=0):
    if input.dim() == 1:
        return aten.diag_embed.default(input, diagonal)
    if input.dim() == 2:
        return aten.diagonal_copy.default(input, diagonal)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")


tril = _function_of(aten.tril.default, EXACT)
triu = _function_of(aten.triu.default, EXACT)


def flip(input, dims):
    wrapped = [wrap_dim(d, input.dim()) for d in dims]
    if repeated := [d for d in wrapped if wrapped.count(d) > 1]:
        raise RuntimeError(f"dim {repeated[0]} appears multiple times in the list of dims")
    return aten.flip.default(input, list(dims))


rot90 = _function_of(aten.rot90.default)
diag_embed = _function_of(aten.diag_embed.default)
diagonal_copy = _function_of(aten.diagonal_copy.default)
