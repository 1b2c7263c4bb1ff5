"""f-strings inside compiled frames: `f"fc{i}"`, `f"{scale:.2f}"`, `f"{name!r}"` of constants fold to a constant
string, as Dynamo folds them; formatting a tensor is a graph break (its value is not known while translating); a
user object's own __str__ or __repr__ is inlined where a conversion asks for it (`f"{obj!s}"`, `f"{obj!r}"`), and
`f"{obj}"` stays str.format's call, made at run time (Dynamo's StringFormatVariable: FormattedString below). In a
frame run eagerly (eager_frame.py), an f-string's own call of __str__ or __repr__ is routed as a call is
(routed_format), so that its frame compiles, as Dynamo's callback sees it.

Frontend layer, coverage surface: a mixin of the InstructionTranslator. 3.11 and 3.12 spell a replacement field
FORMAT_VALUE (its arg: the conversion in the low two bits, 0x04 when a format spec is on the stack); 3.13 splits it
into CONVERT_VALUE, FORMAT_SIMPLE and FORMAT_WITH_SPEC. BUILD_STRING joins the pieces.
"""
import types

from . import eager_frame
from .exc import Unsupported
from .variables import ConstantVariable
from .variables.base import VariableTracker
from .variables.exceptions import ExceptionVariable, raise_observed
from .variables.lists import SizeVariable
from .variables.sym_node import SymNodeVariable
from .variables.user_defined import UserObjectVariable

CONVERSIONS = {0: lambda v: v, 1: str, 2: repr, 3: ascii}


class FormattedString(VariableTracker):
    """`f"{obj}"` of a user object, as Dynamo keeps it: `format_string.format(*args)` made at run time, args the
    trackers of the replacement fields (constants joined to it become fields too). Compared or measured it is
    not a constant: `==` is a graph break, and len() raises TypeError in the traced program, as Dynamo's (its
    StringFormatVariable has no length), so that a frame not catching it runs eagerly."""

    def __init__(self, format_string, args):
        super().__init__()
        self.format_string, self.args = format_string, args

    def python_type(self):
        return str

    def length(self):
        raise_observed(TypeError, ["object of type 'str' has no len()"], "len() of an f-string kept for run time")

    def call_method(self, tx, name, args, kwargs):  # (`s.upper()`: a break at the call, as Dynamo's)
        raise Unsupported(f"str.{name} of an f-string kept for run time", "unsupported_call")

    def output_plan(self, og):
        plans, text = [a.output_plan(og) for a in self.args], self.format_string
        return lambda outs, L, G: text.format(*(p(outs, L, G) for p in plans))

    def build(self, cg):
        cg.call_const(self.format_string.format, self.args)

    def __repr__(self):
        return f"FormattedString({self.format_string!r}, {self.args})"


def _user_text(tx, var, conversion):
    """`f"{obj!s}"`, `f"{obj!r}"` of a user object whose class defines __str__ or __repr__: the method inlined, as
    Dynamo's (a break inside it is a break at the f-string, where Dynamo goes back to its checkpoint); None when the
    object is not such a user object."""
    if not isinstance(var, UserObjectVariable) or conversion in (0, 3):
        return None
    for name in ("__repr__",) if conversion == 2 else ("__str__", "__repr__"):
        if var.has_dunder(name):
            return var.call_dunder(tx, name, []).realize().as_python_constant()
    return None


def formatted_at_run_time(var):
    """A size symbol, or `x.shape` with one: `"{}".format(n)`, `f"{x.shape}"` are formatted at run time, as Dynamo's
    (an f-string of a size symbol alone pins it, as Dynamo's)."""
    return isinstance(var, SymNodeVariable) or isinstance(var, SizeVariable) and any(
        isinstance(i.realize(), SymNodeVariable) for i in var.items)


def run_time_format(template, args):
    """`template.format(*args)` kept for run time where an argument is a size (constant.py's str.format), else None."""
    return FormattedString(template, args) if any(map(formatted_at_run_time, args)) else None


class StringOpcodesMixin:  # (self: an InstructionTranslatorBase)
    def _constant(self):
        return self.pop().realize().as_python_constant()  # (a tensor: Unsupported, a graph break)

    def FORMAT_VALUE(self, inst):
        spec = self._constant() if inst.arg & 0x04 else ""
        value = self.pop().realize()
        if isinstance(value, ExceptionVariable) and inst.arg & 0x03 == 0:  # (Dynamo's: only `{e!s}`, `{e!r}`)
            raise Unsupported(f"formatting {value} in an f-string", "unsupported")
        if (isinstance(value, UserObjectVariable) or isinstance(value, SizeVariable) and formatted_at_run_time(value)) \
                and inst.arg & 0x03 == 0:
            return self.push(FormattedString("{:" + spec + "}", [value]))  # `f"{obj}"`: str.format at run time
        text = None if spec else _user_text(self, value, inst.arg & 0x03)
        if text is None:
            text = format(CONVERSIONS[inst.arg & 0x03](value.as_python_constant()), spec)  # (a tensor: a break)
        self.push(ConstantVariable(text))

    def CONVERT_VALUE(self, inst):
        self.push(ConstantVariable(CONVERSIONS[inst.arg](self._constant())))

    def FORMAT_SIMPLE(self, inst):
        self.push(ConstantVariable(format(self._constant())))

    def FORMAT_WITH_SPEC(self, inst):
        spec = self._constant()
        self.push(ConstantVariable(format(self._constant(), spec)))

    def BUILD_STRING(self, inst):
        parts = [p.realize() for p in self.popn(inst.arg)]
        if not any(isinstance(p, FormattedString) for p in parts):
            return self.push(ConstantVariable("".join(p.as_python_constant() for p in parts)))
        fields = [p if isinstance(p, FormattedString) else FormattedString("{}", [p]) for p in parts]
        self.push(FormattedString("".join(f.format_string for f in fields), [a for f in fields for a in f.args]))


def routed_format(flags):
    """The (opname, arg) pairs that replace `FORMAT_VALUE flags` in a routed frame: its operands (the value, and the
    spec if flags say so) made a tuple, and a RoutedFormat called on it in the method form, as routed calls are."""
    return [("BUILD_TUPLE", 2 if flags & 0x04 else 1), ("LOAD_CONST", eager_frame.NO_SELF),
            ("LOAD_CONST", RoutedFormat(flags & 0x03)), ("SWAP", 3), *eager_frame.pyversion.call_instructions(1, ())]


class RoutedFormat:
    """format(value, spec) after the conversion, a user class's own __str__ or __repr__ called through a RoutedCall."""

    def __init__(self, conversion):
        self.conversion = conversion

    def __call__(self, _no_self, operands):
        value, spec = (*operands, "")[:2]
        own = type(value).__format__ is object.__format__ and not spec or self.conversion in (1, 2)
        for name in ("__repr__",) if self.conversion == 2 else ("__str__", "__repr__"):
            if own and self.conversion != 3 and isinstance(getattr(type(value), name, None), types.FunctionType):
                return format(eager_frame.RoutedCall(())(getattr(value, name), eager_frame.NO_SELF, ()), spec)
        return format(CONVERSIONS[self.conversion](value), spec)
