"""torch._refs.tensor: torch.tensor written over ops, what Dynamo records for `torch.tensor([n])` where n is a size
symbol or a tensor (the data is not known while tracing, so the tensor is built: a scalar_tensor per number, then
stacks).

Runtime layer, coverage surface (frontend/variables/dynamo_forms.py rewrites such calls to this function). The
dtype is inferred as torch.tensor infers it: a bool list is bool, ints give int64, any float the default dtype, a
tensor item its own dtype.
"""
from . import _dtype, _factories
from ._sym import SymFloat, SymInt
from ._functions_shape import stack
from ._tensor import Tensor
from .fx._spelling import register_spelling


def tensor(data, *, dtype=None, device=None, pin_memory=False, requires_grad=False):
    built = _build(dtype or _inferred_dtype(data), data)
    return built.requires_grad_(True) if requires_grad else built


def _inferred_dtype(data):
    kinds = set(_kinds(data))
    for kind, dtype in (("float", _dtype.get_default_dtype()), ("int", _dtype.int64), ("bool", _dtype.bool_)):
        if kind in kinds:
            return dtype
    tensors = [k for k in kinds if isinstance(k, _dtype.dtype)]
    return tensors[0] if tensors else _dtype.get_default_dtype()


def _kinds(obj):
    if isinstance(obj, Tensor):
        yield obj.dtype
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _kinds(item)
    else:
        yield "bool" if isinstance(obj, bool) else "float" if isinstance(obj, (float, SymFloat)) else "int"


def _build(dtype, obj):
    """torch's _recursive_build: a number as scalar_tensor, a tensor copied to dtype, a list stacked."""
    if isinstance(obj, Tensor):
        built = obj.detach().to(dtype=dtype, copy=True)
        return built.view(()) if built.numel() == 1 else built
    if isinstance(obj, (bool, int, float, SymInt, SymFloat)):
        return _factories.scalar_tensor(obj, dtype=dtype)
    return _factories.empty(0) if not obj else stack([_build(dtype, item) for item in obj])


register_spelling("torch._refs.tensor", tensor)
