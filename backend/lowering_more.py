"""Lowerings of ops outside the core set that no stage of the pipeline produces: flip, repeat, the scans
(cumsum, cumprod), new_empty_strided and fill.Tensor (plays the matching part of torch._inductor.lowering).

Backend layer, called by `lowering.GraphLowering` like the core lowerings. Counted apart from the lesson (coverage
surface, .ci/line_budget.py): without these the ops still compile, as eager fallbacks. A case a lowering here does
not take raises NotImplementedError, and GraphLowering runs the op's eager kernel instead. `LOWERINGS` is merged
into lowering.py's table.
"""
from minitorch2 import _dtype
from minitorch2._tensor import wrap_dim

from . import ir
from . import loop_ir as L
from . import lowering_indexing as I
from . import lowering_pointwise as P


def flip(x, dims):
    """Reversed along `dims`: index n-1-i. Copied into a buffer of its own, so no view with negative
    strides reaches an extern kernel."""
    size = x.get_size()
    dims = [wrap_dim(d, len(size)) for d in dims]

    def reindex(idx):  # (a dim of 1 keeps its index: over symbols, one the ranges prove longer than 1 is reversed)
        return [idx[d] * -1 + (n - 1) if d in dims and not L.is_one(n) else idx[d] for d, n in enumerate(size)]

    return P.clone(ir.View(x, size, reindex, "flip"))


def repeat(x, repeats):
    """Tiled `repeats` times per dimension (new leading dims allowed): index i reads i % n. Copied, as flip: over
    dims of 1 the view reads x at its own index, and would otherwise come back as an alias of x."""
    size = x.get_size()
    lead = len(repeats) - len(size)
    new = list(repeats[:lead]) + [n * r for n, r in zip(size, repeats[lead:])]

    def reindex(idx):
        return [L.Const(0) if n == 0 or L.is_one(n) else idx[lead + j] % n for j, n in enumerate(size)]

    return P.clone(ir.View(x, new, reindex, "repeat"))


def scan(x, dim, *, dtype=None):
    """cumsum / cumprod over a 0-d tensor: a copy, cast to int64 for integers and bools. Any other scan runs as
    its eager kernel (torch's CPU inductor has no scan code generation either)."""
    if x.get_size():
        raise NotImplementedError("a scan over a dimension")
    return P.to_dtype(x, dtype or (x.dtype if x.dtype.is_floating_point else _dtype.int64))


def new_empty_strided(x, size, stride, *, dtype=None, **_):
    """Uninitialised memory: a contiguous one is any buffer we allocate; other strides take the eager kernel,
    so a later as_strided reads the layout asked for."""
    if list(stride) != ir.contiguous_strides(size):
        raise NotImplementedError("new_empty_strided with other than contiguous strides")
    return P.new_factory(0)(x, size, dtype=dtype)


def fill_tensor(x, value):
    """x's shape filled with the one element of the 0-d tensor `value`, cast to x's dtype."""
    return P.pointwise(lambda _, v: v, x, value, compute_dtype=x.dtype)


def whole_for_half(lowering):
    """addmm's (or baddbmm's) lowering for all but half inputs, whose ATen kernel rounds the product plus the bias once
    (an extern product then a pointwise add would round twice): those run the eager kernel, as torch's extern addmm."""
    def lower(x, a, b, **kwargs):
        if a.dtype in _dtype.HALVES:
            raise NotImplementedError("a half addmm: ATen's kernel, whole")
        return lowering(x, a, b, **kwargs)
    return lower


LOWERINGS = {"flip": flip, "repeat": repeat, "cumsum": scan, "cumprod": scan, "new_empty_strided": new_empty_strided,
             "fill.Tensor": fill_tensor,
             "_unsafe_index.Tensor": I.index, "_unsafe_index_put": I.index_put}  # (traced nearest upsampling)
