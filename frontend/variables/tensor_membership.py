"""Tensors as dict keys and in `in` tests: `{a: 1, b: 2}[a]`, `a in [a, b]`, as Dynamo treats them.

Frontend layer, beside dicts.py and the CONTAINS_OP of symbolic_convert.py. A DictVariable keys its items by Python
constants; a tensor has no constant value, but Python hashes a tensor by identity, so its key is the graph node it
stands for (two trackers of one node are one key), keeping its tracker to hand back from `for k in d` and to rebuild
after the graph. `x in [a, b]` with a non-constant x is Dynamo's iter_contains: not Python's identity shortcut but
the `|` of each item's `==`, recorded (a tensor when the items are tensors).
"""
import operator

from ..exc import Unsupported
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
