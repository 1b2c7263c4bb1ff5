"""Memory-overlap checks for ops that write into a tensor (ATen's MemoryOverlap.cpp).

Runtime layer, applied by the operator table to every in-place op's kernel. Meta functions check only where torch's
fake tensors do (checked_in_trace): otherwise a trace records the op, and a functionalized graph computes what
functionalization orders. Two faults are caught before anything is written:

    internal overlap   the written-to tensor has a zero stride over a dim of
                       size > 1 (an expanded tensor): several elements are one
                       memory location, so the result would depend on order
    partial overlap    an input shares memory with the written-to tensor
                       without being laid over exactly the same elements in
                       the same order (`y.add_(y.t())`, `y.add_(y[0])`);
                       full overlap (`y.add_(y)`) is fine for a pointwise op

Which op checks what is the op's `Overlap` policy, given on its table row.
"""
import enum
import math
import warnings

import numpy as np

from .._tensor import Tensor
from . import loop_order
from .memory import _check_fits
from .meta_util import broadcast_shapes, is_non_overlapping_and_dense

INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
    "Please clone() the tensor before performing the operation."
)
PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
    "location. Please clone() the tensor before performing the operation."
)


class Overlap(enum.Enum):
    """What an in-place op checks of `self` (the written-to tensor) against itself and its inputs."""
    NONE = "none"            # fill_.Scalar, zero_: writing one value is the same in any order
    INTERNAL = "internal"    # fill_.Tensor, masked_scatter_: self must not overlap itself; its inputs may be in it
    POINTWISE = "pointwise"  # add_, uniform_ ...: no internal overlap, no partial overlap with an input
    COPY = "copy"            # copy_: as POINTWISE, except that copying a view onto the same view is nothing to do
    MASKED = "masked"        # masked_fill_: an expanded self only warns (deprecated in torch); the mask is checked
    FILL = "fill"            # index_fill_: as MASKED, with the index checked instead of a mask
    INDEXED = "indexed"      # index_put_: an expanded self warns; an input must not overlap self at all
    SCATTER = "scatter"      # scatter_, index_add_: as INDEXED, except that an expanded self raises


EXPANDED_WARNING = {  # policy -> (the op torch's warning names, the subscript it gives as an example)
    Overlap.MASKED: ("masked_fill_", "tensor[mask] = scalar"), Overlap.FILL: ("index_fill_", "tensor[mask] = scalar"),
    Overlap.INDEXED: ("index_put_", "tensor[indices] = tensor"),
}


class _Status(enum.Enum):
    NO = 0
    PARTIAL = 1
    FULL = 2
    TOO_HARD = 3


def has_internal_overlap(t):
    """Yes only when certain (a zero stride over a dim of size > 1), as ATen's MemOverlap::Yes."""
    if 0 not in t._stride or is_non_overlapping_and_dense(t):
        return False
    return any(stride == 0 and size > 1 for size, stride in zip(t._shape, t._stride))


def elements_alias(shape, stride):
    """Whether two elements of a view of these sizes and strides are one memory location: exact, where ATen's
    check above only knows zero strides (an unfold with overlapping windows, an as_strided view). A symbolic size
    or stride answers False (not known); a view too large to count its offsets, True where it may overlap."""
    dims = sorted(((n, abs(s)) for n, s in zip(shape, stride) if n != 1), key=lambda d: d[1])
    if not all(isinstance(v, int) for d in dims for v in d) or any(n == 0 for n, _ in dims):
        return False
    reach = 0
    for n, s in dims:  # each stride beyond the span of the smaller ones: no two elements meet
        if s <= reach:
            break
        reach += s * (n - 1)
    else:
        return False
    if math.prod(n for n, _ in dims) > 1 << 22:
        return True
    offsets = np.zeros(1, np.int64)
    for n, s in dims:
        offsets = (offsets[:, None] + np.arange(n, dtype=np.int64) * s).ravel()
    return len(np.unique(offsets)) < len(offsets)


def overlap_status(a, b):
    if a is b:
        return _Status.FULL
    if a._storage is not b._storage or a.numel() == 0 or b.numel() == 0:
        return _Status.NO
    if not (is_non_overlapping_and_dense(a) and is_non_overlapping_and_dense(b)):
        return _Status.TOO_HARD
    a_begin, b_begin = a._offset * a.dtype.itemsize, b._offset * b.dtype.itemsize
    a_end, b_end = a_begin + a.numel() * a.dtype.itemsize, b_begin + b.numel() * b.dtype.itemsize
    if a_begin == b_begin and a_end == b_end:
        return _Status.FULL if a._stride == b._stride else _Status.PARTIAL
    if a_begin < b_end and b_begin < a_end:
        return _Status.PARTIAL
    return _Status.NO


def assert_no_internal_overlap(t):
    if has_internal_overlap(t):
        raise RuntimeError(INTERNAL_OVERLAP)


def assert_no_partial_overlap(out, t):
    if overlap_status(out, t) is _Status.PARTIAL:
        raise RuntimeError(PARTIAL_OVERLAP)


def assert_no_overlap(out, t):
    if overlap_status(out, t) in (_Status.PARTIAL, _Status.FULL):
        raise RuntimeError(PARTIAL_OVERLAP)


def _warn_expanded(op_name, how):
    warnings.warn(f"Use of {op_name} on expanded tensors is deprecated. Please clone() the tensor before performing "
                  f"this operation. This also applies to advanced indexing e.g. {how}", UserWarning, stacklevel=4)


def _same_data(a, b):
    """Same memory, same layout, same dtype: ATen's copy_ returns at once (an expanded tensor included)."""
    return isinstance(b, Tensor) and a._storage is b._storage and a._offset == b._offset and \
        a._stride == b._stride and a._shape == b._shape and a.dtype is b.dtype


def _input_tensors(args, kwargs):
    for value in (*args, *kwargs.values()):
        if isinstance(value, Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, Tensor))


def fills_by_mask(args, kwargs):
    """index_put_(self, [None, ..., bool mask, None, ...], one value): ATen runs masked_fill_ (value.item(), cast),
    no overlap to check."""
    indices, values, accumulate = (*args, kwargs.get("accumulate", False))[:3]
    given = [index for index in indices if index is not None] if isinstance(indices, (list, tuple)) else []
    return len(given) == 1 and isinstance(given[0], Tensor) and given[0].dtype.np == np.bool_ and \
        values.numel() == 1 and not accumulate


def check(policy, self, args, kwargs):
    """Raise torch's error when writing into `self` from these inputs would read memory it has written."""
    if policy is Overlap.NONE or (policy is Overlap.COPY and _same_data(self, args[0])):
        return
    if policy in (Overlap.INTERNAL, Overlap.POINTWISE, Overlap.COPY, Overlap.SCATTER):
        assert_no_internal_overlap(self)
    elif has_internal_overlap(self):
        _warn_expanded(*EXPANDED_WARNING[policy])
    if policy is Overlap.INTERNAL or (policy is Overlap.INDEXED and fills_by_mask(args, kwargs)):
        return
    no_overlap = assert_no_overlap if policy in (Overlap.INDEXED, Overlap.SCATTER) else assert_no_partial_overlap
    inputs = {Overlap.MASKED: args[:1], Overlap.FILL: args[1:2]}.get(policy, args)  # (a fill's value is read first)
    for t in _input_tensors(inputs, {} if policy in (Overlap.MASKED, Overlap.FILL) else kwargs):
        if t._storage is self._storage:
            no_overlap(self, t)


def _overlaps_itself(t):
    """Whether two of t's elements may be one address (an expanded tensor, overlapping windows of as_strided)."""
    return not is_non_overlapping_and_dense(t) and loop_order.may_overlap_itself(t)


def _unchecked_overlap(self, args, kwargs):
    """Overlaps ATen's checks let through (too hard to tell), where its loop order decides the result."""
    return any(overlap_status(self, t) is _Status.TOO_HARD for t in _input_tensors(args, kwargs)) or \
        _overlaps_itself(self)


def _write_selected_only(kernel, self, args, kwargs):
    """A fill of a self whose elements share addresses (expanded, as_strided): ATen's loop writes only the selected
    elements, so an address takes the fill when any of its elements is selected. The kernel runs on a dense copy;
    the elements whose bits it changed are the selected ones (an unchanged one may be written or not alike)."""
    scratch = kernel(self.clone(), *args, **kwargs)
    width = self.dtype.itemsize
    before, after = (np.ascontiguousarray(t._np).view(np.uint8).reshape(-1, width) for t in (self, scratch))
    changed = (before != after).any(axis=1).reshape(self.shape)
    self._np[changed] = scratch._np[changed]
    self._bump_version()
    return self


def _shapes_fit(self, args):
    """The kernel's shape errors (inputs that do not broadcast, a result larger than self), raised before the loop
    order path would meet them in numpy's words."""
    _check_fits(self, broadcast_shapes(self.shape, *(t.shape for t in args if isinstance(t, Tensor))))
    return True


def checked_in_trace(impl):
    """(kernel, meta) whose meta refuses an expanded self, as torch's fake tensors do (meta_copy_'s words) for copy_
    and the in-place ops they run as references that copy into self (not add_, mul_...: kernels of their own)."""
    def checked_meta(self, *args, **kwargs):
        if has_internal_overlap(self):
            raise RuntimeError("more than one element of the written-to tensor refers to a single memory location")
        return impl[1](self, *args, **kwargs)
    return impl[0], checked_meta


def checked(impl, policy):
    """The (kernel, meta) pair of an in-place op with its overlap check run first in the kernel."""
    kernel, meta = impl
    if policy is Overlap.NONE or kernel is None:
        return impl

    def checked_kernel(self, *args, **kwargs):
        check(policy, self, args, kwargs)
        if policy in (Overlap.MASKED, Overlap.FILL) and _overlaps_itself(self):
            return _write_selected_only(kernel, self, args, kwargs)
        if policy in (Overlap.POINTWISE, Overlap.COPY) and _unchecked_overlap(self, args, kwargs) and \
                _shapes_fit(self, args) and loop_order.run_in_loop_order(kernel, self, args, kwargs):
            return self
        return kernel(self, *args, **kwargs)

    return checked_kernel, meta
