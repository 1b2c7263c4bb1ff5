"""Functionalization over views whose elements overlap, or leave gaps: the two cases a plain write-back gets wrong.

autograd layer, asked by functionalize.py for each in-place op and for each unfold view written back. Eager writes
through such a view in its loop order; a functional graph computes the new value once and writes it back, so:

- a view whose elements alias one another (an unfold with overlapping windows, an as_strided view) cannot be
  mutated in a compiled graph: eager updates a shared element once per alias, the functional graph once. As torch's
  functionalization, that is an error, never a different value (an input laid out so is a base: its new value is
  computed and copied in, as torch's);
- an unfold whose windows leave elements out (a step beyond the size, a tail) is written back with unfold_backward
  where its windows lie and the parent's old values elsewhere (torch's compiled graphs zero those elements); one
  whose windows overlap is refused, even where a single window was written (torch's adds the windows up).
"""
from minitorch2 import ops
from minitorch2._aten.overlap import elements_alias

aten = ops.aten

MUTATED_OVERLAP = ("functionalization encountered a tensor being mutated that has internal overlap. When using "
                   "torch.compile (or running functionalization directly), this is banned as the behavior is not "
                   "well defined. Consider cloning the tensor before mutating it, or removing the mutation from your "
                   "model.")


def refuse_overlapping_mutation(target):
    """Raise torch's error if `target` (the node an in-place op writes) has elements that alias each other."""
    value = getattr(target, "meta", {}).get("val")
    expanded = value is not None and any(st == 0 and n > 1 for n, st in zip(value.shape, value.stride()))
    if value is not None and not expanded and elements_alias(tuple(value.shape), tuple(value.stride())):
        raise RuntimeError(MUTATED_OVERLAP)  # (an expanded one is written back as torch's: its copies summed)


def unfold_back(w):
    """The unfold view's new value `w.src` written into its parent (a functionalize._WriteBack). Windows that
    overlap are refused even where a view of one window was written: unfold_backward would add them up."""
    refuse_overlapping_mutation(w.view)
    dim, size, step = w.args
    length = w.parent_shape[dim]
    scattered = w.call(aten.unfold_backward.default, (w.src, w.parent_shape, dim, size, step))
    if step == size and length % size == 0:  # the windows tile the parent
        return scattered
    covered = w.call(aten.unfold_backward.default, (w.call(aten.ones_like.default, (w.src,)), w.parent_shape, dim,
                                                    size, step))
    return w.call(aten.where.self, (w.call(aten.ne.Scalar, (covered, 0)), scattered, w.parent))
