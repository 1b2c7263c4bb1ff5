"""f-strings inside compiled frames: `f"fc{i}"`, `f"{scale:.2f}"`, `f"{name!r}"` of constants fold to a constant
string, as Dynamo folds them; formatting a tensor is a graph break (its value is not known while translating).

Frontend layer, coverage surface: a mixin of the InstructionTranslator. 3.11 and 3.12 spell a replacement field
FORMAT_VALUE (its arg: the conversion in the low two bits, 0x04 when a format spec is on the stack); 3.13 splits it
into CONVERT_VALUE, FORMAT_SIMPLE and FORMAT_WITH_SPEC. BUILD_STRING joins the pieces.
"""
from .variables import ConstantVariable

CONVERSIONS = {0: lambda v: v, 1: str, 2: repr, 3: ascii}


class StringOpcodesMixin:  # (self: an InstructionTranslatorBase)
    def _constant(self):
        return self.pop().realize().as_python_constant()  # (a tensor: Unsupported, a graph break)

    def FORMAT_VALUE(self, inst):
        spec = self._constant() if inst.arg & 0x04 else ""
        self.push(ConstantVariable(format(CONVERSIONS[inst.arg & 0x03](self._constant()), spec)))

    def CONVERT_VALUE(self, inst):
        self.push(ConstantVariable(CONVERSIONS[inst.arg](self._constant())))

    def FORMAT_SIMPLE(self, inst):
        self.push(ConstantVariable(format(self._constant())))

    def FORMAT_WITH_SPEC(self, inst):
        spec = self._constant()
        self.push(ConstantVariable(format(self._constant(), spec)))

    def BUILD_STRING(self, inst):
        self.push(ConstantVariable("".join(p.realize().as_python_constant() for p in self.popn(inst.arg))))
