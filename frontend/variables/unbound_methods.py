"""A Tensor method read unbound, through its class, in a compiled frame: `Tensor.flip(x, 0)`,
`torch.Tensor.add(x, y)`, `type(x).mul(x, 2)`, or `m = Tensor.flip` carried across a graph break; and a tensor's
bound method read from a variable (`m = x.type` left by a break), or a list's or dict's (`L.append`, whose call
is the list tracker's, the one G['L'] reads).

Frontend layer, coverage surface: ConstantVariable.var_getattr (a read from the class) and wrap() (the function
itself read from a variable) make the tracker; its call is the method of its first argument, recorded as Dynamo
records it (`l_x_.flip(0)`, a call_method node).
"""
import functools
import inspect
import types

import minitorch2

from .. import guards
from ..source import AttrSource
from .base import MethodVariable, ValueVariable


def is_unbound_method(cls, attr, name):
    """Whether cls.name, attr, is a Tensor method read unbound (Tensor.__new__, a static method, is not)."""
    return cls is minitorch2.Tensor and isinstance(attr, types.FunctionType) and name != "__new__"


@functools.cache
def tensor_methods():
    """{id(function): name} of minitorch2.Tensor's methods that are no torch function too (Tensor.flip, not Tensor.add,
    which is torch.add): such a function read from a variable (`m = Tensor.flip` across a break) is a method."""
    torch_level = {id(f) for module in (minitorch2, minitorch2.linalg, minitorch2.special, minitorch2.fft)
                   for f in vars(module).values()}
    return {id(f): name for name, f in inspect.getmembers(minitorch2.Tensor, inspect.isfunction)
            if id(f) not in torch_level and name != "__new__"}


def wrap_tensor_method(og, value, source):
    """The tracker of a tensor's method read from a variable (source), or None if value is none: bound (`m.type` left
    on the stack by a graph break, or a list's `L.append`), a method of its owner's tracker; unbound, guarded."""
    if isinstance(value, types.MethodType) and isinstance(value.__self__, minitorch2.Tensor) or isinstance(
            value, types.BuiltinMethodType) and type(value.__self__) in (list, dict):
        name = tensor_methods().get(id(getattr(value, "__func__", None)), value.__name__)  # (x.__setitem__: setitem)
        return MethodVariable(og.wrap(value.__self__, AttrSource(source, "__self__")), name)
    if id(value) not in tensor_methods():
        return None
    og.guards.add(guards.id_guard(source, value), value)
    return UnboundMethodVariable(tensor_methods()[id(value)], source)


class UnboundMethodVariable(ValueVariable):
    """A Tensor method read from the class, value its name: a call is the method of its first argument."""

    def python_type(self):
        return types.FunctionType

    def call_function(self, tx, args, kwargs):
        return MethodVariable(args[0].realize(), self.value).call_function(tx, args[1:], kwargs)

    def reconstruct(self, cg):
        cg.append("LOAD_CONST", getattr(minitorch2.Tensor, self.value))
