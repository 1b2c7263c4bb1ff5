"""DictVariable: a dict built inside the frame, key by key (keys are constants, or tensors by identity).

Frontend layer. `{"a": x}`, `dict(d, c=3)`, comprehensions and `**kwargs` build a DictVariable whose values are
trackers, so `d["a"]`, `d.get`, `for k in d` and `f(**d)` fold at translation time, as lists do; one from outside
the frame that it changes is written back after the graph (output_graph.py). An OrderedDict or a defaultdict is the
same tracker with its class (and a defaultdict's factory, called for a missing key); keys(), values() and items()
are live views of it, as Python's are.
"""
import collections
import functools

from ..exc import Unsupported
from .base import VariableTracker
from .dict_key_guards import KeysGuardedWhenRead
from .constant import ConstantVariable
from .exceptions import raise_observed
from .tensor_membership import identity_key, key_var
from .lists import TupleVariable, iterate
from .sym_node import SymNodeVariable


def constant_key(var, identity=False):  # (with `identity`, a dict's: a tensor is keyed by its identity)
    var = var.realize()
    if var.is_python_constant() or isinstance(var, SymNodeVariable):  # (a size symbol is specialized, as Dynamo's)
        return var.as_python_constant()
    return identity_key(var, identity)


class DictVariable(KeysGuardedWhenRead, VariableTracker):
    mutable_identity = True

    def __init__(self, items, source=None, cls=dict, factory=None, guard=None):
        super().__init__(source)
        self._items = dict(items)  # constant key -> tracker (read as self.items: dict_key_guards.py)
        self.cls, self.factory, self.guard = cls, factory, guard

    def python_type(self):
        return self.cls

    def rebuilder(self):
        factory = () if self.factory is None else (self.factory.as_python_constant(),)  # defaultdict(list, ...)
        return functools.partial(self.cls, *factory)

    def is_python_constant(self):
        return all(v.realize().is_python_constant() for v in [*map(key_var, self.items), *self.items.values()])

    def as_python_constant(self):
        # (of its own class: an OrderedDict compares in order)
        return self.rebuilder()({k: v.realize().as_python_constant() for k, v in self.items.items()})

    def length(self):
        return len(self.items)

    def unpack_var_sequence(self, tx):
        return [key_var(k) for k in self.items]

    def getitem(self, tx, index):
        key = constant_key(index, True)
        if self.has_key(key):
            return self._items[key]
        if self.factory is not None:
            self.setitem(tx, index, self.factory.realize().call_function(tx, [], {}))
            return self._items[key]
        if self.cls is collections.Counter:  # (a Counter's missing key counts 0)
            return ConstantVariable(0)
        raise_observed(KeyError, [key], f"KeyError {key!r} in a dict built in the frame")

    def setitem(self, tx, key, value):
        if self.source is not None:  # a dict from outside: written back after the graph, as a list is
            tx.output.note_mutation(self)
        self.items[constant_key(key, True)] = value

    def call_method(self, tx, name, args, kwargs):
        if name == "__getitem__":
            return self.getitem(tx, args[0])
        if name in ("keys", "values", "items"):
            return DictViewVariable(self, name)
        if name == "get" and not kwargs and len(args) in (1, 2):
            return self.get(constant_key(args[0], True), args[1] if len(args) == 2 else ConstantVariable(None))
        if name == "copy":
            return DictVariable(self.items, cls=self.cls, factory=self.factory)
        if name not in ("get", "update", "__setitem__", "pop", "setdefault", "clear", "popitem", "move_to_end") or \
                not hasattr(self.cls, name):
            raise Unsupported(f"dict.{name}", "unsupported_call")
        if self.source is not None and name != "get":
            tx.output.note_mutation(self)
        # run on a real dict of the trackers: keys and flags are constants, values (and defaults) trackers
        if name == "update":
            args = [dict_items(tx, args[0], pairs=True)] if args else []
        else:
            values = args[1:] if name in ("get", "__setitem__", "pop", "setdefault") else map(constant_key, args[1:])
            default = [ConstantVariable(None)] if name in ("get", "setdefault") and len(args) == 1 else []
            args = [*(constant_key(a, True) for a in args[:1]), *values, *default]
            kwargs = {k: constant_key(v) for k, v in kwargs.items()}
        if name == "pop" and len(args) == 1 and args[0] not in self.items:
            raise_observed(KeyError, args, "dict.pop of a missing key")
        target = collections.OrderedDict(self.items)  # (a dict's popitem is an OrderedDict's with last=True)
        result = getattr(target, name)(*args, **kwargs)
        self.items.clear()  # (in place: an object's __dict__ made in the frame IS its attributes)
        self.items.update(target)
        if isinstance(result, tuple):  # popitem's (key, value)
            return TupleVariable([key_var(result[0]), result[1]])
        return ConstantVariable(None) if result is None else result

    def output_plan(self, og):
        if self.source is not None:  # the caller's own dict (a change in the frame is replayed onto it)
            return super().output_plan(og)
        plans = [(key_var(k).output_plan(og), v.realize().output_plan(og)) for k, v in self.items.items()]
        return og.once(self, lambda outs, L, G, make=self.rebuilder(): make({k(outs, L, G): p(outs, L, G)
                                                                             for k, p in plans}))

    def build(self, cg):
        if self.cls is not dict:
            cg.append("PUSH_NULL")
            cg.append("LOAD_CONST", self.rebuilder())
        for key, value in self.items.items():
            cg.reconstruct(key_var(key))
            cg.reconstruct(value)
        cg.append("BUILD_MAP", len(self.items))
        if self.cls is not dict:
            cg.call(1)

    def __repr__(self):
        return f"DictVariable({list(self.items)})"


class DictViewVariable(VariableTracker):
    """`d.keys()`, `d.values()` or `d.items()`: what the dict holds when it is read, not when the view was made."""

    def __init__(self, dict_var, kind):
        super().__init__()
        self.dict_var, self.kind = dict_var, kind

    def python_type(self):
        return type(getattr({}, self.kind)())

    def unpack_var_sequence(self, tx):
        items = self.dict_var.items
        if self.kind == "items":
            return [TupleVariable([key_var(k), v]) for k, v in items.items()]
        return [key_var(k) for k in items] if self.kind == "keys" else list(items.values())

    def length(self):
        return len(self.dict_var.items)

    def is_python_constant(self):  # `3 in keys`, `keys == other.keys()`; a constant dict's values and items too
        return self.kind == "keys" or self.dict_var.is_python_constant()

    def as_python_constant(self):
        d = dict.fromkeys(self.dict_var.items) if self.kind == "keys" else self.dict_var.as_python_constant()
        return getattr(d, self.kind)()

    def call_method(self, tx, name, args, kwargs):  # (as Dynamo's: `keys.isdisjoint` is read, and its call breaks)
        raise Unsupported(f"{self.kind}().{name}()", "unsupported_call")

    def build(self, cg):
        cg.call_const(getattr(dict, self.kind), [self.dict_var])


def dict_items(tx, var, pairs=False):
    """The key -> tracker items of a DictVariable or a constant dict; with `pairs`, of any iterable of pairs."""
    var = var.realize()
    if isinstance(var, DictVariable):
        return dict(var.items)
    if var.is_python_constant() and isinstance(var.as_python_constant(), dict):
        return {k: ConstantVariable(v) for k, v in var.as_python_constant().items()}
    if not pairs:
        raise Unsupported(f"** of {var}", "unsupported")
    return dict((constant_key(k), v) for k, v in (pair.realize().unpack_var_sequence(tx)
                                                  for pair in iterate(tx, var).unpack_var_sequence(tx)))
