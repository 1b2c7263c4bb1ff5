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


def _keyword_only_beside_stable(name, args, stable):
    """(dim, descending) given positionally; torch's overload with `stable` takes them by keyword only."""
    if args and stable is not None or len(args) > 2:
        raise TypeError(f"{name}() received an invalid combination of arguments: with stable, dim and descending "
                        "are keyword-only")
    return args


@out_variant(EXACT)
def sort(input, *args, dim=-1, descending=False, stable=None):
    dim, descending = _keyword_only_beside_stable("sort", args, stable) + (dim, descending)[len(args):]
    if stable is not None:
        return return_types.sort(*aten.sort.stable(input, stable=stable, dim=dim, descending=descending))
    return return_types.sort(*aten.sort.default(input, dim, descending))


_NOT_GIVEN = object()


def argsort(input, *args, dim=-1, descending=False, stable=_NOT_GIVEN):
    if stable is None:  # (argsort's overload with stable takes a bool, sort's an optional one)
        raise TypeError("argsort(): argument 'stable' must be bool, not NoneType")
    stable = None if stable is _NOT_GIVEN else stable
    dim, descending = _keyword_only_beside_stable("argsort", args, stable) + (dim, descending)[len(args):]
    if stable:
        return aten.sort.stable(input, stable=True, dim=dim, descending=descending)[1]
    return aten.sort.default(input, dim, descending)[1]


@out_variant(EXACT)
def topk(input, k, dim=-1, largest=True, sorted=True):
    return return_types.topk(*aten.topk.default(input, k, dim, largest, sorted))


multinomial = _function_of(aten.multinomial.default, MULTINOMIAL, differentiable=False, resize_warning="")
