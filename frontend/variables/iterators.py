"""Lazy iterators made in the frame: map, filter, zip, enumerate, and itertools' chain, islice, count, repeat.

Frontend layer, made by the builtins of those names (`builtin.py`). Each computes an item only when
its consumer asks (FOR_ITER, unpacking, sum, next), so `sum(map(f, xs))` calls f item by item and
`zip(itertools.count(), xs)` ends with xs, as in Python. Their inputs are iterators too (`lists.iterate`).
At a graph break each is rebuilt as the real iterator over its inputs' rebuilt remainders.
"""
import itertools

from .constant import ConstantVariable
from .lists import IteratorVariable, TupleVariable


def _next_of_each(tx, iterators):
    items = []
    for it in iterators:
        item = it.next_item(tx)
        if item is None:
            return None
        items.append(item)
    return items


class ZipVariable(IteratorVariable):
    """zip(*iterators); enumerate(xs, start) is zip(count(start), xs)."""

    def __init__(self, iterators):
        super().__init__()
        self.iterators = iterators
        self.infinite = all(it.infinite for it in iterators)

    def next_item(self, tx):
        items = _next_of_each(tx, self.iterators)
        return None if items is None else TupleVariable(items)

    def native(self):
        return zip, self.iterators


class MapVariable(ZipVariable):
    """map(fn, *iterators): fn is called (inlined, or recorded) on each group of items as it is asked for."""

    def __init__(self, fn, iterators):
        super().__init__(iterators)
        self.fn = fn

    def next_item(self, tx):
        items = _next_of_each(tx, self.iterators)
        return None if items is None else self.fn.realize().call_function(tx, items, {})

    def native(self):
        return map, [self.fn, *self.iterators]


class FilterVariable(IteratorVariable):
    def __init__(self, fn, iterator):
        super().__init__()
        self.fn, self.iterator, self.infinite = fn, iterator, iterator.infinite

    def next_item(self, tx):
        while (item := self.iterator.next_item(tx)) is not None:
            is_identity = self.fn.is_python_constant() and self.fn.as_python_constant() is None
            keep = item if is_identity else self.fn.call_function(tx, [item], {})
            if keep.realize().truth(tx):
                return item
        return None

    def native(self):
        return filter, [self.fn, self.iterator]


class ChainVariable(IteratorVariable):
    def __init__(self, iterators):
        super().__init__()
        self.iterators = list(iterators)
        self.infinite = any(it.infinite for it in iterators)

    def next_item(self, tx):
        while self.iterators:
            item = self.iterators[0].next_item(tx)
            if item is not None:
                return item
            self.iterators.pop(0)
        return None

    def native(self):
        return itertools.chain, self.iterators


class IsliceVariable(IteratorVariable):
    """itertools.islice(iterator, start, stop, step): `position` items of the iterator are read so far."""

    def __init__(self, iterator, bounds):
        super().__init__()
        self.iterator, self.position = iterator, 0
        self.next_index, self.stop, self.step = bounds.start or 0, bounds.stop, bounds.step or 1
        self.infinite = self.stop is None and iterator.infinite

    def next_item(self, tx):
        if self.stop is not None and self.next_index >= self.stop:
            return None
        while self.position <= self.next_index:
            item = self.iterator.next_item(tx)
            self.position += 1
            if item is None:
                self.stop = self.next_index  # exhausted: later calls end at once
                return None
        self.next_index += self.step
        return item

    def native(self):
        stop = None if self.stop is None else max(self.stop - self.position, 0)
        bounds = [self.next_index - self.position, stop, self.step]
        return itertools.islice, [self.iterator, *map(ConstantVariable, bounds)]


class CountVariable(IteratorVariable):
    infinite = True

    def __init__(self, start, step):
        super().__init__()
        self.value, self.step = start, step

    def next_item(self, tx):
        self.value += self.step
        return ConstantVariable(self.value - self.step)

    def native(self):
        return itertools.count, [ConstantVariable(self.value), ConstantVariable(self.step)]


class RepeatVariable(IteratorVariable):
    def __init__(self, item, times):
        super().__init__()
        self.item, self.times, self.infinite = item, times, times is None

    def next_item(self, tx):
        if self.times is not None:
            if self.times <= 0:
                return None
            self.times -= 1
        return self.item

    def native(self):
        return itertools.repeat, [self.item, *([ConstantVariable(self.times)] if self.times is not None else [])]
