"""The frontend's last pass over the sizes its graph computes, as Dynamo's (the part of torch's runtime-assert
pass that hash-conses size expressions; this frontend has no deferred asserts to insert).

Frontend layer, run when a graph closes (output_graph.py). With dynamic shapes every size read or computed while
tracing is a node whose value is a SymInt. Afterwards, as in Dynamo's graphs:
- a node computing an expression some earlier node computes is that node: `B = x.shape[0]` is the input `s77`;
- a size read off an intermediate tensor is rebuilt from the inputs' sizes, so the graph no longer reads the tensor:
  the width of `F.pad(x, (0, 3))` is `torch.sym_sum([3, s27])`, the length of `x.view(-1)` is `s27 * s77`;
- a size now a plain number stays the node that read it (`getitem_2: "Sym(8)"` for a width a Linear pinned to 8).
"""
import operator

import sympy

import minitorch2
from minitorch2 import fx
from minitorch2._sym import SymFloat, SymInt, is_symbolic
from minitorch2.fx.experimental.symbolic_shapes import FloorDiv, Mod, PythonMod, SymNode

_BINARY = {sympy.Mul: operator.mul, FloorDiv: operator.floordiv, Mod: operator.mod, PythonMod: operator.mod,
           sympy.Max: minitorch2.sym_max, sympy.Min: minitorch2.sym_min}


def reuse_and_rebuild_sizes(graph, shape_env):
    known = {}  # expression -> the first node computing it
    for node in list(graph.nodes):
        value = node.meta.get("example_value")
        if not is_symbolic(value) or (expr := shape_env.simplify(value.node.expr)).is_number:
            continue
        if node.op != "placeholder":
            if expr not in known and _reads_an_intermediate(node) and _buildable(expr, known):
                with graph.inserting_before(node):
                    _build(graph, expr, known, node.meta.get("stack_trace"))
            if expr in known:
                node.replace_all_uses_with(known[expr])
                graph.erase_node(node)
                continue
        known.setdefault(expr, node)


def _reads_an_intermediate(node):
    return any(isinstance(a, fx.Node) and a.op != "placeholder"
               and isinstance(a.meta.get("example_value"), (minitorch2.Tensor, minitorch2.Size)) for a in node.args)


def _buildable(expr, known):
    return expr in known or expr.is_Integer or (
        (isinstance(expr, sympy.Add) and expr.is_integer or type(expr) in _BINARY)
        and all(_buildable(a, known) for a in expr.args))


def _build(graph, expr, known, stack_trace):
    """The node computing expr from known ones, made as Dynamo makes it: an integer sum is one
    `torch.sym_sum([...])`, a product or a max a chain of binary operations over sympy's arguments in order."""
    if expr in known or expr.is_Integer:
        return known[expr] if expr in known else int(expr)
    args = [_build(graph, a, known, stack_trace) for a in expr.args]
    if isinstance(expr, sympy.Add):
        node = _call(graph, minitorch2.sym_sum, [args], stack_trace)
    else:
        node = args[0]
        for arg in args[1:]:
            node = _call(graph, _BINARY[type(expr)], [node, arg], stack_trace)
    known[expr] = node
    return node


def _call(graph, fn, operands, stack_trace):
    node = graph.call_function(fn, tuple(operands))
    node.meta.update(stack_trace=stack_trace, example_value=fn(*[_value(o) for o in operands]))
    return node


def _value(operand):
    if isinstance(operand, list):
        return [_value(o) for o in operand]
    return operand.meta["example_value"] if isinstance(operand, fx.Node) else operand


def as_sym_number(value, shape_env):
    """A number computed from a size a guard pinned (`C // 2` of a width pinned to 8) stays a Sym*, as Dynamo's
    (`floordiv: "Sym(4)"`); other values are themselves."""
    if type(value) not in (int, float):
        return value
    return {int: SymInt, float: SymFloat}[type(value)](SymNode(sympy.sympify(value), shape_env, type(value), value))
