"""PythonMod: the name torch's ShapeEnv gives a `%` whose operands are not both known non-negative.

Runtime layer, fidelity of forms (symbolic_shapes.py's SymNode makes one for `n % k` of an int input k; the graph
printer shows its name). torch writes `Mod(s77, 4)` where both sides are sizes and `PythonMod(s27, s16)` where a side
may be negative; ours computes both with Python's rounding (symbolic_shapes.Mod), so only the printed name differs.
"""
from .symbolic_shapes import Mod


class PythonMod(Mod):
    """A Mod printed under torch's name for a `%` of any signs (`PythonMod(s27, s16)`); the same value."""

    def _sympystr(self, printer):  # (sympy's printers skip a base class's _print_ method for a renamed Function)
        return getattr(printer, "_print_Mod", printer._print_Function)(self)


def mod_as_torch(shape_env):
    """`%` as torch names it: Mod where the ranges say both sides are non-negative, else PythonMod."""
    def mod(a, b):
        known_non_negative = all(e.is_nonnegative or shape_env.bounds(e)[0] >= 0 for e in (a, b))
        return (Mod if known_non_negative else PythonMod)(a, b)
    return mod
