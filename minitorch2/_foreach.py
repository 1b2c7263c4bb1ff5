"""torch._foreach_*: one op over lists of tensors, what the optimizers' foreach=True paths call.

Runtime layer, coverage surface (gathered into `minitorch2` through _functions_nn_level.py). On a CPU torch's foreach
kernels take their slow path, the single-tensor op for each pair, so the values are those ops' own; a compiled frame
records each call as one node (`torch._foreach_add_([p0, p1], [g0, g1], alpha = -0.1)`), as Dynamo's graphs do.
"""

__all__ = ["_foreach_add", "_foreach_add_", "_foreach_mul", "_foreach_mul_", "_foreach_neg"]


def _pairs(tensors, other):
    """Each tensor with its operand: the matching item of a list, or one scalar for all."""
    return zip(tensors, other) if isinstance(other, (list, tuple)) else ((t, other) for t in tensors)


def _foreach_add(self, other, *, alpha=1):
    return [t.add(o, alpha=alpha) if alpha != 1 else t.add(o) for t, o in _pairs(self, other)]


def _foreach_add_(self, other, *, alpha=1):
    for t, o in _pairs(self, other):
        t.add_(o, alpha=alpha) if alpha != 1 else t.add_(o)


def _foreach_mul(self, other):
    return [t.mul(o) for t, o in _pairs(self, other)]


def _foreach_mul_(self, other):
    for t, o in _pairs(self, other):
        t.mul_(o)


def _foreach_neg(self):
    return [t.neg() for t in self]
