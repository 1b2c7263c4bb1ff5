"""ShapeEnv: the symbols of dynamic shapes, what is known about them, and the guards that keep it true.

Runtime layer, under FakeTensor. When a size is dynamic, the tracer gives the fake tensor a symbol (`s77`) in place
of its example value (8, the symbol's *hint*). Arithmetic on symbols builds sympy expressions; a Python decision on
one (`if n > 2`, `int(n)`, a broadcast check) is answered here:

    decided by what is known       every size symbol is >= 2 (0 and 1 are never symbols: they specialise), the
                                   ranges narrowed by earlier answers, the facts already guarded
    otherwise from the hint        and the answer becomes a guard: a range (`3 <= s77`), a specialisation
                                   (`s77 == 8` replaces the symbol by 8), or an expression (`Mod(s77, 2) == 0`)

`produce_guards` prints the guards over the inputs' sources (`L['x'].size()[0]`), as Dynamo's guard log prints them.
A symbol with no hint (an *unbacked* one, `zuf0`, from data: a float tensor's `.item()` while AOT traces) cannot
be decided from a hint, so a decision on it raises GuardOnDataDependentSymNode. Symbols are named and numbered as PyTorch names them: `s`
plus a number from the source's name, so one input gets the same symbol in every program.
"""
import hashlib
import math
import operator
import sys

import sympy
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.str import StrPrinter

from minitorch2._sym import SymBool, SymFloat, SymInt, is_symbolic, sym_max, sym_min

from ._canonical_facts import guarded_fact, solved_for_symbol
from ._constraint_messages import ConstraintViolationError
from ._float_forms import FloatTrueDiv, ToFloat


class GuardOnDataDependentSymNode(RuntimeError):
    """A Python decision on a symbol that comes from data (no example value to answer it from)."""


class SpecializeFloatInputs(RuntimeError):
    """AOT's tensorify found float graph inputs (args[0]: their positions) no op takes as tensors: the frontend
    translates the frame again with them pinned (Dynamo's TensorifyScalarRestartAnalysis)."""


class FloorDiv(sympy.Function):
    """Python's `//` on integers, kept whole so it prints as `(s77//2)` (sympy's floor(a/b) would not)."""
    is_integer = True
    precedence = 35  # a comparison's, as torch's: `2*((s77//2)) + 1`, in guards `(s77 // 2) <= s77`

    @classmethod
    def eval(cls, base, divisor):
        if base.is_Integer and divisor.is_Integer:
            return sympy.Integer(int(base) // int(divisor))
        if divisor in (1, -1):
            return base * divisor
        if isinstance(base, FloorDiv):  # torch's rules: (a//b)//c is a//(b*c);
            return FloorDiv(base.args[0], base.args[1] * divisor)
        exact = [t for t in sympy.Add.make_args(base) if divisor.is_Integer and (t / divisor).is_integer]
        if exact:  # the terms an integer divides leave the division: (s1*s0 + 2*s0)//2 is s0 + (s1*s0)//2;
            return FloorDiv(base - sympy.Add(*exact), divisor) + sympy.Add(*exact) / divisor
        common = sympy.gcd(base, divisor)  # (3*s)//12 is s//4, (4*s1*s0)//(4*s1) is s0
        return None if common == 1 else FloorDiv(sympy.cancel(base / common), sympy.cancel(divisor / common))


class Mod(sympy.Function):
    """Python's `%`, kept as written (`(3*s) % 12`, not sympy's `3*(s % 4)`) and decided by torch's rules (0 for a
    multiple, p where 0 <= p < q is known); of the divisor's sign, as an int input may be negative (`n % k >= 0`)."""
    is_integer = True
    precedence = 35  # (as FloorDiv's: `s77*(Mod(s77, 3))`)

    @classmethod
    def eval(cls, p, q):
        if p.is_Integer and q.is_Integer:
            return sympy.Integer(int(p) % int(q))
        if p == 0 or q == 1 or (p / q).is_integer:
            return sympy.Integer(0)
        if q == 2 and p.is_odd:
            return sympy.Integer(1)
        return p if (q - p).is_positive and (p / q).is_positive else None

    def _eval_is_nonnegative(self):
        return True if self.args[1].is_positive else None


_RELATIONS = {operator.eq: sympy.Eq, operator.ne: sympy.Ne, operator.lt: sympy.Lt, operator.le: sympy.Le,
              operator.gt: sympy.Gt, operator.ge: sympy.Ge}


_SIZE_MAX = sympy.Integer(sys.maxsize - 1)  # a size is below the largest int64, as PyTorch assumes


class SymNode:
    """What a SymInt/SymFloat/SymBool holds: its expression, its ShapeEnv, its Python type and its hint."""

    def __init__(self, expr, shape_env, pytype, hint):
        self.expr, self.shape_env, self.pytype, self.hint = expr, shape_env, pytype, hint

    def str(self):
        return _ReprPrinter().doprint(self.expr.xreplace(self.shape_env.replacements))

    def binary(self, op, other, reflected):
        if not is_symbolic(other) and self.pytype is float and type(other) is int:
            other = float(other)  # a float's arithmetic and comparisons with an int are a float's, as Python's
        a, a_hint = self.expr, self.hint
        b, b_hint = (other.node.expr, other.node.hint) if is_symbolic(other) else (sympy.sympify(+other), other)  # (+True: 1)
        if reflected:
            (a, a_hint), (b, b_hint) = (b, b_hint), (a, a_hint)
        hint = None if a_hint is None or b_hint is None else op(a_hint, b_hint)
        if op in _RELATIONS:
            return self.shape_env.wrap(_RELATIONS[op](a, b), bool, hint)
        pytype = float if op is operator.truediv or float in (self.pytype, type(other)) else int
        if pytype is float and float in (self.pytype, type(other)):  # (int / int stays a rational: IntTrueDiv's kin)
            a, b = (ToFloat(e) if e.is_integer and not e.is_Number else e for e in (a, b))
            op = FloatTrueDiv if op is operator.truediv else op
        expr = {operator.floordiv: FloorDiv, operator.mod: mod_as_torch(self.shape_env)}.get(op, op)(a, b)
        return self.shape_env.wrap(expr, pytype, hint)

    def logical(self, op, other):
        other_expr, other_hint = (other.node.expr, other.node.hint) if is_symbolic(other) else (
            sympy.true if other else sympy.false, bool(other))
        expr = (sympy.And if op is operator.and_ else sympy.Or)(self.expr, other_expr)
        hint = None if self.hint is None or other_hint is None else op(self.hint, other_hint)
        return self.shape_env.wrap(expr, bool, hint)

    def logical_not(self):
        return self.shape_env.wrap(sympy.Not(self.expr), bool, None if self.hint is None else not self.hint)

    def max_min(self, fn, a, b):
        exprs = [v.node.expr if is_symbolic(v) else sympy.sympify(v) for v in (a, b)]
        hints = [v.node.hint if is_symbolic(v) else v for v in (a, b)]
        expr = (sympy.Max if fn is max else sympy.Min)(*exprs)
        return self.shape_env.wrap(expr, self.pytype, None if None in hints else fn(*hints))

    def math(self, name):
        """math.<name> of this number (torch._sym_sqrt(s27)): a float expression, its hint the float it computes."""
        expr = sympy.log(self.expr, 2) if name == "log2" else getattr(sympy, name)(self.expr)
        return self.shape_env.wrap(expr, float, None if self.hint is None else getattr(math, name)(self.hint))

    def to_float(self):
        return self.shape_env.wrap(ToFloat(self.expr), float, None if self.hint is None else float(self.hint))

    def guard_bool(self):
        return self.shape_env.evaluate(self.expr, self.hint)

    def guard_int(self):
        return int(self.shape_env.specialize(self.expr, self.hint))

    def guard_float(self):
        return float(self.shape_env.specialize(self.expr, self.hint))


class ShapeEnv:
    """The symbols of one trace, their hints and ranges, and the guards recorded while tracing."""

    def __init__(self):
        self.var_to_val = {}  # symbol -> hint
        self.var_to_range = {}  # symbol -> [lower, upper]
        self.var_to_sources = {}  # symbol -> the source names it stands for, the first one its name in guards
        self.replacements = {}  # symbol -> the expression (often an int) a guard pinned it to
        self.guards = []  # expressions known true, besides ranges and replacements, in the order recorded
        self.float_sources = {}  # symbol of a dynamic float argument -> its source name
        self.input_strides = []  # (tensor source, its fake's strides): a symbolic stride is guarded
        self._val_to_var = {}
        self._unique_ids = set()
        self._unbacked_count = 0

    # ------------------------------------------------------------ making symbols
    def create_symbol(self, hint, source, dynamic=True, size=True, duck=True):
        """A size's symbol (or the plain int, for a static dim and for 0 and 1), named from its source, shared
        with an equal size's where `duck`; with size=False an int's (an argument's: any sign, its own)."""
        if not dynamic or size and hint in (0, 1):  # (an int argument of 0 or 1 is a symbol too, as Dynamo's)
            return hint
        if size and duck and hint in self._val_to_var:
            symbol = self._val_to_var[hint]
        else:
            symbol = sympy.Symbol(f"s{self._unique_id(source)}", integer=True, positive=size or None)
            self.var_to_val[symbol] = hint
            self.var_to_range[symbol] = [sympy.Integer(2), _SIZE_MAX] if size else [-sympy.oo, sympy.oo]
            self.var_to_sources[symbol] = []
            if size and duck:
                self._val_to_var.setdefault(hint, symbol)
        self.var_to_sources[symbol].append(source)
        return SymInt(SymNode(symbol, self, int, hint))

    def create_float_symbol(self, hint, source):
        """A float argument's symbol (automatic dynamic floats): any value; its guard, that it is no NaN."""
        symbol = sympy.Symbol(f"zf{len(self.float_sources)}", real=True)
        self.var_to_val[symbol] = hint
        self.float_sources[symbol] = source
        return SymFloat(SymNode(symbol, self, float, hint))

    def create_unbacked_symfloat(self):
        symbol = sympy.Symbol(f"zuf{self._unbacked_count}", real=True)
        self._unbacked_count += 1
        return SymFloat(SymNode(symbol, self, float, None))

    def _unique_id(self, source):
        attempt = int(hashlib.sha256(source.encode()).hexdigest(), 16) % 100
        while attempt in self._unique_ids:
            attempt += 1
        self._unique_ids.add(attempt)
        return attempt

    def wrap(self, expr, pytype, hint):
        """A Python number when the expression is one, else a Sym* holding it: a number's as written (as torch's)."""
        expr = self.simplify(expr) if pytype is bool else expr.xreplace(self.replacements)  # (s//(s//2) stays)
        if isinstance(expr, sympy.Max) and len(expr.args) == 2:  # Max(1, s//2) is s//2 where s//2 >= 1 is known
            low, other = sorted(expr.args, key=lambda a: not a.is_Number)
            if low in (0, 1) and self.implied(sympy.Ge(other, low)):
                expr = other
        if expr.is_Number or expr in (sympy.true, sympy.false):
            return pytype(expr)
        return {int: SymInt, float: SymFloat, bool: SymBool}[pytype](SymNode(expr, self, pytype, hint))

    def simplify(self, expr):
        """The replacements made, and torch's nested-division rule: `s // (s // 4)` is 4 where both `s % (s // 4)`
        and `s % 4` are known to be 0."""
        expr = expr.xreplace(self.replacements) if self.replacements else expr
        exact = {q: q.args[1].args[1] for q in expr.atoms(FloorDiv) if isinstance(q.args[1], FloorDiv)
                 and q.args[0] == q.args[1].args[0] and all(sympy.Eq(Mod(q.args[0], d), 0) in self.guards
                                                            for d in (q.args[1], q.args[1].args[1]))}
        return expr.xreplace(exact) if exact else expr

    # ------------------------------------------------------------ answering decisions
    def evaluate(self, expr, hint):
        """The truth of a boolean expression: decided statically where possible, else from the hint, guarded."""
        expr = self.simplify(expr)
        known = self.static_value(expr)
        if known is not None:
            return known
        if hint is None:
            raise GuardOnDataDependentSymNode(
                f"Could not guard on data-dependent expression {_ReprPrinter().doprint(expr)} (unhinted: "
                f"{_ReprPrinter().doprint(expr)}).  (Size-like symbols: none)\n\nconsider using data-dependent "
                "friendly APIs such as guard_or_false, guard_or_true and statically_known_true.")
        self._record(expr if hint else _negate(expr))
        return bool(hint)

    def assume(self, expr, hint):
        """torch._check(expr): a fact from then on; with a hint, also a guard (it must hold at the next call)."""
        if hint is not None and not hint:
            raise RuntimeError(f"Runtime assertion failed for expression {_ReprPrinter().doprint(expr)}")
        expr = self.simplify(expr)
        if self.static_value(expr) is None:
            self._record(expr)

    def specialize(self, expr, hint):
        """`int(n)`: the hint, with the guard that n equals it."""
        if hint is None:
            raise GuardOnDataDependentSymNode(f"Could not extract specialized integer from data-dependent expression "
                                              f"{_ReprPrinter().doprint(expr)}")
        self.evaluate(sympy.Eq(expr, hint), True)
        return hint

    def static_value(self, expr):
        """True or False when the ranges and the recorded facts decide `expr`; None when they do not."""
        if expr in (sympy.true, sympy.false):
            return bool(expr)
        known = guarded_fact(self, expr)
        if known is not None:
            return known
        if isinstance(expr, sympy.Not):
            inner = self.static_value(expr.args[0])
            return None if inner is None else not inner
        return self.implied(expr)

    def implied(self, expr):
        """What the symbols' ranges alone say of a comparison: True, False or None. Where the difference's
        interval says nothing, its factors may (`s*s - s` is `s*(s - 1)`, at least 2 for s >= 2)."""
        if not isinstance(expr, sympy.core.relational.Relational):
            return None
        difference = expr.lhs - expr.rhs
        known = _decide(type(expr), *self.bounds(difference))
        if known is None and difference.free_symbols:
            known = _decide(type(expr), *self.bounds(sympy.factor(difference)))
        return known

    def bounds(self, expr):
        """The interval an integer expression's value lies in, from its symbols' ranges."""
        if expr.is_Number:
            return expr, expr
        if expr.is_Symbol:
            low, high = self.var_to_range.get(expr, (-sympy.oo, sympy.oo))
            return sympy.sympify(low), sympy.sympify(high)
        if isinstance(expr, sympy.Add):
            intervals = [self.bounds(a) for a in expr.args]
            return sum(i[0] for i in intervals), sum(i[1] for i in intervals)
        if isinstance(expr, sympy.Mul):
            low, high = sympy.Integer(1), sympy.Integer(1)
            for arg in expr.args:
                a_low, a_high = self.bounds(arg)
                products = [sympy.S.Zero if 0 in (x, y) else x * y for x in (low, high) for y in (a_low, a_high)]
                low, high = min(products), max(products)
            return low, high
        if isinstance(expr, sympy.Pow) and expr.exp.is_Integer and expr.exp > 0 and self.bounds(expr.base)[0] >= 0:
            low, high = self.bounds(expr.base)
            return low ** expr.exp, high ** expr.exp
        if isinstance(expr, Mod) and self.bounds(expr.args[1])[0] > 0:
            (low, high), (_, divisor_high) = map(self.bounds, expr.args)
            if low >= 0 and self.implied(sympy.Gt(*expr.args[::-1])):  # Mod(s, s*t) is s: s < s*t
                return low, high
            return sympy.Integer(0), divisor_high - 1
        if isinstance(expr, (sympy.Max, sympy.Min)):
            lows, highs = zip(*map(self.bounds, expr.args))
            return type(expr)(*lows), type(expr)(*highs)
        if isinstance(expr, FloorDiv) and expr.args[1].is_Integer and expr.args[1] > 0:
            low, high = self.bounds(expr.args[0])
            return sympy.floor(low / expr.args[1]), sympy.floor(high / expr.args[1])
        return -sympy.oo, sympy.oo

    def _record(self, guard):
        """Keep a new fact: a bound narrows a symbol's range, `symbol == value` replaces it, the rest are guards."""
        pair = sorted(guard.free_symbols, key=sympy.default_sort_key) if isinstance(guard, sympy.Eq) else ()
        if len(pair) == 2 and sympy.expand(guard.lhs - guard.rhs) in (pair[0] - pair[1], pair[1] - pair[0]):
            kept, replaced = pair  # (s27 stays, s64 becomes s27; `1 + s64 == 1 + s27` too)
            self._replace(replaced, kept)
            self._record(sympy.Ge(kept, self.var_to_range[replaced][0]))  # what was known of it holds of kept
            self._record(sympy.Le(kept, self.var_to_range[replaced][1]))
            return
        if isinstance(guard, sympy.Eq) and (solved := solved_for_symbol(self, guard)) is not None:  # (4*s77 == 12 too)
            symbol, value = solved
            if value.is_Integer or (value.is_Float and symbol in self.float_sources):  # (`float(eps)`: eps is 1e-05)
                self._replace(symbol, value)
                return
        bound = _symbol_bound(guard)
        if bound is not None:
            symbol, low, high = bound
            current = self.var_to_range[symbol]
            current[0], current[1] = sympy.Max(current[0], low), sympy.Min(current[1], high)
            if current[0] == current[1]:
                self._replace(symbol, sympy.Integer(current[0]))
            return
        self.guards.append(guard)

    def _replace(self, symbol, value):  # (also where an earlier replacement named it: simplify() is one pass)
        self.replacements = {k: v.xreplace({symbol: value}) for k, v in self.replacements.items()} | {symbol: value}

    # ------------------------------------------------------------ guards over sources
    def check_constraints(self, marked):
        """Raise ConstraintViolationError where a size of `marked` ({source name: its symbol}) became a constant."""
        pinned = [(name, value) for name, symbol in marked.items() if (value := self.simplify(symbol)).is_Integer]
        if pinned:
            raise ConstraintViolationError.specialized(pinned)

    def produce_guards(self, checked_elsewhere=()):
        """The guards as Dynamo's log prints them, over source names: duck-sizing equalities, recorded facts,
        then each symbol's range. Sizes pinned to one value whose symbols are in `checked_elsewhere` are left
        out (the frontend checks those in their tensor's guard)."""
        names = {}  # a symbol standing for sizes -> the first source of them, in input order (as Dynamo prints it)
        equalities = []  # (source, what it equals): a duck-sized source, a size found equal to another or pinned
        for symbol, sources in self.var_to_sources.items():
            target = self.simplify(symbol)
            for k, source in enumerate(sources):
                if target.is_Symbol and target not in names:
                    names[target] = source
                elif not (target.is_Integer and symbol in checked_elsewhere and ".size()[" in source):
                    equalities.append((source, target))  # (else pinned in its tensor's guard)
        printer = _SourcePrinter(names | self.float_sources)
        lines = [f"{source} == {printer.doprint(target)}" for source, target in equalities]
        for source, strides in self.input_strides:  # (not one pinned, nor one with a symbol of its own: both done)
            lines += [f"{source}.stride()[{i}] == {printer.doprint(self.simplify(stride.node.expr))}"
                      for i, stride in enumerate(strides) if is_symbolic(stride) and f"{source}.stride()[{i}]" not in
                      self.var_to_sources.get(stride.node.expr, ()) and not self.simplify(stride.node.expr).is_Integer]
        guards = [exact_divisions_first(sympy.expand(self.simplify(g)), self.guards) for g in self.guards]
        lines += [printer.doprint(g) for g in guards if self.implied(g) is not True and g is not sympy.true]
        for symbol, (low, high) in self.var_to_range.items():
            if symbol in names and symbol not in self.replacements:
                name = names[symbol]
                bounds = ([f"{low} <= {name}"] if low.is_finite else []) + (
                    [f"{name} <= {high}"] if high.is_finite and high < _SIZE_MAX else [])
                lines += [" and ".join(bounds)] if bounds else []
        for symbol, source in self.float_sources.items():  # a float pinned to its value is tracked twice by Dynamo
            value = self.replacements.get(symbol)     # (as the tensor input and as its .item()): one guard each
            lines += [f"not math.isnan({source})"] if value is None else [f"{source} == {float(value)!r}"] * 2
        return lines


def _negate(expr):
    return expr.negated if isinstance(expr, sympy.core.relational.Relational) else sympy.Not(expr)


def _decide(relation, low, high):
    """Whether `lhs - rhs` in [low, high] makes the relation always true, always false, or neither (None)."""
    if relation is sympy.Eq:
        return True if low == high == 0 else False if low > 0 or high < 0 else None
    if relation is sympy.Ne:
        inverse = _decide(sympy.Eq, low, high)
        return None if inverse is None else not inverse
    always, never = {sympy.Lt: (high < 0, low >= 0), sympy.Le: (high <= 0, low > 0),
                     sympy.Gt: (low > 0, high <= 0), sympy.Ge: (low >= 0, high < 0)}[relation]
    return True if always == sympy.true else False if never == sympy.true else None


def _symbol_bound(guard):
    """(symbol, low, high) for an integer bound on s, k*s or s//k plus a constant, as torch's solver narrows a range
    (`8*s <= 20480` is s <= 2560, `s//2 >= 2` s >= 4, `s + 2 > 9` s >= 8; not `3*s >= 8`: no integer), else None.
    (A `!=` never narrows a range, even at its edge: torch keeps `s != 16` beside `s <= 16`.)"""
    if not isinstance(guard, (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge)):
        return None
    guard = guard.reversed if guard.lhs.is_Integer else guard
    if not guard.rhs.is_Integer:
        return None
    lower = isinstance(guard, (sympy.Ge, sympy.Gt))
    constant, lhs = guard.lhs.as_coeff_Add()  # (`s + 2 > 9` is `s > 7`)
    bound = guard.rhs - constant + {sympy.Gt: 1, sympy.Lt: -1}.get(type(guard), 0)  # (integers: `n > 5` is `n >= 6`)
    k, term = lhs.as_coeff_Mul()
    if isinstance(lhs, FloorDiv) and lhs.args[1].is_Integer and lhs.args[1] > 0:
        term, k = lhs.args
        bound = k * bound if lower else k * bound + k - 1
    elif k.is_Integer and k > 0 and (guard.rhs - constant) % k == 0:  # (torch's solver: an integer s = rhs / k)
        bound = sympy.ceiling(bound / k) if lower else sympy.floor(bound / k)
    else:
        return None
    if not term.is_Symbol:
        return None
    return (term, bound, sympy.oo) if lower else (term, -sympy.oo, bound)


class _ReprPrinter(StrPrinter):
    """How a SymInt prints (`s77`, `((s77*s27)//2)`, `Mod(s77, 4)`), as PyTorch's reprs."""

    def _print_FloorDiv(self, expr):
        return "({}//{})".format(*(self.parenthesize(side, PRECEDENCE["Atom"] - 0.5) for side in expr.args))


class _SourcePrinter(StrPrinter):
    """Guards as Python over sources, as Dynamo's guard log prints them: `(L['x'].size()[0] % 2) == 0`."""

    def __init__(self, names):
        super().__init__()
        self.names = names

    def _print_Symbol(self, expr):
        return self.names.get(expr, expr.name)

    def _print_FloorDiv(self, expr):  # and Mod
        return self.stringify(expr.args, " // " if isinstance(expr, FloorDiv) else " % ", PRECEDENCE["Atom"] - 0.5)

    _print_Mod = _print_FloorDiv

    def _print_Add(self, expr, order=None):  # in sympy's order of terms, negatives as `(-1)*x`: PyTorch's text
        return self.stringify(expr.args, " + ", PRECEDENCE["Add"])

    def _print_Mul(self, expr):
        return self.stringify(expr.args, "*", PRECEDENCE["Mul"])

    def _print_Pow(self, expr):  # a size squared is `s*s`, never `s**2`; its square root as torch's
        if expr.exp == sympy.Rational(1, 2):
            return f"torch._sym_sqrt(torch.sym_float({self._print(expr.base)}))"
        if expr.exp < 0:  # (a float over sizes: 2.0/s0 is `2.0*1/s0`)
            return f"1/{self.parenthesize(expr.base ** -expr.exp, PRECEDENCE['Pow'], strict=True)}"
        return self.stringify([expr.base] * int(expr.exp), "*", PRECEDENCE["Mul"])

    def _print_Relational(self, expr):
        return self.stringify(expr.args, f" {expr.rel_op} ", precedence(expr))

    def _print_Not(self, expr):
        return f"not ({self._print(expr.args[0])})"

    def _print_Function(self, expr):  # math.cos(n) of a size (SymNode.math)
        return f"math.{type(expr).__name__}(torch.sym_float({self._print(expr.args[0])}))"

    def _print_ToFloat(self, expr):
        return f"torch.sym_float({self._print(expr.args[0])})"

    def _print_FloatTrueDiv(self, expr):
        return f"({self.stringify(expr.args, ' / ', PRECEDENCE['Atom'] - 0.5)})"

    def _print_Max(self, expr):  # and Min: `max(a, b)`
        return f"{type(expr).__name__.lower()}({', '.join(self._print(a) for a in expr.args)})"

    _print_Min = _print_Max


def python_step(expr):
    """One Python operation that computes a compound integer expression from smaller ones, as (operator,
    operands): how a traced graph spells `(s77//2) - 1` (`floordiv`, then `sub`)."""
    if isinstance(expr, sympy.Add):
        constant, rest = expr.as_coeff_Add()
        if constant != 0:
            return (operator.sub, [rest, -constant]) if constant < 0 else (operator.add, [rest, constant])
        return operator.add, [expr.args[0], sympy.Add(*expr.args[1:])]
    if isinstance(expr, sympy.Mul):
        constant, rest = expr.as_coeff_Mul()
        if constant == -1:
            return operator.sub, [sympy.S.Zero, rest]  # (-x as 0 - x)
        if constant != 1:
            return operator.mul, [rest, constant]
        return operator.mul, [expr.args[0], sympy.Mul(*expr.args[1:])]
    steps = {FloorDiv: operator.floordiv, Mod: operator.mod, PythonMod: operator.mod, sympy.Pow: operator.pow,
             sympy.Max: sym_max, sympy.Min: sym_min}
    # (only a Max or Min has more than two arguments: the first, then one of the rest)
    return steps[type(expr)], [expr.args[0], type(expr)(*expr.args[1:])] if len(expr.args) > 2 else list(expr.args)


# (last: it subclasses FloorDiv; loaded with this module, never first inside a compile, where another thread's
# fork would leave the child waiting on the import's lock)
from ._exact_divisions import exact_divisions_first  # noqa: E402
from ._mod_names import PythonMod, mod_as_torch  # noqa: E402
