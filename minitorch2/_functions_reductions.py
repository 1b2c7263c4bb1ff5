"""The torch-level reductions: sum, mean, amax/amin, max/min, var/std, cumsum, any/all, softmax.

Runtime layer, between user code and the op registry (gathered into the `minitorch2` namespace by _functions.py).
Each function turns PyTorch's optional-dim calling conventions into one aten overload: no dim is the full reduction
(`sum.default`), a dim or a list of dims the dim overload; `max` and `min` over a dim return the named (values,
indices) pair, and with a tensor argument they are `maximum`/`minimum`.
"""
from . import return_types
from ._arg_parser import out_needs_dim
from ._functions_pointwise import maximum, minimum
from ._functions_shape import _dims, _function_of, _t
from ._ops import ops
from ._out import AMAX, ANY, BOOL_ONLY, CAST, EXACT, FLOATING, MAX_ALL, MEAN_ALL, REDUCTION, out_variant

aten = ops.aten


# ---------------------------------------------------------------- reductions
@out_variant(out_needs_dim("sum"), dtype_from_out=REDUCTION)
def sum(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.sum.default(input, dtype=dtype)
    return aten.sum.dim_IntList(input, _dims(dim), keepdim, dtype=dtype)


@out_variant(lambda input, dim=None, *args, **kwargs: MEAN_ALL if dim is None else CAST, dtype_from_out=REDUCTION)
def mean(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.mean.default(input, dtype=dtype)
    return aten.mean.dim(input, _dims(dim), keepdim, dtype=dtype)


@out_variant(AMAX)
def amax(input, dim=(), keepdim=False):
    return aten.amax.default(input, _dims(dim), keepdim)


@out_variant(AMAX)
def amin(input, dim=(), keepdim=False):
    return aten.amin.default(input, _dims(dim), keepdim)


def _max_rule(input, dim=None, keepdim=False):
    """max(x) casts to out as a TensorIterator op, max(x, y) is maximum, max(x, dim) wants its own dtypes."""
    return MAX_ALL if dim is None else CAST if _t(dim) else EXACT


def _extremum(name, elementwise):
    """torch.max / torch.min: of everything, over a dim (values and indices), or of two tensors elementwise."""
    packet = getattr(aten, name)

    def fn(input, dim=None, keepdim=False):
        if dim is None:
            return packet.default(input)
        return elementwise(input, dim) if _t(dim) else getattr(return_types, name)(*packet.dim(input, dim, keepdim))

    fn.__name__ = fn.__qualname__ = name
    return out_variant(_max_rule)(fn)


max, min = _extremum("max", maximum), _extremum("min", minimum)


argmax = _function_of(aten.argmax.default, EXACT, differentiable=False)
argmin = _function_of(aten.argmin.default, EXACT, differentiable=False)


def _variance(name):
    """torch.var / std / var_mean: `unbiased` (or the old positional form, var(x, False)) as a correction."""
    overload = getattr(aten, name).correction

    def fn(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        if correction is None and unbiased is not None and unbiased is not True:
            correction = 0
        return overload(input, _dims(dim), correction=correction, keepdim=keepdim)

    fn.__name__ = fn.__qualname__ = name
    return fn


var, std = out_variant(CAST)(_variance("var")), out_variant(CAST)(_variance("std"))
var_mean = _variance("var_mean")


cumsum = _function_of(aten.cumsum.default, ANY, dtype_from_out=REDUCTION)


def _any_all(name):
    packet = getattr(aten, name)

    def fn(input, dim=None, keepdim=False):
        if dim is None:
            return packet.default(input)
        return packet.dim(input, dim, keepdim) if isinstance(dim, int) else packet.dims(input, _dims(dim), keepdim)

    fn.__name__ = fn.__qualname__ = name
    return out_variant(BOOL_ONLY, differentiable=False)(fn)


any, all = _any_all("any"), _any_all("all")


@out_variant(EXACT)
def softmax(input, dim, dtype=None, *, _stacklevel=3):
    if dtype is not None:
        input = input.to(dtype)
    return aten._softmax.default(input, dim, False)


@out_variant(EXACT)
def log_softmax(input, dim, dtype=None, *, _stacklevel=3):
    if dtype is not None:
        input = input.to(dtype)
    return aten._log_softmax.default(input, dim, False)
