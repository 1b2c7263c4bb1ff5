"""Lowerings of view ops to `ir.View`: index arithmetic over the base, never a copy (plays the view part of
torch._inductor.lowering and ir.View).

Backend layer, called by `lowering.GraphLowering`. Each function returns a View whose `reindex` maps an index of the
view to one of its base; a reader composes it into its own load, so `x.t()[i, j]` becomes a load of `x` at `(j, i)`.
Reshapes that are not a plain regrouping of contiguous dimensions index through FloorDiv/Mod of the flat position.
"""
import itertools
import math

from minitorch2._tensor import wrap_dim

from . import ir
from . import loop_ir as L
from . import lowering_pointwise as P
from .virtualized import current_graph


def view(x, size):
    old = x.get_size()
    numel = math.prod(old)  # (the trace checked the sizes; -1 is the rest of the elements)
    new = [L.floordiv(numel, math.prod(n for n in size if n != -1)) if n == -1 else n for n in size]
    if new == old:
        return x
    if numel == 0:  # no elements: nothing is ever loaded, and dimension groups need nonzero sizes
        return ir.View(x, new, lambda idx: [L.Const(0)] * len(old), "view")
    return ir.View(x, new, _reshape_reindex(old, new), "view")


def _reshape_reindex(old, new):
    """Map an index of `new` to one of `old` by groups of dimensions with equal products."""
    groups, i, j = [], 0, 0
    while i < len(old) or j < len(new):
        gi, gj = [i], [j]
        po, pn = (old[i] if i < len(old) else 1), (new[j] if j < len(new) else 1)
        i, j = i + 1, j + 1
        while po != pn:
            if L.known(po < pn):
                po *= old[i]
                gi.append(i)
                i += 1
            elif L.known(pn < po):
                pn *= new[j]
                gj.append(j)
                j += 1
            else:
                raise NotImplementedError(f"backend: a reshape of {old} to {new} over symbolic sizes")
        groups.append(([k for k in gi if k < len(old)], [k for k in gj if k < len(new)]))

    def reindex(idx):
        out = [None] * len(old)
        for old_dims, new_dims in groups:
            flat = L.Const(0)
            for k in new_dims:
                flat = flat * new[k] + idx[k]
            for position in reversed(range(len(old_dims))):
                k = old_dims[position]
                span = old[k]
                outermost = math.prod(old[d] for d in old_dims[:position + 1]) == span  # flat < span already
                out[k] = L.Const(0) if span == 1 else (flat if outermost else flat % span)
                flat = flat // span
        return out

    return reindex


def expand(x, size, implicit=False):
    old = x.get_size()
    lead = len(size) - len(old)
    new = [old[i - lead] if n == -1 else n for i, n in enumerate(size)]
    if new == old:
        return x

    def reindex(idx):
        return [L.Const(0) if old[i] != new[lead + i] and L.is_one(old[i]) else idx[lead + i] for i in range(len(old))]

    return ir.View(x, new, reindex, "expand")


def permute(x, dims):
    size = x.get_size()
    dims = [wrap_dim(d, len(size)) for d in dims]
    inverse = [dims.index(j) for j in range(len(size))]
    return ir.View(x, [size[d] for d in dims], lambda idx: [idx[i] for i in inverse], "permute")


def unsqueeze(x, dim):
    size = x.get_size()
    dim = wrap_dim(dim, len(size) + 1)
    return ir.View(x, size[:dim] + [1] + size[dim:], lambda idx: idx[:dim] + idx[dim + 1:], "unsqueeze")


def squeeze(x, dim=None):
    size = x.get_size()
    if not size:  # a 0-d tensor takes dim 0 or -1 and stays as it is
        return x
    asked = range(len(size)) if dim is None else dim if isinstance(dim, (list, tuple)) else [dim]
    squeezed = {d for d in (wrap_dim(d, len(size)) for d in asked) if L.is_one(size[d])}
    return view(x, [n for d, n in enumerate(size) if d not in squeezed])  # (a reshape that drops size-1 dims)


def _bound(position, n):
    """A slice bound in [0, n] (a negative one counts from the end), where the symbols' ranges decide it."""
    position = position + n if L.known(position < 0) else position
    if L.known(position >= n):
        return n
    if L.known(position <= 0):
        return 0
    if L.known(position >= 0) and L.known(position <= n):
        return position
    raise NotImplementedError(f"backend: a slice bound {position} of a size {n} over symbolic sizes")


def select(x, dim, index):
    size = x.get_size()
    dim = wrap_dim(dim, len(size))
    index = index + size[dim] if index < 0 else index
    return ir.View(x, size[:dim] + size[dim + 1:], lambda idx: idx[:dim] + [L.Const(index)] + idx[dim:], "select")


def slice_(x, dim=0, start=None, end=None, step=1):
    size = x.get_size()
    dim = wrap_dim(dim, len(size))
    start, end = _bound(0 if start is None else start, size[dim]), _bound(size[dim] if end is None else end, size[dim])
    end = start if L.known(end < start) else end  # (an empty slice)
    length = L.floordiv(end - start + step - 1, step)
    if not L.known(length >= 0):
        raise NotImplementedError(f"backend: a slice [{start}:{end}] over symbolic sizes that may be empty")
    if start == 0 and length == size[dim] and step == 1:
        return x

    def reindex(idx):
        return idx[:dim] + [idx[dim] * step + start] + idx[dim + 1:]

    return ir.View(x, size[:dim] + [length] + size[dim + 1:], reindex, "slice")


def as_strided(x, size, stride, storage_offset=None):
    """A strided view of the memory under `x`: realize it, then index its storage directly."""
    buffer = x.realize()
    located = ir.affine_layout(x)
    if located is None or located[0] != buffer.name:
        raise NotImplementedError("as_strided over a view that is not a strided view of one buffer")
    offset = located[1].offset if storage_offset is None else buffer.layout.offset + storage_offset
    return ir.ReinterpretView(buffer, ir.Layout(list(size), list(stride), x.dtype, offset))


def split(x, split_size, dim=0):
    size = x.get_size()[dim]  # (a negative dim as it is: split_with_sizes wraps it)
    chunks = L.static_int(L.floordiv(size + split_size - 1, split_size)) if size != 0 else 1  # (over sizes: guarded)
    return split_with_sizes(x, [split_size] * (chunks - 1) + [size - (chunks - 1) * split_size], dim)


def split_with_sizes(x, split_sizes, dim=0):
    starts = itertools.accumulate(split_sizes, initial=0)
    return tuple(slice_(x, dim, start, start + length) for start, length in zip(starts, split_sizes))


def unbind(x, dim=0):
    return tuple(select(x, dim, i) for i in range(x.get_size()[dim]))


def cat(tensors, dim=0):
    graph = current_graph()
    dtype = ir.promote(*tensors)  # (of all: the skipped ones' dtypes too)
    tensors = [t for t in tensors if not (len(t.get_size()) == 1 and t.get_size()[0] == 0)] or tensors[:1]  # legacy
    size = list(tensors[0].get_size())
    dim = wrap_dim(dim, len(size))
    size[dim] = sum(t.get_size()[dim] for t in tensors)
    stride = ir.contiguous_strides(size)
    concat = graph.register_buffer(lambda name: ir.ConcatBuffer(name, ir.Layout(size, stride, dtype)))
    start = 0
    for t in tensors:
        part = t.get_size()
        if ir.numel(part):
            body = ir.Pointwise(part, dtype, lambda idx, load=t.make_loader(): P.cast(load(idx), dtype))
            layout = ir.Layout(part, stride, dtype, start * stride[dim])
            copy = graph.register_buffer(lambda name: ir.ComputedBuffer(name, layout, body, concat.name))
            concat.writers.append(copy.name)
        start += part[dim]
    return concat


# ---- scatters into a slice, as a cat of pieces ----------------------------------------------


def slice_scatter(x, src, dim=0, start=None, end=None, step=1):
    """x with src written over x[start:end] along dim: cat(x before, src, x after)."""
    size = x.get_size()
    dim = wrap_dim(dim, len(size))
    start, end = _bound(0 if start is None else start, size[dim]), _bound(size[dim] if end is None else end, size[dim])
    if (step or 1) != 1:
        return _strided_slice_scatter(x, src, dim, start, step)
    return cat([slice_(x, dim, 0, start), src, slice_(x, dim, start if L.known(end < start) else end, size[dim])], dim)


def _strided_slice_scatter(x, src, dim, start, step):
    """x[start::step] = src without gathers: view x[start:start + m*step] as m blocks of `step` along dim, put src
    in front of each block's last step-1 elements (a cat along the block axis), flatten the blocks back, and cat
    x's head and tail around them (x padded with zeros when the last block runs past its end)."""
    size = x.get_size()
    count = src.get_size()[dim]
    span = count * step
    if count == 0:
        return P.clone(x)
    overhang = start + span - size[dim]
    padded = x if overhang <= 0 else cat([x, P.full(size[:dim] + [overhang] + size[dim + 1:], 0, dtype=x.dtype)], dim)
    blocks = view(slice_(padded, dim, start, start + span), size[:dim] + [count, step] + size[dim + 1:])
    spread = cat([unsqueeze(src, dim + 1), slice_(blocks, dim + 1, 1, step)], dim + 1)
    middle = view(spread, size[:dim] + [span] + size[dim + 1:])
    whole = cat([slice_(x, dim, 0, start), middle, slice_(x, dim, min(start + span, size[dim]), size[dim])], dim)
    return slice_(whole, dim, 0, size[dim])


def select_scatter(x, src, dim, index):  # (a negative dim counts from the end of x's dims, and of src's plus one)
    size = x.get_size()
    index = index + size[dim] if index < 0 else index
    return slice_scatter(x, unsqueeze(src, dim), dim, index, index + 1)

