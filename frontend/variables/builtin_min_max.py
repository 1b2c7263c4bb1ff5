"""min(), max(), any() and all() inside compiled frames: over constants (folded), tensors (paired up as Dynamo's
torch.minimum / clamp nodes), symbolic sizes (torch.sym_min / sym_max) and ndarrays (np.clip / np.maximum nodes); and
zip(), whose strict=True mismatch raises the program's own ValueError.

Frontend layer, coverage surface: a mixin of BuiltinVariable (builtin.py), whose call_function finds these
`call_<name>` handlers by the builtin's name.
"""
import functools

import minitorch2

from ..exc import Unsupported
from . import builtin  # (a module: builtin.py imports this one; its _fold and _is_const are read at call time)
from .constant import ConstantVariable
from .exceptions import raise_observed
from .lists import ListVariable, TupleVariable, iterate, lazy_iterator
from .numpy_arrays import is_ndarray_operation, ndarray_min_max
from .sym_node import SymNodeVariable, sym_arithmetic
from .tensor import TensorVariable, record


def _zip_raising_in_the_program(streams, strict):  # (zip's ValueError, of unequal lengths, is the program's)
    try:
        yield from zip(*streams, strict=strict)
    except ValueError as e:
        raise_observed(ValueError, e.args, f"zip raised ValueError: {e}")


class MinMaxCallsMixin:
    def call_zip(self, tx, *iterables, strict=None):
        its, strict = [iterate(tx, it) for it in iterables], strict is not None and strict.realize().as_python_constant()
        groups = _zip_raising_in_the_program([it.stream() for it in its], strict)
        return lazy_iterator((TupleVariable(list(group)) for group in groups), *its)

    def _fold_over_items(self, fn, tx, iterable):
        items = [item.realize() for item in iterable.realize().unpack_var_sequence(tx)]
        if not all(builtin._is_const(v) for v in items):
            raise Unsupported(f"{fn.__name__}() of non-constant items", "unsupported_call")
        return ConstantVariable(fn(v.as_python_constant() for v in items))

    call_any = functools.partialmethod(_fold_over_items, any)
    call_all = functools.partialmethod(_fold_over_items, all)

    def _min_max(self, fn, tx, *args, **kwargs):
        """Constants fold; tensors pair up as Dynamo's: torch.minimum of two, clamp(t, max=c) with a number."""
        items = [v.realize() for v in (args[0].realize().unpack_var_sequence(tx) if len(args) == 1 else args)]
        if kwargs and not all(builtin._is_const(v) for v in items):  # (Dynamo's handler takes no key= nor default=)
            raise Unsupported(f"{fn.__name__}() with a keyword over non-constant items", "unsupported_call")
        if not kwargs.get("key", ConstantVariable(None)).realize().is_python_constant():  # a lambda: sorted's inlining
            return self.call_sorted(tx, ListVariable(items), kwargs["key"], ConstantVariable(fn is max)).items[0]
        if not kwargs and is_ndarray_operation(items):  # np.clip / np.maximum nodes, as Dynamo's (numpy_arrays.py)
            return ndarray_min_max(tx, fn, items)
        if not kwargs and any(isinstance(v, SymNodeVariable) for v in items) and all(
                isinstance(v, SymNodeVariable) or v.is_python_constant() for v in items):
            sym_fn = minitorch2.sym_min if fn is min else minitorch2.sym_max  # torch.sym_max(s77, s17), no guard
            return functools.reduce(lambda result, item: sym_arithmetic(tx.output, sym_fn, [result, item]), items)
        if kwargs or all(builtin._is_const(v) for v in items):
            return builtin._fold(fn, [[v.as_python_constant() for v in items]],
                         {k: v.realize().as_python_constant() for k, v in kwargs.items()})
        result = items[0]
        for item in items[1:]:
            tensors = [v for v in (result, item) if isinstance(v, TensorVariable)]
            if len(tensors) == 2:
                result = record(tx.output, "call_function", minitorch2.minimum if fn is min else minitorch2.maximum,
                                tensors, {})
            elif tensors and all(isinstance(v, TensorVariable) or builtin._is_const(v) for v in (result, item)):
                bound = item if tensors[0] is result else result
                result = record(tx.output, "call_function", minitorch2.clamp, tensors,
                                {"max" if fn is min else "min": bound})
            else:
                result = builtin._fold(fn, [result.as_python_constant(), item.as_python_constant()])
        return result

    call_min = functools.partialmethod(_min_max, min)
    call_max = functools.partialmethod(_min_max, max)
