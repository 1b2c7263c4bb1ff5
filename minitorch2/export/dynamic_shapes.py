"""Dynamic shapes for torch.export: `Dim`, the `dynamic_shapes=` argument, range constraints and input guards.

torch.export layer (coverage surface), used by _trace.py before the trace and by ExportedProgram after it.
`dynamic_shapes` says, per user input (a dict by argument name, or a tuple/list by position, nested as the
inputs are), which dims are symbols:

    Dim("batch", min=2, max=64)   a named dim: one symbol wherever the same Dim is used; the program may
                                  neither pin it to a constant nor narrow its range (UserError)
    Dim.DYNAMIC                   a symbol the program may narrow but not pin;  Dim.DYNAMIC(min=, max=) too
    Dim.AUTO                      a symbol the program may narrow or pin (then static)
    Dim.STATIC, an int, None      static at the example's size

The user inputs are faked here with the compiler's ShapeEnv (its symbols named from `L['x'].size()[0]`, as
torch's, so x's batch is s77), and traced by make_fx as they are. Afterwards the ShapeEnv's ranges give
`range_constraints` ({s77: VR[2, 64]}) and the checks ep.module() runs on each call's inputs: a range, a
static size, or two inputs sharing one symbol, failing with torch's AssertionError("Guard failed: ...").
"""
import ast
import dataclasses
import enum
import math

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


class Dim:
    """A named dynamic dim: a size in [min, max] (0 and unbounded by default)."""
    AUTO = _DimHint(_DimHintType.AUTO)
    DYNAMIC = _DimHint(_DimHintType.DYNAMIC)
    STATIC = _DimHint(_DimHintType.STATIC)

    def __init__(self, name, *, min=None, max=None):
        low, high = 0 if min is None else min, math.inf if max is None else max
        if not high > low:
            raise AssertionError(f"Cannot create Dim with inconsistent min={min}, max={max}")
        if not name.isidentifier():
            raise AssertionError(f"Dim name must be a valid identifier, got {name}")
        self.__name__, self.min, self.max = name, low, high

    def __repr__(self):
        bounds = ([f"min={self.min}"] if self.min != 2 else []) + ([f"max={self.max}"] if self.max != math.inf else [])
        return f"Dim({', '.join([repr(self.__name__), *bounds])})"


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
        if set(dynamic_shapes) - set(names):
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
    dims, symbols = [], {}  # symbols: id(Dim) -> its SymInt, shared by every dim it names
    leaves, sources = [], []
    names = arg_names[:len(args)] + list(kwargs)
    for name, value, spec in zip(names, [*args, *kwargs.values()], _per_argument(args, kwargs, dynamic_shapes,
                                                                                  arg_names)):
        _fake_tree(mode, f"L['{name}']", value, spec, dims, symbols, leaves, sources)
    return leaves, sources, mode.shape_env, dims


def _fake_tree(mode, source, value, spec, dims, symbols, leaves, sources):
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _fake_tree(mode, f"{source}[{i}]", item, spec[i] if spec is not None else None, dims, symbols, leaves,
                       sources)
    elif isinstance(value, dict):
        for key, item in value.items():
            _fake_tree(mode, f"{source}[{key!r}]", item, spec.get(key) if spec is not None else None, dims,
                       symbols, leaves, sources)
    else:
        leaves.append(_fake_tensor(mode, source, value, spec, dims, symbols) if isinstance(value, Tensor) and spec
                      else value)
        sources.append(source)


def _fake_tensor(mode, source, tensor, spec, dims, symbols):
    """tensor's fake, the dims `spec` ({dim: Dim or hint}, or a list by dim) makes dynamic a symbol each."""
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
        if named and id(dim) in symbols:
            shape[d] = symbols[id(dim)]
            dims.append(dataclasses.replace(next(x for x in dims if x.name == dim.__name__), source=f"{source}.size()"
                                            f"[{d}]"))
            continue
        symint = env.create_symbol(hint, f"{source}.size()[{d}]", duck=False)
        if not isinstance(symint, int):
            symbol = symint.node.expr
            env.var_to_range[symbol] = [sympy.Integer(max(low, 2)), sympy.Integer(high) if high != math.inf
                                        else _SIZE_MAX]
            shape[d] = symint
            if named:
                symbols[id(dim)] = symint
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
        shape_env.check_constraints({dim.symbol: dim.name for dim in dims if not dim.may_specialize})
    except ConstraintViolationError as e:
        named = {dim.name: int(shape_env.simplify(dim.symbol)) for dim in dims if dim.named
                 and shape_env.simplify(dim.symbol).is_Integer}
        fixes = "".join(f"  {name} = {value}\n" for name, value in named.items())
        raise _user_error((str(e) + ("Suggested fixes:\n" + fixes if fixes else "")).rstrip("\n")) from None
    narrowed = {}
    for dim in dims:
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
    not raise it (a named Dim's 0), the ShapeEnv's narrowed bounds otherwise."""
    ranges = {}
    for dim in dims:
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
    pinned, then each size equal to an earlier one (a shared Dim, or sizes the program found equal)."""
    symbol_of = {dim.source: dim.symbol for dim in dims}
    ranges, statics, pinned, equalities, first = [], [], [], [], {}
    for i, (leaf, source) in enumerate(zip(user_leaves, sources)):
        if not isinstance(leaf, Tensor):
            continue
        shadow = source[3:].replace("']", "", 1)  # L['xs'][1] -> xs[1], as torch's messages name it
        for d, size in enumerate(leaf.shape):
            text, symbol = f"{shadow}.size()[{d}]", symbol_of.get(f"{source}.size()[{d}]")
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
            if low > 2:
                ranges.append((_size_check(i, d, ">=", int(low)), f"Guard failed: {text} >= {low}"))
            if high < _SIZE_MAX:
                ranges.append((_size_check(i, d, "<=", int(high)), f"Guard failed: {text} <= {high}"))
    return ranges + statics + pinned + equalities


def _size_check(i, d, op, value):
    compare = {"==": int.__eq__, ">=": int.__ge__, "<=": int.__le__}[op]
    return lambda leaves: compare(leaves[i].shape[d], value)


def _solved_check(i, d, symbol, equality):
    return lambda leaves: bool(equality.subs(symbol, leaves[i].shape[d]))


def _equal_check(i, d, j, e):
    return lambda leaves: leaves[i].shape[d] == leaves[j].shape[e]
