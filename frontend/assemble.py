"""Assembling bytecode: instruction lists, rebuilding tracked values, and new code objects.

Frontend layer, used by `resume.py`; with `eager_frame.py`, the only module that talks to `bytecode`. `Codegen`
writes the instructions that rebuild, at run time, the values the translator was tracking when it stopped (the
"reconstruct" half of Dynamo's PyCodegen). The one idea to hold: a tracker turns back into a value by loading it from
its Source (`L['x']` becomes `LOAD_FAST x`, `.attr` a `LOAD_ATTR`), by taking it out of the graph's output tuple, or
by building it from its parts (tuples, lists, bound methods); anything else cannot cross a graph break.
"""
import bytecode
from bytecode import Bytecode, Instr

from . import pyversion
from .exc import Unsupported
from .source import AttrSource, ForeignGlobalSource, GetItemSource, GlobalSource, LocalSource, Source

GRAPH_OUT = "___graph_out"  # the local of a transformed frame that holds the compiled graph's outputs


def abstract_instructions(code):
    """`code` as the bytecode package's list (Instr, Label, TryBegin...) and the Instr at each dis offset."""
    bc = Bytecode.from_code(code)
    abstract = [i for i in bc if isinstance(i, Instr)]  # (EXTENDED_ARG folded in, as dis folds it)
    real = pyversion.instructions_with_offsets(code)
    if len(abstract) < len(real) or any(a.name != inst.opname for a, (_, inst) in zip(abstract, real)):
        raise Unsupported("cannot map the frame's bytecode for a resume function", "unresumable")
    return bc, {offset: a for a, (offsets, _) in zip(abstract, real) for offset in offsets}


def new_code(template, instrs, *, argnames, name, freevars):
    """A code object running `instrs` with parameters `argnames`, free variables `freevars`, template's place."""
    bc = Bytecode(instrs)
    bc.name = bc.qualname = name
    bc.filename = template.co_filename
    bc.first_lineno = template.co_firstlineno
    bc.argnames = list(argnames)
    bc.argcount = len(argnames)
    bc.freevars = list(freevars)
    bc.flags = bytecode.CompilerFlags.OPTIMIZED | bytecode.CompilerFlags.NEWLOCALS
    if freevars:
        bc.flags |= bytecode.CompilerFlags.NESTED
    return bc.to_code()


def replace_body(template, instrs):
    """`template` with a new body: same signature, names, cells and flags."""
    bc = Bytecode.from_code(template)
    bc.clear()
    bc.extend(instrs)
    return bc.to_code()


def frame_head(code):
    """The instructions a 3.11 frame starts with (COPY_FREE_VARS, MAKE_CELL..., RESUME): kept by every rewrite."""
    head = []
    for inst in Bytecode.from_code(code):
        if isinstance(inst, Instr):
            head.append(inst.copy())
            if inst.name == "RESUME":
                return head
    raise Unsupported("frame has no RESUME instruction", "unresumable")


class Codegen:
    """Accumulates instructions; `reconstruct(var)` appends code that pushes var's run-time value."""

    def __init__(self, output, lineno, freevars=(), cellvars=()):
        self.output, self.lineno = output, lineno
        self.freevars, self.cellvars = set(freevars), set(cellvars)
        self.instrs = []
        self._temps = {}  # id(tracker) -> local holding the one rebuilt object (lists keep their identity)
        self.entry_copies = {}  # parameter -> local holding its value at frame entry (before a rebuild)

    def keep_entry_value(self, name):
        """Parameter `name` is about to be overwritten: sources (`L['name']`) mean its entry value."""
        self.entry_copies[name] = f"___entry_{name}"
        self.append("LOAD_FAST", name)
        self.append("STORE_FAST", self.entry_copies[name])

    def append(self, name, arg=bytecode.UNSET):
        """Append one instruction written in 3.11 terms; pyversion spells it for the running Python."""
        for real_name, real_arg in pyversion.generated_instructions(name, arg):
            self.instrs.append(Instr(real_name, real_arg, lineno=self.lineno))

    def extend(self, instrs):
        self.instrs.extend(instrs)

    def place(self, label):
        self.instrs.append(label)

    # ---- loads -----------------------------------------------------------------------------

    def load_const(self, value):
        self.append("LOAD_CONST", value)
        if type(value) in (list, dict, set):  # a fresh copy each run, never the translation-time object
            self.append("LOAD_METHOD", "copy")
            self.call(0)

    def load_source(self, source):
        if isinstance(source, LocalSource) and source.local_name in self.freevars | self.cellvars:
            self.append("LOAD_DEREF", self.cell_ref(source.local_name))  # a closure cell's contents
        elif isinstance(source, LocalSource):
            self.append("LOAD_FAST", self.entry_copies.get(source.local_name, source.local_name))
        elif isinstance(source, GlobalSource):
            self.append("LOAD_GLOBAL", (False, source.global_name))
        elif isinstance(source, ForeignGlobalSource):
            self.append("LOAD_CONST", source.globals_dict)
            self.append("LOAD_CONST", source.global_name)
            self.append("BINARY_SUBSCR")
        elif isinstance(source, AttrSource):
            self.load_source(source.base)
            self.append("LOAD_ATTR", source.member)
        elif isinstance(source, GetItemSource):
            self.load_source(source.base)
            self.append("LOAD_CONST", source.index)
            self.append("BINARY_SUBSCR")
        elif hasattr(source, "helper"):  # ___as_tensor(L['eps']), x.stride()[1]...: helper(base, *parts)
            self.append("PUSH_NULL")
            self.append("LOAD_CONST", source.helper)
            self.load_source(source.base)
            for const in source.parts:
                self.append("LOAD_CONST", const)
            self.call(1 + len(source.parts))
        else:
            raise Unsupported(f"cannot load {source} in generated code", "unresumable")

    def cell_ref(self, name):  # one of the frame's own cells (MAKE_CELL) or one of its closure's
        return bytecode.FreeVar(name) if name in self.freevars else bytecode.CellVar(name)

    def load_graph_output(self, index):
        self.append("LOAD_FAST", GRAPH_OUT)
        self.append("LOAD_CONST", index)
        self.append("BINARY_SUBSCR")

    def call(self, nargs, kw_names=()):
        """Call what is on the stack: [NULL, fn, args] or [fn, self, args] as written (3.11 order)."""
        if pyversion.NULL_AFTER_CALLABLE:
            self._move_null_above_callable(nargs)
        for name, arg in pyversion.call_instructions(nargs, kw_names):
            self.instrs.append(Instr(name, arg, lineno=self.lineno))

    def _move_null_above_callable(self, nargs):
        """3.13 reads [fn, NULL, args]: move a PUSH_NULL written below the callable (3.11 order) to just above
        it; a stack rebuilt in 3.13's order (a breaking CALL's operands) is left alone."""
        null_at = self._producer(nargs + 2)
        if not (isinstance(self.instrs[null_at], Instr) and self.instrs[null_at].name == "PUSH_NULL"):
            return
        fn_at = self._producer(nargs + 1, topmost=True)
        null = self.instrs.pop(null_at)
        self.instrs.insert(fn_at, null)  # fn_at - 1 after the pop, so this is just after the callable

    def _producer(self, depth, topmost=False):
        """Index of the instruction that pushed the item `depth` places from the top (1 = top)."""
        for index in range(len(self.instrs) - 1, -1, -1):
            inst = self.instrs[index]
            if isinstance(inst, (bytecode.TryBegin, bytecode.TryEnd)):  # no stack effect
                continue
            if not isinstance(inst, Instr):  # a label: other paths may reach what follows
                break
            pre, post = inst.pre_and_post_stack_effect()
            pops = max(-pre, 0)
            pushes = pre + post + pops
            if depth <= pushes:
                if topmost and depth != 1:
                    break
                return index
            depth += pops - pushes
        raise Unsupported("cannot place the NULL of a generated call", "unresumable")

    def call_const(self, fn, args):
        """Push fn(*args), fn being a Python object known now; each argument a tracker (rebuilt) or a Source (loaded)."""
        self.append("PUSH_NULL")
        self.append("LOAD_CONST", fn)
        for arg in args:
            self.load_source(arg) if isinstance(arg, Source) else self.reconstruct(arg)
        self.call(len(args))

    # ---- trackers --------------------------------------------------------------------------

    def reconstruct(self, var):
        key = id(var)
        if key in self._temps:
            return self.append("LOAD_FAST", self._temps[key])
        var.reconstruct(self)
        if getattr(var, "mutable_identity", False):
            name = f"___tmp{len(self._temps)}"
            self._temps[key] = name
            self.append("COPY", 1)
            self.append("STORE_FAST", name)
