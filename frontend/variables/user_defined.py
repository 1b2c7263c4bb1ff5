"""UserObjectVariable: an instance of the user's own class (a config object, a SimpleNamespace, a Box made here).

Frontend layer, beside NNModuleVariable. As Dynamo does, an object read from the frame is guarded on its type and
opened up: an attribute read is the attribute's value, wrapped through its source (`L['self'].cfg.scale`, so
guarded as any input), a property or method is inlined with the object as self; writing to it stays a graph break.
An object made in the frame (UserClassVariable's call) is a shell whose __init__ is inlined: the attributes it is
given are trackers kept here, read and written freely, as Dynamo keeps them. A module made in the frame is made for
real (it has no parameters to become graph inputs).
"""
import inspect
import types

import minitorch2

from ..exc import Unsupported
from ..source import attr_source
from .base import ValueVariable
from .constant import ConstantVariable
from .dynamo_forms import module_made_here
from .functions import UserFunctionVariable, UserMethodVariable
from .nn_module_walks import container_made_here
from .user_protocols import ClassMembersMixin, SpecialMethodsMixin


def is_plain_object(value):
    """An instance whose attributes live in its __dict__ and are read by object's own lookup, of a user's class."""
    cls = type(value)
    plain_lookup = cls is types.SimpleNamespace or cls.__getattribute__ in (object.__getattribute__,
                                                                            BaseException.__getattribute__)
    # (nn.utils' objects too: weight_norm's hook and the pruning methods, whose __call__ a compiled module's call
    # inlines; a metaclass that leaves calls alone, as ABCMeta, changes nothing here)
    has_attributes = hasattr(value, "__dict__") or hasattr(cls, "__slots__")  # (a __slots__ member: user_protocols.py)
    library_objects = ("minitorch2.nn.utils", "minitorch2.distributions", "minitorch2.backends")  # (torch.backends' flags)
    return (type(cls).__call__ is type.__call__ and plain_lookup and has_attributes and (cls.__module__.startswith(
        library_objects) or not cls.__module__.startswith(("minitorch2", "frontend", "dataclasses"))))


class UserObjectVariable(SpecialMethodsMixin, ValueVariable):  # (the mixin: user_protocols.py)
    def __init__(self, value, source=None):
        super().__init__(value, source)
        self.attrs = {}  # an object made in the frame: the attributes set on it, name -> tracker

    def var_getattr(self, tx, name):
        class_attr = inspect.getattr_static(type(self.value), name, None)
        if isinstance(class_attr, property) and isinstance(class_attr.fget, types.FunctionType):
            return UserFunctionVariable(class_attr.fget).call_function(tx, [], {}, self_var=self)
        if name in self.attrs:  # set in the frame (on an object from outside: written back after the graph)
            return self.attrs[name]
        if name in getattr(self.value, "__dict__", ()):
            return tx.output.wrap(vars(self.value)[name], attr_source(self.source, name))
        if isinstance(class_attr, types.FunctionType):
            return UserMethodVariable(UserFunctionVariable(class_attr), self)
        if getattr(class_attr, "__objclass__", None) is BaseException and name in ("args", "__cause__", "__context__"):
            return tx.output.wrap(getattr(self.value, name), attr_source(self.source, name))  # (read from outside)
        return self.special_getattr(tx, name, class_attr)

    def __repr__(self):
        return f"UserObjectVariable({type(self.value).__name__})"


def is_user_class(cls):
    """A class whose call the translator models: an nn.Module's, or a plain class of the user's or of
    torch.distributions (no metaclass but one leaving calls alone, as ABCMeta; not abstract; no __new__ of its own)."""
    return type(cls).__call__ is type.__call__ and not inspect.isabstract(cls) and (issubclass(
        cls, minitorch2.nn.Module) or (cls.__new__ is object.__new__ and cls.__getattribute__ is object.__getattribute__
        and (cls.__module__.startswith("minitorch2.distributions") or not cls.__module__.startswith("minitorch2"))
        and not cls.__module__.startswith("frontend")))


class UserClassVariable(ClassMembersMixin, ConstantVariable):
    """A class of is_user_class; calling it makes the object in the frame."""

    def call_function(self, tx, args, kwargs):
        cls = self.value
        if issubclass(cls, minitorch2.nn.Module):
            return container_made_here(tx, cls, args, kwargs, otherwise=_module_made_here)
        made, init = UserObjectVariable(object.__new__(cls)), inspect.getattr_static(cls, "__init__")
        made.cls_source = self.source  # (type(made) is this class as read here: `type(self).count += 1` writes it)
        if isinstance(init, types.FunctionType):
            UserFunctionVariable(init).call_function(tx, args, kwargs, self_var=made)
        elif args or kwargs:
            raise Unsupported(f"{cls.__name__}() with arguments but no __init__ in Python", "unsupported_call")
        return made


def _module_made_here(tx, cls, args, kwargs):
    """`nn.Softmax(dim=-1)(x)`: made for real now, from constant arguments, if it holds no parameter or buffer
    (the random stream its constructor may draw from is put back: the program draws from it when it runs)."""
    rng = minitorch2.get_rng_state()
    try:
        module = cls(*[a.realize().as_python_constant() for a in args],
                     **{k: v.realize().as_python_constant() for k, v in kwargs.items()})
    finally:
        minitorch2.set_rng_state(rng)
    if next(module.parameters(), None) is not None or next(module.buffers(), None) is not None:
        raise Unsupported(f"a {cls.__name__} made in the frame holds parameters or buffers", "unsupported_call")
    return module_made_here(tx, module)  # (its init nodes recorded)
