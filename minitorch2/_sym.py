"""torch.SymInt, SymFloat and SymBool: Python numbers whose value is a symbol (dynamic shapes).

Runtime layer, below the tensor. A FakeTensor traced with dynamic shapes has sizes such as `s77` instead of 8:
arithmetic on them builds expressions (`2*s77`, `s77 // 2`), and a Python decision on one (`if n > 2:`, `int(n)`)
asks the ShapeEnv that made the symbol, which answers from the example value and records the answer as a guard.
These classes are thin: each holds a node (minitorch2/fx/experimental/symbolic_shapes.py's SymNode, the only place
that knows sympy) and forwards every operator to it, so importing the runtime does not import sympy.

Every operation also passes through `sym_op_hook`, which a tracer sets (autograd/proxy_tensor.py): while make_fx traces,
`2 * n` becomes a node `mul = 2 * sym_size_int` as it runs, as torch's SymNode hands it to the proxy mode.
"""
import math
import operator

sym_op_hook = None  # (operator, operands, result) -> the result to use; see the module docstring


def _traced(op, operands, result):
    return result if sym_op_hook is None else sym_op_hook(op, operands, result)


class _SymNumber:
    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node

    def __repr__(self):
        return self.node.str()

    def __hash__(self):
        raise TypeError(f"unhashable type: non-nested {type(self).__name__}")


def _binary(op, reflected=False):
    def method(self, other):
        if not isinstance(other, (int, float, bool, _SymNumber)):
            return NotImplemented
        return _traced(op, (other, self) if reflected else (self, other), self.node.binary(op, other, reflected))
    return method


_ARITHMETIC = (operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod, operator.truediv,
               operator.pow)
_COMPARISONS = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge)


class _SymArithmetic(_SymNumber):
    def __bool__(self):
        return bool(self.node.binary(operator.ne, 0, False))

    def __neg__(self):
        return _traced(operator.neg, (self,), self.node.binary(operator.mul, -1, False))

    def __pos__(self):
        return self

    def __abs__(self):
        return sym_max(self, -self)


class SymInt(_SymArithmetic):
    """An int that may be a symbol; `int()`, `bool()` and comparisons that Python decides record guards."""

    def __int__(self):
        return self.node.guard_int()

    __index__ = __int__

    def __float__(self):
        return float(self.node.guard_int())


class SymFloat(_SymArithmetic):
    """A float computed from symbols (a size divided by something); round() or math.ceil of it: _rounding.py."""

    def __float__(self):
        return self.node.guard_float()


class SymBool(_SymNumber):
    """The result of comparing symbols; `bool()` on it is where a guard is recorded."""

    def __bool__(self):
        return self.node.guard_bool()

    def __and__(self, other):
        return _traced(operator.and_, (self, other), self.node.logical(operator.and_, other))

    def __or__(self, other):
        return _traced(operator.or_, (self, other), self.node.logical(operator.or_, other))

    __rand__, __ror__ = __and__, __or__

    def __invert__(self):
        return self.node.logical_not()


for _op in _ARITHMETIC + _COMPARISONS:
    setattr(_SymArithmetic, f"__{_op.__name__.strip('_')}__", _binary(_op))
    if _op not in _COMPARISONS:
        setattr(_SymArithmetic, f"__r{_op.__name__.strip('_')}__", _binary(_op, reflected=True))
SymBool.__eq__ = _binary(operator.eq)
SymBool.__ne__ = _binary(operator.ne)
for _cls in (SymInt, SymFloat, SymBool):
    _cls.__module__ = "minitorch2"  # torch.SymInt, where PyTorch has them (graph code prints `s77: torch.SymInt`)


def is_symbolic(value):
    """True for a SymInt/SymFloat/SymBool whose value is still a symbol (not yet a plain number)."""
    return isinstance(value, _SymNumber)


def sym_max(a, b):
    if is_symbolic(a) or is_symbolic(b):
        return _traced(sym_max, (a, b), (a if is_symbolic(a) else b).node.max_min(max, a, b))
    return max(a, b)


def sym_min(a, b):
    if is_symbolic(a) or is_symbolic(b):
        return _traced(sym_min, (a, b), (a if is_symbolic(a) else b).node.max_min(min, a, b))
    return min(a, b)


def sym_sum(args):
    """torch.sym_sum: the sum of numbers; of sizes, one expression and one node (`torch.sym_sum([3, s27])`)."""
    total = sum(a for a in args if not is_symbolic(a))
    for a in filter(is_symbolic, args):  # (added by its SymNode, untraced: the sum is one node)
        total = a.node.binary(operator.add, total, True)
    return _traced(sym_sum, (list(args),), total)


def sym_not(a):
    return ~a if is_symbolic(a) else not a


def sym_int(a):
    """torch.sym_int: a SymInt stays symbolic, a SymFloat is truncated to one; anything else is a Python int."""
    return a if isinstance(a, SymInt) else math.trunc(a) if isinstance(a, SymFloat) else int(a)


def sym_float(a):
    """torch.sym_float: a SymInt as a SymFloat of the same value (`float(n)` in a traced program); else float(a)."""
    return _traced(sym_float, (a,), a.node.to_float()) if isinstance(a, SymInt) else a if isinstance(a, SymFloat) \
        else float(a)


def _sym_math(name):
    """torch._sym_sqrt and its kin: math.<name> of a symbolic number is a SymFloat; of a plain one, a float."""
    def fn(a):
        return _traced(fn, (a,), a.node.math(name)) if is_symbolic(a) else getattr(math, name)(a)
    fn.__name__ = fn.__qualname__ = f"_sym_{name}"
    fn.__module__ = "minitorch2"  # (graph code prints `torch._sym_sqrt(s27)`)
    return fn


MATH_OP_NAMES = ("sqrt", "cos", "cosh", "sin", "sinh", "tan", "tanh", "asin", "acos", "atan", "log2")
globals().update({f"_sym_{name}": _sym_math(name) for name in MATH_OP_NAMES})


def _check(cond, message=None):
    """torch._check: raise RuntimeError unless cond holds; on a symbolic cond, the ShapeEnv keeps it as a fact."""
    if is_symbolic(cond):
        cond.node.shape_env.assume(cond.node.expr, cond.node.hint)
    elif not cond:
        raise RuntimeError(message() if message is not None else "Expected cond to be True, but got False. (Could "
                           "this error message be improved? If so, please report an enhancement request to PyTorch.)")
