"""The torch-level shape functions: views, joining and splitting, indexing, and the small helpers.

Runtime layer, between user code and the op registry (gathered into the `minitorch2` namespace by _functions.py).
Each function picks the aten op PyTorch's own function records: `reshape` is a `view` when the strides allow one and
a `clone` plus `_unsafe_view` otherwise, `flatten` and `chunk` are composed of `reshape` and `split`. The other
function modules build on this one (matmul's reshapes, `where(condition)`'s nonzero), so it also holds the argument
helpers they share (`_t`, `_dims`).
"""
import functools

from . import _dtype
from ._aten.composite_sizes import flattened_shape
from ._aten.derivatives_util import _reshape
from ._aten.meta_util import broadcast_shapes
from ._arg_parser import ArgumentChecks
from ._functions_extra_methods import scatter  # noqa: F401  (the deprecated reduce= beside the overloads)
from ._ops import ops, python_signature
from ._out import CAT, EXACT, INDEX_SELECT, NONZERO, TAKE, out_variant
from ._sym import SymInt
from ._tensor import Tensor, wrap_dim

aten = ops.aten


# ---------------------------------------------------------------- argument helpers
def _t(x):
    return isinstance(x, Tensor)


def _function_of(overload, rule=None, **out_options):
    """torch.<name>(input, ...) that only calls `overload` with the arguments as given (its schema binds them
    and refuses a bad call with torch's TypeError, a Python number for a Tensor too, unlike a call of the op
    itself); with torch's out= argument when a rule is given (_out.py)."""
    strict = ArgumentChecks(overload._schema, numbers_as_tensors=False)

    def fn(input, *args, **kwargs):
        if not _t(input) or any(isinstance(a, (bool, int, float, complex)) for a in (*args, *kwargs.values())):
            strict.check(overload, (input, *args), kwargs)
        return overload(input, *args, **kwargs)

    fn.__name__ = fn.__qualname__ = overload._opname
    fn.__signature__ = python_signature(overload, first="input")
    return fn if rule is None else out_variant(rule, **out_options)(fn)


def alias_of(fn, name):
    """torch.<name>, another name for fn (torch.subtract for torch.sub): the same call as a function of its
    own, so a traced graph prints the name the program used, as torch's do."""
    @functools.wraps(fn)
    def alias(*args, **kwargs):
        return fn(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = name
    return alias


def _dims(dim):
    return None if dim is None else list(dim) if isinstance(dim, (list, tuple)) else [dim]


# ---------------------------------------------------------------- shape functions
def reshape(input, shape, *more):
    if more or isinstance(shape, int):
        shape = [shape, *more]
    return _reshape(input, shape)  # a view where the strides allow one, else a contiguous clone viewed as shape


def view(input, shape):
    return aten.view.default(input, list(shape))


def flatten(input, start_dim=0, end_dim=-1):
    n = input.dim()
    s, e = wrap_dim(start_dim, n), wrap_dim(end_dim, n)
    if n == 0:
        return reshape(input, [1])
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    return input if s == e else reshape(input, flattened_shape(input, s, e))


def squeeze(input, dim=None):
    if dim is None:
        return aten.squeeze.default(input)
    return aten.squeeze.dims(input, list(dim)) if isinstance(dim, (list, tuple)) else aten.squeeze.dim(input, dim)


unsqueeze = _function_of(aten.unsqueeze.default)


def permute(input, dims):
    return aten.permute.default(input, list(dims))


transpose = _function_of(aten.transpose.int)
swapaxes, swapdims = alias_of(transpose, "swapaxes"), alias_of(transpose, "swapdims")


t = _function_of(aten.t.default)


def expand(input, size):
    return aten.expand.default(input, list(size))


select = _function_of(aten.select.int)


diagonal = _function_of(aten.diagonal.default)
as_strided = _function_of(aten.as_strided.default)
as_strided_scatter = _function_of(aten.as_strided_scatter.default)


def _tensor_sequence(tensors):
    """A tuple of tensors as the schema's list; anything else goes on as given, for the op's TypeError
    (list() would make a tensor's rows into a list)."""
    return list(tensors) if isinstance(tensors, tuple) else tensors


@out_variant(CAT, no_overlap="inputs")
def cat(tensors, dim=0):
    return aten.cat.default(_tensor_sequence(tensors), dim)


concat, concatenate = alias_of(cat, "concat"), alias_of(cat, "concatenate")


@out_variant(CAT, no_overlap="inputs")
def stack(tensors, dim=0):
    return aten.stack.default(_tensor_sequence(tensors), dim)


def split(tensor, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, (int, SymInt)):
        return tuple(aten.split.Tensor(tensor, split_size_or_sections, dim))
    return tuple(aten.split_with_sizes.default(tensor, list(split_size_or_sections), dim))


def chunk(input, chunks, dim=0):
    if chunks <= 0 or input.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor" if input.dim() == 0 else
                           f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input.shape[wrap_dim(dim, input.dim())]
    each = (size + chunks - 1) // chunks  # (ATen's steps: over a SymInt, the graph's add, sub and floordiv)
    if each == 0 and size == 0:  # (split would give one empty piece, not `chunks`)
        return split(input, [0] * chunks, dim)
    return split(input, each, dim)


def unbind(input, dim=0):
    return tuple(aten.unbind.int(input, dim))


@out_variant(EXACT, no_overlap="input")
def gather(input, dim, index, *, sparse_grad=False):
    return aten.gather.default(input, dim, index)


scatter_add = _function_of(aten.scatter_add.default, EXACT)
scatter_reduce = _function_of(aten.scatter_reduce.two, EXACT)
take = _function_of(aten.take.default, TAKE, no_overlap="inputs")


def index_put(input, indices, values, accumulate=False):
    return aten.index_put.default(input, list(indices), values, accumulate)


index_copy = _function_of(aten.index_copy.default, EXACT)


def index_fill(input, dim, index, value):
    return (aten.index_fill.int_Tensor if _t(value) else aten.index_fill.int_Scalar)(input, dim, index, value)


index_select = _function_of(aten.index_select.default, INDEX_SELECT, no_overlap="inputs")
index_add = _function_of(aten.index_add.default, EXACT)


@out_variant(NONZERO, differentiable=False, no_overlap="inputs")
def nonzero(input, *, as_tuple=False):
    result = aten.nonzero.default(input.reshape(-1) if as_tuple and input.dim() == 0 else input)  # (0-d read as 1-d)
    return tuple(result.unbind(1)) if as_tuple else result


def clone(input, *, memory_format=None):
    return aten.clone.default(input, memory_format=memory_format)  # (the schema drops a default None)


detach = _function_of(aten.detach.default)


def numel(input):
    return input.numel()


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.dtype.is_floating_point


def broadcast_tensors(*tensors):
    shape = list(broadcast_shapes(*(tuple(t.shape) for t in tensors)))
    return tuple(t if list(t.shape) == shape else expand(t, shape) for t in tensors)  # (ATen's expand_outplace)


broadcast_to = alias_of(expand, "broadcast_to")


def result_type(tensor1, tensor2):
    return _dtype.result_type(tensor1, tensor2)
