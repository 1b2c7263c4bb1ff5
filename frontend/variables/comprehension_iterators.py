"""The iterator a Python 3.11 comprehension's frame is handed (`.0`): modelled as the items still to come.

Frontend layer, called from builder.wrap through dataclass_internals.wrap_other, for a value no other tracker takes.
On 3.11, `[f(t) for t in xs]` calls a <listcomp> function with `iter(xs)` as its argument `.0`; when a graph break
inside f is routed to that frame, its translation reads `.0`: a tuple or list iterator. As Dynamo's builder does, the
iterator is guarded on its type and on how many items it has left, and each item is read through a source into the
iterator's sequence (`L['.0'].__reduce__()[1][0][i]`, the iterator left where it is), so a tensor item is a graph
input. The frame consumes the iterator, but no one else holds it (`.0` is no name a program can write), so the real
one need not be advanced; an iterator passed under any other name stays a graph break.
"""
from .. import guards
from ..source import GetItemSource, LocalSource, TensorSizeSource
from .lists import ListIteratorVariable

ITERATOR_TYPES = (type(iter(())), type(iter([])))


def is_comprehension_iterator(value, source):
    return type(value) in ITERATOR_TYPES and source == LocalSource(".0")


def wrap_comprehension_iterator(og, value, source):
    from .builder import wrap  # (a cycle: the builder calls this module)
    og.guards.add(guards.type_guard(source, value), type(value))
    left = value.__length_hint__()
    name = source.name()
    og.guards.add(guards.Guard("SEQUENCE_LENGTH", f"{name}.__length_hint__() == {left}", f"{name} has {left} items left"))
    if not left:
        return ListIteratorVariable([])
    _, (sequence,), start = value.__reduce__()  # (an exhausted iterator has no index: it has no item left either)
    og.guards.add(guards.Guard("CONSTANT_MATCH", f"{name}.__reduce__()[2] == {start}", f"{name} is at item {start}"))
    # (TensorSizeSource names a method's result, indexed: `L['.0'].__reduce__()[1]`, the iterator's sequence first)
    items = GetItemSource(TensorSizeSource(source, 1, "__reduce__"), 0)
    return ListIteratorVariable([wrap(og, sequence[start + i], GetItemSource(items, start + i)) for i in range(left)])
