"""Python-version facts for the bytecode translator, in one place.

Frontend layer, read by `symbolic_convert.py`. CPython changes its bytecode
every release (3.11 added PRECALL/KW_NAMES and the NULL bit of LOAD_GLOBAL,
3.12 folded LOAD_METHOD into LOAD_ATTR, 3.13 changed CALL again). Handlers in
the translator never test `sys.version_info`; they ask this module. The one
idea to hold: every fork here is exhaustive, so a Python this module does not
know fails loudly at a findable place (`UnsupportedPython`) instead of being
mistranslated.

Only public `dis` data is used (`opname`, `arg`, `argval`, `argrepr`).
"""
import dis
import operator
import sys

VERSION = sys.version_info[:2]
SUPPORTED = ((3, 11),)


class UnsupportedPython(NotImplementedError):
    pass


def check_supported():
    if VERSION not in SUPPORTED:
        raise UnsupportedPython(f"the frontend translates Python 3.11 bytecode; this is Python {VERSION[0]}.{VERSION[1]}")


def instructions(code):
    """The instructions of `code` (CACHE entries hidden), as dis gives them."""
    return list(dis.get_instructions(code))


def load_global_pushes_null(inst):
    """LOAD_GLOBAL's low arg bit asks for a NULL below the global (3.11: the callable slot of CALL)."""
    if VERSION == (3, 11):
        return bool(inst.arg & 1)
    raise UnsupportedPython(VERSION)


def kw_names(inst, code):
    """The keyword names a KW_NAMES instruction announces for the next CALL (3.11: a co_consts index)."""
    if VERSION == (3, 11):
        return code.co_consts[inst.arg]
    raise UnsupportedPython(VERSION)


def jump_target(inst):
    """The offset a jump goes to: dis resolves relative and backward jumps into `argval`."""
    return inst.argval


def for_iter_exit(inst):
    """Where FOR_ITER jumps when the iterator is exhausted (3.11: past the loop, nothing left to pop)."""
    if VERSION == (3, 11):
        return inst.argval
    raise UnsupportedPython(VERSION)


# BINARY_OP's argrepr -> the operator function it applies. In-place forms
# (`+=`) use the in-place operator, which falls back to the plain one for
# immutable values, as Python does.
BINARY_OPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "@": operator.matmul, "&": operator.and_, "|": operator.or_,
    "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "@=": operator.imatmul,
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift, ">>=": operator.irshift,
}

COMPARE_OPS = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt, ">=": operator.ge,
}


def binary_op(inst):
    return BINARY_OPS[inst.argrepr]


def compare_op(inst):
    return COMPARE_OPS[inst.argval]


def is_generator(code):
    import inspect

    return bool(code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE))
