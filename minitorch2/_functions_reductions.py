"""The torch-level reductions: sum, mean, prod, amax/amin, max/min, var/std, logsumexp, cumsum, any/all, softmax.

Runtime layer, between user code and the op registry (gathered into the
`minitorch2` namespace by _functions.py). Each function turns PyTorch's
optional-dim calling conventions into one aten overload: no dim is the full
reduction (`sum.default`), a dim or a list of dims the dim overload; `max` and
`min` over a dim return the named (values, indices) pair, and with a tensor
argument they are `maximum`/`minimum`.
"""
from ._functions_pointwise import maximum, minimum
from ._functions_shape import _dims, _t
from ._ops import ops

aten = ops.aten


# ---------------------------------------------------------------- reductions
def sum(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.sum.default(input, dtype=dtype)
    return aten.sum.dim_IntList(input, _dims(dim), keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.mean.default(input, dtype=dtype)
    return aten.mean.dim(input, _dims(dim), keepdim, dtype=dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.prod.default(input, dtype=dtype)
    return aten.prod.dim_int(input, dim, keepdim, dtype=dtype)


def amax(input, dim=(), keepdim=False):
    return aten.amax.default(input, _dims(dim), keepdim)


def amin(input, dim=(), keepdim=False):
    return aten.amin.default(input, _dims(dim), keepdim)


class _MinMax(tuple):
    """torch.return_types.max: a (values, indices) tuple with names."""

    def __new__(cls, values, indices, name="max"):
        self = tuple.__new__(cls, (values, indices))
        self._name = name
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def max(input, dim=None, keepdim=False, *, out=None):
    if dim is None:
        return aten.max.default(input)
    if _t(dim):
        return maximum(input, dim)
    return _MinMax(*aten.max.dim(input, dim, keepdim), name="max")


def min(input, dim=None, keepdim=False, *, out=None):
    if dim is None:
        return aten.min.default(input)
    if _t(dim):
        return minimum(input, dim)
    return _MinMax(*aten.min.dim(input, dim, keepdim), name="min")


def argmax(input, dim=None, keepdim=False):
    return aten.argmax.default(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return aten.argmin.default(input, dim, keepdim)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    if unbiased is None or unbiased is True:
        return None
    return 0


def _var_args(dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # var(x, False): the old `unbiased` positional form
        dim, unbiased = None, dim
    return _dims(dim), _correction(unbiased, correction), keepdim


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction, keepdim = _var_args(dim, unbiased, keepdim, correction)
    return aten.var.correction(input, dim, correction=correction, keepdim=keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction, keepdim = _var_args(dim, unbiased, keepdim, correction)
    return aten.std.correction(input, dim, correction=correction, keepdim=keepdim)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction, keepdim = _var_args(dim, unbiased, keepdim, correction)
    return aten.var_mean.correction(input, dim, correction=correction, keepdim=keepdim)


def logsumexp(input, dim, keepdim=False):
    return aten.logsumexp.default(input, _dims(dim), keepdim)


def cumsum(input, dim, *, dtype=None):
    return aten.cumsum.default(input, dim, dtype=dtype)


def any(input, dim=None, keepdim=False):
    if dim is None:
        return aten.any.default(input)
    return aten.any.dims(input, _dims(dim), keepdim)


def all(input, dim=None, keepdim=False):
    if dim is None:
        return aten.all.default(input)
    return aten.all.dims(input, _dims(dim), keepdim)


def softmax(input, dim, dtype=None, *, _stacklevel=3):
    if dtype is not None:
        input = input.to(dtype)
    return aten._softmax.default(input, dim, False)


def log_softmax(input, dim, dtype=None, *, _stacklevel=3):
    if dtype is not None:
        input = input.to(dtype)
    return aten._log_softmax.default(input, dim, False)
