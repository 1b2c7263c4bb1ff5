"""wrap(): turn a real Python value read from the frame into a tracker, installing its guards.

Frontend layer; the only place that decides which tracker a value gets. A
value with a source is guarded according to its kind (tensor metadata,
constant value, object identity, sequence type and length); a tensor with a
source becomes a graph input (a placeholder named after the source).
"""
import builtins
import types

import minitorch2

from .. import guards
from ..exc import Unsupported
from ..source import GetItemSource
from .builtin import BuiltinVariable
from .constant import ConstantVariable
from .ctx_manager import GRAD_MODE_CLASSES, GradModeClassVariable, GradModeInstanceVariable
from .functions import UserFunctionVariable
from .lists import ListVariable, TupleVariable
from .nn_module import NNModuleVariable
from .torch import TorchVariable, is_torch_object

CONSTANT_TYPES = (int, float, bool, str, type(None), range, slice, type(Ellipsis), minitorch2.dtype, minitorch2.device)


def _is_constant(value):
    """A value the translator folds: of one of CONSTANT_TYPES exactly (a subclass, such as an IntEnum, a numpy
    float or a str with its own __repr__, may behave and print otherwise); a slice of ints and Nones only."""
    if type(value) is slice:
        return all(v is None or type(v) is int for v in (value.start, value.stop, value.step))
    return type(value) in CONSTANT_TYPES


def wrap(og, value, source):
    tracker = _wrap(og, value, source)
    return tracker


def _guard(og, guard, keepalive=None):
    og.guards.add(guard, keepalive)


def _wrap(og, value, source):
    from ..graph_break import graph_break

    if isinstance(value, minitorch2.Tensor):
        if source is None:
            raise Unsupported("a tensor constant created outside the frame", "unsupported")
        return og.add_graph_input(source, value)
    if _is_constant(value):
        if source is not None:
            if isinstance(value, (minitorch2.dtype, minitorch2.device)):
                _guard(og, guards.id_guard(source, value), value)
            else:
                _guard(og, guards.constant_guard(source, value))
        return ConstantVariable(value, source)
    if isinstance(value, (tuple, list)):
        if source is not None:
            _guard(og, guards.type_guard(source, value), type(value))
            _guard(og, guards.length_guard(source, value))
        items = [wrap(og, v, GetItemSource(source, i) if source is not None else None) for i, v in enumerate(value)]
        return (TupleVariable if isinstance(value, tuple) else ListVariable)(items, source)
    if type(value) is dict and all(type(k) in (str, int, bool) for k in value):
        from .dicts import DictVariable

        if source is not None:
            _guard(og, guards.type_guard(source, value), type(value))
            _guard(og, guards.dict_keys_guard(source, list(value)))
        return DictVariable({k: wrap(og, v, GetItemSource(source, k) if source is not None else None)
                             for k, v in value.items()}, source)
    if isinstance(value, minitorch2.nn.Module):
        if source is None:
            raise Unsupported("a module without a source", "unsupported")
        _guard(og, guards.id_guard(source, value), value)
        return NNModuleVariable(value, source)
    if getattr(value, "_torchdynamo_disable", False):
        raise Unsupported(f"call to {value.__qualname__}, marked frontend.disable", "unsupported_call")
    if type(value) in GRAD_MODE_CLASSES:  # a decorator's grad-mode object (no_grad() used as @no_grad())
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return GradModeInstanceVariable(value, source)
    if is_torch_object(value):
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return TorchVariable(value, source)
    if value is graph_break or isinstance(value, types.FunctionType):
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return UserFunctionVariable(value, source)
    if isinstance(value, types.BuiltinFunctionType) or getattr(builtins, getattr(value, "__name__", ""), None) is value:
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return BuiltinVariable(value, source)
    if value in GRAD_MODE_CLASSES:
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return GradModeClassVariable(value, source)
    if isinstance(value, type):
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return ConstantVariable(value, source)
    if isinstance(value, types.ModuleType):
        if source is not None:
            _guard(og, guards.id_guard(source, value), value)
        return PythonModuleVariable(value, source)
    raise Unsupported(f"a value of type {type(value).__name__} ({source.name() if source else 'no source'})",
                      "unsupported")


class PythonModuleVariable(ConstantVariable):
    """A non-torch Python module (math, operator): its attributes are read, unguarded, at translation time."""

    def var_getattr(self, tx, name):
        return wrap(tx.output, getattr(self.value, name), None)
