"""Builtins called on a size symbol, as Dynamo records them, so that one graph serves every size.

Frontend layer, coverage surface (what user programs may call on a size n, a SymNodeVariable), asked by
BuiltinVariable.call_function before its other rules:

    float(n), math.sqrt(n), math.cos(n), ...    torch.sym_float(n), torch._sym_sqrt(n), ... (SymFloats)
    bool(n)                                      a node `n != 0`, not a constant
    round(r), math.ceil(r), math.floor(r),       of a float over sizes (`r = n / 2`): SymInts, `r.__round__()`,
    math.trunc(r), int(r)                        `math_ceil(r)`, `torch.sym_int(r)` (_rounding.py computes them)
    str(n), complex(n)                           a graph break (an f-string of n pins it: opcodes_strings.py)
    sum(t) of ints, some of them symbols         one node `torch.sym_sum((t0, t1, t2))`
    torch._check_is_size(n)                      its checks made now (facts on n), the call a node of its own

None where no rule applies: a builtin of a plain value folds, pinning the size where it needs a number.
"""
import collections
import math
import operator

import minitorch2

from ..exc import Unsupported
from .constant import ConstantVariable
from .lists import BaseListVariable, TupleVariable
from .sym_node import SymNodeVariable, sym_arithmetic
from .tensor import record_mutation

ROUNDING = (round, int, math.ceil, math.floor, math.trunc)


def _sizes_and_ints(items):
    """Ints of which one at least is a symbol (an int argument in a tuple, once it changed): sum() of them is a
    `torch.sym_sum` node."""
    items = [i.realize() for i in items]
    return any(isinstance(i, SymNodeVariable) for i in items) and all(
        isinstance(i, SymNodeVariable) and i.python_type() is int or i.is_python_constant() and
        type(i.as_python_constant()) is int for i in items)


def size_builtin(tx, fn, args, kwargs):
    n = args[0].realize() if len(args) in (1, 2) and not kwargs else None
    # (not a deque's items: Dynamo's polyfill adds those one by one)
    listed = isinstance(n, BaseListVariable) and n.python_type() is not collections.deque
    if fn is sum and len(args) == 1 and listed and _sizes_and_ints(n.items):
        return sym_arithmetic(tx.output, minitorch2.sym_sum, [TupleVariable(n.items)])  # one node, as Dynamo's
    if not isinstance(n, SymNodeVariable) or n.python_type() is bool:
        return None
    if fn in (str, complex):  # (Dynamo has no rule for either on a symbol)
        raise Unsupported(f"{fn.__name__}() of a size symbol", "unsupported_call")
    if fn is bool:
        return sym_arithmetic(tx.output, operator.ne, [n, ConstantVariable(0)])
    if n.python_type() is float and fn in ROUNDING:  # (round(r, 1): `r.__round__(1)`, a SymFloat)
        fn = minitorch2.sym_int if fn is int else fn
        return sym_arithmetic(tx.output, fn, [n, *args[1:]], *(("call_method", "__round__") if fn is round else ()))
    math_op = getattr(minitorch2, f"_sym_{fn.__name__}", None) if getattr(fn, "__self__", None) is math else None
    symbolic = minitorch2.sym_float if fn is float else math_op
    return sym_arithmetic(tx.output, symbolic, [n]) if symbolic is not None and len(args) == 1 else None


def check_is_size_in_graph(tx, args, kwargs):
    """torch._check_is_size(n) (torch.py's DECOMPOSED): the call stays in the graph, as Dynamo's, and runs on the fake
    n now (n >= 0 a fact); with max=, the call as any other."""
    if not kwargs:
        record_mutation(tx.output, minitorch2._check_is_size, args)
        return ConstantVariable(None)
