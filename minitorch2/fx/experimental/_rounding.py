"""round(), math.ceil, math.floor and math.trunc of a float computed from sizes, kept symbolic as torch's ShapeEnv
keeps them: `math.ceil(n / 2)` of a size n is the SymInt `CeilToInt(n/2)`, one graph for every n, not n pinned.

Runtime layer, coverage surface (what user programs may do with a SymFloat): loaded with symbolic_shapes.py (by
_float_forms.py; no SymFloat exists before it), it gives SymFloat its __round__, __ceil__, __floor__ and __trunc__,
traced as minitorch2/_sym.py's operators are. Each function below is a sympy integer that evaluates as Python does
once its argument is a number (round: half to even) and prints as the Python that computes it, so a guard on it
(`math.ceil(L['x'].size()[0]/2) <= 4`) runs as written, and the inductor's output code computes it.
"""
import math

import sympy

from minitorch2._sym import SymFloat, _traced


def _rounding_function(name, python_fn, text):
    def eval(cls, number):
        return sympy.Integer(python_fn(float(number))) if number.is_Number else None

    def _sympystr(self, printer):
        return f"{text}({printer._print(self.args[0])})"
    return type(name, (sympy.Function,), {"is_integer": True, "eval": classmethod(eval), "_sympystr": _sympystr})


RoundToInt = _rounding_function("RoundToInt", round, "round")
CeilToInt = _rounding_function("CeilToInt", math.ceil, "math.ceil")
FloorToInt = _rounding_function("FloorToInt", math.floor, "math.floor")
TruncToInt = _rounding_function("TruncToInt", math.trunc, "math.trunc")
_INTEGER_FORMS = {round: RoundToInt, math.ceil: CeilToInt, math.floor: FloorToInt, math.trunc: TruncToInt}


class RoundDecimal(sympy.Function):
    """round(x, ndigits): a float, as Python's (torch's RoundDecimal)."""
    is_real = True

    @classmethod
    def eval(cls, number, ndigits):
        return sympy.Float(round(float(number), int(ndigits))) if number.is_Number else None

    def _sympystr(self, printer):
        return f"round({printer._print(self.args[0])}, {self.args[1]})"


def rounded(node, fn, ndigits=None):
    """fn (round, math.ceil, math.floor or math.trunc) of a SymFloat's node: a SymInt, or with ndigits a SymFloat."""
    hint = None if node.hint is None else fn(node.hint) if ndigits is None else round(node.hint, ndigits)
    if ndigits is not None:
        return node.shape_env.wrap(RoundDecimal(node.expr, ndigits), float, hint)
    return node.shape_env.wrap(_INTEGER_FORMS[fn](node.expr), int, hint)


def _rounding_method(fn):
    def method(self, *ndigits):
        return _traced(fn, (self, *ndigits), rounded(self.node, fn, *ndigits))
    method.__name__ = f"__{fn.__name__}__"
    return method


for _fn in (round, math.ceil, math.floor, math.trunc):
    setattr(SymFloat, f"__{_fn.__name__}__", _rounding_method(_fn))
