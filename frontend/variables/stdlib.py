"""The standard library inside compiled frames: functools, itertools, collections and contextlib, as Dynamo traces them.

Frontend layer, coverage surface beside builtin.py: `functools.partial(f, a)`, `functools.reduce`, `deque(...)`,
`OrderedDict(...)`, `defaultdict(list)`, `dict.fromkeys`, `collections.namedtuple(...)`, `itertools.chain`, `islice`,
`count`, `repeat` and `accumulate`, `Counter` and `ChainMap`, each modelled over trackers (a partial of trackers, a
lazy iterator, a DictVariable of its class), and the partials and namedtuples themselves (trackers of their class),
so a program using them captures in one graph, as in Dynamo (contextlib's context managers: context_trackers.py; the
deque and mappingproxy trackers: deques_and_proxies.py); iter(f, sentinel) calls f lazily. BuiltinVariable takes
LibraryCallsMixin: a call of one of LIBRARY_CALLABLES runs the mixin's `call_<its __name__>`.
"""
import collections
import collections.abc
import contextlib
import copy
import dataclasses
import functools
import inspect
import itertools
import math
import operator
import random
import types

import minitorch2

from .. import guards, pyversion
from ..exc import Unsupported
from ..source import AttrSource, GetItemSource
from .base import VariableTracker
from .constant import ConstantVariable
from .context_trackers import ExitStackVariable, NullContextVariable
from .dataclass_internals import dataclass_fields, deepcopy_constant
from .deques_and_proxies import DequeVariable, MappingProxyVariable
from .dicts import DictVariable, constant_key, dict_items
from .list_methods import sorted_items
from .exceptions import ObservedException, as_exception, raise_observed
from .lists import (BaseListVariable, ListIteratorVariable, ListVariable, SizeVariable, StructSequenceVariable,
                    TupleVariable, iterate, lazy_iterator)
from .counters import CounterVariable
from .random_objects import make_generator

# Callables outside builtins with a rule below (call_<their __name__>); builder.wrap makes them BuiltinVariables.
LIBRARY_CALLABLES = {functools.partial, functools.reduce, collections.deque, collections.namedtuple, collections.OrderedDict,
                     collections.defaultdict, dict.fromkeys, collections.OrderedDict.fromkeys, itertools.chain,
                     collections.defaultdict.fromkeys, itertools.chain.from_iterable, itertools.islice, itertools.count,
                     itertools.repeat, itertools.accumulate, collections.Counter, collections.ChainMap,
                     types.MappingProxyType}
# itertools' combinators run for real over streams of trackers (LibraryCallsMixin._over_streams); those calling a
# function of the program (a predicate, starmap's function, groupby's key) call it through its tracker
OVER_STREAMS = {itertools.pairwise, itertools.combinations, itertools.permutations, itertools.zip_longest,
                itertools.cycle, itertools.compress, itertools.tee, itertools.starmap, itertools.takewhile,
                itertools.dropwhile, itertools.filterfalse, itertools.groupby, itertools.product}
PREDICATED = {itertools.takewhile, itertools.dropwhile, itertools.filterfalse}
LIBRARY_CALLABLES |= OVER_STREAMS | {contextlib.nullcontext, contextlib.suppress, contextlib.ExitStack,
                                     operator.attrgetter, operator.itemgetter, operator.methodcaller, inspect.signature,
                                     object.__setattr__,  # (a frozen dataclass's __init__ sets its fields with it)
                                     object.__new__,  # (`Cls.__new__(Cls)`: an object whose __init__ is not run)
                                     dataclasses.fields, copy.deepcopy, copy.copy, random.Random, math.prod}
# torch.Size([2, 3]) made in the frame; operator.is_ / is_not, which ask what the `is` operator asks
LIBRARY_CALLABLES |= {minitorch2.Size, operator.is_, operator.is_not}
# the methods of immutable builtin types read off the type (`sorted(names, key=str.lower)`): on constants, each folds
PURE_METHODS = {method for cls in (str, bytes, int, float, tuple, frozenset) for name, method in vars(cls).items()
                if isinstance(method, types.MethodDescriptorType) and not name.startswith("_")} | {
                getattr(set, name) for name in ("difference", "intersection", "union", "symmetric_difference", "issubset",
                                                "issuperset", "isdisjoint")} | {  # (`set.difference(a, b)`: a new set)
                float.fromhex, int.from_bytes}  # (the classmethods making immutable values)
LIBRARY_CALLABLES |= {m for m in PURE_METHODS if m.__name__ != "count"}  # (call_count: itertools.count's rule)


def wrap_functools_object(og, value, source, wrap):
    """A functools.partial read from the frame: its function and stored arguments, read through its source; an
    lru_cache'd function: the function it wraps, inlined (as Dynamo's, which warns that the cache is bypassed)."""
    def part(name, key=None):
        inner = AttrSource(source, name) if source is not None else None
        return inner if key is None or inner is None else GetItemSource(inner, key)

    if type(value) is functools._lru_cache_wrapper:
        return wrap(og, value.__wrapped__, part("__wrapped__"))
    if source is not None:
        og.guards.add(guards.id_guard(source, value), value)
    return PartialVariable(wrap(og, value.func, part("func")),
                           [wrap(og, v, part("args", i)) for i, v in enumerate(value.args)],
                           {k: wrap(og, v, part("keywords", k)) for k, v in value.keywords.items()}, source)


class PartialVariable(VariableTracker):
    """functools.partial(fn, *args, **kwargs), made in or read by the frame: calls fn with the stored args first."""

    def __init__(self, fn, args, kwargs, source=None):
        super().__init__(source)
        self.fn, self.args, self.kwargs = fn, list(args), dict(kwargs)

    def truth(self, tx):  # (`if self.fn:` of a partial: true, as any object without __bool__ or __len__)
        return True

    def python_type(self):
        return functools.partial

    def call_function(self, tx, args, kwargs):
        return self.fn.realize().call_function(tx, [*self.args, *args], {**self.kwargs, **kwargs})

    def var_getattr(self, tx, name):
        parts = {"func": self.fn, "args": TupleVariable(self.args), "keywords": DictVariable(self.kwargs)}
        return parts[name] if name in parts else super().var_getattr(tx, name)

    def build(self, cg):
        cg.call_const(_make_partial, [self.fn, TupleVariable(self.args), DictVariable(self.kwargs)])


def _make_partial(fn, args, kwargs):
    return functools.partial(fn, *args, **kwargs)


class SuspendingGeneratorMixin:
    """Inlines a @contextmanager's generator function (a mixin of the inlining translator): each run() goes on to the
    next yield, returning what it yields, as Dynamo inlines it: to its yield when the `with` block is entered, on to
    its end when it is left."""

    suspended = False  # the last run() stopped at a yield, not at the end

    def RETURN_GENERATOR(self, inst):
        self.push(ConstantVariable(None))  # the generator object the code returns first; popped at once

    def YIELD_VALUE(self, inst):
        self.return_value, self.suspended = self.pop(), True  # ends this run(); the next one goes on from here
        self.push(ConstantVariable(None))  # what the consumer sends back: next() sends None

    def run(self):
        self.return_value, self.suspended = None, False
        return super().run()

    def throw(self, exception):
        """gen.throw(exc) at the yield it waits at: raised there, on to the generator's handler, and run on."""
        self.return_value, self.suspended = None, False
        if exception.uncaught is None:
            exception.uncaught = Unsupported("an exception thrown into a generator is not caught in the frame",
                                             "uncaught_exception")
        self.unwind_to_handler(ObservedException(exception), self.current_instruction)
        return super().run()

    def GET_YIELD_FROM_ITER(self, inst):
        self.push(iterate(self, self.pop()))

    def SEND(self, inst):
        """`yield from it`: it's next item to yield, or at its end a jump past the loop (3.11: it popped)."""
        self.pop()  # (the value sent in: next() sends None)
        receiver = self.stack[-1]
        item = receiver.next_item(self)
        if item is None:  # what `yield from` evaluates to: a generator's return value
            result = receiver.generator.return_value if isinstance(receiver, GeneratorVariable) else ConstantVariable(None)
            self.stack[-1:] = [result] if pyversion.VERSION == (3, 11) else [receiver, result]
            return self.jump(inst)
        self.push(item)

    def END_SEND(self, inst):  # 3.12+: the receiver under the result goes
        del self.stack[-2]


def sentinel_iterator(tx, fn, sentinel):
    """iter(fn, sentinel): a lazy iterator calling fn as each item is asked for, up to the first result equal to the
    constant sentinel (or a StopIteration fn raises, as CPython's callable iterator ends there)."""
    fn, stop = fn.realize(), sentinel.realize().as_python_constant()

    def calls():
        while True:
            try:
                value = fn.call_function(tx, [], {}).realize()
            except ObservedException as e:
                if not issubclass(e.value.python_type(), StopIteration):
                    raise
                return
            if not value.is_python_constant():  # (== of a tensor and the sentinel is no bool to stop on)
                raise Unsupported("iter(f, sentinel) where f returns no constant", "unsupported_call")
            if value.as_python_constant() == stop:
                return
            yield value
    return lazy_iterator(calls(), pure=False)


def generator_iterator(code, start):
    """A generator function called in the frame: a lazy iterator whose items are its yields, each run on to as next()
    asks for it (`start()` makes the SuspendingGeneratorMixin translator), as Dynamo inlines generators."""
    if not code.co_flags & inspect.CO_GENERATOR:
        raise Unsupported(f"{code.co_name} is a coroutine", "generator")
    generator = start()

    def yields():
        while True:
            try:
                value = generator.run()
            except ObservedException as e:  # (PEP 479: a StopIteration leaving the body is a RuntimeError)
                if issubclass(e.value.python_type(), StopIteration):
                    raise_observed(RuntimeError, ["generator raised StopIteration"], "a StopIteration left a generator")
                raise
            except Unsupported as e:  # as Dynamo's: a break in a generator's next() skips the whole frame, untallied
                e.in_generator = True
                raise
            if not generator.suspended:
                return
            yield value
    return GeneratorVariable(generator, yields())


class GeneratorVariable(ListIteratorVariable):
    """A generator made in the frame: a lazy iterator whose next() and send() run it on to its next yield."""

    def __init__(self, generator, yields):
        super().__init__([], yields, pure=False)
        self.generator = generator

    def call_method(self, tx, name, args, kwargs):
        if name == "close" and not args:
            return self._close(tx)
        if name == "throw" and len(args) == 1 and self.generator.suspended:  # (an exception instance or class)
            value = self.generator.throw(as_exception(args[0]))  # (an exception it does not catch goes on to the caller)
            if not self.generator.suspended:
                raise_observed(StopIteration, [], "a generator's StopIteration after throw()")
            return value
        if name not in ("send", "__next__"):
            raise Unsupported(f"generator.{name}", "unsupported_call")
        if name == "send" and self.generator.suspended:  # what its paused `yield` evaluates to
            self.generator.stack[-1] = args[0]
        item = self.next_item(tx)
        if item is None:
            raise_observed(StopIteration, [], "a generator's StopIteration")
        return item


    def _close(self, tx):
        """close(): GeneratorExit raised at its paused yield, its finally blocks run (inlined) on the way out, and it
        ends; one that yields again instead is a break (CPython raises RuntimeError)."""
        generator = self.generator
        if generator.suspended:
            try:
                raise_observed(GeneratorExit, [], "generator.close()")
            except ObservedException as e:
                try:
                    generator.unwind_to_handler(e, generator.current_instruction)
                    generator.run()
                except ObservedException as raised:
                    if not issubclass(raised.value.python_type(), GeneratorExit):
                        raise
                else:
                    if generator.suspended:
                        raise Unsupported("a generator that yields after close()", "unsupported_call") from None
        self.items, self.index, self.lazy = [], 0, None
        return ConstantVariable(None)


_NAMEDTUPLE_REPLACE_CODE = collections.namedtuple("Pair", "first second")._replace.__code__  # shared by all


class NamedTupleVariable(StructSequenceVariable):
    """A collections.namedtuple (or a subclass): fields read by name, the class's methods and properties inlined."""

    # (rebuilt once at a break, however many places hold it, when an attribute was set on it in the frame)
    mutable_identity = property(lambda self: bool(self.__dict__.get("attrs")))

    def __init__(self, items, python_cls, source=None, instance=None):
        super().__init__(items, python_cls, source)
        self.instance = instance  # (the tuple itself, when it came from outside the frame)

    def rebuilder(self):
        return self.python_cls._make

    def store_attr(self, tx, name, value, as_object=False):
        """`tup.c = v` on an instance with a __dict__ (a subclass of a namedtuple class): kept with the tracker and set
        on the tuple rebuilt after the graph (a field, or a class without a __dict__: Python's AttributeError)."""
        if name in self.python_cls._fields or not self.python_cls.__dictoffset__:
            message = "can't set attribute" if name in self.python_cls._fields else \
                f"'{self.python_cls.__name__}' object has no attribute '{name}'"
            raise_observed(AttributeError, [message], f"setting attribute {name!r} of a {self.python_cls.__name__}")
        self.__dict__.setdefault("attrs", {})[name] = value

    def build(self, cg):
        super().build(cg)
        for name, value in self.__dict__.get("attrs", {}).items():  # tup.name = value, tup left on the stack
            cg.append("COPY", 1)
            cg.reconstruct(value)
            cg.append("SWAP", 2)
            cg.append("STORE_ATTR", name)

    def output_plan(self, og):
        attrs = self.__dict__.get("attrs")
        if not attrs or self.source is not None:
            return super().output_plan(og)
        plans = [i.realize().output_plan(og) for i in self.items]
        attr_plans = {name: value.realize().output_plan(og) for name, value in attrs.items()}

        def rebuild(outs, L, G):
            made = self.rebuilder()(p(outs, L, G) for p in plans)
            for name, plan in attr_plans.items():
                setattr(made, name, plan(outs, L, G))
            return made
        return og.once(self, rebuild)

    def var_getattr(self, tx, name):
        if name in self.__dict__.get("attrs", {}):
            return self.attrs[name]
        instance = self.__dict__.get("instance")  # (one from outside: its own attributes read through its source)
        if instance is not None and self.source is not None and name in getattr(instance, "__dict__", {}):
            return tx.output.wrap(instance.__dict__[name], AttrSource(self.source, name))
        if name == "_fields":
            return ConstantVariable(self.python_cls._fields)
        attr = inspect.getattr_static(self.python_cls, name, None)
        if isinstance(attr, property) and isinstance(attr.fget, types.FunctionType):
            return tx.output.wrap(attr.fget, None).call_function(tx, [self], {})
        return super().var_getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        """A method the class defines in Python is inlined with the tuple as self; tuple's own are folded."""
        fn = inspect.getattr_static(self.python_cls, name, None)
        if getattr(fn, "__code__", None) is _NAMEDTUPLE_REPLACE_CODE:  # n._replace(a=...): a new tuple of trackers
            fields = dict(zip(self.python_cls._fields, self.items))
            if args or not set(kwargs) <= set(fields):
                raise Unsupported(f"{self.python_cls.__name__}._replace with {len(args)} positional arguments or "
                                  f"unknown fields {sorted(kwargs)}", "unsupported_call")
            return NamedTupleVariable(list({**fields, **kwargs}.values()), self.python_cls)
        if isinstance(fn, types.FunctionType) and name not in self.python_cls._fields:
            return tx.output.wrap(fn, None).call_function(tx, [self, *args], kwargs)
        if isinstance(fn, (staticmethod, classmethod)) and isinstance(fn.__func__, types.FunctionType):
            bound = [tx.output.wrap(self.python_cls, None)] if isinstance(fn, classmethod) else []  # (cls, or nothing)
            return tx.output.wrap(fn.__func__, None).call_function(tx, [*bound, *args], kwargs)
        if name == "count" and not self.is_python_constant():  # items compared one by one, as Dynamo's countOf
            return tx.output.wrap(_count_of, None).call_function(tx, [self, *args], kwargs)
        return super().call_method(tx, name, args, kwargs)


def _count_of(items, value):  # operator.countOf, inlined as Dynamo's polyfill of it is
    return sum(item is value or item == value for item in items)


class NamedTupleClassVariable(ConstantVariable):
    """A namedtuple class (or a subclass that keeps its constructor): calling it builds the tuple of trackers."""

    def call_function(self, tx, args, kwargs):
        cls, mro = self.value, self.value.__mro__
        base = next(k for k in mro if "_make" in vars(k))  # the class collections.namedtuple made
        if any("__new__" in vars(k) or "__init__" in vars(k) for k in mro[:mro.index(base)]):
            raise Unsupported(f"constructing {cls.__name__}, which overrides __new__ or __init__", "unsupported_call")
        try:
            bound = inspect.signature(cls).bind(*args, **kwargs)
        except TypeError as e:
            raise Unsupported(f"calling {cls.__name__}: {e}", "unsupported_call") from None
        bound.apply_defaults()
        return NamedTupleVariable([ConstantVariable(v) if not isinstance(v, VariableTracker) else v
                                   for v in bound.arguments.values()], cls)

    def var_getattr(self, tx, name):  # Cls._make(items): inlined, the class called on the items
        if name == "_make":
            return tx.output.wrap(functools.partial(lambda cls, items: cls(*items), self.value), None)
        return super().var_getattr(tx, name)


class ChainMapVariable(DictVariable):
    """A collections.ChainMap made in the frame over dicts made in it: a read looks through them in order (its items
    are that merged view, in ChainMap's order), a write goes to the first."""

    def __init__(self, maps):
        VariableTracker.__init__(self)
        self.maps, self.cls, self.factory = maps, collections.ChainMap, None

    @property
    def items(self):
        keys = {}
        for mapping in reversed(self.maps):
            keys.update(dict.fromkeys(mapping.items))
        return {k: next(m.items[k] for m in self.maps if k in m.items) for k in keys}

    def getitem(self, tx, index):
        key = constant_key(index)
        if key not in self.items:
            raise_observed(KeyError, [key], f"KeyError {key!r} in a ChainMap built in the frame")
        return self.items[key]

    def setitem(self, tx, key, value):
        self.maps[0].setitem(tx, key, value)

    def call_method(self, tx, name, args, kwargs):
        if name in ("update", "pop", "setdefault", "__setitem__", "clear"):
            return self.maps[0].call_method(tx, name, args, kwargs)
        if name == "copy":
            raise Unsupported("ChainMap.copy in a compiled frame", "unsupported_call")
        if name == "new_child":  # a ChainMap over a new (or the given) dict and these maps
            child = (args or [kwargs.get("m", ConstantVariable(None))])[0].realize()
            fresh = isinstance(child, ConstantVariable) and child.value is None
            return LibraryCallsMixin.call_ChainMap(self, tx, DictVariable({}) if fresh else child, *self.maps)
        if name == "get":  # (on a snapshot: the merged items are a view, not a dict to write back)
            return DictVariable(self.items).call_method(tx, name, args, kwargs)
        return super().call_method(tx, name, args, kwargs)

    def var_getattr(self, tx, name):
        if name in ("maps", "parents"):  # its list of dicts (the same list); a ChainMap over all but the first
            return ListVariable(self.maps) if name == "maps" else ChainMapVariable(self.maps[1:] or [DictVariable({})])
        return super().var_getattr(tx, name)

    def output_plan(self, og):
        plans = [m.output_plan(og) for m in self.maps]
        return lambda outs, L, G: collections.ChainMap(*[plan(outs, L, G) for plan in plans])

    def build(self, cg):
        raise Unsupported("a ChainMap cannot be rebuilt after a graph break", "unresumable")


def is_namedtuple_class(cls):
    """A class collections.namedtuple made (or one like it): fields, _make, and tuple's own sequence protocol."""
    fields = getattr(cls, "_fields", None)
    return (isinstance(fields, tuple) and all(type(f) is str for f in fields) and callable(getattr(cls, "_make", None))
            and all(getattr(cls, m) is getattr(tuple, m) for m in ("__getitem__", "__iter__", "__len__")))


def _attrgetter(*names):  # operator's getters, inlined as the program's own functions would be
    def get(obj):
        return _dotted_getattr(obj, names[0]) if len(names) == 1 else tuple(_dotted_getattr(obj, n) for n in names)
    return get


def _dotted_getattr(obj, name):  # attrgetter("cfg.scale"): one getattr per part, as operator's
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _itemgetter(*keys):
    def get(obj):
        return obj[keys[0]] if len(keys) == 1 else tuple(obj[key] for key in keys)
    return get


def _methodcaller(name, *args, **kwargs):
    def call(obj):
        return getattr(obj, name)(*args, **kwargs)
    return call


def _stream_item(value):
    """What a combinator gives back, as a tracker: its tuples as tuples of trackers, groupby's groups lazily."""
    if isinstance(value, tuple):
        return TupleVariable([_stream_item(v) for v in value])
    if isinstance(value, VariableTracker):
        return value
    return lazy_iterator(map(_stream_item, value)) if isinstance(value, collections.abc.Iterator) else ConstantVariable(value)


class PlainDictSubclassVariable(ConstantVariable):
    """A subclass of dict, OrderedDict or defaultdict that adds nothing to it (`class Row(OrderedDict): pass`, as
    Dynamo's test_custom_dict_kwargs writes): calling it makes a dict tracker of that class, as dict(...) does."""

    def call_function(self, tx, args, kwargs):
        if len(args) > 1 or (self.value.__mro__[1] is collections.defaultdict and (args or kwargs)):
            raise Unsupported(f"{self.value.__name__}(...) with these arguments", "unsupported_call")
        items = dict_items(tx, args[0], pairs=True) if args else {}
        return DictVariable({**items, **kwargs}, cls=self.value)


def class_tracker(cls):
    """The tracker class for a class that is no user class of is_user_class: a plain dict subclass's, or a constant."""
    plain = len(cls.__mro__) > 2 and cls.__mro__[1] in (dict, collections.OrderedDict, collections.defaultdict) and \
        not set(vars(cls)) - {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__firstlineno__",
                              "__static_attributes__"}
    return PlainDictSubclassVariable if plain else ConstantVariable


class LibraryCallsMixin:
    """The rules for LIBRARY_CALLABLES, on BuiltinVariable (`self.value` is the callable)."""

    def call_Random(self, tx, seed=None):
        return make_generator(seed)  # (random_objects.py)

    def call_Size(self, tx, items=None):
        return SizeVariable([] if items is None else items.realize().unpack_var_sequence(tx))

    def call_is_(self, tx, a, b):
        a, b = a.realize(), b.realize()
        if all(v.is_python_constant() and not isinstance(v, BaseListVariable) for v in (a, b)):
            return ConstantVariable(a.as_python_constant() is b.as_python_constant())
        # the same tracker, fake tensor or Python function (an in-place method's result is its receiver; a tensor,
        # module or list: its tracker; a function read twice, `p.func is f`: two trackers of one function)
        a, b = [v.fn if isinstance(getattr(v, "fn", None), types.FunctionType) else getattr(v, "example_value", v)
                for v in (a, b)]
        return ConstantVariable(a is b)

    def call_is_not(self, tx, a, b):
        return ConstantVariable(not self.call_is_(tx, a, b).value)

    def call_fields(self, tx, obj):
        return dataclass_fields(tx, obj.realize())

    def call_deepcopy(self, tx, obj, memo=None):
        return deepcopy_constant(obj.realize())

    def call_copy(self, tx, obj):
        """copy.copy(x) of an object of a user's class made in the frame, whose class leaves copying to object's
        __reduce_ex__: a new object of the class holding the same attributes (what copy makes of that reduction, as
        Dynamo traces it); anything else runs copy's own code. (frozenset.copy shares the name: it gives x itself.)"""
        from .user_defined import UserFunctionVariable, UserObjectVariable  # (user_defined.py builds on this module)
        obj = obj.realize()
        if self.value is not copy.copy:
            return obj
        cls = type(getattr(obj, "value", None))
        own_protocol = any(inspect.getattr_static(cls, name, None) is not getattr(object, name, None) for name in (
            "__copy__", "__reduce_ex__", "__reduce__", "__getstate__", "__setstate__", "__slots__"))
        if type(obj) is not UserObjectVariable or obj.source is not None or own_protocol:
            return UserFunctionVariable(copy.copy).call_function(tx, [obj], {})
        made = self.call___new__(tx, ConstantVariable(cls))
        made.attrs = dict(obj.attrs)
        return made

    def _over_streams(self, tx, *args, **kwargs):
        fn, its = self.value, []

        def stream(var):
            its.append(iterate(tx, var))
            return its[-1].stream()

        def calls(var, convert):
            return None if var is None or var.realize().is_python_constant() and var.as_python_constant() is None \
                else (lambda *xs: convert(var.realize().call_function(tx, list(xs), {}).realize()))
        if fn in PREDICATED:
            args = [calls(args[0], lambda r: r.truth(tx)), stream(args[1])]
        elif fn is itertools.starmap:
            args = [calls(args[0], lambda r: r), (v.realize().unpack_var_sequence(tx) for v in stream(args[1]))]
        elif fn is itertools.groupby:
            key = calls(kwargs.pop("key", args[1] if len(args) > 1 else None), lambda r: r.as_python_constant())
            args, kwargs = [stream(args[0])], {"key": key or (lambda v: v.realize().as_python_constant())}
        elif fn is itertools.compress:
            args = [stream(args[0]), (v.realize().truth(tx) for v in stream(args[1]))]
        else:
            args = [a.realize().as_python_constant() if type(a.realize().as_python_constant() if a.realize(
            ).is_python_constant() else None) is int else stream(a) for a in args]
            kwargs = {k: v if k == "fillvalue" else v.realize().as_python_constant() for k, v in kwargs.items()}
        result = fn(*args, **kwargs)
        pure = fn not in PREDICATED | {itertools.starmap, itertools.groupby}
        if fn is itertools.tee:
            return TupleVariable([lazy_iterator(r, *its, pure=pure) for r in result])
        return lazy_iterator(map(_stream_item, result), *its, pure=pure)

    call_pairwise = call_combinations = call_permutations = call_zip_longest = call_cycle = call_compress = \
        call_tee = call_starmap = call_takewhile = call_dropwhile = call_filterfalse = call_groupby = \
        call_product = _over_streams

    def call_ExitStack(self, tx):
        return ExitStackVariable()

    def call_nullcontext(self, tx, value=None):
        return NullContextVariable(value or ConstantVariable(None))

    def call_suppress(self, tx, *exceptions):
        return NullContextVariable(ConstantVariable(None), tuple(e.realize().as_python_constant() for e in exceptions))

    def _polyfill(self, tx, *args, **kwargs):
        polyfill = {operator.attrgetter: _attrgetter, operator.itemgetter: _itemgetter,
                    operator.methodcaller: _methodcaller}[self.value]
        return tx.output.wrap(polyfill, None).call_function(tx, list(args), kwargs)

    call_attrgetter = call_itemgetter = call_methodcaller = _polyfill

    def call_sorted(self, tx, iterable, key=None, reverse=None):
        """sorted() of trackers by constant keys (the key function's answers, or the items themselves: items that hold
        tensors, as `d.items()` does, are a graph break, as in Dynamo): the items reordered, as Dynamo sorts them."""
        items = [v.realize() for v in iterate(tx, iterable).unpack_var_sequence(tx)]
        return ListVariable(sorted_items(tx, items, key, reverse))

    def call_signature(self, tx, fn):
        """inspect.signature of a function (guarded by identity where read from the frame): a constant, now."""
        fn = fn.realize()
        return ConstantVariable(inspect.signature(fn.fn if hasattr(fn, "fn") else fn.as_python_constant()))

    def call_partial(self, tx, fn, *args, **kwargs):
        return PartialVariable(fn, args, kwargs)

    def call_deque(self, tx, iterable=None, maxlen=None):
        items = iterable.realize().unpack_var_sequence(tx) if iterable is not None else []
        return DequeVariable(items, maxlen.realize().as_python_constant() if maxlen is not None else None)

    def call_fromkeys(self, tx, keys, value=None):  # dict's, OrderedDict's or defaultdict's
        value = value if value is not None else ConstantVariable(None)
        return DictVariable({constant_key(k): value for k in iterate(tx, keys).unpack_var_sequence(tx)},
                            cls=self.value.__self__)

    def call_prod(self, tx, iterable, start=None):  # math.prod: a chain of multiplies (sizes': symbolic ones)
        return self.call_reduce(tx, type(self)(operator.mul), iterable, *([start] if start is not None else []))

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

    def call_Counter(self, tx, iterable=None, **kwargs):
        made = CounterVariable({})
        made.call_method(tx, "update", [iterable] if iterable is not None else [], kwargs)
        return made

    def call_mappingproxy(self, tx, mapping):
        if not isinstance(mapping.realize(), DictVariable):
            raise Unsupported("types.MappingProxyType of a value that is no dict tracker", "unsupported_call")
        return MappingProxyVariable(mapping.realize())

    def call_ChainMap(self, tx, *maps):
        maps = [m.realize() for m in maps] or [DictVariable({})]
        if not all(type(m) is DictVariable and m.source is None for m in maps):
            raise Unsupported("a ChainMap of dicts not made in the frame", "unsupported_call")
        return ChainMapVariable(maps)

    def call_defaultdict(self, tx, factory=None, mapping=None, **kwargs):
        made = self.call_dict(tx, mapping, **kwargs)
        no_factory = factory is None or factory.realize().is_python_constant() and factory.as_python_constant() is None
        made.factory = None if no_factory else factory  # (defaultdict(None, ...): a missing key is a KeyError)
        return made
