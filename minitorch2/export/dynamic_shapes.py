"""Dynamic shapes for torch.export: `Dim`, the `dynamic_shapes=` argument, range constraints and input guards.

torch.export layer (coverage surface), used by _trace.py before the trace and by ExportedProgram after it.
`dynamic_shapes` says, per user input (a dict by argument name, or a tuple/list by position, nested as the
inputs are), which dims are symbols:

    Dim("batch", min=2, max=64)   a named dim: one symbol wherever its name is used; the program may
                                  neither pin it to a constant nor narrow its range (UserError)
    Dim.DYNAMIC                   a symbol the program may narrow but not pin;  Dim.DYNAMIC(min=, max=) too
    Dim.AUTO                      a symbol the program may narrow or pin (then static)
    Dim.STATIC, an int, None      static at the example's size
    2 * batch, batch + 1          a derived Dim, a·root + b (a > 0) of a named Dim: that expression over the root's
                                  symbol (2*s77), the root valued from an input it sizes or, sizing none, from the
                                  first derived size (torch's phantom root, a symbol named after the Dim)

The user inputs are faked here with the compiler's ShapeEnv (its symbols named from `L['x'].size()[0]`, as
torch's, so x's batch is s77), and traced by make_fx as they are. Afterwards the ShapeEnv's ranges give
`range_constraints` ({s77: VR[2, 64]}) and the checks ep.module() runs on each call's inputs: a range, a
static size, two inputs sharing one symbol, or a derived size against its root's (`y.size()[0] == 1 + x.size()[0]`),
failing with torch's AssertionError("Guard failed: ...").
"""
import ast
import dataclasses
import enum
import fractions
import math
import sys

import sympy

from .._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from .._subclasses.strided_symbols import symbolic_strides
from .._tensor import Tensor
from ..fx.experimental.symbolic_shapes import _SIZE_MAX, ConstraintViolationError, ShapeEnv


class _DimHintType(enum.Enum):
    AUTO = enum.auto()
    STATIC = enum.auto()
    DYNAMIC = enum.auto()


@dataclasses.dataclass
class _DimHint:
    """Dim.AUTO / Dim.STATIC / Dim.DYNAMIC, and their bounded forms Dim.AUTO(min=, max=)."""
    type: _DimHintType
    min: int = None
    max: int = None
    _factory: bool = True

    def __call__(self, min=None, max=None):
        if not self._factory:
            raise TypeError(f"'{type(self)}' object is not callable")
        if min is not None and max is not None and min > max:
            raise AssertionError(f"min must be <= max, got min={min}, max={max}")
        return _DimHint(self.type, min, max, _factory=False)

    def __repr__(self):
        bounds = [f"{k}={v}" for k, v in (("min", self.min), ("max", self.max)) if v is not None]
        return f"DimHint({', '.join([self.type.name, *bounds])})"


class _IntInfinity(float):
    """An unbounded Dim's max: math.inf, printed as torch prints its int_oo."""

    def __repr__(self):
        return "int_oo"

    __str__ = __repr__


int_oo = _IntInfinity("inf")


class Dim:
    """A named dynamic dim: a size in [min, max] (0 and unbounded by default)."""
    AUTO = _DimHint(_DimHintType.AUTO)
    DYNAMIC = _DimHint(_DimHintType.DYNAMIC)
    STATIC = _DimHint(_DimHintType.STATIC)

    def __init__(self, name, *, min=None, max=None):
        low, high = 0 if min is None else min, int_oo if max is None else max
        if not high > low:
            raise AssertionError(f"Cannot create Dim with inconsistent min={min}, max={max}")
        if not name.isidentifier():
            raise AssertionError(f"Dim name must be a valid identifier, got {name}")
        self.__name__, self.min, self.max = name, low, high

    def __repr__(self):
        bounds = ([f"min={self.min}"] if self.min != 2 else []) + ([f"max={self.max}"] if self.max != math.inf else [])
        return f"Dim({', '.join([repr(self.__name__), *bounds])})"

    # A derived Dim, a·root + b with a > 0: `2 * batch`, `batch + 1`, `2 * batch - 1`.
    def __add__(self, other):
        if type(other) is not int:
            raise NotImplementedError(f"Attempted to add {other} to {self.__name__}, where an integer was expected. "
                                      + _LINEAR_ONLY)
        return self._derive(1, other)

    __radd__ = __add__

    def __sub__(self, other):
        if type(other) is not int:
            raise NotImplementedError(f"Attempted to subtract {other} from {self.__name__}, where an integer was "
                                      "expected. " + _LINEAR_ONLY)
        return self._derive(1, -other)

    def __rsub__(self, other):
        raise NotImplementedError(f"Attempted to negate {self.__name__}. " + _LINEAR_ONLY)

    def __mul__(self, other):
        if type(other) is not int or other <= 0:
            raise NotImplementedError(f"Attempted to multiply {other} with {self.__name__}, where a positive integer "
                                      "was expected. " + _LINEAR_ONLY)
        return self._derive(other, 0)

    __rmul__ = __mul__

    def _derive(self, a, b):
        return _DerivedDim(self, a, b)


_LINEAR_ONLY = "(Only increasing linear operations with integer coefficients are supported.)"


class _DerivedDim(Dim):
    """a·root + b of a named root Dim (a derived one's root is its root's: `2 * (b + 1)` is 2·b + 2); its range is
    the root's mapped through it, and its name the expression, as sympy prints it."""

    def __init__(self, root, a, b):
        self.root, self.a, self.b = root, a, b
        self.__name__ = str(a * sympy.Symbol(root.__name__) + b)

    def _derive(self, a, b):
        return _DerivedDim(self.root, a * self.a, a * self.b + b)

    def of(self, value):
        return self.a * value + self.b

    @property
    def min(self):
        low = self.of(self.root.min)
        if low < 0:
            raise AssertionError(f"Expected derived min value of {self.__name__} to be >= 0. Please specify an "
                                 f"appropriate min value for {self.root.__name__} (currently {self.root.min}).")
        return low

    @property
    def max(self):
        if self.root.max == math.inf:
            return int_oo
        high = self.of(self.root.max)
        if high > sys.maxsize - 1:
            raise AssertionError(f"Expected derived max value of {self.__name__} to be <= {sys.maxsize - 1}. Please "
                                 f"specify an appropriate max value for {self.root.__name__} (currently "
                                 f"{self.root.max}).")
        return high

    def __repr__(self):
        return self.__name__


class ValueRanges:
    """A symbol's range as range_constraints prints it: VR[2, 64], VR[0, int_oo]."""

    def __init__(self, lower, upper):
        self.lower, self.upper = lower, upper

    def __repr__(self):
        return f"VR[{self.lower}, {'int_oo' if self.upper == math.inf else self.upper}]"

    def __eq__(self, other):
        return isinstance(other, ValueRanges) and (self.lower, self.upper) == (other.lower, other.upper)


@dataclasses.dataclass
class _DynamicDim:
    """One dynamic dim of one input: its symbol, the user's bounds, and whether the program may pin or narrow it."""
    source: str
    symbol: sympy.Symbol
    name: str  # the Dim's name, or the source for a hint
    min: int
    max: float
    named: bool
    may_specialize: bool
    derived: _DerivedDim = None  # a derived Dim's size: its symbol is the expression a·root + b


@dataclasses.dataclass
class _Root:
    """The root of derived Dims: its value, and the source its symbol is named from: the input size it names, or, if
    it names none, its own name (torch's phantom root, valued from the first derived size). Where a size
    `root - k` follows one the root names, torch's ShapeEnv keeps that size's symbol and the root is it + k: `shift`
    is -k and `shifted_source` that size's."""
    dim: Dim
    hint: int
    source: str
    phantom: bool
    shift: int = 0
    shifted_source: str = None


def _user_error(message):
    from ._trace import UserError  # (deferred: _trace imports this module)
    return UserError(message + _draft_export_hint())


def _draft_export_hint():
    from ._trace import _DRAFT_EXPORT_HINT  # (deferred: _trace imports this module)
    return _DRAFT_EXPORT_HINT


def _per_argument(args, kwargs, dynamic_shapes, arg_names):
    """dynamic_shapes as a list, one entry per positional argument then per keyword argument."""
    if isinstance(dynamic_shapes, dict):
        names = arg_names[:len(args)] + list(kwargs)
        if sorted(dynamic_shapes) != sorted(names):  # (every argument named, as torch checks)
            raise _user_error(
                f"When `dynamic_shapes` is specified as a dict, its top-level keys must be the arg names {names} of "
                f"`inputs`, but here they are {list(dynamic_shapes)}. Alternatively, you could also ignore arg names "
                "entirely and specify `dynamic_shapes` as a list/tuple matching `inputs`. For more information about "
                "this error, see: https://pytorch.org/docs/main/generated/exportdb/index.html#dynamic-shapes-"
                "validation")
        return [dynamic_shapes.get(name) for name in names]
    return list(dynamic_shapes) + [None] * (len(args) + len(kwargs) - len(dynamic_shapes))


def fake_user_inputs(arg_names, args, kwargs, dynamic_shapes):
    """(the user inputs' leaves with their dynamic dims symbolic, each leaf's source, the ShapeEnv, [_DynamicDim])
    for the trace."""
    mode = FakeTensorMode(shape_env=ShapeEnv())
    entries = []  # (source, leaf, its spec)
    names = arg_names[:len(args)] + list(kwargs)
    for name, value, spec in zip(names, [*args, *kwargs.values()], _per_argument(args, kwargs, dynamic_shapes,
                                                                                  arg_names)):
        _input_leaves(f"L['{name}']", value, spec, entries)
    roots = _roots(entries)
    dims, symbols = [], {}  # symbols: a Dim's name -> its SymInt, shared by every dim it names (as torch's, by name)
    leaves = [_fake_tensor(mode, source, value, spec, dims, symbols, roots) if isinstance(value, Tensor) and spec
              else value for source, value, spec in entries]
    dims += [_DynamicDim(root.source, symbols[key].node.expr, root.dim.__name__, root.dim.min, root.dim.max, True,
                         False) for key, root in roots.items() if root.phantom]  # (last, as torch's)
    return leaves, [source for source, _, _ in entries], mode.shape_env, dims


def _input_leaves(source, value, spec, entries):
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _input_leaves(f"{source}[{i}]", item, spec[i] if spec is not None else None, entries)
    elif isinstance(value, dict):
        for key, item in value.items():
            _input_leaves(f"{source}[{key!r}]", item, spec.get(key) if spec is not None else None, entries)
    else:
        entries.append((source, value, spec))


def _roots(entries):
    """{root name: _Root} of the derived Dims' roots, found as torch's are: in input order, a derived size met before
    any size its root names solves the root's value from it (an integer, or torch's UserError)."""
    roots, direct = {}, {}
    for source, value, spec in entries:
        if not isinstance(value, Tensor) or not spec:
            continue
        for d, dim in (enumerate(spec) if isinstance(spec, (list, tuple)) else spec.items()):
            if isinstance(dim, _DerivedDim) and d < value.dim() and dim.a == 1 and dim.b < 0 and \
                    dim.root.__name__ in direct and not direct[dim.root.__name__].shift:
                direct[dim.root.__name__] = dataclasses.replace(direct[dim.root.__name__], shift=dim.b,
                                                                shifted_source=f"{source}.size()[{d}]")
            if isinstance(dim, _DerivedDim) and d < value.dim() and dim.root.__name__ not in roots:
                root, (solved, rest) = dim.root, divmod(value.shape[d] - dim.b, dim.a)
                if rest and root.__name__ not in direct:
                    raise _user_error(f"Expected shape[{d}] = {value.shape[d]} of input Tensor to be of the form "
                                      f"{dim.__name__}, where {root.__name__} is an integer")
                roots[root.__name__] = _Root(root, solved, root.__name__, True)
            elif isinstance(dim, Dim) and not isinstance(dim, _DerivedDim) and d < value.dim():
                direct.setdefault(dim.__name__, _Root(dim, value.shape[d], f"{source}.size()[{d}]", False))
    return {key: direct.get(key, root) for key, root in roots.items()}


def _new_symbol(env, hint, source, low, high):
    symint = env.create_symbol(hint, source, duck=False)
    if not isinstance(symint, int):
        env.var_to_range[symint.node.expr] = [sympy.Integer(max(low, 2)), sympy.Integer(high) if high != math.inf
                                              else _SIZE_MAX]
    return symint


def _root_size(env, dim, symbols, roots):
    """A named Dim's SymInt, made at its first use: its own symbol, or (a shifted root) the shifted size's + k."""
    if dim.__name__ not in symbols:
        root = roots[dim.__name__]
        symbols[dim.__name__] = _new_symbol(env, root.hint, root.source, dim.min, dim.max) if not root.shift else \
            _new_symbol(env, root.hint + root.shift, root.shifted_source, dim.min + root.shift,
                        dim.max + root.shift) - root.shift
    return symbols[dim.__name__]


def _derived_size(env, source, hint, dim, symbols, roots):
    """a·root + b over the root's SymInt; the example's size must be that."""
    root = roots[dim.root.__name__]
    if dim.of(root.hint) != hint:
        raise _user_error(f"Expected input {source} to be equal to {dim.__name__}, where {dim.root.__name__} = "
                          f"{root.hint}, but got {hint}")
    return _root_size(env, dim.root, symbols, roots) * dim.a + dim.b


def _fake_tensor(mode, source, tensor, spec, dims, symbols, roots):
    """tensor's fake, the dims `spec` ({dim: Dim or hint}, or a list by dim) makes dynamic a symbol each (a derived
    Dim's, the expression over its root's)."""
    spec = dict(enumerate(spec)) if isinstance(spec, (list, tuple)) else spec
    env, shape = mode.shape_env, list(tensor.shape)
    for d, dim in spec.items():
        if dim is not None and not isinstance(dim, (int, Dim, _DimHint)):
            raise _user_error(
                f"Unexpected dimension mapped to index {d} in input tensor shape {spec} specified at `dynamic_shapes"
                f"[{source[2:]}` (expected None, an int, a Dim, Dim.AUTO, Dim.STATIC, or Dim.DYNAMIC,  but got "
                f"{dim!r} instead)\nFor more information about this error, see: https://pytorch.org/docs/main/"
                "generated/exportdb/index.html#dynamic-shapes-validation")
        if d >= tensor.dim() or dim is None or isinstance(dim, _DimHint) and dim.type == _DimHintType.STATIC:
            continue  # (a dim the tensor lacks is ignored, as torch's)
        hint, named = tensor.shape[d], isinstance(dim, Dim)
        if isinstance(dim, int):
            if dim != hint:
                raise ConstraintViolationError(f"Static shape constraint of {dim} does not match input size of "
                                               f"{hint}, for {source}.size()[{d}]" + _draft_export_hint())
            continue
        low = dim.min if dim.min is not None else 2
        high = dim.max if dim.max is not None else math.inf
        if named and not low <= hint <= high:  # (a hint's bounds are not checked against the example, as torch's)
            raise ConstraintViolationError(f"{hint} not in range [{max(low, 2)}, "
                                           f"{'int_oo' if high == math.inf else high}]" + _draft_export_hint())
        if isinstance(dim, _DerivedDim):
            shape[d] = _derived_size(env, f"{source}.size()[{d}]", hint, dim, symbols, roots)
            dims.append(_DynamicDim(f"{source}.size()[{d}]", shape[d].node.expr, dim.__name__, low, high, True, False,
                                    derived=dim))
            continue
        if named and (dim.__name__ in symbols or dim.__name__ in roots):
            shape[d] = _root_size(env, dim, symbols, roots)
            shifted = dim.__name__ in roots and roots[dim.__name__].shift  # (then its size is checked as derived)
            dims.append(_DynamicDim(f"{source}.size()[{d}]", shape[d].node.expr, dim.__name__, low, high, True, False,
                                    derived=_DerivedDim(dim, 1, 0) if shifted else None))
            continue
        symint = _new_symbol(env, hint, f"{source}.size()[{d}]", low, high)
        if not isinstance(symint, int):
            symbol = symint.node.expr
            shape[d] = symint
            if named:
                symbols[dim.__name__] = symint
            dims.append(_DynamicDim(f"{source}.size()[{d}]", symbol, dim.__name__ if named else f"{source}.size()[{d}]",
                                    low, high, named, not named and dim.type == _DimHintType.AUTO))
    strides = symbolic_strides(env, source, tensor.shape, shape, tensor.stride(), sizes_static=False)
    fake = FakeTensor._make(shape, tensor.dtype, strides, mode)
    fake._offset = tensor.storage_offset()
    fake._requires_grad = tensor.requires_grad
    return fake


def check_constraints(shape_env, dims):
    """After the trace: a named Dim or Dim.DYNAMIC the program pinned (the ShapeEnv's ConstraintViolationError, as
    mark_dynamic's), or a named Dim it narrowed, is torch's UserError; the others' narrowed ranges stand."""
    try:
        shape_env.check_constraints({dim.name: dim.symbol for dim in dims if not dim.may_specialize and
                                     dim.derived is None})
    except ConstraintViolationError as e:
        named = {dim.name: int(shape_env.simplify(dim.symbol)) for dim in dims if dim.named
                 and shape_env.simplify(dim.symbol).is_Integer}
        fixes = "".join(f"  {name} = {value}\n" for name, value in named.items())
        raise _user_error((str(e) + ("Suggested fixes:\n" + fixes if fixes else "")).rstrip("\n")) from None
    narrowed = {}
    for dim in [dim for dim in dims if dim.derived is None]:
        symbol = shape_env.simplify(dim.symbol)  # (an AUTO size the program pinned is no symbol now)
        low, high = shape_env.var_to_range.get(symbol, (0, _SIZE_MAX))
        if dim.named and (low > max(dim.min, 2) or (high < _SIZE_MAX and high < dim.max)):
            narrowed.setdefault(dim.name, (dim, low, high))
    if narrowed:
        lines, fixes = [], []
        for name, (dim, low, high) in narrowed.items():
            upper = "IntInfinity()" if high >= _SIZE_MAX else high
            lines.append(f"  - Not all values of {name} = {dim.source} in the specified range satisfy the generated "
                         f"guard {low} <= {dim.source} and {dim.source} <= {upper}\n")
            fixes.append(f"  {name} = {Dim(name, min=int(low), max=None if high >= _SIZE_MAX else int(high))!r}\n")
        raise _user_error(f"Constraints violated ({', '.join(narrowed)})! For more information, run with "
                          "TORCH_LOGS=\"+dynamic\".\n" + "".join(lines) + "Suggested fixes:\n"
                          + "".join(fixes).rstrip("\n"))


def sizes_read_after_placeholders(graph_module):
    """Each input size the graph reads (`sym_size.int(x, 0)`) read once, right after the placeholders, as torch's
    export places them (its runtime-assert pass makes a fresh node per symbol there, named `sym_size_int_1` beside
    the traced one, and routes the traced reads to it)."""
    from .. import ops  # (deferred: the op table is built after this package is imported)
    graph = graph_module.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    first_op = next(n for n in graph.nodes if n.op != "placeholder")
    made = {}
    for node in placeholders:
        for d, size in enumerate(getattr(node.meta.get("val"), "shape", ())):
            if hasattr(size, "node") and size.node.expr.is_Symbol and size.node.expr not in made:
                with graph.inserting_before(first_op):
                    made[size.node.expr] = graph.call_function(ops.aten.sym_size.int, (node, d))
                made[size.node.expr].meta["val"] = size
    for node in list(graph.nodes):
        val = node.meta.get("val")
        if node.op == "call_function" and node not in made.values() and hasattr(val, "node") and val.node.expr in made:
            node.replace_all_uses_with(made[val.node.expr])
            graph.erase_node(node)
    for node in made.values():
        if not node.users:
            graph.erase_node(node)
    graph_module.recompile()


def range_constraints(shape_env, dims):
    """{symbol: VR[low, high]} of the dims left symbolic, as torch's: the user's lower bound where the program did
    not raise it (a named Dim's 0), the ShapeEnv's narrowed bounds otherwise; a derived Dim's expression its own."""
    ranges = {}
    for dim in dims:
        if dim.derived is not None:
            ranges.setdefault(dim.symbol, ValueRanges(dim.derived.min, dim.derived.max))
            continue
        symbol = shape_env.simplify(dim.symbol)  # (a size found equal to an earlier one: that one's symbol)
        if symbol in ranges or not symbol.is_Symbol:
            continue
        low, high = shape_env.var_to_range[symbol]
        lower = int(low) if low > max(dim.min, 2) else dim.min
        ranges[symbol] = ValueRanges(lower, math.inf if high >= _SIZE_MAX else int(high))
    return ranges


def input_guards(shape_env, dims, user_leaves, sources):
    """[(check(flat user leaves), message)] that module() runs on each call, in the order of torch's guards
    function: each symbol's range (at its first input), the sizes that were never symbols, the sizes the program
    pinned, then each size equal to an earlier one (a shared Dim, or sizes the program found equal). A derived
    Dim's size has its range checked, and is checked with the sizes that were never symbols against its root's size
    (or, for a phantom root, the first size derived from it)."""
    symbol_of = {dim.source: dim.symbol for dim in dims}
    derived_of = {dim.source: dim.derived for dim in dims if dim.derived is not None}
    where = {f"{source}.size()[{d}]": (i, d, f"{_shadow(source)}.size()[{d}]")  # each input size's place and name
             for i, (leaf, source) in enumerate(zip(user_leaves, sources)) if isinstance(leaf, Tensor)
             for d in range(leaf.dim())}
    anchors = {}  # a root's symbol -> (where its value is read, a and b of that size over it)
    for dim in sorted(dims, key=lambda dim: dim.derived is not None):  # (a root's own size before derived ones)
        root = dim.symbol if dim.derived is None else next(iter(dim.symbol.free_symbols))
        if dim.source in where and root not in anchors:
            anchors[root] = (where[dim.source],) + ((1, 0) if dim.derived is None else (dim.derived.a, dim.derived.b))
    ranges, statics, pinned, equalities, first = [], [], [], [], {}
    for i, (leaf, source) in enumerate(zip(user_leaves, sources)):
        if not isinstance(leaf, Tensor):
            continue
        for d, size in enumerate(leaf.shape):
            text, symbol = where[f"{source}.size()[{d}]"][2], symbol_of.get(f"{source}.size()[{d}]")
            if f"{source}.size()[{d}]" in derived_of:
                derived = derived_of[f"{source}.size()[{d}]"]
                (j, e, anchor), a, b = anchors[next(iter(symbol.free_symbols))]
                ranges += _range_checks(i, d, text, derived.min, derived.max)
                if (j, e) == (i, d):  # a phantom root's first size: the root's value is read from it
                    continue
                if (a, b) == (1, 0):
                    statics.append((_linear_check(i, d, j, e, derived.a, derived.b),
                                    f"Guard failed: {text} == {_linear(derived.a, derived.b, anchor)}"))
                else:  # over the phantom root's first size: root = (that - b) / a
                    coefficient = fractions.Fraction(derived.a, a)
                    offset = derived.b - coefficient * b
                    statics.append((_linear_check(i, d, j, e, coefficient, offset),
                                    f"Guard failed: {_linear(coefficient, offset, anchor)} == {text}"))
                continue
            value = size if symbol is None else shape_env.simplify(symbol)
            solved = getattr(shape_env, "solved_from", {}).get(symbol)
            if solved is not None:  # pinned by an equality the ShapeEnv solved: torch's guard is that equality
                pinned.append((_solved_check(i, d, symbol, solved), "Guard failed: " + ast.unparse(ast.parse(
                    f"{solved.lhs} == {solved.rhs}".replace(str(symbol), text)))))
            elif not isinstance(value, sympy.Symbol):
                (statics if symbol is None else pinned).append(
                    (_size_check(i, d, "==", int(value)), f"Guard failed: {text} == {value}"))
            if not isinstance(value, sympy.Symbol):
                continue
            if value in first:
                j, e, other = first[value]
                equalities.append((_equal_check(i, d, j, e), f"Guard failed: {text} == {other}"))
                continue
            first[value] = (i, d, text)
            low, high = shape_env.var_to_range[value]
            ranges += _range_checks(i, d, text, int(low), math.inf if high >= _SIZE_MAX else int(high))
    return ranges + statics + pinned + equalities


def _shadow(source):
    """L['xs'][1] -> xs[1], as torch's guard messages name an input."""
    return source[3:].replace("']", "", 1)


def _range_checks(i, d, text, low, high):
    return ([(_size_check(i, d, ">=", low), f"Guard failed: {text} >= {low}")] if low > 2 else []) + (
        [(_size_check(i, d, "<=", high), f"Guard failed: {text} <= {high}")] if high != math.inf else [])


def _linear(coefficient, offset, text):
    """coefficient·text + offset as torch's guards print it: `-1 + 2 * x.size()[0]`, `3 / 5 * x.size()[0]`."""
    def number(q):
        q = fractions.Fraction(q)
        return str(q.numerator) if q.denominator == 1 else f"{q.numerator} / {q.denominator}"
    term = text if coefficient == 1 else f"{number(coefficient)} * {text}"
    return f"{number(offset)} + {term}" if offset else term


def _linear_check(i, d, j, e, coefficient, offset):
    return lambda leaves: leaves[i].shape[d] == coefficient * leaves[j].shape[e] + offset


def _size_check(i, d, op, value):
    compare = {"==": int.__eq__, ">=": int.__ge__, "<=": int.__le__}[op]
    return lambda leaves: compare(leaves[i].shape[d], value)


def _solved_check(i, d, symbol, equality):
    return lambda leaves: bool(equality.subs(symbol, leaves[i].shape[d]))


def _equal_check(i, d, j, e):
    return lambda leaves: leaves[i].shape[d] == leaves[j].shape[e]
