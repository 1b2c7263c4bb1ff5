"""ConstantVariable: Python values known at translation time (numbers, strings, None, dtypes, ranges, classes).

Frontend layer. Operations on constants fold: `x.shape[0] * 2` is an int in the graph, not a node. A constant read
from the frame is guarded to be unchanged; a class by identity, and the attributes read from it through its source."""
import enum
import types
from collections.abc import MappingView

import numpy as np

from ..exc import Unsupported
from ..source import AttrSource
from .base import MethodVariable, ValueVariable
from .unbound_methods import UnboundMethodVariable, is_unbound_method


class ConstantVariable(ValueVariable):
    mutable_identity = property(lambda self: type(self.value) in (list, dict, set))  # (one set, held twice at a break)
    def is_python_constant(self):
        return True

    def as_python_constant(self):
        return self.value

    def truth(self, tx):
        return bool(self.value)

    def var_getattr(self, tx, name):
        try:
            attr = getattr(self.value, name)
        except AttributeError as e:  # (caught in the frame, as Dynamo's; else the break it was)
            from .exceptions import raise_observed  # (exceptions imports this module)
            raise_observed(AttributeError, e.args, str(e))
        unbound = is_unbound_method(self.value, attr, name)  # `Tensor.flip(x, 0)`: below
        if isinstance(self.value, type) and self.source is not None and not unbound:
            # a class read from the frame is mutable (`Config.scale = 5.0` after the compile): its attribute is
            # wrapped through the class's source, so it is guarded as any value read from the frame is
            return tx.output.wrap(attr, AttrSource(self.source, name))
        from .functions import UserFunctionVariable, UserMethodVariable  # (functions imports this module)
        # a method the enum's class defines: inlined with the member as self
        if isinstance(self.value, enum.Enum) and hasattr(attr, "__func__") and attr.__self__ is self.value:
            return UserMethodVariable(UserFunctionVariable(attr.__func__), self)
        if isinstance(attr, type) or isinstance(self.value, type) and type(attr) is types.FunctionType and not unbound:
            return tx.output.wrap(attr, None)  # type(o).f(o, x); list[int].__origin__: the class, not a method of self
        if callable(attr):  # torch.Tensor.add_(t, u) is t.add_(u)
            return UnboundMethodVariable(name) if unbound else MethodVariable(self, name)
        return ConstantVariable(attr.item() if isinstance(attr, np.generic) else attr)  # np.finfo(...).min: a float

    def unpack_var_sequence(self, tx):
        # (a Counter folded from constants, its values(): dict and view; an enum class, its members)
        if isinstance(self.value, (range, tuple, list, str, set, frozenset, dict, MappingView, enum.EnumMeta)):
            return [ConstantVariable(v) for v in self.value]
        raise Unsupported(f"iteration over {self.value!r}", "unsupported")

    def output_plan(self, og):
        return lambda outs, L, G, value=self.value: value

    def call_function(self, tx, args, kwargs):
        if isinstance(self.value, enum.EnumMeta):  # Color(2): the member, folded as a call of a constant's method
            return self.call_method(tx, "__call__", args, kwargs)
        # a user class folded into a constant (from `Base.__subclasses__()`): called as its class tracker calls it
        tracker = tx.output.wrap(self.value, None) if isinstance(self.value, type) else self
        if type(tracker).call_function is not ConstantVariable.call_function:  # (a class it wraps as a constant: not)
            return tracker.call_function(tx, args, kwargs)
        return super().call_function(tx, args, kwargs)

    def call_method(self, tx, name, args, kwargs):
        """`"{}".format(...)`, `(1, 2).index(...)`: folded when the arguments are constants (a size: at run time)."""
        args = [_items(tx, a) if hasattr(a, "next_item") else a for a in (a.realize() for a in args)]
        from ..opcodes_strings import run_time_format  # (it imports the variables)
        if name == "format" and type(self.value) is str and not kwargs and (kept := run_time_format(self.value, args)):
            return kept
        if not all(a.is_python_constant() for a in [*args, *kwargs.values()]) or isinstance(self.value, (int, float)) \
                and (args or kwargs) and not name.startswith("__"):  # (Dynamo's: (258).to_bytes(2, "big") breaks)
            raise Unsupported(f"{name} of a constant, not folded (non-constant arguments)", "unsupported_call")
        return ConstantVariable(getattr(self.value, name)(*[a.as_python_constant() for a in args],
                                                          **{k: v.as_python_constant() for k, v in kwargs.items()}))

    def __repr__(self):
        return f"ConstantVariable({self.value!r})"


def _items(tx, iterator):
    """An iterator argument (`"/".join(w.upper() for w in words)`) as the tuple of its items, all constants."""
    return ConstantVariable(tuple(item.realize().as_python_constant() for item in iterator.unpack_var_sequence(tx)))
