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
from . import lowering_views as V
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

    if math.prod(size[d] for d in dims) == 0 and reduction_type in _EMPTY_IDENTITY:  # nothing to loop over
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
    truth values of x)."""
    return lambda x, dims=None, keepdim=False: make_reduction(x, dims, keepdim, kind, value_dtype)


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


# ---- normalization ------------------------------------------------------------------------


def _rsqrt_plus(var, eps):
    return P.pointwise(lambda v: P.op("rsqrt", P.op("add", v, P.constant(eps, v.dtype))), var)


def _per_channel(x):
    """(the dims a batch norm reduces: all but the channel dim 1, a viewer of a [C] tensor as [1, C, 1, ...])."""
    ndim = len(x.get_size())
    return [0] + list(range(2, ndim)), lambda t: V.view(t, [1, t.get_size()[0]] + [1] * (ndim - 2))


def batch_norm_functional(x, weight, bias, running_mean, running_var, training, momentum, eps):
    """_native_batch_norm_legit_functional: (out, save_mean, save_rstd, new_running_mean, new_running_var)."""
    dims, channel_view = _per_channel(x)
    if not training:
        out = _normalize(x, channel_view(running_mean), channel_view(_rsqrt_plus(running_var, eps)), weight, bias)
        return out, P.full([0], 0, dtype=x.dtype), P.full([0], 0, dtype=x.dtype), running_mean, running_var
    n, channels = _count(x, dims), [x.get_size()[1]]
    mean_c, biased = mean(x, dims, True), var(x, dims, correction=0, keepdim=True)
    rstd = _rsqrt_plus(biased, eps)
    out = _normalize(x, mean_c, rstd, weight, bias)
    save_mean, save_rstd = V.view(mean_c, channels), V.view(rstd, channels)
    new_mean = _running_update(running_mean, save_mean, momentum)
    new_var = _running_update(running_var, V.view(biased, channels), momentum, n / L.size_max(n - 1, 1))
    return out, save_mean, save_rstd, new_mean, new_var


def _running_update(running, batch, momentum, scale=1):
    """running * (1 - momentum) + batch * momentum * scale (the variance's scale: the unbiased estimate's)."""
    return P.pointwise(lambda r, b: P.op("add", P.op("mul", r, P.constant(1 - momentum, r.dtype)),
                                         P.op("mul", b, P.constant(momentum * scale, r.dtype))), running, batch)


def batch_norm_no_training(x, weight, bias, running_mean, running_var, momentum, eps):
    return batch_norm_functional(x, weight, bias, running_mean, running_var, False, momentum, eps)[:3]


def _normalize(x, mean_c, rstd, weight, bias):
    _, channel_view = _per_channel(x)
    out = P.pointwise(lambda v, m, r: P.op("mul", P.op("sub", v, m), r), x, mean_c, rstd)
    if weight is not None:
        out = P.pointwise(lambda o, w: P.op("mul", o, w), out, channel_view(weight))
    if bias is not None:
        out = P.pointwise(lambda o, b: P.op("add", o, b), out, channel_view(bias))
    return out


def native_batch_norm_backward(grad_out, x, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
                               output_mask):
    """In training, from the batch's statistics; in eval, from the running ones, where the normalization is
    affine per channel: the grads are then one pointwise expression and two per-channel sums."""
    dims, channel_view = _per_channel(x)
    scale = channel_view(weight) if weight is not None else 1.0
    if train:
        mean_c, invstd = channel_view(save_mean), channel_view(save_invstd)
    else:
        mean_c, invstd = channel_view(running_mean), channel_view(_rsqrt_plus(running_var, eps))
    sum_dy = sum_(grad_out, dims, True)
    dot = sum_(P.pointwise(lambda g, v, m: P.op("mul", g, P.op("sub", v, m)), grad_out, x, mean_c), dims, True)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0] and not train:
        grad_input = P.pointwise(lambda g, r, w: P.op("mul", g, P.op("mul", r, w)), grad_out, invstd, scale)
    elif output_mask[0]:
        n = _count(x, dims)

        def body(g, v, m, r, s, d, w):
            projection = P.op("mul", P.op("truediv", d, P.constant(n, d.dtype)), P.op("mul", r, r))
            centered = P.op("sub", P.op("sub", g, P.op("truediv", s, P.constant(n, s.dtype))),
                            P.op("mul", P.op("sub", v, m), projection))
            return P.op("mul", centered, P.op("mul", r, w))

        grad_input = P.pointwise(body, grad_out, x, mean_c, invstd, sum_dy, dot, scale)
    channels = [x.get_size()[1]]
    if output_mask[1]:
        grad_weight = V.view(P.pointwise(lambda d, r: P.op("mul", d, r), dot, invstd), channels)
    if output_mask[2]:
        grad_bias = V.view(sum_dy, channels)
    return grad_input, grad_weight, grad_bias
