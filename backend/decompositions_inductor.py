"""Decompositions torch's inductor applies on top of the core table that only shape its graphs (plays part of
torch._inductor.decomposition): a batched outer product as a broadcast multiply, one-row products on the CPU as
multiply and sum, and a cat of one tensor repeated as an expand. (torch's also turns index_select into indexing
and index_add into an accumulating index_put, whose generated code checks bounds with words of its own; minitorch2's
compiled graphs raise eager's error for an index out of range, so those two stay whole.)

Backend layer, used by compile_fx.select_decomp_table (the inductor backend's decomposition table; aot_eager has
none of these). Each returns NotImplemented where torch's keeps the op, so the op stays whole there. Sizes that are
symbolic are never assumed to be 1: torch's checks are statically_known_true, which a size symbol does not pass.
"""
from minitorch2 import ops
from minitorch2._aten.meta_util import wrap_dim
from minitorch2._tensor import contiguous_format

aten = ops.aten


def _is(size, value):
    return isinstance(size, int) and size == value


def bmm(self, batch2):
    """[B, M, 1] x [B, 1, N]: the broadcast multiply; on the CPU, [B, 1, K] x [B, K, 1]: multiply and sum.
    (Half inputs, which torch's computes in float32, keep the op.)"""
    if self.dtype.itemsize < 4:
        return NotImplemented
    if _is(self.shape[2], 1) and _is(batch2.shape[1], 1):
        outer = aten.mul.Tensor(self, batch2)
        return outer if outer.is_contiguous() else aten.clone.default(outer, memory_format=contiguous_format)
    if _is(self.shape[1], 1) and _is(batch2.shape[-1], 1):
        products = aten.mul.Tensor(aten.squeeze.dim(self, 1), aten.squeeze.dim(batch2, -1))
        return aten.unsqueeze.default(aten.sum.dim_IntList(products, [1], True), 1)
    return NotImplemented


def mm(self, input2):
    """A small outer product (inner size 1, at most 32 elements in all) as a multiply; a row times a column as
    multiply and sum."""
    if (_is(self.shape[-1], 1) and not _is(self.shape[0], 1) and not _is(input2.shape[1], 1)
            and isinstance(self.shape[0], int) and self.shape[0] > 0 and _is(input2.shape[0], 1)
            and self.dtype is input2.dtype and self.numel() + input2.numel() <= 32):
        return aten.mul.Tensor(self, input2)
    if _is(self.shape[0], 1) and _is(input2.shape[-1], 1):
        products = aten.mul.Tensor(aten.squeeze.dim(self, 0), aten.squeeze.dim(input2, -1))
        return aten.unsqueeze.default(aten.sum.dim_IntList(products, [0], True), 0)
    return NotImplemented


def cat(tensors, dim=0):
    """The same tensor given more than once and nothing else: unsqueeze, expand, flatten and clone. (torch's
    also drops legacy empty inputs first; those keep the op whole here.)"""
    first = tensors[0]
    if len(tensors) < 2 or any(t is not first for t in tensors) or any(s == 0 for s in first.shape):
        return NotImplemented
    dim = wrap_dim(dim, first.dim())
    shape = [*first.shape]
    shape.insert(dim, len(tensors))
    expanded = aten.expand.default(aten.unsqueeze.default(first, dim), shape)
    flat = aten.view.default(aten.clone.default(expanded, memory_format=contiguous_format), _flattened(shape, dim))
    return aten.clone.default(flat)  # (flatten of the expand copies it: torch's reshape, then the clone)


def _flattened(shape, dim):
    return [*shape[:dim], shape[dim] * shape[dim + 1], *shape[dim + 2:]]


DECOMPOSITIONS = {aten.bmm.default: bmm, aten.mm.default: mm, aten.cat.default: cat}
