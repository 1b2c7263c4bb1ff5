"""The order of factors in a printed guard where a division is known exact, as torch prints it.

Runtime layer, called by ShapeEnv.produce_guards only. Where a guard `a % b == 0` is known, torch's ShapeEnv.simplify
rewrites `a // b` as CleanDiv(a, b): a FloorDiv of another class, which sympy orders before every FloorDiv in a
product. So torch prints `2*((3*s) // (2*(s // 2)))*(s // 2)` where sympy's order of the plain divisions is
`2*(s // 2)*((3*s) // (2*(s // 2)))`. Nothing but the printed text changes (no value, no decision): fidelity to
torch's guard text, outside the lesson.
"""
import sympy

from .symbolic_shapes import FloorDiv, Mod


class CleanDiv(FloorDiv):
    """`a // b` known to leave no remainder (torch's class of that name); it prints as any `//`."""

    def _sympystr(self, printer):  # (sympy's printers skip a base class's _print_ method for a renamed Function)
        return getattr(printer, "_print_FloorDiv", printer._print_Function)(self)


def exact_divisions_first(expr, guards):
    """expr with each `//` whose `%` is guarded 0 a CleanDiv (outermost first, as torch's xreplace), expanded."""
    exact = {q: CleanDiv(*q.args) for q in expr.atoms(FloorDiv) if sympy.Eq(Mod(*q.args), 0) in guards}
    return sympy.expand(expr.xreplace(exact)) if exact else expr
