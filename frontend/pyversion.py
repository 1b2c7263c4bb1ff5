"""Python-version facts for the bytecode translator, in one place.

Frontend layer, read by the translator, `resume.py` and `assemble.py` (generated code is written in 3.11 terms and
respelled here); handlers never test `sys.version_info`. The one idea to hold: every fork here is exhaustive, so an
unknown Python fails loudly at a findable place (`UnsupportedPython`). Only public `dis` data is used.
"""
import dis
import inspect
import operator
import sys

VERSION = sys.version_info[:2]
SUPPORTED = ((3, 11), (3, 12), (3, 13))
# 3.13 puts the NULL (or self) of a call ABOVE the callable: [callable, NULL|self, args...];
# 3.11 and 3.12 put it below: [NULL, callable, args...] or [method, self, args...].
NULL_AFTER_CALLABLE = VERSION >= (3, 13)


class UnsupportedPython(NotImplementedError):
    pass


def check_supported():
    if VERSION not in SUPPORTED:
        raise UnsupportedPython(f"the frontend translates Python 3.11-3.13 bytecode; this is Python {VERSION[0]}.{VERSION[1]}")


def instructions(code):
    """The instructions of `code` (CACHE entries hidden), as dis gives them."""
    return list(dis.get_instructions(code))


def instructions_with_offsets(code):
    """[(offsets, instruction)] for each instruction but EXTENDED_ARG: the offsets a jump may name for it are its
    own and those of the EXTENDED_ARG prefixes whose bits dis folded into its argument."""
    grouped, pending = [], []
    for inst in instructions(code):
        pending.append(inst.offset)
        if inst.opname != "EXTENDED_ARG":
            grouped.append((pending, inst))
            pending = []
    return grouped


def kw_names(inst, code):
    """The keyword names a KW_NAMES instruction announces for the next CALL (3.11, 3.12: a co_consts index)."""
    if VERSION in ((3, 11), (3, 12)):
        return code.co_consts[inst.arg]
    raise UnsupportedPython(VERSION)


def for_iter_exit(inst):
    """Where an exhausted FOR_ITER goes: its target, past the END_FOR there (3.12) and the POP_TOP after (3.13)."""
    if VERSION == (3, 11):
        return inst.argval
    if VERSION == (3, 12):
        return inst.argval + 2
    if VERSION == (3, 13):
        return inst.argval + 4
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
# `n += t` with an immutable n (an int, a float) applies the plain operator: what Dynamo records (`b = 0 + mul`).
OUT_OF_PLACE = {fn: BINARY_OPS[form[:-1]] for form, fn in BINARY_OPS.items() if form.endswith("=")}

COMPARE_OPS = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt, ">=": operator.ge,
}


def is_generator(code):
    return bool(code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE))


def parameter_names(code):
    """The locals a call binds: positional, keyword-only, then *args and **kwargs."""
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    return code.co_varnames[:count]


# ---- control flow facts used by graph breaks (resume.py) ------------------------------------

JUMP_OPNAMES = frozenset(dis.opname[op] for op in dis.hasjrel + dis.hasjabs)
UNCONDITIONAL_JUMPS = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"})
TERMINATORS = frozenset({"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})
RETURNS = frozenset({"RETURN_VALUE", "RETURN_CONST"})


def has_backedge_after(instructions, index):
    """Dynamo's "this break is inside a loop": a jump after instruction `index` (not at it: a `while` condition
    at the loop's bottom resumes), before the first return, goes back to an offset before it."""
    current = instructions[index].offset
    for inst in instructions[index + 1:]:
        if inst.opname in RETURNS:
            return False
        if inst.opname in JUMP_OPNAMES and inst.argval < current:
            return True
    return False


def enclosing_blocks(code, offset):
    """The kinds of exception-table regions covering `offset`: "with" (the handler runs __exit__),
    "try" (an except/finally handler) or "except" (inside a handler, whose cleanup re-raises)."""
    by_offset = {inst.offset: inst for inst in instructions(code)}
    kinds = []
    for entry in dis.Bytecode(code).exception_entries:  # (3.11-3.13 alike)
        if not entry.start <= offset < entry.end:
            continue
        after = by_offset.get(entry.target + 2)
        if by_offset[entry.target].opname != "PUSH_EXC_INFO":
            kinds.append("except")
        else:
            kinds.append("with" if after is not None and after.opname == "WITH_EXCEPT_START" else "try")
    return kinds


def stack_effect(inst, jump):
    """How many stack items `inst` adds (negative: removes) when it does (jump=True) or does not jump.
    3.11 splits a call's effect between PRECALL and CALL; a replayed CALL is PRECALL+CALL, so count both."""
    if inst.opname == "CALL":
        return -inst.arg - 1
    return dis.stack_effect(inst.opcode, inst.arg if inst.opcode >= dis.HAVE_ARGUMENT else None, jump=jump)


def successors(inst, next_offset):
    """Offsets control can reach after `inst` (exception handlers aside)."""
    if inst.opname in TERMINATORS:
        return []
    if inst.opname in UNCONDITIONAL_JUMPS:
        return [inst.argval]
    return [next_offset, inst.argval] if inst.opname in JUMP_OPNAMES else [next_offset]


def local_reads_writes(inst):
    """(names read, names written) by one instruction, for liveness of fast locals. A name both read
    and written counts as read first (live before it); 3.13's STORE_FAST_LOAD_FAST writes first."""
    name = inst.opname
    if name in ("LOAD_FAST", "DELETE_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR"):
        return (inst.argval,), ()
    if name == "STORE_FAST":
        return (), (inst.argval,)
    if name == "LOAD_FAST_LOAD_FAST":
        return tuple(inst.argval), ()
    if name == "STORE_FAST_STORE_FAST":
        return (), tuple(inst.argval)
    if name == "STORE_FAST_LOAD_FAST":
        stored, loaded = inst.argval
        return ((loaded,) if loaded != stored else ()), (stored,)
    return (), ()


# How many stack items an instruction reads (pops, or reaches down to, like LIST_APPEND's list), so
# a graph break can put exactly those back on the real stack before running it natively.
_FIXED_OPERANDS = {
    "LOAD_ATTR": 1, "LOAD_METHOD": 1, "STORE_ATTR": 2, "DELETE_ATTR": 1, "STORE_SUBSCR": 3, "DELETE_SUBSCR": 2,
    "BINARY_SUBSCR": 2, "BINARY_OP": 2, "COMPARE_OP": 2, "IS_OP": 2, "CONTAINS_OP": 2, "UNARY_NEGATIVE": 1,
    "UNARY_POSITIVE": 1, "UNARY_INVERT": 1, "UNARY_NOT": 1, "GET_ITER": 1, "GET_LEN": 1, "UNPACK_SEQUENCE": 1,
    "UNPACK_EX": 1, "JUMP_IF_FALSE_OR_POP": 1, "JUMP_IF_TRUE_OR_POP": 1, "RETURN_VALUE": 1, "POP_TOP": 1,
    "STORE_FAST": 1, "STORE_GLOBAL": 1, "STORE_DEREF": 1, "STORE_NAME": 1, "BEFORE_WITH": 1, "LIST_TO_TUPLE": 1,
    "LOAD_GLOBAL": 0, "LOAD_FAST": 0, "LOAD_CONST": 0, "LOAD_DEREF": 0, "LOAD_CLOSURE": 0, "LOAD_NAME": 0,
    "DELETE_FAST": 0, "DELETE_GLOBAL": 0, "IMPORT_NAME": 2, "IMPORT_FROM": 1, "PRINT_EXPR": 1, "PUSH_NULL": 0,
    # 3.12 and 3.13
    "RETURN_CONST": 0, "LOAD_FAST_CHECK": 0, "LOAD_FAST_AND_CLEAR": 0, "LOAD_FAST_LOAD_FAST": 0,
    "STORE_FAST_LOAD_FAST": 1, "STORE_FAST_STORE_FAST": 2, "BINARY_SLICE": 3, "STORE_SLICE": 4,
    "CALL_INTRINSIC_1": 1, "TO_BOOL": 1, "LOAD_SUPER_ATTR": 3, "FORMAT_SIMPLE": 1, "FORMAT_WITH_SPEC": 2,
    "CONVERT_VALUE": 1, "SET_FUNCTION_ATTRIBUTE": 2, "END_FOR": 1,
}


def operand_count(inst):
    """Stack items `inst` reads; None for an instruction a graph break does not know how to replay."""
    name, arg = inst.opname, inst.arg
    if name in _FIXED_OPERANDS:
        return _FIXED_OPERANDS[name]
    if name.startswith("POP_JUMP_"):  # 3.11's FORWARD/BACKWARD forms and 3.12's, each test
        return 1
    if name == "CALL":
        return arg + 2  # NULL or method, callable, args (3.11: replayed with its PRECALL)
    if name == "CALL_KW":
        return arg + 3  # callable, NULL or self, args, the tuple of keyword names
    if name == "CALL_FUNCTION_EX":
        return 3 + (arg & 1)  # NULL, callable, args tuple, kwargs dict
    if name in ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_STRING", "BUILD_SLICE", "RAISE_VARARGS",
                "COPY", "SWAP", "LIST_APPEND", "LIST_EXTEND", "SET_ADD", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE"):
        return arg
    if name in ("MAP_ADD", "BUILD_CONST_KEY_MAP"):
        return arg + 1
    if name == "BUILD_MAP":
        return 2 * arg
    if name == "FORMAT_VALUE":
        return 2 if arg & 0x04 else 1
    if name == "MAKE_FUNCTION":
        return 1 + bin((arg or 0) & 0x0F).count("1")  # 3.13: the code object only (SET_FUNCTION_ATTRIBUTE)
    return None


# ---- 3.12 and 3.13 (handlers in opcodes_312.py) ---------------------------------------------------

def is_method_load(inst):
    """A LOAD_METHOD; 3.12 folded it into LOAD_ATTR, whose low arg bit asks for the method-call form."""
    if VERSION == (3, 11):
        return inst.opname == "LOAD_METHOD"
    if VERSION in SUPPORTED:  # (and super().m's LOAD_SUPER_ATTR)
        return inst.opname in ("LOAD_ATTR", "LOAD_SUPER_ATTR") and bool(inst.arg & 1)
    raise UnsupportedPython(VERSION)


def generated_instructions(name, arg):
    """The (opname, arg) pairs for one instruction assemble.Codegen writes in 3.11 terms: 3.12 has no PRECALL or
    LOAD_METHOD, and LOAD_ATTR's argument carries the method bit, as `bytecode` spells it: (is_method, name)."""
    if VERSION == (3, 11):
        return [(name, arg)]
    if name == "PRECALL":
        return []
    if name == "LOAD_METHOD":
        return [("LOAD_ATTR", (True, arg))]
    if name == "LOAD_ATTR" and isinstance(arg, str):
        return [("LOAD_ATTR", (False, arg))]
    if name == "LOAD_CLOSURE" and VERSION == (3, 13):  # a pseudo-op in 3.13: LOAD_FAST of the cell pushes the cell
        return [("LOAD_FAST", arg)]
    return [(name, arg)]


def call_instructions(nargs, kw_names):
    """The (opname, arg) pairs of a call of `nargs` arguments, the last len(kw_names) by keyword."""
    if VERSION in ((3, 11), (3, 12)):
        kw = [("KW_NAMES", tuple(kw_names))] if kw_names else []
        return kw + ([("PRECALL", nargs)] if VERSION == (3, 11) else []) + [("CALL", nargs)]
    if VERSION == (3, 13):
        return [("LOAD_CONST", tuple(kw_names)), ("CALL_KW", nargs)] if kw_names else [("CALL", nargs)]
    raise UnsupportedPython(VERSION)


def conditional_jump_prefix(opname):
    """What runs before a replayed conditional jump: 3.13's POP_JUMP_IF_TRUE/FALSE take only exact bools (TO_BOOL)."""
    return ["TO_BOOL"] if VERSION >= (3, 13) and opname in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE") else []
