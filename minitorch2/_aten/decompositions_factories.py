"""zeros and ones as torch's decomposition tables write them: a `full` of the size, of value False / True for bool
and 0 / 1 otherwise, with the default dtype and the layout said; zeros_like, ones_like, full_like and fill (and
fill_) a `full` too, in the input's memory order, permuted back, where it is not contiguous; new_zeros, new_ones
and new_full a `full` of self's dtype, new_empty an `empty`.

Runtime layer, coverage surface: decompositions in table.py's rows for these factories. Without them the factories
stay whole in the traced joint graph and the backend's joint-graph pass folds them into the same `full` later
(backend/joint_graph.py), so compiled code is the same; with them the joint graph is recorded as torch's.
"""
from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format, strided
from .meta_util import tensor_iterator_order

aten = ops.aten


def _size_as_full(value):
    def decomposition(size, *, dtype=None, layout=None, device=None, pin_memory=None):
        dtype = dtype or _dtype.get_default_dtype()
        return ops.aten.full.default(list(size), bool(value) if dtype is _dtype.bool_ else value, dtype=dtype,
                                     layout=strided, device=device, pin_memory=False)

    return decomposition


zeros, ones = _size_as_full(0), _size_as_full(1)


def _like_as_full(value_of):
    """zeros_like / ones_like / full_like / fill: a `full` (as torch's decompositions); of a non-contiguous tensor
    (format preserved) a `full` in its dims' memory order, permuted back and cloned."""
    def decomposition(self, *args, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        if memory_format not in (None, "torch.preserve_format", "torch.contiguous_format"):
            return NotImplemented
        n, contiguous = self.dim(), self.is_contiguous() or memory_format == contiguous_format
        order = list(range(n)) if contiguous else tensor_iterator_order(self.shape, [self.stride()])[::-1]
        filled = aten.full.default([self.shape[d] for d in order], value_of(args), dtype=dtype or self.dtype,
                                   layout=strided, device=self.device, pin_memory=False)
        back = sorted(range(n), key=order.__getitem__)  # (the inverse permutation)
        return filled if order == sorted(order) else aten.clone.default(aten.permute.default(filled, back))

    return decomposition


zeros_like, ones_like = _like_as_full(lambda args: 0), _like_as_full(lambda args: 1)
full_like = fill = _like_as_full(lambda args: args[0])


def _new_as_full(value_of):
    """new_zeros / new_ones / new_full: a `full` of the given size with self's dtype by default."""
    def decomposition(self, size, *args, dtype=None, layout=None, device=None, pin_memory=None):
        return aten.full.default(list(size), value_of(args), dtype=dtype or self.dtype, layout=strided,
                                 device=self.device, pin_memory=False)

    return decomposition


new_zeros = _new_as_full(lambda args: 0)
new_ones = _new_as_full(lambda args: 1)
new_full = _new_as_full(lambda args: args[0])


def new_empty(self, size, *, dtype=None, layout=None, device=None, pin_memory=None):
    """x.new_empty(size): an `empty` of that size with x's dtype and device unless others are given, as torch's
    reference writes it (what inductor's table records in place of new_empty)."""
    return aten.empty.memory_format(list(size), dtype=dtype or self.dtype, layout=strided,
                                    device=device or self.device, pin_memory=False)
