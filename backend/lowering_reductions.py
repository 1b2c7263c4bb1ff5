"""Lowerings of reductions and of the normalization ops built from them (plays torch._inductor's reduction
lowerings and the decompositions it applies to norms).

Backend layer, called by `lowering.GraphLowering`. `make_reduction` is the one builder: it reads its input at (kept
dims from the output index, reduced dims from the reduction index), and the result is realized at once (a reduction is
never inlined) unless it has at most one element to reduce: then it is a pointwise (the element itself, its index 0,
or the identity of an empty sum, prod, any or all), with no reduction loop for code generation to get wrong.
Everything else here is composed from it and from the pointwise lowerings: mean is a sum times 1/n, var is two passes
(mean, then the sum of squared deviations: accurate where sum-of-squares cancels), the layer- and batch-norm forwards
and backwards are a few reductions and one pointwise expression each, which the scheduler then fuses.
"""
import math

from minitorch2 import _dtype
from minitorch2._aten.meta_util import reduction_dims
from minitorch2._aten.reductions import sum_dtype

from . import ir
from . import loop_ir as L
from . import lowering_pointwise as P
from .virtualized import current_graph


_EMPTY_IDENTITY = {"sum": 0, "prod": 1, "any": False, "all": True}  # max, min, argmax...: eager raises


def make_reduction(x, dims, keepdim, reduction_type, dtype=None):
    size = x.get_size()
    dims = reduction_dims(dims, len(size))
    kept = [d for d in range(len(size)) if d not in dims]
    out_size = [1 if d in dims else n for d, n in enumerate(size)] if keepdim else [size[d] for d in kept]
    load = x.make_loader()
    value_dtype = dtype or x.dtype
    result_dtype = _dtype.int64 if reduction_type in ("argmax", "argmin") else (
        _dtype.bool_ if reduction_type in ("any", "all") else value_dtype)

    def inner_fn(idx, ridx):
        full = [None] * len(size)
        for position, d in enumerate(kept):
            full[d] = idx[d] if keepdim else idx[position]
        for position, d in enumerate(dims):
            full[d] = ridx[position]
        return P.cast(load(full), value_dtype)

    if math.prod(size[d] for d in dims) == 0:  # nothing to loop over; max() of nothing fails to compile, as Inductor's
        assert reduction_type in _EMPTY_IDENTITY, f"{reduction_type} not supported for zero-dimension tensors!"
        identity = _EMPTY_IDENTITY[reduction_type]
        return P.pointwise_node(out_size, result_dtype, lambda idx: P.constant(identity, result_dtype))
    if math.prod(size[d] for d in dims) == 1:  # one element per output: no loop, a pointwise (fuses)
        if reduction_type in ("argmax", "argmin"):  # its index, 0
            return P.pointwise_node(out_size, result_dtype, lambda idx: P.constant(0, result_dtype))
        plus_zero = reduction_type == "sum" and result_dtype.is_floating_point  # eager sums from 0.: -0. sums to 0.

        def one_element(idx):
            value = P.cast(inner_fn(idx, [L.Const(0)] * len(dims)), result_dtype)
            return P.op("add", P.constant(0, result_dtype), value) if plus_zero else value

        return P.pointwise_node(out_size, result_dtype, one_element)
    return reduction_node(out_size, [size[d] for d in dims], reduction_type, inner_fn, result_dtype)


def reduction_node(size, reduction_ranges, reduction_type, inner_fn, dtype):
    box = ir.StorageBox(ir.Reduction(size, reduction_ranges, reduction_type, inner_fn, dtype), current_graph())
    box.realize()
    return box


def sum_(x, dims=None, keepdim=False, *, dtype=None):
    return make_reduction(x, dims, keepdim, "sum", sum_dtype(x, dtype))


def prod(x, dims=None, keepdim=False, *, dtype=None):
    return make_reduction(x, dims, keepdim, "prod", sum_dtype(x, dtype))


def _count(x, dims):
    size = x.get_size()
    return math.prod(size[d] for d in reduction_dims(dims, len(size)))


def mean(x, dims=None, keepdim=False, *, dtype=None):
    return _divided(make_reduction(x, dims, keepdim, "sum", _dtype.opmath(dtype or P.float_dtype(x))),
                    _count(x, dims), dtype or P.float_dtype(x))


def _divided(total, n, dtype):
    """total / n, rounded to dtype once: float16's mean and var are summed and divided in float32, as torch's."""
    return P.pointwise(lambda s: P.cast(P.op("truediv", s, P.constant(n, total.dtype)), dtype), total)


def reduction(kind, value_dtype=None):
    """amax, amin, argmax and argmin (over dims, or dims=None all of them), any and all (value_dtype bool: of the
    truth values of x; over an empty list of dims, each element's)."""
    def lower(x, dims=None, keepdim=False):
        if value_dtype is _dtype.bool_ and dims is not None and not isinstance(dims, int) and len(dims) == 0:
            return P.to_dtype(x, value_dtype)
        return make_reduction(x, dims, keepdim, kind, value_dtype)

    return lower


def value_and_index(kind):
    """max.dim / min.dim: the extreme values along `dim` and their positions."""
    return lambda x, dim, keepdim=False: (make_reduction(x, dim, keepdim, kind),
                                          make_reduction(x, dim, keepdim, "arg" + kind))


def var(x, dims=None, *, correction=None, keepdim=False):
    correction = 1 if correction is None else correction
    compute = _dtype.opmath(P.float_dtype(x))
    centered = P.sub(x, mean(x, dims, True, dtype=compute))
    squares = make_reduction(P.pointwise(lambda v: P.op("mul", v, v), centered), dims, keepdim, "sum", compute)
    return _divided(squares, L.size_max(_count(x, dims) - correction, 0), P.float_dtype(x))


def var_mean(x, dims=None, *, correction=None, keepdim=False):
    return var(x, dims, correction=correction, keepdim=keepdim), mean(x, dims, keepdim)


def dot(a, b):
    return sum_(P.pointwise(lambda u, v: P.op("mul", u, v), a, b))
