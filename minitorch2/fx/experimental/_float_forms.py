"""ToFloat and FloatTrueDiv: float expressions over sizes kept in the form torch's ShapeEnv writes them.

Runtime layer, fidelity of forms (symbolic_shapes.py's SymNode builds them; the guard printer and tensorify read
them). `n / 2.0` of a size n is `FloatTrueDiv(ToFloat(s86), 2.0)`, not sympy's `0.5*s86`, so a guard prints as
torch's `torch.sym_float(L['n']) / 2.0` and tensorify_python_scalars emits the true_divide torch's does. No value and
no decision depends on the form: sympy evaluates both as soon as their arguments are numbers.
"""
import sympy

from . import _rounding  # noqa: F401 (loaded with the float forms: SymFloat's round(), math.ceil, math.floor)


class ToFloat(sympy.Function):
    """float(n) of an int expression, kept as written (torch's): `n * 0.5` is `0.5*ToFloat(s86)`."""
    is_real = True

    @classmethod
    def eval(cls, number):
        return sympy.Float(int(number)) if number.is_Integer else None


class FloatTrueDiv(sympy.Function):
    """a / b of floats, kept as written (torch's): `n / 2.0` is `FloatTrueDiv(ToFloat(s86), 2.0)`, not `0.5*s86`."""
    is_real = True
    precedence = 35  # an Add's and a comparison's: either parenthesises it, as PyTorch prints it

    @classmethod
    def eval(cls, base, divisor):
        return sympy.Float(float(base) / float(divisor)) if base.is_Number and divisor.is_Number else None
