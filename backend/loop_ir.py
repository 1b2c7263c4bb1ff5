"""The loop-level kernel IR: what the scheduler hands to code generation.

Backend layer, between the scheduler, which writes every fused group out as one `Kernel` in the form below,
and the code generators (`codegen/`), which turn a `Kernel` into something that runs. Nothing here knows about
aten or fusion: a Kernel is a loop nest over flat buffers, printable as pseudo-code.

    kernel softmax_0(in_ptr0: float32[4096*1024], out_ptr0: float32[4096*1024])
      for x0 in range(4096):
        tmp0 = max(r0 in range(1024): load(in_ptr0, 1024*x0 + r0))
        tmp1 = sum(r0 in range(1024): exp(load(in_ptr0, 1024*x0 + r0) - tmp0))
        for r0 in range(1024):
          out_ptr0[1024*x0 + r0] = exp(load(in_ptr0, 1024*x0 + r0) - tmp0) / tmp1

The one idea to hold: every buffer is flat (a pointer to its first element), and every load and store names
its element with an integer `Index` expression over the loop variables, so views, broadcasts and transposes
are index arithmetic, never copies. Statements in a loop body run in order for each iteration; a `Reduce`
defines a scalar temporary, readable by the statements after it in the same iteration of the enclosing loop.

Value ops (`Op.name`), with the semantics of the aten op of the same name on scalars of `Op.dtype` (the result
dtype; operands are already cast):
    unary:   neg abs exp exp2 log log2 log1p expm1 sqrt rsqrt reciprocal sin cos tan tanh sigmoid erf floor
             ceil trunc round sign relu logical_not bitwise_not isnan isinf
    binary:  add sub mul truediv floordiv remainder (Python-style sign) truncdiv fmod (C-style: toward zero,
             the dividend's sign) pow maximum minimum (NaN-propagating, as torch) eq ne lt le gt ge (result
             bool) logical_and logical_or bitwise_and bitwise_or bitwise_xor atan2 lshift rshift (integers; a
             count outside the type's width as torch: 0, or the sign)
    ternary: where(cond, a, b)
    cast:    to_dtype(x) (Op.dtype is the target; float->int truncates toward zero)
An integer floordiv remainder truncdiv or fmod by zero (INTEGER_DIVISIONS) makes the run raise torch's
RuntimeError("ZeroDivisionError").

Reduction types (`Reduce.reduction_type`): sum prod max min (NaN-propagating) argmax argmin (int64 position
in the flattened reduction range, first occurrence wins, NaN counts as the maximum, as torch) any all.

Indirect indexing (embedding, gather, index, scatter): an `Indirect(value, size)` term inside an Index is an
integer read at run time: `load(in_ptr0, 64*indirect(load(in_ptr1, x0), 1000) + x1)` reads row `in_ptr1[x0]` of a
1000-row table. Out of [0, size) (with `wrap_negative`, [-size, size)) the kernel touches no memory and the run
raises its `OutOfRange` error, eager's. A `Store` with an indirect index is a scatter; `mode="add"` accumulates, so
duplicate indices all add up. A kernel whose iterations may write the same element is `serial` (one thread).

Dynamic shapes: a size, stride, loop range, index constant, factor or divisor may be a sympy expression over the
graph's size symbols (`s0`, `3*s0 + 1`) where it is otherwise an int; the kernel then takes one i64 argument per
symbol it uses (`Kernel.sizes`). Python arithmetic builds these expressions as it builds ints; a decision on one
(`known`) is taken only when sympy can prove it, else the conservative way or not at all (NotImplementedError).
"""
import builtins
import dataclasses
import math
from dataclasses import dataclass, field, replace

import numpy as np
import sympy

from minitorch2 import _dtype as dt
from minitorch2.fx.experimental.symbolic_shapes import FloorDiv as SizeFloorDiv
from minitorch2.fx.experimental.symbolic_shapes import Mod as SizeMod
from minitorch2.fx.experimental.symbolic_shapes import _SourcePrinter  # (guards' printer: sizes as Python)

from .virtualized import shape_env

INTEGER_DIVISIONS = ("floordiv", "remainder", "truncdiv", "fmod")  # on integers: raise on a zero divisor
# the unary ops defined on floats only (lowering computes them in a floating dtype); costly to compute twice
TRANSCENDENTAL = ("exp", "exp2", "expm1", "log", "log2", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf")

# ---- index expressions: integer arithmetic over loop variables ---------------------------


class Index:
    """An int64 expression over loop variables. Build with + * // % on Index and int."""

    def __add__(self, other):
        return _add(self, as_index(other))

    __radd__ = __add__

    def __mul__(self, other):
        return _mul(self, as_index(other))

    __rmul__ = __mul__

    def __floordiv__(self, divisor):
        if divisor == 1:
            return self
        return Const(floordiv(self.value, divisor)) if isinstance(self, Const) else FloorDiv(self, divisor)

    def __mod__(self, divisor):
        if divisor == 1:
            return Const(0)
        return Const(self.value % divisor) if isinstance(self, Const) else Mod(self, divisor)


@dataclass(frozen=True, eq=True)
class Var(Index):
    name: str  # x0, x1, ... for outer loops, r0, r1, ... for reduction / inner loops

    def __str__(self):
        return self.name


@dataclass(frozen=True, eq=True)
class Const(Index):
    value: int

    def __str__(self):
        return str(self.value)


@dataclass(frozen=True, eq=True)
class Add(Index):
    terms: tuple

    def __str__(self):
        return " + ".join(str(t) for t in self.terms)


@dataclass(frozen=True, eq=True)
class Mul(Index):
    factor: int
    term: Index

    def __str__(self):
        inner = f"({self.term})" if isinstance(self.term, Add) else str(self.term)
        return f"{self.factor}*{inner}"


@dataclass(frozen=True, eq=True)
class _Division(Index):
    """term // divisor (FloorDiv) or term % divisor (Mod), with Python's floor semantics."""
    term: Index
    divisor: int

    def __str__(self):
        return f"({self.term}) {self.symbol} {self.divisor}"


class FloorDiv(_Division):
    symbol = "//"


class Mod(_Division):
    symbol = "%"


@dataclass(frozen=True)
class OutOfRange:
    """What an Indirect whose value is out of range raises, as eager does: IndexError("index 7 is ...")."""
    exception_name: str  # a builtin exception class: "IndexError" or "RuntimeError"
    message: str  # with {} where the offending value goes

    def exception(self, value):
        return getattr(builtins, self.exception_name)(self.message.format(value))


@dataclass(frozen=True, eq=True)
class Indirect(Index):
    """An index read at run time: the integer loop_ir value `value`, checked against [0, size)."""
    value: object  # an integer value expression (a Load of an index tensor, a where(...) of one, ...)
    size: int  # the length of the dimension it indexes
    wrap_negative: bool = False  # -size <= value < 0 means value + size (index.Tensor), else out of range
    error: OutOfRange = OutOfRange("IndexError", "index out of range in self")

    def __str__(self):
        return f"indirect({self.value}, {self.size}{', wrap' if self.wrap_negative else ''})"


def indirect_values(index):
    """The values of the Indirect terms of an index (not of Indirects nested inside those values)."""
    if isinstance(index, Indirect):
        return [index.value]
    if isinstance(index, Add):
        return [v for t in index.terms for v in indirect_values(t)]
    return indirect_values(index.term) if isinstance(index, (Mul, FloorDiv, Mod)) else []


def map_index(index, on_var=None, on_value=None):
    """`index` rebuilt with each Var replaced by on_var(var) and each Indirect's value by on_value(value)."""
    if isinstance(index, Var):
        return on_var(index) if on_var else index
    if isinstance(index, Const):
        return index
    if isinstance(index, Add):
        return sum((map_index(term, on_var, on_value) for term in index.terms), Const(0))
    if isinstance(index, Mul):
        return map_index(index.term, on_var, on_value) * index.factor
    if isinstance(index, (FloorDiv, Mod)):
        term = map_index(index.term, on_var, on_value)
        return term // index.divisor if isinstance(index, FloorDiv) else term % index.divisor
    if isinstance(index, Indirect):
        return replace(index, value=on_value(index.value)) if on_value else index
    raise TypeError(f"not an index: {index!r}")


def is_nonnegative(index):
    """Loop variables count up from 0 and an Indirect is checked into [0, size), so an index built from
    them with non-negative constants is >= 0 (code generation then may use C's // and %)."""
    if isinstance(index, (Var, Indirect)):
        return True
    if isinstance(index, Const):
        return known(index.value >= 0)
    if isinstance(index, Mul):
        return known(index.factor >= 0) and is_nonnegative(index.term)
    if isinstance(index, Add):
        return all(is_nonnegative(t) for t in index.terms)
    if isinstance(index, (FloorDiv, Mod)):
        return known(index.divisor > 0) and is_nonnegative(index.term)
    raise TypeError(f"unknown index expression {index!r}")


def as_index(value):
    return value if isinstance(value, Index) else Const(value if is_size_expr(value) else int(value))


# ---- sizes over symbols (dynamic shapes) ---------------------------------------------------


def is_size_expr(value):
    """Is `value` a size over symbols (a sympy expression), not a number?"""
    return isinstance(value, sympy.Basic) and bool(value.free_symbols)


def floordiv(a, b):
    """a // b on ints or sizes; over symbols kept whole as the ShapeEnv's FloorDiv (sympy's would be floor(a/b))."""
    return SizeFloorDiv(a, b) if is_size_expr(a) or is_size_expr(b) else a // b


def known(relation):
    """True when a comparison of sizes holds for every value of their symbols (from their ranges, in the ShapeEnv of
    the graph being compiled); unproven, False: callers then take the branch that is always correct."""
    if isinstance(relation, sympy.core.relational.Relational) and shape_env() is not None:
        env = shape_env()  # (and s*(n//s) is n where n % s == 0: only here, the ShapeEnv would guard it)
        return env.static_value(relation) is True or (relation.has(SizeFloorDiv) and env.static_value(
            exact_divisions(relation, env.guards)) is True)
    return relation is sympy.true or relation is True or (isinstance(relation, (bool, np.bool_)) and bool(relation))


def static_int(size):
    """The one int a size is at every size the trace's guards admit (its guard_int, which the trace guarded)."""
    value = size.subs(shape_env().var_to_val) if is_size_expr(size) and shape_env() is not None else size
    if is_size_expr(value) or not known(sympy.Eq(size, value)):
        raise NotImplementedError(f"backend: {size} is no one int at every size (a decision over symbolic sizes)")
    return int(value)


def size_max(a, b):
    """max(a, b) of sizes: over symbols, the one the trace's facts show the larger (else sympy's comparison raises)."""
    return a if known(a >= b) else b if known(b >= a) else max(a, b)


def exact_divisions(expr, guards):
    """expr with each `a // b` that the guards make exact (`a % b == 0`) written as a / b."""
    args = [exact_divisions(a, guards) for a in expr.args]
    exact = isinstance(expr, SizeFloorDiv) and sympy.Eq(SizeMod(*expr.args), 0) in guards
    return args[0] / args[1] if exact else expr.func(*args) if args else expr


def is_one(size):
    """Is a size 1 (a broadcast, a squeeze)? Over symbols, when the trace's guards decide it for every size."""
    if not is_size_expr(size) or (size.is_Symbol and shape_env() is not None and shape_env().bounds(size)[0] > 1):
        return size == 1  # (a size symbol is at least 2, so False: the usual case, decided without sympy's Eq)
    decided = shape_env().static_value(sympy.Eq(size, 1)) if shape_env() is not None else None
    if decided is None:
        raise NotImplementedError(f"backend: whether the size {size} is 1 (a broadcast over symbolic sizes)")
    return decided


def equal_size(a, b):
    """One of two sizes the trace's guards make equal: the one over fewer symbols (the shorter formula)."""
    if a != b and not known(sympy.Eq(a, b)):
        raise NotImplementedError(f"backend: whether the sizes {a} and {b} are equal (a broadcast over symbolic sizes)")
    return b if len(getattr(b, "free_symbols", ())) < len(getattr(a, "free_symbols", ())) else a


def map_sizes(obj, on_size):
    """Loop-IR objects (kernels, indices, layouts; lists, tuples) with each size over symbols replaced by on_size."""
    if is_size_expr(obj):
        return on_size(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(map_sizes(item, on_size) for item in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return replace(obj, **{f.name: map_sizes(getattr(obj, f.name), on_size) for f in dataclasses.fields(obj)
                               if f.init})
    return obj


def size_symbols(*objects):
    """The names of the size symbols that loop-IR objects use, sorted."""
    found = set()
    map_sizes(objects, lambda size: found.update(symbol.name for symbol in size.free_symbols) or size)
    return tuple(sorted(found, key=lambda name: (len(name), name)))


def with_sizes(obj, values):
    """Loop-IR objects with the size symbols given their values (name -> int): what the kernel is at one size."""
    return map_sizes(obj, lambda size: int(size.subs({s: values[s.name] for s in size.free_symbols})))


def size_python(value):
    """A size as Python source over its symbols' names (`1 + 3*s0`, `s0 // 2`), an int as itself."""
    check_integer(value)
    return _SourcePrinter({}).doprint(value) if is_size_expr(value) else str(int(value))


def check_integer(value):
    """Refuse a size over symbols that is not an integer (`s0/2`): code computes sizes in integer arithmetic."""
    if isinstance(value, sympy.Basic) and not value.is_integer:
        raise NotImplementedError(f"backend: the size {value} over symbolic sizes (not an integer)")


def size_function(values, symbols):
    """A Python function from the symbols' values to the ints `values` (a kernel's outer range at run time)."""
    return eval(f"lambda {', '.join(symbols)}: ({''.join(size_python(v) + ', ' for v in values)})")


def _add(a, b):
    terms = [t for side in (a, b) for t in (side.terms if isinstance(side, Add) else (side,))]
    constant = sum(t.value for t in terms if isinstance(t, Const))
    terms = [t for t in terms if not isinstance(t, Const)] + ([Const(constant)] if constant else [])
    return Const(0) if not terms else terms[0] if len(terms) == 1 else Add(tuple(terms))


def _mul(a, b):
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(a.value * b.value)
    if isinstance(a, Const):
        a, b = b, a
    if not isinstance(b, Const):
        raise ValueError(f"index expressions are affine with integer division: cannot multiply {a} by {b}")
    factor = b.value
    if factor == 0:
        return Const(0)
    if factor == 1:
        return a
    if isinstance(a, Mul):
        return Mul(a.factor * factor, a.term)
    return Add(tuple(_mul(t, b) for t in a.terms)) if isinstance(a, Add) else Mul(factor, a)


# ---- value expressions: what one iteration computes ---------------------------------------


@dataclass(frozen=True)
class Load:
    buffer: str  # a Kernel argument name
    index: Index
    dtype: object  # minitorch2 dtype of the buffer

    def __str__(self):
        return f"load({self.buffer}, {self.index})"


@dataclass(frozen=True)
class Constant:
    value: object  # Python bool/int/float (may be inf or nan)
    dtype: object
    # -0.0 == 0.0 in Python, but they are different constants (x + -0.0 keeps x's -0.0, x + 0.0 does not):
    # a memo or CSE keyed by Constant must not take one for the other, so the sign is compared too
    negative_zero: bool = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "negative_zero", isinstance(self.value, float) and math.copysign(1, self.value) < 0
                           and self.value == 0)

    def __str__(self):
        return repr(self.value)


@dataclass(frozen=True)
class IndexValue:
    """The value of an index expression, as a scalar of dtype (iota, arange, masks from positions)."""
    index: Index
    dtype: object

    def __str__(self):
        return f"index({self.index})"


@dataclass(frozen=True)
class Temp:
    """The result of an earlier Reduce in the same loop body."""
    name: str
    dtype: object

    def __str__(self):
        return self.name


@dataclass(frozen=True)
class Op:
    name: str
    args: tuple
    dtype: object

    def __str__(self):
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


def common_dtype(a, c):
    """The dtype both operands of a binary op are brought to (normally they already agree)."""
    if a is c:
        return a
    if a.is_floating_point or c.is_floating_point:
        return dt.float64 if dt.float64 in (a, c) else dt.float32
    return dt.int64


def walk(expr):
    """Every value node of a value expression, parents first, including the values read inside its
    indirect indices (given an Index, the value nodes inside its Indirect terms)."""
    stack = list(indirect_values(expr)) if isinstance(expr, Index) else [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Op):
            stack.extend(node.args)
        elif isinstance(node, (Load, IndexValue)):
            stack.extend(indirect_values(node.index))


def loads(*exprs):
    """Every Load in the value expressions and indices `exprs`, those inside indirect indices included."""
    return [node for expr in exprs for node in walk(expr) if isinstance(node, Load)]


def statement_loads(statement):
    """Every Load a statement reads (a Loop: its body), those inside indirect indices included."""
    if isinstance(statement, Loop):
        return [load for inner in statements(statement) for load in statement_loads(inner)]
    return loads(statement.value, *([statement.index] if isinstance(statement, Store) else []))


def statements(loop):
    """The Stores and Reduces of a loop nest, in program order (an inner loop's in its place)."""
    for statement in loop.body:
        if isinstance(statement, Loop):
            yield from statements(statement)
        else:
            yield statement


def map_value(value, on_leaf, on_index=None):
    """`value` rebuilt bottom-up: the index of each Load / IndexValue replaced by on_index(index), then
    each leaf by on_leaf(leaf)."""
    if isinstance(value, Op):
        return Op(value.name, tuple(map_value(a, on_leaf, on_index) for a in value.args), value.dtype)
    if on_index is not None and isinstance(value, Load):
        value = Load(value.buffer, on_index(value.index), value.dtype)
    elif on_index is not None and isinstance(value, IndexValue):
        value = IndexValue(on_index(value.index), value.dtype)
    return on_leaf(value)


def variables(expr):
    """The names of the loop variables a value expression or an Index reads (inside indirect indices too)."""
    names = set()
    substitute(expr, on_var=lambda var: names.add(var.name) or var)
    return names


def substitute(expr, on_var=None, on_leaf=None):
    """`expr` (a value expression or an Index) rebuilt with each Var replaced by on_var(var) and each value leaf
    (Load, IndexValue, ...) by on_leaf(leaf), inside the values its indirect indices read too."""
    if isinstance(expr, Index):
        return map_index(expr, on_var, lambda value: substitute(value, on_var, on_leaf))
    return map_value(expr, on_leaf or (lambda leaf: leaf), lambda index: substitute(index, on_var, on_leaf))


# ---- statements and kernels ----------------------------------------------------------------


@dataclass
class Store:
    """buffer[index] = value; with mode "add", buffer[index] += value (a scatter that accumulates)."""
    buffer: str
    index: Index
    value: object
    mode: str = None

    def lines(self, indent):
        return [f"{indent}{self.buffer}[{self.index}] {'+=' if self.mode == 'add' else '='} {self.value}"]


@dataclass
class Reduce:
    """temp = reduction_type over the loop vars `rvars` (ranges `rranges`) of value."""
    temp: str
    reduction_type: str
    rvars: tuple
    rranges: tuple
    value: object
    dtype: object  # of the result (int64 for argmax/argmin)

    def lines(self, indent):
        loops = ", ".join(f"{v} in range({n})" for v, n in zip(self.rvars, self.rranges))
        return [f"{indent}{self.temp} = {self.reduction_type}({loops}: {self.value})"]

    def accumulator_dtype(self):
        """What it accumulates in: the values' dtype for argmax/argmin, a byte for any/all (LLVM takes seconds
        to vectorize i1 or/and reductions), float32 for a float16 sum or prod (as torch), else its result's."""
        if self.reduction_type in ("argmax", "argmin"):
            return self.value.dtype
        if self.reduction_type in ("any", "all"):
            return dt.uint8
        return dt.float32 if self.reduction_type in ("sum", "prod") and self.dtype in dt.HALVES else self.dtype


def reduction_identity(kind, dtype):
    if kind in ("sum", "any"):
        return 0
    if kind in ("prod", "all"):
        return 1
    lowest = kind in ("max", "argmax")
    if dtype.is_floating_point:
        return -math.inf if lowest else math.inf
    if dtype is dt.bool_:
        return not lowest
    info = np.iinfo(dtype.np)
    return int(info.min if lowest else info.max)


@dataclass
class Loop:
    """for vars in product(ranges): run body in order. vars[-1] is the innermost (unit-stride) loop."""
    vars: tuple
    ranges: tuple
    body: list = field(default_factory=list)

    def lines(self, indent):
        header = f"{indent}for {', '.join(self.vars) or '_'} in range({' * '.join(map(str, self.ranges)) or 1}):"
        return [header] + [line for stmt in self.body for line in stmt.lines(indent + "  ")]


@dataclass
class KernelArg:
    name: str  # in_ptr0, in_out_ptr0, out_ptr0 ...
    buffer: str  # the wrapper's buffer name it binds to (buf3, primals_1, ...)
    dtype: object
    numel: int  # elements the kernel may touch from the pointer (for bounds checks in tests)
    role: str  # "in", "out" or "inout"


@dataclass
class Kernel:
    """One fused kernel: a loop nest over flat buffers. `loop` is the outermost loop; code generation
    may split its first variable's range across threads, so iterations of loop.vars[0] are independent,
    unless the kernel is `serial` (a scatter: two iterations may write the same element)."""
    name: str
    args: list
    loop: Loop
    serial: bool = False
    sizes: tuple = ()  # the size symbols it uses (dynamic shapes): one i64 argument each, after the buffers

    def __str__(self):
        params = ", ".join([f"{a.name}: {a.dtype.name}[{a.numel}]" for a in self.args] + list(self.sizes))
        header = f"kernel {self.name}({params})" + ("  # serial: one thread" if self.serial else "")
        return "\n".join([header] + self.loop.lines("  "))
