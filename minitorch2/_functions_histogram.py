"""torch.histc and torch.histogram: counts of a tensor's values in equal bins over a range (or given edges).

Runtime layer, coverage surface (re-exported by _functions_extra.py, which _functions.py gathers into `minitorch2`).
Both are composites over aten ops as torch computes them: histc estimates each value's bin linearly and corrects it
by one against linspace's edges, histogram finds it with searchsorted; each counts by a scatter_add of ones (or of
the weights) into zeros.
"""
import math

from . import _dtype, return_types
from ._aten.memory import _dtype_title
from ._aten.scalar_arguments import OWN, read_scalar
from ._functions_shape import flatten
from ._ops import ops
from ._out import _CPP_TYPE
from ._tensor import Tensor

aten = ops.aten


def histc(input, bins=100, min=0, max=0):
    """torch's search: a bin estimated linearly, moved one either way against linspace's edges (the range is the
    data's when min == max, widened by one each way when that is one value), counted by a scatter of ones."""
    for bound in (min, max):  # (checked into input's type, compared as the doubles they are)
        read_scalar(bound, input.dtype, OWN)
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_dtype_title(input.dtype)}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    x = flatten(input)
    if min == max and x.numel():
        min, max = aten.min.default(x).item(), aten.max.default(x).item()
    low, high = (min - 1, max + 1) if min == max else (min, max)
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{low:g}, {high:g}] is not finite")
    edges = aten.linspace.default(low, high, bins + 1, dtype=input.dtype)
    left, right = aten.select.int(edges, 0, 0), aten.select.int(edges, 0, bins)
    estimate = aten.div.Tensor(aten.mul.Scalar(aten.sub.Tensor(x, left), bins), aten.sub.Tensor(right, left))
    position = aten.clamp.default(aten._to_copy.default(estimate, dtype=_dtype.int64), 0, bins - 1)
    next_edge = aten.index.Tensor(edges, [aten.clamp.default(aten.add.Scalar(position, 1), None, bins)])
    later = aten.logical_and.default(aten.lt.Scalar(position, bins - 1), aten.ge.Tensor(x, next_edge))
    position = aten.add.Tensor(position, aten._to_copy.default(later, dtype=_dtype.int64))
    earlier = aten.lt.Tensor(x, aten.index.Tensor(edges, [position]))
    position = aten.sub.Tensor(position, aten._to_copy.default(earlier, dtype=_dtype.int64))
    inside = aten.logical_and.default(aten.ge.Tensor(x, left), aten.le.Tensor(x, right))
    counts = aten.zeros.default([bins], dtype=input.dtype)
    ones = aten._to_copy.default(inside, dtype=input.dtype)
    return aten.scatter_add.default(counts, 0, aten.clamp.default(position, 0, bins - 1), ones)


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """(hist, bin_edges): `bins` equal bins over `range` (the data's min and max, 0 and 1 for none, widened by a
    half each way when they are one value), or the given edges; a value falls in the bin whose left edge is the last
    one <= it, the last bin closed on the right, values outside uncounted; each adds its weight (one); density divides
    by the total and the bin's width."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_dtype_title(input.dtype)}'")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                           f"have the same dtype, but got input({_CPP_TYPE[input.dtype.name]}), and "
                           f"weight({_CPP_TYPE[weight.dtype.name]})")
    x = flatten(input)
    if isinstance(bins, Tensor):
        edges = bins
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        low, high = range if range is not None else (
            (aten.min.default(x).item(), aten.max.default(x).item()) if x.numel() else (0.0, 1.0))
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                               "dimension 0")
        low, high = (low - 0.5, high + 0.5) if low == high else (low, high)
        edges = aten.linspace.default(low, high, bins + 1, dtype=input.dtype)
    count = edges.shape[0] - 1
    position = aten.sub.Scalar(aten.searchsorted.Tensor(edges, x, right=True), 1)
    right_edge = aten.select.int(edges, 0, count)
    inside = aten.logical_and.default(aten.ge.Tensor(x, aten.select.int(edges, 0, 0)), aten.le.Tensor(x, right_edge))
    adds = aten._to_copy.default(inside, dtype=input.dtype)
    if weight is not None:
        adds = aten.mul.Tensor(adds, flatten(weight))
    hist = aten.scatter_add.default(aten.zeros.default([count], dtype=input.dtype), 0,  # the last bin is closed
                                    aten.clamp.default(position, 0, count - 1), adds)
    if density:
        widths = aten.sub.Tensor(aten.slice.Tensor(edges, 0, 1), aten.slice.Tensor(edges, 0, 0, count))
        hist = aten.div.Tensor(aten.div.Tensor(hist, aten.sum.default(hist)), widths)
    return return_types.histogram(hist, edges)
