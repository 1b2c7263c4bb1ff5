"""Which tensors share memory: the runtime's answer for the compiler stack.

A compiled function may be called with one tensor twice, or with views that share memory (`f(base[0:3],
base[1:4])`). Eagerly that is harmless; a traced graph, though, assumes its inputs are distinct memory, so an
in-place change to one input silently misses the other. The frontend guards on the pattern found here, and AOT
dedupes identical inputs and gives overlapping ones a common base (autograd/input_aliasing.py), as torch's Dynamo
and AOT do with torch's compute_overlapping_tensors.

The one idea to hold: two tensors overlap when they can touch a common byte. The test is on byte spans (lowest to
highest element address), plus torch's one exact case: 2-D views with contiguous rows and one row stride whose rows
interleave (`x[::2]` and `x[1::2]` of a row-major x) are apart. Otherwise it is conservative, as torch's:
interleaved columns or 1-D views count as overlapping. Saying "overlap" wrongly is never a wrong value, but it is
not free: AOT then traces the views as one synthetic base, and autograd in that trace can refuse what torch's
compiles (a view saved for the backward while the other is changed in place), so the rule follows torch's where
torch is right; saying "apart" wrongly would be a wrong value (torch 2.13's rule calls `x[:-1, :-1]` and `x[1:, 1:]`
apart, and its compiled result is wrong there).
"""
import numpy as np

from ._tensor import Tensor

Groups = tuple  # tuple of tuples of positions, each of two or more overlapping tensors, in order


def memory_owner(t):
    """The numpy array that owns t's memory (views of one owner can overlap; of two owners, never)."""
    owner = t._storage
    while isinstance(getattr(owner, "base", None), np.ndarray):
        owner = owner.base
    return owner


def _byte_span(t):
    """(lowest, one past the highest) address t's elements occupy; None when it has none."""
    if t.numel() == 0:
        return None
    low = high = t._offset
    for size, stride in zip(t.shape, t.stride()):
        if stride >= 0:
            high += (size - 1) * stride
        else:
            low += (size - 1) * stride
    start = t._storage.__array_interface__["data"][0]
    item = t.dtype.itemsize
    return start + low * item, start + (high + 1) * item


def _overlap(a, b):
    if a is b:
        return a.numel() > 0
    span_a, span_b = _byte_span(a), _byte_span(b)
    if span_a is None or span_b is None or span_a[0] >= span_b[1] or span_b[0] >= span_a[1]:
        return False
    return not _rows_interleave(a, b, span_a[0], span_b[0])


def _rows_interleave(a, b, start_a, start_b):
    """Whether 2-D a and b, rows contiguous and one row stride apart in bytes, put their rows in disjoint
    columns of every row period: within each period a's row covers [0, its width) and b's [shift, shift +
    its width), where shift is how far b starts after a, modulo the period."""
    if a.dim() != 2 or b.dim() != 2 or a.stride(1) != 1 or b.stride(1) != 1:
        return False
    if start_a > start_b:
        a, b, start_a, start_b = b, a, start_b, start_a
    period = a.stride(0) * a.dtype.itemsize
    if period <= 0 or period != b.stride(0) * b.dtype.itemsize:
        return False
    shift = (start_b - start_a) % period
    return shift >= a.shape[1] * a.dtype.itemsize and shift + b.shape[1] * b.dtype.itemsize <= period


def overlap_groups(values) -> Groups:
    """The positions of the tensors among values that share memory, as groups of two or more (one tensor given twice is
    a group too); () when every tensor has memory of its own, the common case, answered without computing any span."""
    by_owner = {}
    for i, v in enumerate(values):
        if isinstance(v, Tensor) and isinstance(v._storage, np.ndarray):
            by_owner.setdefault(id(memory_owner(v)), []).append(i)
    if len(by_owner) == sum(len(p) for p in by_owner.values()):
        return ()
    group_of = {}  # position -> the group (list) it joined
    for positions in by_owner.values():
        for n, i in enumerate(positions):
            for j in positions[:n]:
                if _overlap(values[i], values[j]):
                    _join(group_of, i, j)
    groups = {id(g): tuple(sorted(g)) for g in group_of.values()}
    return tuple(sorted(groups.values()))


def storage_groups(values) -> Groups:
    """Per memory in which two of the tensors among values overlap: the positions of every tensor among
    values in that memory, overlapping or not (torch's synthetic base takes all of them: a view that shares
    no byte with the one changed in place still shares its memory, and so its version counter)."""
    owners = [id(memory_owner(values[group[0]])) for group in overlap_groups(values)]
    members = {owner: [] for owner in owners}
    for i, v in enumerate(values):
        if isinstance(v, Tensor) and isinstance(v._storage, np.ndarray) and id(memory_owner(v)) in members:
            members[id(memory_owner(v))].append(i)
    return tuple(tuple(positions) for positions in members.values())


def _join(group_of, i, j):
    gi, gj = group_of.get(i, [i]), group_of.get(j, [j])
    if gi is gj:
        return
    gi.extend(gj)
    for k in gi:
        group_of[k] = gi
