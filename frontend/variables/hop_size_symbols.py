"""The size symbols of a higher-order op's bodies under dynamic shapes, as Dynamo's subgraph tracer handles them.

Frontend layer, called by higher_order.py while it captures an autograd.Function (fwd_body / bwd_body). Two rules:

    a tensor lifted into a body brings the symbols of its sizes first:  forward(self, s77, s27, l_x_), and the
        call passes them too (`autograd_function_apply(fwd_body_0, bwd_body_0, s77, s27, l_x_, ...)`);
    a tensor made fresh in a body (the backward's incoming gradient `g`) binds the symbols of its sizes no input
        binds yet: `sym_size_int = torch.ops.aten.sym_size.int(g, 0)`, which `x.shape[0]` then reads.

A size input of the frame that the call passes to its bodies stays an input, as Dynamo's, though a guard made its
symbol another's (`forward(self, s77: "Sym(s17)", L_x_, s17: "Sym(s17)", L_y_)`).

Nodes a body never uses that only read a size (the getitems of `size = l_x_.size()`, an unused `sym_size.int`) are
left out of it, as Dynamo's bodies leave them; the `size` node itself stays, as theirs.
"""
import contextlib
import operator

from minitorch2._higher_order import autograd_function_apply
from minitorch2._ops import ops
from minitorch2._sym import is_symbolic

from .sym_node import SymNodeVariable


def _symbols(node, simplify=None):
    """The plain symbols of the sizes of node's value (a tensor's), in dim order (`simplify`: after its replacements)."""
    shape = getattr(node.meta.get("example_value"), "shape", ())
    exprs = [size.node.expr if simplify is None else simplify(size.node.expr) for size in shape if is_symbolic(size)]
    return [expr for expr in exprs if expr.is_Symbol]


def with_size_symbols(og, nodes, gradients=None):
    """nodes (a body's inputs, nodes of the frame's graph), each preceded by the frame's graph input of every symbol
    of its sizes not already among them. The backward's (`gradients`: its incoming gradients' stand-ins) start with
    the symbols of the gradients' sizes, which Dynamo lifts as it makes each gradient's placeholder. The symbols as
    they stood when Dynamo lifted the tensor: the forward's before the guards its trace added (`sin * l_y_` making
    s77 s17), the backward's after them."""
    result, simplify = [], None if gradients is None else og.shape_env.simplify
    for node in [*(gradients or ()), *nodes]:
        for symbol in _symbols(node, simplify):
            bound = og.size_vars.get(symbol)
            if bound is not None and bound.proxy.node.op == "placeholder" and bound.proxy.node not in result:
                result.append(bound.proxy.node)
        if node not in result and node not in (gradients or ()):
            result.append(node)
    return result


@contextlib.contextmanager
def bound_by(og, tensor_vars):
    """While a body is traced: each symbol of the sizes of `tensor_vars` (fresh inputs of that body) reads as a
    `sym_size.int` of the first of them that has it."""
    saved = dict(og.size_vars)
    try:
        for var in tensor_vars:
            for dim, size in enumerate(var.example_value.shape):
                symbol = size.node.expr if is_symbolic(size) else None
                if symbol is not None and symbol.is_Symbol and og.size_vars.get(symbol) is saved.get(symbol):
                    proxy = og.create_proxy("call_function", ops.aten.sym_size.int, (var.proxy.node, dim), {}, size,
                                            speculative=True)
                    og.size_vars[symbol] = SymNodeVariable(proxy, size)
        yield
    finally:
        og.size_vars.clear()
        og.size_vars.update(saved)


def left_out(node):
    """A node a body leaves out: a size read nothing uses."""
    return (node.meta.get("frontend_speculative") and not node.users
            and node.target in (operator.getitem, ops.aten.sym_size.int))


def passed_to_a_body(node):
    """A size input of the frame's graph that a higher-order op's call passes on (output_graph.py keeps it)."""
    return any(user.target is autograd_function_apply for user in node.users)
