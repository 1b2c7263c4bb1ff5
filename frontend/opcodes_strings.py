"""f-strings inside compiled frames: `f"fc{i}"`, `f"{scale:.2f}"`, `f"{name!r}"` of constants fold to a constant
string, as Dynamo folds them; formatting a tensor is a graph break (its value is not known while translating); a
user object's own __str__ or __repr__ is inlined.

Frontend layer, coverage surface: a mixin of the InstructionTranslator. 3.11 and 3.12 spell a replacement field
FORMAT_VALUE (its arg: the conversion in the low two bits, 0x04 when a format spec is on the stack); 3.13 splits it
into CONVERT_VALUE, FORMAT_SIMPLE and FORMAT_WITH_SPEC. BUILD_STRING joins the pieces.
"""
from .variables import ConstantVariable
from .variables.user_defined import UserObjectVariable

CONVERSIONS = {0: lambda v: v, 1: str, 2: repr, 3: ascii}


def _user_text(tx, var, conversion):
    """`f"{obj}"`, `f"{obj!r}"` of a user object whose class defines __str__ or __repr__: the method inlined, as
    Dynamo's (a break inside it is a break at the f-string, where Dynamo goes back to its checkpoint); None when the
    object is not such a user object or has its own __format__."""
    if not isinstance(var, UserObjectVariable) or conversion == 3 or conversion == 0 and var.has_dunder("__format__"):
        return None
    for name in ("__repr__",) if conversion == 2 else ("__str__", "__repr__"):
        if var.has_dunder(name):
            return var.call_dunder(tx, name, []).realize().as_python_constant()
    return None


class StringOpcodesMixin:  # (self: an InstructionTranslatorBase)
    def _constant(self):
        return self.pop().realize().as_python_constant()  # (a tensor: Unsupported, a graph break)

    def FORMAT_VALUE(self, inst):
        spec = self._constant() if inst.arg & 0x04 else ""
        value = self.pop().realize()
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
        self.push(ConstantVariable("".join(p.realize().as_python_constant() for p in self.popn(inst.arg))))
