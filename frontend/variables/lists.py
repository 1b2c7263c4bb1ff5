"""Sequences the translator models item by item: tuples, lists, torch.Size, torch.return_types, iterators
(namedtuples and deques: stdlib.py).

Frontend layer. A tuple or list tracker holds a Python list of trackers, so `a, b = pair`, `xs[0]` and `for x in xs`
fold at translation time (loops unroll). A list from outside the frame may be mutated: after the graph runs, the
real list's contents are replaced by the tracked items (`L['xs'][:] = [...]`).
"""
import itertools

import minitorch2

from ..exc import Unsupported
from .base import VariableTracker
from .constant import ConstantVariable
from .exceptions import raise_observed
from .list_methods import run_on_items, sequence_method

MAX_ITEMS = 100_000  # unpacking an iterator longer than this (itertools.count()) is a graph break, not a hang


class BaseListVariable(VariableTracker):
    python_cls = list

    def __init__(self, items, source=None):
        super().__init__(source)
        self.items = list(items)

    def python_type(self):
        return self.python_cls

    def is_python_constant(self):
        return all(i.realize().is_python_constant() for i in self.items)

    def as_python_constant(self):
        return self.rebuilder()([i.realize().as_python_constant() for i in self.items])

    def rebuilder(self):
        """What makes a sequence of this type from an iterable of its items."""
        return self.python_cls

    def length(self):
        return len(self.items)

    def unpack_var_sequence(self, tx):
        return list(self.items)

    def getitem(self, tx, index):
        index = index.realize()
        if not index.is_python_constant():
            raise Unsupported("indexing a list with a non-constant", "unsupported")
        key = index.as_python_constant()
        if isinstance(key, slice):  # a slice of a tuple subclass (a namedtuple) is a tuple; a Size's is a Size
            kind = type(self) if type(self) in (ListVariable, TupleVariable, SizeVariable) else TupleVariable
            return kind(self.items[key])
        if isinstance(key, int) and not -len(self.items) <= key < len(self.items):
            raise_observed(IndexError, [f"{self.python_cls.__name__} index out of range"], "an index past the end")
        return self.items[key]

    def call_method(self, tx, name, args, kwargs):
        if name in ("index", "count", "numel") and hasattr(self.python_cls, name):  # a Size's numel(): folded too
            return ConstantVariable(self.as_python_constant()).call_method(tx, name, args, kwargs)
        if name == "__getitem__":
            return self.getitem(tx, args[0])
        if self.python_cls is list and name in ("append", "extend", "insert", "pop", "clear", "reverse", "__iadd__",
                                                "__imul__"):
            if self.source is not None:  # a list from outside: replayed on the real list after the graph
                tx.output.note_mutation(self)
            # run on the real list of trackers: an index is a constant, an item a tracker
            if name in ("extend", "__iadd__"):
                args = [args[0].realize().unpack_var_sequence(tx)]
            elif name in ("insert", "pop", "__imul__"):
                args = [*[a.realize().as_python_constant() for a in args[:1]], *args[1:]]
            result = run_on_items(self.items, name, args)
            return self if result is self.items else ConstantVariable(None) if result is None else result
        return sequence_method(tx, self, name, args, kwargs)  # (copy, sort, remove, del: list_methods.py)

    def build(self, cg):
        if self.python_cls not in (list, tuple):  # torch.Size, a namedtuple: made from a tuple
            return cg.call_const(self.rebuilder(), [TupleVariable(self.items)])
        for item in self.items:
            cg.reconstruct(item)
        cg.append("BUILD_LIST" if self.python_cls is list else "BUILD_TUPLE", len(self.items))

    def output_plan(self, og):
        if self.source is not None:  # the caller's own object (a change in the frame is replayed onto it)
            return super().output_plan(og)
        plans = [i.realize().output_plan(og) for i in self.items]
        make = self.rebuilder()
        return og.once(self, lambda outs, L, G: make(p(outs, L, G) for p in plans))

    def __repr__(self):
        return f"{type(self).__name__}({self.items})"


class ListVariable(BaseListVariable):
    python_cls = list
    mutable_identity = True


class TupleVariable(BaseListVariable):
    python_cls = tuple


class SizeVariable(TupleVariable):
    """`x.shape`: a tuple of ints or sizes that is a torch.Size to isinstance. Read from a tensor with symbolic
    sizes it has a `proxy`, the `size = l_x_.size()` node, which an op given the whole Size takes (as Dynamo's)."""

    python_cls = minitorch2.Size

    def __init__(self, items, source=None, proxy=None):
        super().__init__(items, source)
        self.proxy = proxy


class StructSequenceVariable(TupleVariable):
    """An op's named tuple of tensors (torch.return_types.sort, topk): a tuple whose fields read by name."""

    def __init__(self, items, python_cls, source=None):
        super().__init__(items, source)
        self.python_cls = python_cls
        self.fields = getattr(python_cls, "_fields", ())

    def var_getattr(self, tx, name):
        return self.items[self.fields.index(name)] if name in self.fields else super().var_getattr(tx, name)


def lazy_iterator(items, *inputs, pure=True):
    """A lazy iterator over `items` (a Python iterator of trackers) reading from the iterators `inputs`."""
    return ListIteratorVariable([], items, pure and all(it.pure for it in inputs))


def iterate(tx, var):
    """iter(var) as a tracker: an iterator stays itself; anything iterable becomes an iterator over its items."""
    var = var.realize()  # a list's iterator reads the list itself: what the loop appends, it visits (as Python's)
    return var if isinstance(var, ListIteratorVariable) else ListIteratorVariable(
        var.items if type(var) is ListVariable else var.unpack_var_sequence(tx))


class ListIteratorVariable(VariableTracker):
    """What GET_ITER makes, consumed by FOR_ITER. A lazy one (map, zip...) computes items from `lazy` (an iterator
    of trackers) as asked; at a graph break the rest passes on as a tuple if computing it calls nothing (`pure`)."""

    def __init__(self, items, lazy=None, pure=True):
        super().__init__()
        self.items, self.index, self.lazy, self.pure = items if type(items) is list else list(items), 0, lazy, pure

    def next_item(self, tx=None):
        if self.index == len(self.items) and self.lazy is not None:
            self.items.extend(itertools.islice(self.lazy, 1))
        if self.index >= len(self.items):
            return None
        self.index += 1
        return self.items[self.index - 1]

    def stream(self):
        """The items still to come, as a Python iterator (what a lazy iterator made of this one reads)."""
        return iter(self.next_item, None)

    def unpack_var_sequence(self, tx):
        if self.lazy is not None:
            self.items.extend(itertools.islice(self.lazy, MAX_ITEMS))
            if next(self.lazy, None) is not None:
                raise Unsupported(f"an iterator of more than {MAX_ITEMS} items (an infinite one?)", "unsupported")
            self.lazy = None
        rest = self.items[self.index:]
        self.index = len(self.items)
        return rest

    def rest(self):
        """The items not consumed yet, without consuming them (a graph break mid-loop passes them on)."""
        if self.lazy is not None and not self.pure:
            raise Unsupported("a lazy iterator that calls a function cannot be rebuilt after a graph break",
                              "unresumable")
        index, rest = self.index, self.unpack_var_sequence(None)
        self.index = index
        return rest

    def reconstruct(self, cg):
        cg.reconstruct(TupleVariable(self.rest()))
        cg.append("GET_ITER")
