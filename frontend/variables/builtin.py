"""BuiltinVariable: Python builtins and operators, folded or turned into graph nodes.

Frontend layer. Builtins on constants fold at translation time (`len`, `isinstance`, `range`); with a tensor they
record nodes (`a + b` an `operator.add`, `min`/`max` torch.minimum/maximum or clamp, as Dynamo's); `map`, `zip`,
`filter` make lazy iterators; `print` is a graph break. The standard library's callables have rules in stdlib.py.
"""
import builtins
import functools
import operator
import types

import numpy as np

import minitorch2

from ..exc import Unsupported
from ..pyversion import OUT_OF_PLACE
from .base import ValueVariable
from .builtin_min_max import MinMaxCallsMixin
from .constant import ConstantVariable
from .dicts import DictVariable, dict_items
from .dynamo_forms import name_after_local
from .exceptions import raise_observed
from .lists import BaseListVariable, ListIteratorVariable, ListVariable, TupleVariable, iterate, lazy_iterator
from .numpy_arrays import is_ndarray_operation, ndarray_operator
from .size_builtins import size_builtin
from .sym_node import SYMBOLIC_OPERATORS, SliceVariable, SymNodeVariable, sym_arithmetic
from .tensor import TensorVariable, record
from .stdlib import LIBRARY_CALLABLES, PURE_METHODS, DequeVariable, LibraryCallsMixin, sentinel_iterator
from .user_defined import UserObjectVariable
from .user_protocols import DUNDER_OF, ProtocolCallsMixin, user_operator

FOLDABLE = {abs, min, max, round, int, float, bool, str, divmod, pow, sum, all, any, type, slice, set, frozenset, range,
            len, ord, chr, hex, oct, bin, format, repr, ascii, hash, callable, isinstance, issubclass, sorted, complex,
            minitorch2.device, minitorch2.finfo, minitorch2.iinfo, np.finfo, np.iinfo, np.dtype} | PURE_METHODS
# C functions of these modules only compute from their arguments. Any other C function (random.random,
# time.time, os.remove, id, input) may give another answer or act on the world at each call, so it is
# never called while translating, where its result would be frozen into the graph: it is a graph break.
PURE_MODULES = ("math", "_operator")  # (not cmath, nor the operators below, which Dynamo does not trace either)
UNTRACED_OPERATORS = {operator.setitem, operator.delitem, operator.indexOf, operator.inv, operator.call}


def _is_pure(fn):  # (a method of an immutable value too: keyword.iskeyword, a frozenset's __contains__; as Dynamo,
    owner = getattr(fn, "__self__", None) if isinstance(fn, types.BuiltinFunctionType) else None  # a class's subclasses)
    return any(fn is f for f in FOLDABLE) or type(owner) in (frozenset, str, bytes) or isinstance(
        owner, types.ModuleType) and owner.__name__ in PURE_MODULES and fn not in UNTRACED_OPERATORS \
        or isinstance(owner, type) and fn.__name__ == "__subclasses__" \
        or getattr(fn, "__objclass__", None) in (str, bytes)  # (str.count(s, "."), read from the class)


def _is_const(v):
    """A constant, or a size that specialises to one where a builtin needs a plain value (`range(n)`)."""
    return v.is_python_constant() or isinstance(v, SymNodeVariable)


def binary_op(tx, fn, a, b):
    a, b = a.realize(), b.realize()
    if fn is operator.getitem and (hasattr(a, "getitem") or isinstance(a, TensorVariable)):  # (an ndarray's: its own)
        return a.getitem(tx, b) if hasattr(a, "getitem") else record(tx.output, "call_function", fn, [a, b], {})
    if is_ndarray_operation([a, b]):  # `a + 1` of ndarrays, a numpy node (numpy_arrays.py)
        return ndarray_operator(tx, fn, [a, b])
    if isinstance(a, UserObjectVariable) or isinstance(b, UserObjectVariable):
        return user_operator(tx, fn, a, b)
    if (isinstance(a, SymNodeVariable) or isinstance(b, SymNodeVariable)) and fn in SYMBOLIC_OPERATORS and all(
            isinstance(v, SymNodeVariable) or type(getattr(v, "value", None)) in (int, float, bool) for v in (a, b)):
        return sym_arithmetic(tx.output, OUT_OF_PLACE.get(fn, fn), [a, b])  # (a number is immutable: `n += 1` adds)
    if isinstance(a, TensorVariable) or isinstance(b, TensorVariable):
        if not all(isinstance(v, TensorVariable) or _is_const(v) for v in (a, b)):
            raise Unsupported(f"{fn.__name__} of {a} and {b}", "unsupported")
        return record(tx.output, "call_function", OUT_OF_PLACE.get(fn, fn) if _is_const(a) else fn, [a, b], {})
    if isinstance(a, DictVariable) and isinstance(b, DictVariable) and fn in (operator.or_, operator.ior):
        merged = a if fn is operator.ior else DictVariable(a.items, cls=a.cls, factory=a.factory)
        merged.call_method(tx, "update", [b], {})
        return merged
    if isinstance(a, BaseListVariable) or isinstance(b, BaseListVariable):  # `(None,) + pair`: a tuple of trackers
        a, b = [TupleVariable(v.unpack_var_sequence(tx)) if isinstance(v, ConstantVariable) and type(v.value) is tuple
                else v for v in (a, b)]
    if isinstance(a, ListVariable) and fn in (operator.iadd, operator.iconcat, operator.imul):  # `xs += ys`, `xs *= 3`
        return a.call_method(tx, "__imul__" if fn is operator.imul else "__iadd__", [b], {})  # (xs's own list)
    if isinstance(a, BaseListVariable) and isinstance(b, BaseListVariable) and fn in (
            operator.add, operator.iadd, operator.concat, operator.iconcat):  # (a tuple's += makes a new one)
        return type(a)(a.items + b.items)
    if fn in (operator.eq, operator.ne) and all(isinstance(v, TupleVariable) for v in (a, b)) and all(
            map(_is_const, a.items + b.items)):  # `x.shape == y.shape` of sizes: item by item, each guarded
        same = len(a.items) == len(b.items) and all(binary_op(tx, operator.eq, x, y).truth(tx)
                                                    for x, y in zip(a.items, b.items))
        return ConstantVariable(same == (fn is operator.eq))
    a, b = (b, a) if fn is operator.mul and isinstance(b, BaseListVariable) and _is_const(a) else (a, b)  # `4 * [x]`
    if isinstance(a, BaseListVariable) and _is_const(b) and fn is operator.mul:
        return type(a)(a.items * b.as_python_constant())
    if _is_const(a) and _is_const(b) and _is_pure(fn):  # (folded on a copy, a list's setitem would be lost)
        return _fold(fn, [a.as_python_constant(), b.as_python_constant()])
    raise Unsupported(f"{fn.__name__} of {a} and {b}", "unsupported")


def unary_op(tx, fn, a):
    a = a.realize()
    if is_ndarray_operation([a]):
        return ndarray_operator(tx, fn, [a])
    if isinstance(a, SymNodeVariable) and fn in SYMBOLIC_OPERATORS:
        return sym_arithmetic(tx.output, fn, [a])
    if isinstance(a, UserObjectVariable):
        return a.call_dunder(tx, f"__{fn.__name__}__", [])
    if isinstance(a, TensorVariable):
        return record(tx.output, "call_function", fn, [a], {})
    if _is_const(a) and _is_pure(fn):
        return _fold(fn, [a.as_python_constant()])
    raise Unsupported(f"{fn.__name__} of {a}", "unsupported")


def _fold(fn, args, kwargs=None):
    """fn on constants, now; should it raise (int("x"), 1 / 0), the traced program raises it (a handler may catch it)."""
    try:
        return ConstantVariable(fn(*args, **(kwargs or {})))
    except Exception as e:
        raise_observed(type(e), e.args, f"{getattr(fn, '__name__', fn)} raised {type(e).__name__}: {e}")


class BuiltinVariable(LibraryCallsMixin, ProtocolCallsMixin, MinMaxCallsMixin, ValueVariable):  # (mixins: own modules)
    is_python_constant, as_python_constant = ConstantVariable.is_python_constant, ConstantVariable.as_python_constant

    def var_getattr(self, tx, name):
        attr = getattr(self.value, name, None)
        if name in ("__name__", "__qualname__", "__module__"):  # (type(k).__name__: a builtin's names are constants)
            return ConstantVariable(attr)
        known = [f for f in LIBRARY_CALLABLES if f is attr or isinstance(f, types.BuiltinMethodType) and f == attr]
        known += [attr] if getattr(attr, "__objclass__", None) in (str, bytes) or isinstance(attr, types.BuiltinMethodType) \
            and attr.__self__ is self.value else []  # (str.count: folded; bytes.fromhex: a call, a break only there)
        return BuiltinVariable(known[0]) if known else super().var_getattr(tx, name)

    def call_function(self, tx, args, kwargs):
        fn, name = self.value, getattr(self.value, "__name__", "")
        handler = getattr(self, f"call_{name}", None)
        if fn is print:
            raise Unsupported("print() is a side effect", "print", args)
        if fn is slice and any(isinstance(a.realize(), SymNodeVariable) for a in args):  # `slice(1, n)`, as `[1:n]`
            return SliceVariable([a.realize() for a in ([ConstantVariable(None), *args] if len(args) == 1 else args)])
        if (on_a_size := size_builtin(tx, fn, args, kwargs)) is not None:  # (bool(n), round(n / 2), ...)
            return on_a_size
        if handler is not None and (getattr(builtins, name, None) is fn or any(fn is f for f in LIBRARY_CALLABLES)):
            return handler(tx, *args, **kwargs)
        if getattr(operator, name, None) is fn and not kwargs and len(args) in (1, 2):
            return binary_op(tx, fn, *args) if len(args) == 2 else unary_op(tx, fn, args[0])
        args = [a.realize() for a in args]
        if _is_pure(fn):  # sorted(zip(...)): an iterator of constants folds as the tuple of its items
            args = [TupleVariable(a.unpack_var_sequence(tx)) if isinstance(a, ListIteratorVariable) else a for a in args]
        if _is_pure(fn) and all(_is_const(a) for a in [*args, *kwargs.values()]):
            return _fold(fn, [a.as_python_constant() for a in args],
                         {k: v.realize().as_python_constant() for k, v in kwargs.items()})
        if fn is abs and len(args) == 1 and isinstance(args[0], TensorVariable):  # (an ndarray's too)
            return record(tx.output, "call_function", operator.abs, args, {})
        if fn in DUNDER_OF and args and isinstance(args[0], UserObjectVariable):  # float(r): r's __float__ inlined
            return args[0].call_dunder(tx, DUNDER_OF[fn], args[1:])
        raise Unsupported(f"builtin {getattr(fn, '__name__', fn)} with these arguments", "unsupported_call")

    # ---- builtins with their own rules --------------------------------------------------

    def call_len(self, tx, obj):
        obj = obj.realize()
        if isinstance(obj, UserObjectVariable):
            return obj.call_dunder(tx, "__len__", [])
        if isinstance(obj, TensorVariable):
            if obj.example_value.dim() == 0:
                raise Unsupported("len() of a 0-d tensor", "unsupported_call")
            return tx.output.size_variable(obj, 0, read_alone=True)
        if hasattr(obj, "length"):
            return ConstantVariable(obj.length())
        if _is_const(obj):
            return _fold(len, [obj.as_python_constant()])  # (len(None): a break where the call raises)
        raise Unsupported(f"len() of {obj}", "unsupported_call")

    def call_sum(self, tx, iterable, start=None):
        """With tensors, a chain of adds (`0 + a`, `+ b`...), each item read as its add needs it, the nodes named after
        the locals of Dynamo's polyfill (functools.reduce's `element` and `value`)."""
        seq = iterable.realize()  # (a deque's items: the chain of adds below, as Dynamo's polyfill sums them)
        items = seq.items if isinstance(seq, (ListVariable, TupleVariable)) and type(seq) is not DequeVariable else []
        if start is None and any(isinstance(i.realize(), SymNodeVariable) for i in items) and all(
                i.realize().python_type() is int for i in items):  # sizes and ints: Dynamo's one torch.sym_sum node
            return sym_arithmetic(tx.output, minitorch2.sym_sum, [TupleVariable(items)])
        named = functools.partial(name_after_local, tx.output.graph)
        total = named(start.realize(), "value") if start is not None else ConstantVariable(0)
        constants = []
        for item in iterate(tx, iterable).stream():
            item = named(item.realize(), "element")
            if total.is_python_constant() and item.is_python_constant():  # (a size: an add node, as Dynamo's)
                constants.append(item.as_python_constant())
                continue
            if constants:
                total, constants = _fold(sum, [constants, total.as_python_constant()]), []
            total = named(binary_op(tx, operator.add, total, item), "value")
        return _fold(sum, [constants, total.as_python_constant()]) if constants else total

    def call_enumerate(self, tx, iterable, start=None):
        it, first = iterate(tx, iterable), start.realize().as_python_constant() if start is not None else 0
        return lazy_iterator((TupleVariable([ConstantVariable(i), v]) for i, v in enumerate(it.stream(), first)), it)

    def call_map(self, tx, fn, *iterables):
        its = [iterate(tx, it) for it in iterables]
        calls = (fn.realize().call_function(tx, list(group), {}) for group in zip(*[it.stream() for it in its]))
        return lazy_iterator(calls, *its, pure=False)

    def call_filter(self, tx, fn, iterable):
        it, fn = iterate(tx, iterable), fn.realize()
        identity = _is_const(fn) and fn.as_python_constant() is None
        kept = (v for v in it.stream() if (v if identity else fn.call_function(tx, [v], {})).realize().truth(tx))
        return lazy_iterator(kept, it, pure=identity)

    def call_iter(self, tx, iterable, *sentinel):  # (iter(f, sentinel): stdlib.py's calls of f up to the sentinel)
        return sentinel_iterator(tx, iterable, *sentinel) if sentinel else iterate(tx, iterable)

    def call_next(self, tx, iterator, default=None):
        item = iterate(tx, iterator).next_item(tx)
        if item is None and default is None:
            raise_observed(StopIteration, [], "next() of an exhausted iterator (StopIteration)")
        return default if item is None else item

    def _sequence(self, kind, tx, iterable=None):
        return kind(iterable.realize().unpack_var_sequence(tx) if iterable is not None else [])

    call_list = functools.partialmethod(_sequence, ListVariable)
    call_tuple = functools.partialmethod(_sequence, TupleVariable)

    def call_dict(self, tx, mapping=None, **kwargs):  # dict's and OrderedDict's
        items = dict_items(tx, mapping, pairs=True) if mapping is not None else {}
        return DictVariable({**items, **kwargs}, cls=self.value)

    def call_reversed(self, tx, iterable):
        return ListVariable(list(reversed(iterable.realize().unpack_var_sequence(tx))))
