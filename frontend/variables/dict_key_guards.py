"""A dict read from the frame is guarded on what the frame asks of it, as Dynamo's: a key, or its whole key list.

Frontend layer, a base of `dicts.DictVariable`. The builder wraps a dict from outside the frame (a global table, a
kwargs argument, sys.modules) with the guard of its type only. `k in d`, `d[k]` and `d.get(k)` then guard that one
key (DICT_CONTAINS, present or absent; the item read guards its own value), so a key added later that the frame
never named compiles nothing new: einops' backend table, a registry filled at import. Anything that reads the
whole dict (iterating it, len(), keys(), values(), items(), a change written back) reads `items`, which guards the
list of keys in order (DICT_KEYS). Without this module every key is guarded when the dict is wrapped: the same
values, more recompiles than Dynamo's.
"""
from ..guards import Guard, dict_keys_guard
from ..source import literal


class KeysGuardedWhenRead:
    """For a tracker holding `_items` (constant key -> tracker), `source` and `guard` (guards.add, or None: a dict
    made in the frame, or its keys already guarded)."""

    guard = None  # (a class default: ChainMapVariable keeps its items otherwise, and is never guarded key by key)

    @property
    def items(self):
        if self.guard is not None:
            self.guard(dict_keys_guard(self.source, list(self._items)))
            self.guard = None
        return self._items

    @items.setter
    def items(self, items):  # (a subclass's, or a whole new set of items)
        self._items = items

    def has_key(self, key):
        """`key in d`, guarded on that key alone (a key no literal writes, as a tensor's identity: on all the keys)."""
        if self.guard is None or type(key) not in (str, int, bool):
            return key in self.items
        code = f"{literal(key)} {'in' if key in self._items else 'not in'} {self.source.name()}"
        self.guard(Guard("DICT_CONTAINS", code, code))
        return key in self._items

    def get(self, key, default):
        return (self.items if self.guard is None else self._items)[key] if self.has_key(key) else default
