"""The strides AOT traces each tangent with, as torch 2.13 guesses them (autograd layer, used by aot.py).

The backward is traced before any gradient exists, so the strides of the gradients it will receive are a guess.
torch 2.13 guesses the output's own strides where they are static and no two elements share memory (a permuted
output's tangent is permuted too), and contiguous otherwise (symbolic sizes, an expanded output); at each backward
call a gradient with other strides is copied into the guessed ones. The guess changes what the backward graph does
to the tangent (a permute of a permuted tangent is contiguous: a `view` where a contiguous tangent needs a `clone`),
never a value: without this module tangents are traced contiguous and each gradient made contiguous.
"""
import minitorch2
from minitorch2._aten.overlap import has_internal_overlap
from minitorch2._sym import is_symbolic
from minitorch2._tensor import FakeTensor


def traced_tangents(outputs):
    """(the tangents to trace the joint with, their strides: None where contiguous was the guess)."""
    tangents, strides = [], []
    for o in outputs:
        keep = not any(map(is_symbolic, (*o.shape, *o.stride()))) and not has_internal_overlap(o)
        tangents.append(FakeTensor._make(tuple(o.shape), o.dtype, o.stride() if keep else None))
        strides.append(o.stride() if keep else None)
    return tangents, strides


def restrided(grads, strides):
    """Each incoming gradient with its tangent's traced strides (contiguous where they were not kept)."""
    return [g.contiguous() if stride is None or g.stride() == stride else
            minitorch2.empty_strided(g.shape, stride, dtype=g.dtype).copy_(g) for g, stride in zip(grads, strides)]
