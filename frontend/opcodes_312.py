"""Handlers for the opcodes that only Python 3.12 and 3.13 have: a mixin of the InstructionTranslator.

Frontend layer, kept apart so the 3.11 handlers in `symbolic_convert.py` read without version forks. 3.12 folds
LOAD_METHOD into LOAD_ATTR, drops PRECALL, inlines comprehensions (LOAD_FAST_AND_CLEAR) and adds RETURN_CONST,
END_FOR, CALL_INTRINSIC_1 and BINARY/STORE_SLICE; 3.13 puts a call's NULL ABOVE the callable, takes keyword names
from the stack (CALL_KW), adds TO_BOOL, LOAD_FAST_LOAD_FAST and friends, and SET_FUNCTION_ATTRIBUTE. The one idea
to hold: each new opcode is written in terms of the 3.11 handlers it replaces (a LOAD_ATTR with the method bit IS a
LOAD_METHOD; BINARY_SLICE is BUILD_SLICE then BINARY_SUBSCR): one model of each operation.
"""
from types import SimpleNamespace

from . import pyversion
from .exc import Unsupported
from .variables import ConstantVariable, NullVariable, user_protocols


class Py312OpcodesMixin:  # (self: an InstructionTranslatorBase)
    # ---- the call convention ----------------------------------------------------------------

    def CALL_KW(self, inst):
        """3.13: [fn, NULL|self, args..., kw_names tuple]; the 3.11 path reads kw names from KW_NAMES."""
        self.kw_names = self.pop().as_python_constant()
        self.CALL(inst)

    # ---- locals -----------------------------------------------------------------------------

    def LOAD_FAST_AND_CLEAR(self, inst):
        """An inlined comprehension saves its loop variable (NULL if unbound); STORE_FAST restores it."""
        self.push(self.symbolic_locals.pop(inst.argval, NullVariable()))

    # (a SimpleNamespace stands in for the one-local instruction each half is)
    def LOAD_FAST_LOAD_FAST(self, inst):
        for name in inst.argval:
            self.LOAD_FAST(SimpleNamespace(argval=name))

    def STORE_FAST_LOAD_FAST(self, inst):
        stored, loaded = inst.argval
        self.STORE_FAST(SimpleNamespace(argval=stored))
        self.LOAD_FAST(SimpleNamespace(argval=loaded))

    def STORE_FAST_STORE_FAST(self, inst):
        for name in inst.argval:
            self.STORE_FAST(SimpleNamespace(argval=name))

    # ---- returns, loops, branches -------------------------------------------------------------

    def RETURN_CONST(self, inst):
        self.return_value = ConstantVariable(inst.argval)

    def END_FOR(self, inst):
        """FOR_ITER jumps past it; a jump here pops 3.12's value and iterator, 3.13's value (a POP_TOP follows)."""
        self.pop()
        if pyversion.VERSION == (3, 12):
            self.pop()

    def TO_BOOL(self, inst):
        self.push(ConstantVariable(bool(self.pop().realize().truth(self))))

    # ---- operators and items ----------------------------------------------------------------

    def CALL_INTRINSIC_1(self, inst):
        name = inst.argrepr  # e.g. "INTRINSIC_LIST_TO_TUPLE"
        if name == "INTRINSIC_LIST_TO_TUPLE":
            self.LIST_TO_TUPLE(inst)
        elif name == "INTRINSIC_UNARY_POSITIVE":
            self.UNARY_POSITIVE(SimpleNamespace(opname="UNARY_POSITIVE"))
        else:
            raise Unsupported(f"intrinsic {name} is not supported", "unsupported_opcode")

    def BINARY_SLICE(self, inst):
        """obj[start:end] as 3.11 spells it: BUILD_SLICE 2, BINARY_SUBSCR."""
        self.BUILD_SLICE(SimpleNamespace(arg=2))
        self.BINARY_SUBSCR(inst)

    def STORE_SLICE(self, inst):
        """obj[start:end] = value as 3.11 spells it: BUILD_SLICE 2, STORE_SUBSCR."""
        self.BUILD_SLICE(SimpleNamespace(arg=2))
        self.STORE_SUBSCR(inst)

    # ---- functions --------------------------------------------------------------------------

    def SET_FUNCTION_ATTRIBUTE(self, inst):
        """3.13: [value, fn] -> fn with one of MAKE_FUNCTION's old parts (flag = the 3.11 bit)."""
        fn, value = self.pop(), self.pop()
        self.set_function_part(fn, inst.arg, value)
        self.push(fn)

    def LOAD_SUPER_ATTR(self, inst):  # super().name and super(C, obj).name: variables/user_protocols.py
        user_protocols.load_super_attr(self, inst)
    # (f-strings, FORMAT_SIMPLE...: opcodes_strings.py)

