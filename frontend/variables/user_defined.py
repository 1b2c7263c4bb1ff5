"""UserObjectVariable: an instance of the user's own class read from the frame (a config object, a SimpleNamespace).

Frontend layer, beside NNModuleVariable. As Dynamo does, the object is guarded on its type and opened up: an attribute
read is the attribute's value, wrapped through its source (`L['self'].cfg.scale`, so guarded as any input), a
property or method is inlined with the object as self. Writing to it stays a graph break.
"""
import inspect
import types

from ..exc import Unsupported
from ..source import AttrSource
from .base import ValueVariable
from .functions import UserFunctionVariable, UserMethodVariable


def is_plain_object(value):
    """An instance whose attributes live in its __dict__ and are read by object's own lookup, of a user's class."""
    cls = type(value)
    plain_lookup = cls is types.SimpleNamespace or cls.__getattribute__ is object.__getattribute__
    return (type(cls) is type and plain_lookup and hasattr(value, "__dict__")
            and not cls.__module__.startswith(("minitorch2", "frontend")))


class UserObjectVariable(ValueVariable):
    def var_getattr(self, tx, name):
        class_attr = inspect.getattr_static(type(self.value), name, None)
        if isinstance(class_attr, property) and isinstance(class_attr.fget, types.FunctionType):
            return UserFunctionVariable(class_attr.fget).call_function(tx, [], {}, self_var=self)
        if name in vars(self.value):
            return tx.output.wrap(vars(self.value)[name], AttrSource(self.source, name))
        if isinstance(class_attr, types.FunctionType):
            return UserMethodVariable(UserFunctionVariable(class_attr), self)
        if class_attr is not None and not hasattr(type(class_attr), "__get__"):  # a class-level constant
            return tx.output.wrap(class_attr, AttrSource(self.source, name))
        raise Unsupported(f"attribute {name!r} of a {type(self.value).__name__} object", "unsupported_attr")

    def __repr__(self):
        return f"UserObjectVariable({type(self.value).__name__})"
