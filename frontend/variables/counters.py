"""collections.Counter made inside a compiled frame, as Dynamo traces it.

Frontend layer, coverage surface beside stdlib.py (whose LibraryCallsMixin.call_Counter makes one): a Counter of
constant keys and counts, modelled over a DictVariable whose methods run on a real Counter of its items.
"""
import collections
import collections.abc

from ..exc import Unsupported
from .base import MethodVariable
from .constant import ConstantVariable
from .dicts import DictVariable
from .lists import ListIteratorVariable, iterate


class CounterVariable(DictVariable):
    """A collections.Counter made in the frame, of constant keys and counts: a missing key counts 0, and Counter's
    own methods (update, subtract, most_common, elements, total...) run on a real Counter of its items, whose
    items it then takes (Dynamo inlines their Python code to the same effect)."""

    def __init__(self, items):
        super().__init__(items, cls=collections.Counter)

    def var_getattr(self, tx, name):
        return _CounterMethod(self, name) if self.source is None and name in vars(collections.Counter) else \
            super().var_getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name not in vars(collections.Counter) or self.source is not None:
            return super().call_method(tx, name, args, kwargs)
        n = [*args, *kwargs.values(), ConstantVariable(None)][0].realize()
        if name == "most_common" and not (n.is_python_constant() and n.as_python_constant() is None):
            # Dynamo inlines it, and its heapq.nlargest breaks (C's heapify): a break at the call, whose method
            # cannot be rebuilt (_CounterMethod), so that the whole frame runs eagerly
            raise Unsupported("Counter.most_common(n): heapq.nlargest calls C's heapify", "unsupported_call")
        real = collections.Counter(self.as_python_constant())
        result = getattr(real, name)(*[_constant_or_items(tx, a) for a in args],
                                     **{k: _constant_or_items(tx, v) for k, v in kwargs.items()})
        self.items = {k: ConstantVariable(v) for k, v in real.items()}
        if isinstance(result, collections.Counter):
            return self if result is real else CounterVariable({k: ConstantVariable(v) for k, v in result.items()})
        return ListIteratorVariable(map(ConstantVariable, result)) if isinstance(result, collections.abc.Iterator) \
            else ConstantVariable(result)


class _CounterMethod(MethodVariable):
    """A method of a Counter made in the frame (`c.most_common`): Dynamo's, a user method of a value with no source,
    cannot be rebuilt after a graph break (the frame runs eagerly)."""

    def reconstruct(self, cg):
        raise Unsupported("a method of a Counter made in the frame cannot be rebuilt", "unresumable")


def _constant_or_items(tx, var):
    """A constant argument as it is; an iterable of constants (a generator, a list) as the list of its items."""
    var = var.realize()
    return var.as_python_constant() if var.is_python_constant() else [
        item.realize().as_python_constant() for item in iterate(tx, var).unpack_var_sequence(tx)]
