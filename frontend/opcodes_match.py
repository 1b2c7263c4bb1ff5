"""The match statement inside compiled frames: a mixin of the InstructionTranslator.

Frontend layer, coverage surface. `match subject:` compiles to tests that leave the subject on the stack:
MATCH_SEQUENCE and MATCH_MAPPING push whether it is a sequence (not a str or bytes) or a mapping; GET_LEN pushes
its len(); MATCH_KEYS pushes the values of a mapping pattern's keys (None if one is missing); MATCH_CLASS pops the
subject, the class and the keyword names and pushes the attributes a class pattern binds (None if it does not
match). Each is answered from what the translator knows of the subject: a list, tuple, dict, constant, tensor or
user object; anything else is a graph break.
"""
import collections.abc
import operator

from .exc import Unsupported
from .variables import BaseListVariable, BuiltinVariable, ConstantVariable, DictVariable, TensorVariable, TupleVariable
from .variables.dicts import constant_key

# classes whose positional pattern `int(x)` binds the subject itself (PEP 634)
SELF_MATCHING = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple)


def _is_a(var, abc):
    """Whether the tracked value is a collections.abc.Sequence / Mapping, as the match statement asks."""
    var = var.realize()
    if isinstance(var, (BaseListVariable, DictVariable, TensorVariable)):
        return isinstance(var, DictVariable) == (abc is collections.abc.Mapping) and not isinstance(var, TensorVariable)
    if var.is_python_constant():
        value = var.as_python_constant()
        return isinstance(value, abc) and not isinstance(value, (str, bytes, bytearray))
    raise Unsupported(f"a match pattern on {var}", "unsupported")


class MatchOpcodesMixin:  # (self: an InstructionTranslatorBase)
    def MATCH_SEQUENCE(self, inst):
        self.push(ConstantVariable(_is_a(self.stack[-1], collections.abc.Sequence)))

    def MATCH_MAPPING(self, inst):
        self.push(ConstantVariable(_is_a(self.stack[-1], collections.abc.Mapping)))

    def GET_LEN(self, inst):
        self.push(BuiltinVariable(len).call_function(self, [self.stack[-1]], {}))

    def MATCH_KEYS(self, inst):
        subject, keys = self.stack[-2].realize(), self.stack[-1].as_python_constant()
        if not isinstance(subject, DictVariable):
            raise Unsupported(f"a mapping pattern on {subject}", "unsupported")
        if not all(constant_key(ConstantVariable(k)) in subject.items for k in keys):
            return self.push(ConstantVariable(None))
        getitem = BuiltinVariable(operator.getitem)
        self.push(TupleVariable([getitem.call_function(self, [subject, ConstantVariable(k)], {}) for k in keys]))

    def MATCH_CLASS(self, inst):
        subject, cls_var, names = self.stack[-3], self.stack[-2].realize(), self.stack[-1].as_python_constant()
        del self.stack[-3:]
        if not BuiltinVariable(isinstance).call_function(self, [subject, cls_var], {}).as_python_constant():
            return self.push(ConstantVariable(None))
        cls = cls_var.as_python_constant()
        if inst.arg and cls in SELF_MATCHING:
            return self.push(TupleVariable([subject]))
        positional = getattr(cls, "__match_args__", ())
        if len(positional) < inst.arg:
            raise Unsupported(f"{cls.__name__}() accepts {len(positional)} positional sub-patterns", "unsupported")
        attrs = [*positional[:inst.arg], *names]
        if not all(BuiltinVariable(hasattr).call_function(self, [subject, ConstantVariable(a)], {}).as_python_constant()
                   for a in attrs):
            return self.push(ConstantVariable(None))
        self.push(TupleVariable([subject.realize().var_getattr(self, a) for a in attrs]))
