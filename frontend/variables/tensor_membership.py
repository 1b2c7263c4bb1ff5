"""Tensors as dict keys and in `in` tests: `{a: 1, b: 2}[a]`, `a in [a, b]`, as Dynamo treats them.

Frontend layer, beside dicts.py and the CONTAINS_OP of symbolic_convert.py. A DictVariable keys its items by Python
constants; a tensor has no constant value, but Python hashes a tensor by identity, so its key is the graph node it
stands for (two trackers of one node are one key), keeping its tracker to hand back from `for k in d` and to rebuild
after the graph. `x in [a, b]` with a non-constant x is Dynamo's iter_contains: not Python's identity shortcut but
the `|` of each item's `==`, recorded (a tensor when the items are tensors). A dict keyed by tensors handed to the
frame (a resume function's `cache = {x: ...}`, through builder.wrap's wrap_other), or keyed by classes (a library's
`{type(x): backend}` cache), is modelled as Dynamo's: each key and value read through its position (DictItemSource),
tensor and class keys guarded by identity.
"""
import operator

import minitorch2

from .. import guards
from ..exc import Unsupported
from ..source import Source
from .base import LazyVariableTracker
from .constant import ConstantVariable


class IdentityKey:
    __slots__ = ("var",)

    def __init__(self, var):
        self.var = var

    def __hash__(self):
        return id(self.var.proxy.node)

    def __eq__(self, other):
        return isinstance(other, IdentityKey) and other.var.proxy.node is self.var.proxy.node

    def __repr__(self):
        return f"<tensor key {self.var.proxy.node.name}>"


def identity_key(var, allowed):
    """The key of a realized tracker with no constant value: a tensor's identity where `allowed` (a dict's key)."""
    if not allowed or getattr(var, "proxy", None) is None or not hasattr(var, "example_value"):
        raise Unsupported(f"a dict key that is not a constant ({var})", "unsupported")
    return IdentityKey(var)


def key_var(key):
    """The tracker a dict key stands for (a tensor's own, or a constant's)."""
    return key.var if isinstance(key, IdentityKey) else ConstantVariable(key)


def list_contains(tx, items, search, invert):
    """`search in items` (`not in` when `invert`) of a list or tuple, as Dynamo's iter_contains."""
    from .builtin import BuiltinVariable  # (builtin.py imports the trackers this module sits beside)
    if search.is_python_constant():  # a constant looks only at constant items (identity first, as CPython)
        value = search.as_python_constant()
        found = ConstantVariable(any(v.realize().is_python_constant() and (
            v.realize().as_python_constant() is value or v.realize().as_python_constant() == value) for v in items))
    else:
        found = ConstantVariable(False)
        for i, v in enumerate(items):
            check = BuiltinVariable(operator.eq).call_function(tx, [v, search], {})
            found = check if i == 0 else BuiltinVariable(operator.or_).call_function(tx, [check, found], {})
    return BuiltinVariable(operator.not_).call_function(tx, [found], {}) if invert else found


def is_tensor_keyed_dict(value):
    """A plain dict handed to the frame whose keys are tensors or classes (some may be constants): `cache = {x: x.sin()}`
    alive across a graph break reaches the resume function so; a library's `{type(x): backend}` cache is read so."""
    keys = [k for k in value if type(k) not in (str, int, bool)] if type(value) is dict else []
    return bool(keys) and all(isinstance(k, (minitorch2.Tensor, type)) for k in keys)


def _key_at(d, index):
    return list(d)[index]


def _value_at(d, index):
    return list(d.values())[index]


class DictItemSource(Source):
    """The index-th key (`list(L['cache'])[0]`) or value (`list(L['cache'].values())[0]`) of a dict, by position."""

    def __init__(self, base, index, part):
        self.base, self.index, self.part, self.parts = base, index, part, (index,)
        self.helper = _key_at if part == "key" else _value_at  # (what generated code calls: assemble.load_source)

    def name(self):
        return f"list({self.base.name()}{'' if self.part == 'key' else '.values()'})[{self.index}]"


def wrap_tensor_keyed_dict(og, value, source):
    """As Dynamo's builder: the dict's type and length guarded, each tensor key by identity (it hashes so) and each
    constant key by value (a class by identity, as its == compares); a tensor key and each value are read through
    their position in the dict."""
    from .builder import wrap  # (a cycle: the builder calls this module)
    from .dicts import DictVariable  # (dicts.py imports this module)
    og.guards.add(guards.type_guard(source, value), type(value))
    og.guards.add(guards.length_guard(source, value))
    items = {}
    for i, (key, item) in enumerate(value.items()):
        key_source = DictItemSource(source, i, "key")
        if isinstance(key, minitorch2.Tensor):
            og.guards.add(guards.id_guard(key_source, key), key)
            key = identity_key(wrap(og, key, key_source).realize(), True)
        elif isinstance(key, type):
            og.guards.add(guards.id_guard(key_source, key), key)
        else:
            og.guards.add(guards.constant_guard(key_source, key))
        items[key] = LazyVariableTracker(og, item, DictItemSource(source, i, "value"))
    return DictVariable(items, source)
