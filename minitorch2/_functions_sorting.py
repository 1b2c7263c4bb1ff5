"""The torch-level sorting and sampling functions: sort, argsort, topk, multinomial.

Runtime layer (gathered into the `minitorch2` namespace by _functions.py).
`sort` and `topk` return torch.return_types pairs; `argsort` is sort's
indices, as torch's composite argsort is, so traces record `sort` (its
`.stable` overload when `stable=` is given, as torch's).
"""
from . import return_types
from ._functions_shape import _function_of
from ._ops import ops
from ._out import EXACT, MULTINOMIAL, out_variant

aten = ops.aten


@out_variant(EXACT)
def sort(input, dim=-1, descending=False, *, stable=None):
    if stable is not None:
        return return_types.sort(*aten.sort.stable(input, stable=stable, dim=dim, descending=descending))
    return return_types.sort(*aten.sort.default(input, dim, descending))


def argsort(input, dim=-1, descending=False, *, stable=False):
    if stable:
        return aten.sort.stable(input, stable=True, dim=dim, descending=descending)[1]
    return aten.sort.default(input, dim, descending)[1]


@out_variant(EXACT)
def topk(input, k, dim=-1, largest=True, sorted=True):
    return return_types.topk(*aten.topk.default(input, k, dim, largest, sorted))


multinomial = _function_of(aten.multinomial.default, MULTINOMIAL, differentiable=False, resize_warning="")
