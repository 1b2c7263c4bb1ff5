"""DictVariable: a dict built inside the frame, key by key (keys are Python constants).

Frontend layer. `{"a": x}`, `dict(d, c=3)`, comprehensions and `**kwargs` build a DictVariable whose values are
trackers, so `d["a"]`, `d.get`, `for k in d` and `f(**d)` fold at translation time, as lists do. One from outside
the frame is read only (a mutation would be a side effect to replay: a graph break instead).
"""
from ..exc import Unsupported
from .base import MethodVariable, VariableTracker
from .constant import ConstantVariable
from .lists import ListVariable, TupleVariable


def constant_key(var):
    var = var.realize()
    if not var.is_python_constant():
        raise Unsupported(f"a dict key that is not a constant ({var})", "unsupported")
    return var.as_python_constant()


class DictVariable(VariableTracker):
    mutable_identity = True

    def __init__(self, items, source=None):
        super().__init__(source)
        self.items = dict(items)  # constant key -> tracker

    def python_type(self):
        return dict

    def is_python_constant(self):
        return all(v.realize().is_python_constant() for v in self.items.values())

    def as_python_constant(self):
        return {k: v.realize().as_python_constant() for k, v in self.items.items()}

    def truth(self, tx):
        return bool(self.items)

    def length(self):
        return len(self.items)

    def unpack_var_sequence(self, tx):
        return [ConstantVariable(k) for k in self.items]

    def getitem(self, tx, index):
        key = constant_key(index)
        if key not in self.items:
            raise Unsupported(f"KeyError {key!r} in a dict built in the frame", "unsupported")
        return self.items[key]

    def setitem(self, tx, key, value):
        if self.source is not None:
            raise Unsupported("item assignment on a dict from outside the frame", "side_effect")
        self.items[constant_key(key)] = value

    def var_getattr(self, tx, name):
        return MethodVariable(self, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "get":
            key = constant_key(args[0])
            return self.items.get(key, args[1] if len(args) > 1 else ConstantVariable(None))
        if name == "__getitem__":
            return self.getitem(tx, args[0])
        if name == "keys":
            return ListVariable([ConstantVariable(k) for k in self.items])
        if name == "values":
            return ListVariable(list(self.items.values()))
        if name == "items":
            return ListVariable([TupleVariable([ConstantVariable(k), v]) for k, v in self.items.items()])
        if name == "copy":
            return DictVariable(self.items)
        if name in ("update", "pop", "setdefault", "__setitem__", "clear"):
            if self.source is not None:
                raise Unsupported(f"dict.{name} on a dict from outside the frame", "side_effect")
            if name == "update":
                self.items.update(dict_items(tx, args[0]) if args else {})
                self.items.update(kwargs)
            elif name == "pop":
                return self.items.pop(constant_key(args[0]), *args[1:2])
            elif name == "setdefault":
                return self.items.setdefault(constant_key(args[0]), args[1] if len(args) > 1 else ConstantVariable(None))
            elif name == "__setitem__":
                self.setitem(tx, args[0], args[1])
            else:
                self.items.clear()
            return ConstantVariable(None)
        raise Unsupported(f"dict.{name}", "unsupported_call")

    def output_plan(self, og):
        if self.source is not None:  # the caller's own dict (a change in the frame is replayed onto it)
            return super().output_plan(og)
        plans = {k: v.realize().output_plan(og) for k, v in self.items.items()}
        return lambda outs, L, G: {k: p(outs, L, G) for k, p in plans.items()}

    def build(self, cg):
        for key, value in self.items.items():
            cg.append("LOAD_CONST", key)
            cg.reconstruct(value)
        cg.append("BUILD_MAP", len(self.items))

    def __repr__(self):
        return f"DictVariable({list(self.items)})"


def dict_items(tx, var):
    """The (constant key -> tracker) items of a dict-like tracker (a DictVariable or a constant dict)."""
    var = var.realize()
    if isinstance(var, DictVariable):
        return dict(var.items)
    if var.is_python_constant() and isinstance(var.as_python_constant(), dict):
        return {k: ConstantVariable(v) for k, v in var.as_python_constant().items()}
    raise Unsupported(f"** of {var}", "unsupported")
