"""The standard library inside compiled frames: functools, itertools and collections calls Dynamo traces.

Frontend layer, coverage surface beside builtin.py: `functools.partial(f, a)`, `functools.reduce`, `deque(...)`,
`OrderedDict(...)`, `defaultdict(list)`, `dict.fromkeys`, `collections.namedtuple(...)`, `itertools.chain`,
`islice`, `count`, `repeat` and `accumulate`, each modelled over trackers (a partial of trackers, a lazy iterator, a
DictVariable of its class) so a program using them captures in one graph, as in Dynamo. BuiltinVariable takes
LibraryCallsMixin: a call of one of LIBRARY_CALLABLES runs the mixin's `call_<its __name__>`.
"""
import collections
import functools
import itertools
import operator

from ..exc import Unsupported
from .constant import ConstantVariable
from .dicts import DictVariable, constant_key
from .functions import PartialVariable
from .lists import DequeVariable, iterate, lazy_iterator

# Callables outside builtins with a rule below (call_<their __name__>); builder.wrap makes them BuiltinVariables.
LIBRARY_CALLABLES = {functools.partial, functools.reduce, collections.deque, collections.namedtuple, collections.OrderedDict,
                     collections.defaultdict, dict.fromkeys, collections.OrderedDict.fromkeys, itertools.chain,
                     collections.defaultdict.fromkeys, itertools.chain.from_iterable, itertools.islice, itertools.count,
                     itertools.repeat, itertools.accumulate}


class LibraryCallsMixin:
    """The rules for LIBRARY_CALLABLES, on BuiltinVariable (`self.value` is the callable)."""

    def call_partial(self, tx, fn, *args, **kwargs):
        return PartialVariable(fn, args, kwargs)

    def call_deque(self, tx, iterable=None, maxlen=None):
        items = iterable.realize().unpack_var_sequence(tx) if iterable is not None else []
        return DequeVariable(items, maxlen.realize().as_python_constant() if maxlen is not None else None)

    def call_fromkeys(self, tx, keys, value=None):  # dict's, OrderedDict's or defaultdict's
        value = value if value is not None else ConstantVariable(None)
        return DictVariable({constant_key(k): value for k in iterate(tx, keys).unpack_var_sequence(tx)},
                            cls=self.value.__self__)

    def call_reduce(self, tx, fn, iterable, *initial):
        items = iterate(tx, iterable).stream()
        result = initial[0] if initial else next(items, None)
        if result is None:
            raise Unsupported("reduce() of an empty iterable with no initial value", "unsupported_call")
        for item in items:
            result = fn.realize().call_function(tx, [result, item], {})
        return result

    def call_accumulate(self, tx, iterable, func=None, initial=None):
        it = iterate(tx, iterable)
        combine = type(self)(operator.add) if func is None else func.realize()  # (the BuiltinVariable of `+`)

        def step(total, item):
            return combine.call_function(tx, [total, item], {})
        return lazy_iterator(itertools.accumulate(it.stream(), step, initial=initial), it, pure=False)

    def call_namedtuple(self, tx, *args, **kwargs):
        """The class is made now, from constant arguments (each translation makes its own, as each call does)."""
        made = collections.namedtuple(*[a.realize().as_python_constant() for a in args],
                                      **{k: v.realize().as_python_constant() for k, v in kwargs.items()})
        return tx.output.wrap(made, None)

    def call_chain(self, tx, *iterables):
        its = [iterate(tx, it) for it in iterables]
        return lazy_iterator(itertools.chain(*[it.stream() for it in its]), *its)

    def call_from_iterable(self, tx, iterables):
        return self.call_chain(tx, *iterate(tx, iterables).unpack_var_sequence(tx))

    def call_islice(self, tx, iterable, *bounds):
        it = iterate(tx, iterable)
        return lazy_iterator(itertools.islice(it.stream(), *[b.realize().as_python_constant() for b in bounds]), it)

    def call_count(self, tx, start=None, step=None):
        numbers = [v.realize().as_python_constant() for v in (start, step) if v is not None]
        return lazy_iterator(map(ConstantVariable, itertools.count(*numbers)))

    def call_repeat(self, tx, obj, *times):
        return lazy_iterator(itertools.repeat(obj, *[t.realize().as_python_constant() for t in times]))

    def call_OrderedDict(self, tx, mapping=None, **kwargs):
        return self.call_dict(tx, mapping, **kwargs)  # (BuiltinVariable's, made with self.value as the class)

    def call_defaultdict(self, tx, factory=None, mapping=None, **kwargs):
        made = self.call_dict(tx, mapping, **kwargs)
        made.factory = factory
        return made
