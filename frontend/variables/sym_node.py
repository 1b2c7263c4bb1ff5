"""SymNodeVariable: a symbolic size in the graph being built (Dynamo's SymNodeVariable).

Frontend layer. With dynamic shapes a tensor input's size is a symbol: `x.shape[0]` is the graph input `s77`, and
Python arithmetic on it (`x.shape[0] // 2`) is a node (`floordiv = s77 // 2`) whose example value is the SymInt
it computes. A Python decision on it (`if x.shape[0] > 2:`) is answered by the ShapeEnv from the example value and
becomes a guard; where the translator needs a plain Python value (`range(n)`), the size specialises (`int(n)`, a
guard that n equals its value).
"""
import operator

import minitorch2
from minitorch2._sym import SymBool, SymFloat, is_symbolic

from .. import size_nodes
from ..source import TensorSizeSource
from .base import VariableTracker
from .constant import ConstantVariable


class SymNodeVariable(VariableTracker):
    def __init__(self, proxy, value, source=None):
        super().__init__(source)
        self.proxy, self.value = proxy, value

    def python_type(self):
        return bool if isinstance(self.value, (bool, SymBool)) else \
            type(self.value.node.hint) if is_symbolic(self.value) else type(self.value)

    def truth(self, tx):
        return bool(self.value)

    def as_python_constant(self):
        """The value as a plain Python number: specialised, with the guard that it stays this value."""
        return {SymBool: bool, SymFloat: float}.get(type(self.value), int)(self.value)

    def output_plan(self, og):
        """A returned number: an int or float argument read from its source, else a graph output (a tensor's size; a
        float read back by .item()), as Dynamo's; a bool, or a size pinned, is a constant."""
        if self.source is not None and not isinstance(self.source, TensorSizeSource):
            return super().output_plan(og)
        if isinstance(self.value, SymBool) or not is_symbolic(self.value):
            value = self.as_python_constant()
            return lambda outs, L, G: value
        index, read_back = og.add_output(self._as_output(og)), isinstance(self.value, SymFloat)
        return lambda outs, L, G: outs[index].item() if read_back else outs[index]

    def _as_output(self, og):
        """What the graph returns for it: a size itself; a float, as Dynamo's, a 0-d float64 tensor made of it."""
        if not isinstance(self.value, SymFloat):
            return self
        from .tensor import record  # (tensor.py imports this module)
        float64 = ConstantVariable(minitorch2.float64)
        return record(og, "call_function", minitorch2.scalar_tensor, [self], {"dtype": float64})

    def reconstruct(self, cg):
        if self.source is not None:  # a size input: read again from its tensor, symbolic as it was
            cg.load_source(self.source)
        elif is_symbolic(self.value) and not isinstance(self.value, SymBool):  # computed: a graph output, as Dynamo's
            cg.load_graph_output(cg.output.add_output(self._as_output(cg.output)))
            if isinstance(self.value, SymFloat):
                cg.append("LOAD_METHOD", "item")
                cg.call(0)
        else:
            cg.append("LOAD_CONST", self.as_python_constant())

    def __repr__(self):
        return f"SymNodeVariable({self.proxy.node.name}, {self.value})"


class SliceVariable(VariableTracker):
    """A slice with a symbolic bound (`x[:, :T]` where T is a size): a slice of nodes in the graph."""

    def __init__(self, parts):
        super().__init__()
        self.parts = parts

    def as_python_constant(self):
        return slice(*[p.as_python_constant() for p in self.parts])


def sym_arithmetic(og, fn, args, kind="call_function", target=None):
    """fn (an operator) over sizes and constants: a node (calling `target`, else fn) and its value, even where that is
    a number (`s77 - s77`, Dynamo's Sym(0), stays a node its users read; an expression computed again is the first
    node's, at the end: size_nodes.py)."""
    result = size_nodes.as_sym_number(fn(*[og.as_arg(a, fake=True) for a in args]), og.shape_env)
    return SymNodeVariable(og.create_proxy(kind, target or fn, [og.as_arg(a) for a in args], {}, result, True), result)


SYMBOLIC_OPERATORS = {operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod, operator.truediv,
                      operator.pow, operator.neg, operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                      operator.ge, operator.iadd, operator.isub, operator.imul, operator.ifloordiv, operator.imod}
