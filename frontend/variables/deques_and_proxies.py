"""The deque and mappingproxy trackers: collections.deque and types.MappingProxyType in compiled frames.

Frontend layer, beside stdlib.py (whose LibraryCallsMixin makes them: deque(...), types.MappingProxyType(d)) and
builder.py (which wraps one handed to the frame, through dataclass_internals.wrap_other). A deque built in the frame
is a list of trackers changed at both ends by a real deque of them; one from outside is guarded by type, length and
maxlen and written back if changed. A mappingproxy is a read-only live view of a dict tracker's items.
"""
import collections
import functools
import types

from .. import guards
from ..exc import Unsupported
from ..source import AttrSource
from .constant import ConstantVariable
from .dicts import DictVariable
from .exceptions import raise_observed
from .lists import ListVariable


class DequeVariable(ListVariable):
    """A collections.deque built in the frame: a list of trackers, changed at both ends by a real deque of them
    (which drops what falls past maxlen, as the program's own deque will)."""

    python_cls = collections.deque

    def __init__(self, items, maxlen=None):
        super().__init__(collections.deque(items, maxlen))
        self.maxlen = maxlen

    def rebuilder(self):
        return functools.partial(collections.deque, maxlen=self.maxlen)

    def call_method(self, tx, name, args, kwargs):
        if name in ("copy", "__copy__") and not args and not kwargs:  # a new deque of the same items and maxlen
            return DequeVariable(list(self.items), self.maxlen)
        if name not in ("append", "appendleft", "extend", "extendleft", "insert", "pop", "popleft", "clear") or (
                name.startswith("pop") and not self.items):
            return super().call_method(tx, name, args, kwargs)
        if self.source is not None:  # a deque from outside: its final items are written back after the graph
            tx.output.note_mutation(self)
        operands = [] if name in ("pop", "popleft", "clear") else [
            args[0].realize().unpack_var_sequence(tx) if name.startswith("extend") else args[0]]
        if name == "insert":  # (its index a constant)
            operands = [args[0].realize().as_python_constant(), args[1]]
        real = collections.deque(self.items, self.maxlen)
        try:
            result = getattr(real, name)(*operands)
        except IndexError as e:  # (an insert into a full bounded deque)
            raise_observed(IndexError, e.args, f"deque.{name}: {e}")
        self.items = list(real)
        return ConstantVariable(None) if result is None else result


def wrap_input_deque(og, value, source):
    """A deque from outside the frame (an argument, a resume function's local), as Dynamo's builder takes it: guarded
    by type, length and maxlen, its items wrapped at first use as a list's are."""
    from .builder import _item  # (a cycle: builder.py reaches this module)
    og.guards.add(guards.type_guard(source, value), type(value))
    og.guards.add(guards.length_guard(source, value))
    og.guards.add(guards.constant_guard(AttrSource(source, "maxlen"), value.maxlen))
    deque = DequeVariable([_item(og, v, source, i) for i, v in enumerate(value)], value.maxlen)
    deque.source = source
    return deque


class MappingProxyVariable(DictVariable):
    """types.MappingProxyType(d) of a dict tracker: a read-only live view of d's items (a write raises the
    program's TypeError, as Python's; the dict methods that write are not the proxy's, so they break)."""

    def __init__(self, mapping):
        super().__init__({}, cls=types.MappingProxyType)
        self.items = mapping.items  # (the same dict: what d gains later, the view shows)

    def setitem(self, tx, key, value):
        raise_observed(TypeError, ["'mappingproxy' object does not support item assignment"], "a mappingproxy write")


def wrap_input_mapping_proxy(og, value, source):
    """A mappingproxy from outside the frame (an enum's __members__, a class's __dict__), guarded by type and keys:
    a read-only view over a dict tracker of its items, each wrapped at first use as a dict argument's are."""
    from .builder import _item  # (a cycle, as wrap_input_deque's)
    if not {*map(type, value)} <= {str, int, bool}:
        raise Unsupported("a mappingproxy with keys that are no str, int or bool", "unsupported")
    og.guards.add(guards.type_guard(source, value), type(value))
    og.guards.add(guards.dict_keys_guard(source, list(value)))
    proxy = MappingProxyVariable(DictVariable({k: _item(og, v, source, k) for k, v in value.items()}))
    proxy.source = source
    return proxy
