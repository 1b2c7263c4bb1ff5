"""Aliased inputs: one tensor passed twice, or views that share memory (torch's AOTDedupeWrapper and
AOTSyntheticBaseWrapper).

autograd layer, wrapped around every signature aot_function compiles. The trace (one fake tensor per input) and
functionalization both assume inputs are distinct memory. Where they are not:

    f(w, w)                      dedupe: trace g(w) = f(w, w), one primal, so
                                 w's gradient is counted once (torch: 8, not 16
                                 for (3a + 5b).sum())
    f(base[0:3], base[1:4])      synthetic base: when the function changes one
      a.add_(1); return b * 2    of the overlapping inputs in place, trace
                                 g(base) = f(as_strided(base, a's geometry),
                                 as_strided(base, b's geometry)): the change is
                                 one to base, which functionalization orders and
                                 writes back, and b reads it (torch: [2, 2, 0])

Overlapping inputs the function does not change stay separate inputs, as in torch.

The one idea to hold: how a call's inputs alias is part of its signature. `aliasing_key` is () for distinct memory
(found from ids alone), else it spells out the pattern and each overlapping input's geometry; one trace per key.
Views sharing memory but no base (two tensors from one numpy array) run eagerly.
"""
from dataclasses import dataclass

import minitorch2
from minitorch2._memory_overlap import memory_owner, storage_groups
from minitorch2._tensor import Tensor

from .output_aliasing import trace_outputs

aten = minitorch2.ops.aten


def _root(t):
    return t._base if t._base is not None else t


def _geometry(t):
    return tuple(t.shape), tuple(t.stride()), t.storage_offset()


def aliasing_key(flat_args):
    """() when no two tensors among flat_args share memory; else, per memory two of them overlap in, each
    tensor in it: (first position holding the same object, geometry, is its own base), and the common
    base's geometry (None: no common base)."""
    groups = storage_groups(flat_args)
    if not groups:
        return ()
    key = []
    for group in groups:
        members = [flat_args[i] for i in group]
        first = {}
        described = tuple((first.setdefault(id(m), i), _geometry(m), m._base is None) for i, m in zip(group, members))
        root = _root(members[0])
        common = all(_root(m) is root for m in members)
        key.append((described, _geometry(root) if common else None))
    return tuple(key)


@dataclass(frozen=True)
class InnerInput:
    """One input of the traced function: a kept input passed on as it is, or a synthetic base."""

    is_base: bool
    index: int  # the kept index of the input, or the index of the base


class AliasedInputs:
    """The plan for one aliasing key: which inputs the traced function takes instead of the caller's
    (`inner_args`) and the function over them (`inner_fn`). `eager` when some overlapping inputs the
    function changes have no common base: such calls run fn as it is."""

    def __init__(self, fn, flat_args):
        self.fn = fn
        index_of = {}  # a tensor's id (anything else: its position) -> its kept index
        self.source = [index_of.setdefault(id(a) if isinstance(a, Tensor) else (j,), len(index_of))
                       for j, a in enumerate(flat_args)]  # outer position -> kept index
        self.kept = [self.source.index(k) for k in range(len(index_of))]  # kept index -> first outer position
        kept_args = [flat_args[j] for j in self.kept]
        mutated = trace_outputs(self._deduped_fn, kept_args)[3]  # the inputs it changes in place (run on fakes)
        # as torch's: once the function changes one input in place, every input in the same memory as an
        # overlapping pair goes into one base (those that share no byte with the change still share its
        # version counter: one of them saved for the backward would be refused after the write-back)
        written = {id(memory_owner(kept_args[k])) for k in mutated}
        groups = [g for g in storage_groups(kept_args) if id(memory_owner(kept_args[g[0]])) in written]
        self.eager = any(any(_root(kept_args[k]) is not _root(kept_args[g[0]]) for k in g) for g in groups)
        # per synthetic base: [(kept index, geometry or None when the member is the base itself)]
        self.bases = [[(k, None if kept_args[k]._base is None else _geometry(kept_args[k])) for k in g] for g in groups]
        in_group = {k: b for b, g in enumerate(groups) for k in g}
        # the traced function's inputs (InnerInput), in kept order, a base where its group's first member was
        self.layout = [InnerInput(True, in_group[k]) if k in in_group else InnerInput(False, k)
                       for k in range(len(kept_args)) if k not in in_group or groups[in_group[k]][0] == k]

    def _deduped_fn(self, *kept):
        return self.fn(*[kept[k] for k in self.source])

    def inner_args(self, flat_args):
        kept = [flat_args[j] for j in self.kept]
        return [_root(kept[self.bases[inner.index][0][0]]) if inner.is_base else kept[inner.index]
                for inner in self.layout]

    def inner_fn(self, *inner):
        kept = [None] * len(self.kept)
        for slot, value in zip(self.layout, inner):
            if not slot.is_base:
                kept[slot.index] = value
                continue
            for k, geometry in self.bases[slot.index]:
                kept[k] = value if geometry is None else aten.as_strided.default(value, *geometry)
        return self._deduped_fn(*kept)

    def inner_positions(self, outer_positions):
        """Where the given outer inputs are among the traced function's, for those passed on as they are."""
        inner_of = {self.kept[inner.index]: n for n, inner in enumerate(self.layout) if not inner.is_base}
        return [inner_of[j] for j in outer_positions if j in inner_of]

