"""Graph breaks with resume functions: splitting a frame at an instruction the translator cannot trace.

Frontend layer, called by `eval_frame.translate` when the translator raises `Unsupported` (plays Dynamo's
`create_call_resume_at`). The frame is replayed symbolically up to the breaking instruction, the graph so far is
closed, and the frame's code is rewritten into a TRANSFORMED code object:

    def f(x):                       transformed f                    resume_in_f_at_3(___stack0, a)
        a = x.sin()        ->       out = __compiled_graph(x)         [push ___stack0 back]
        print(a)                    a = out[0]                        jump to the instruction after
        return a * 2                push print, a; CALL (natively)    the break in f's own bytecode,
                                    return resume_in_f_at_3(None, a)  so `return a * 2` runs there

A resume function compiles on its first call like any frame; a data-dependent jump gets one per branch. The one
idea to hold: everything before the break runs as one graph, everything after it is a new frame, and between them
exactly one instruction runs natively, so side effects happen once and in order. The frame's own cells cross as the
resume function's closure. A `with` block open at the break (grad mode, autocast, inference_mode, nullcontext) is
left by the graph and re-entered by the resume function. Where Dynamo cannot resume (a break inside a loop, a try
block, another `with` block, a generator), the frame runs eagerly.
"""
import contextlib
import dis
import functools
import types

from bytecode import CellVar, FreeVar, Instr, Label, TryBegin, TryEnd

from minitorch2 import _logging

from . import assemble, config, eager_frame, pyversion, rnn_refusal, tensorless_frames
from .exc import Unsupported
from .source import LocalSource
from .variables import ConstantVariable, LazyVariableTracker, ListIteratorVariable, NullVariable, TupleVariable
from .variables.autocast import AutocastExitVariable
from .variables.context_trackers import NullContextVariable
from .variables.ctx_manager import GradModeExitVariable, _set_grad_enabled

BLOCK_EXITS = (GradModeExitVariable, AutocastExitVariable, NullContextVariable)  # a break inside re-enters them

_RESUME_CODES = {}  # (code, offset, stack layout, arg names) -> resume code object
_ORIGINS = {}  # resume code -> (the user's code it continues, {offset in resume code: offset in that code})


def origin(code):
    """(the user's code, offset map) a resume code continues: a resume that breaks again resumes the ORIGINAL."""
    if code in _ORIGINS:
        original, offsets = _ORIGINS[code]
        return original, offsets.__getitem__
    return code, lambda offset: offset


def _record_origin(new, original, n_prefix, n_head):
    """Map each instruction of the copied body in `new` to the same instruction in `original`."""
    new_insts = pyversion.instructions_with_offsets(new)[n_prefix:]
    old_insts = pyversion.instructions_with_offsets(original)[n_head:]
    if [inst.opname for _, inst in new_insts] != [inst.opname for _, inst in old_insts]:
        return
    _ORIGINS[new] = (original, {offset: old.offset for (offsets, _), (_, old) in zip(new_insts, old_insts)
                                for offset in offsets})


def why_cannot_resume(code, e):
    """None if the frame can continue after the break described by Unsupported e, else a reason code."""
    if pyversion.is_generator(code) or getattr(e, "in_generator", False):  # (stdlib.py's generator_iterator)
        return "generator"
    if e.break_step is None:  # (an exception no handler catches has none: as Dynamo, the frame runs eagerly)
        return "uncaught_exception" if e.code == "uncaught_exception" else "unresumable"
    if e.in_loop and not config.resume_inside_loops:
        return "graph_break_in_loop"
    if "try" in e.blocks or "except" in e.blocks:
        return "graph_break_in_try"
    if "BEFORE_WITH" in (e.break_opname, e.next_opname):  # making or entering a context manager we cannot model
        return "graph_break_in_with"
    return None


# ---- liveness ---------------------------------------------------------------------------------

@functools.lru_cache(maxsize=512)
def live_locals(code):
    """{offset: the fast locals that may be read, before being written, on some path starting there}: one backward
    dataflow pass, done once per code object."""
    insts = pyversion.instructions(code)
    index = {inst.offset: k for k, inst in enumerate(insts)}
    handlers = dis.Bytecode(code).exception_entries
    succ = []
    for k, inst in enumerate(insts):
        next_offset = insts[k + 1].offset if k + 1 < len(insts) else None
        targets = [t for t in pyversion.successors(inst, next_offset) if t is not None]
        targets += [h.target for h in handlers if h.start <= inst.offset < h.end]
        succ.append([index[t] for t in targets])
    live_in = [frozenset()] * len(insts)
    changed = True
    while changed:
        changed = False
        for k in reversed(range(len(insts))):
            reads, writes = pyversion.local_reads_writes(insts[k])
            out = set().union(*(live_in[s] for s in succ[k])) if succ[k] else set()
            new = frozenset((out - set(writes)) | set(reads))
            if new != live_in[k]:
                live_in[k], changed = new, True
    return {inst.offset: live_in[k] for k, inst in enumerate(insts)}


# ---- the pieces the transformed code calls -----------------------------------------------------

class GraphCall:
    """The compiled graph of the part before the break; set once the backend has compiled it."""

    def __init__(self):
        self.compiled = None

    def __call__(self, *inputs):
        return self.compiled(list(inputs)) if getattr(self.compiled, "_boxed_call", False) else self.compiled(*inputs)


class ResumeCall:
    """Calls a resume function through the compile wrapper, with the calling frame's closure cells."""

    def __init__(self, code, f_globals, compile_wrapper):
        self.code, self.f_globals, self.compile_wrapper = code, f_globals, compile_wrapper

    def __call__(self, closure, *args):
        fn = types.FunctionType(self.code, self.f_globals, self.code.co_name, None, closure or None)
        return tensorless_frames.call_frame(fn, args, {}, self.compile_wrapper)  # (unless Dynamo would skip it)

    def __repr__(self):
        return f"<call {self.code.co_name}>"


def resume_code(code, offset, n_stack, null_slots, iter_slots, with_slots, local_names, lineno):
    """torch_dynamo_resume_in_<fn>_at_<line>'s code: push the stack back (re-entering with_slots' blocks), jump."""
    key = (code, offset, n_stack, tuple(null_slots), tuple(iter_slots), tuple(with_slots.items()), tuple(local_names))
    if key in _RESUME_CODES:
        return _RESUME_CODES[key]
    bc, instr_at = assemble.abstract_instructions(code)
    head = assemble.frame_head(code)
    resume_at = next(i for i, inst in enumerate(bc) if isinstance(inst, Instr) and inst.name == "RESUME")
    body = list(bc)[resume_at + 1:]
    target = Label()
    body.insert(next(k for k, inst in enumerate(body) if inst is instr_at[offset]), target)  # (two jumps to one
    # label are == instructions: the target is this one)
    stack_names = [f"___stack{i}" for i in range(n_stack) if i not in null_slots]
    if set(stack_names) & set(local_names):
        raise Unsupported("a resume function's stack and local names collide", "unresumable")
    # The frame's own cells become the resume function's closure, after its free variables' cells (the order
    # _append_resume_call passes them in): the body reads them as free variables.
    freevars = code.co_freevars + code.co_cellvars
    for inst in body:
        if isinstance(inst, Instr) and isinstance(inst.arg, CellVar):
            inst.arg = FreeVar(inst.arg.name)
    cg = assemble.Codegen(None, lineno)  # the prefix, written for the running Python
    if freevars:
        cg.append("COPY_FREE_VARS", len(freevars))
    cg.extend([i for i in head if i.name not in ("MAKE_CELL", "COPY_FREE_VARS")])
    for i in range(n_stack):
        if i in null_slots:
            cg.append("PUSH_NULL")
        elif i in with_slots:  # re-enter the block: its __exit__ is the stack slot
            cg.call_const(with_slots[i], [])
            cg.append("BEFORE_WITH")
            cg.append("POP_TOP")
        else:
            cg.append("LOAD_FAST", f"___stack{i}")
            if i in iter_slots:
                cg.append("GET_ITER")
    cg.append("JUMP_FORWARD", target)
    new = assemble.new_code(code, cg.instrs + body, argnames=stack_names + list(local_names),
                            name=f"torch_dynamo_resume_in_{code.co_name}_at_{lineno}", freevars=freevars)
    _record_origin(new, code, len(cg.instrs), len(head))
    _RESUME_CODES[key] = new
    return new


# ---- the transformed frame -------------------------------------------------------------------------

def transform_frame(fn, bp, output, graph_call, compile_wrapper):
    """The code object replacing fn's frame at break point bp (close `output` after: rebuilding adds outputs)."""
    code = fn.__code__
    inst = bp.inst
    cg = assemble.Codegen(output, bp.lineno, code.co_freevars, code.co_cellvars)
    # as Dynamo, the values on the stack at a break are looked at and guarded, used or not
    for var in [v for v in bp.stack if isinstance(v, LazyVariableTracker) and v._realized is None]:
        with contextlib.suppress(Unsupported):  # (a value no tracker models is reloaded from its source)
            var.realize()
    output.drop_unused_inputs()  # (their guards stay; a tensor no node uses is no graph input)
    output.specialize_pinned_sizes()  # (before the graph's inputs are loaded: a pinned size is one no longer)
    output.inputs_loaded = True
    # The graph ends outside the blocks open at the break (each left, innermost first, as Dynamo's), in the grad
    # mode the resume function is called in: the one outside the outermost block it re-enters, or, with no block
    # open, the mode at the break (a plain torch.set_grad_enabled(False) before the break stays in force, as in
    # eager and in Dynamo). Set it after the graph as well: a backend that traces the graph (AOT) keeps only its
    # tensor ops.
    blocks = [v for v in bp.stack if isinstance(v, BLOCK_EXITS)]
    call_mode = functools.reduce(lambda mode, block: block.leave(output, mode), reversed(blocks), bp.grad_enabled)
    if output.op_count():
        cg.call_const(graph_call, [graph_input.source for graph_input in output.inputs])
        cg.append("STORE_FAST", assemble.GRAPH_OUT)
    if call_mode != output.grad_enabled_at_entry:
        cg.call_const(_set_grad_enabled, [ConstantVariable(call_mode)])
        cg.append("POP_TOP")

    successors = _successors(code, inst, len(bp.stack))
    live_at = live_locals(code)
    live = {name for offset, _ in successors for name in live_at[offset]} | live_at[inst.offset]  # (inst's reads too)
    passed = [n for n in code.co_varnames if n in live and n in bp.symbolic_locals]

    changed = [n for n in passed if bp.symbolic_locals[n].source != LocalSource(n)]
    # the graph's outputs numbered as Dynamo's: the stack's values bottom up, then the locals (a scratch rebuild)
    scratch = assemble.Codegen(output, bp.lineno, code.co_freevars, code.co_cellvars)
    for var in [v for v in bp.stack if not isinstance(v, (NullVariable, *BLOCK_EXITS))] + [
            bp.symbolic_locals[n] for n in changed]:
        scratch.reconstruct(var)
    for name in [n for n in changed if n in pyversion.parameter_names(code)]:
        cg.keep_entry_value(name)
    for name in changed:
        cg.reconstruct(bp.symbolic_locals[name])
    for name in reversed(changed):
        cg.append("STORE_FAST", name)

    # Only the breaking instruction's operands go on the real stack; the items below them (which may
    # be the NULLs of pending calls, which no local can hold) are rebuilt as the resume call's arguments.
    n_operands = pyversion.operand_count(inst)
    if n_operands is None:
        raise Unsupported(f"cannot replay {inst.opname} at a graph break", "unresumable")
    below = len(bp.stack) - n_operands
    operands = bp.stack[below:]
    # a breaking call goes through a RoutedCall (eager_frame.py), so its callee's frame compiles
    routed = inst.opname in ("CALL", "CALL_KW", "CALL_FUNCTION_EX") and not any(_reads_its_frame(var) for var in operands)
    for var in operands:
        if isinstance(var, NullVariable) and routed:
            cg.append("LOAD_CONST", eager_frame.NO_SELF)
        else:
            cg.reconstruct(var)
    output.reconstruct_side_effects(cg)  # after rebuilding (which reads the lists as they were)
    routed_call = eager_frame.routed_call(inst.opname, inst.arg, bp.kw_names, compile_wrapper) if routed else \
        rnn_refusal.routed_operator(inst, compile_wrapper)  # (a subscript, comparison, store: its dunder routed)

    jump_label = Label()  # a breaking jump's target: placed after the fall-through's resume call (a forward jump)
    if blocks:  # the instruction runs inside the blocks, entered again
        cg.call_const(_enter_blocks, [ConstantVariable(tuple(block.context_class() for block in blocks))])
        cg.append("STORE_FAST", "___blocks")
        _append_protected(cg, lambda: _append_breaking_instruction(cg, code, bp, jump_label, routed_call))
    else:
        _append_breaking_instruction(cg, code, bp, jump_label, routed_call)
    for k, (offset, n_after) in enumerate(successors):
        if k == 1:
            cg.place(jump_label)
        if blocks:
            _append_exit_blocks(cg)  # the resume function re-enters them itself
        names = [n for n in passed if n in live_at[offset]]
        _append_resume_call(cg, fn, bp, below, offset, n_after, names, compile_wrapper)
    head = assemble.frame_head(code)
    return assemble.replace_body(code, head + cg.instrs)


def _enter_blocks(context_classes):  # the `with` blocks open at a break, entered again around its instruction
    blocks = contextlib.ExitStack()
    for context_class in context_classes:
        blocks.enter_context(context_class())
    return blocks


def _append_exit_blocks(cg):  # ___blocks.close()
    cg.call_const(contextlib.ExitStack.close, [LocalSource("___blocks")])
    cg.append("POP_TOP")


def _append_protected(cg, append_body):
    """The breaking instruction inside `with` blocks; if it raises, leave them (as their handlers would) and re-raise."""
    handler, after = Label(), Label()
    try_begin = TryBegin(handler, push_lasti=False, stack_depth=0)
    cg.extend([try_begin])
    append_body()
    cg.extend([TryEnd(try_begin)])
    cg.append("JUMP_FORWARD", after)
    cg.place(handler)
    _append_exit_blocks(cg)
    cg.append("RERAISE", 0)
    cg.place(after)


def _successors(code, inst, depth):
    """[(offset, stack depth there)] for where control goes after the breaking instruction runs."""
    if inst.opname in pyversion.UNCONDITIONAL_JUMPS:
        raise Unsupported(f"cannot resume after {inst.opname}", "unresumable")
    insts = pyversion.instructions(code)
    k = next(i for i, x in enumerate(insts) if x.offset == inst.offset)
    next_offset = insts[k + 1].offset if k + 1 < len(insts) else None
    # (a conditional jump's are [fall through, jump target])
    return [(offset, depth + pyversion.stack_effect(inst, jump=n == 1))
            for n, offset in enumerate(pyversion.successors(inst, next_offset))]


def _reads_its_frame(var):
    value = var._value if isinstance(var, LazyVariableTracker) else var.__dict__.get("value")
    return any(value is reader for reader in eager_frame.FRAME_READERS)


def _append_breaking_instruction(cg, code, bp, jump_label, routed_call):
    inst = bp.inst
    _, instr_at = assemble.abstract_instructions(code)
    original = instr_at[inst.offset]
    if routed_call is not None:
        for name, arg in routed_call:
            cg.append(name, arg)
    elif inst.opname == "CALL":
        cg.call(inst.arg, bp.kw_names)
    elif pyversion.is_method_load(inst):
        # A method load pushes (method, self) or (NULL, attribute), decided at run time. A plain
        # attribute load pushes the bound attribute only: the resume function's prefix pushes
        # the NULL next to it, and the call behaves the same.
        if inst.opname == "LOAD_SUPER_ATTR":  # (3.12+: the bytecode package spells its argument with its flags)
            cg.extend([Instr("LOAD_SUPER_ATTR", (False, bool(inst.arg & 2), inst.argval), lineno=cg.lineno)])
        else:
            cg.append("LOAD_ATTR", inst.argval)
    elif inst.opname in pyversion.JUMP_OPNAMES:
        for name in pyversion.conditional_jump_prefix(original.name):  # 3.13: TO_BOOL on the undecided value
            cg.append(name)
        cg.append(original.name.replace("BACKWARD", "FORWARD"), jump_label)
    else:
        cg.extend([original.copy()])


def _append_resume_call(cg, fn, bp, below, offset, n_after, names, compile_wrapper):
    """Store what the instruction left on the stack, then `return resume(closure, *stack, *live locals)`."""
    code = fn.__code__
    result_nulls = {below} if bp.inst.opname == "PUSH_NULL" else set()  # (checkpoints, method loads: see above)
    if pyversion.is_method_load(bp.inst) or bp.inst.opname == "LOAD_GLOBAL" and bp.inst.arg & 1:
        result_nulls.add(below + 1 if pyversion.NULL_AFTER_CALLABLE else below)
    results = [i for i in range(below, n_after) if i not in result_nulls]
    # (not ___stack<i>: in a resume function those are its arguments, which the kept slots may still read)
    for i in reversed(results):
        cg.append("STORE_FAST", f"___result{i}")
    if bp.inst.opname == "GET_ITER":  # a loop's fresh iterator crosses as a tuple; the prefix re-iterates it
        cg.call_const(tuple, [LocalSource(f"___result{n_after - 1}")])
        cg.append("STORE_FAST", f"___result{n_after - 1}")
    kept = bp.stack[:min(below, n_after)]
    null_slots = [i for i, v in enumerate(kept) if isinstance(v, NullVariable)] + sorted(result_nulls)
    iter_slots = [i for i, v in enumerate(kept) if isinstance(v, ListIteratorVariable)]
    iter_slots += [n_after - 1] if bp.inst.opname == "GET_ITER" else []
    with_slots = {i: v.context_class() for i, v in enumerate(kept) if isinstance(v, BLOCK_EXITS)}
    base_code, base_offset = origin(code)
    resume = resume_code(base_code, base_offset(offset), n_after, null_slots, iter_slots, with_slots, names, bp.lineno)
    _logging.unique_id(f"__resume_at_{offset}")  # Dynamo's name for it counts in graph names' numbering
    cg.append("PUSH_NULL")
    cg.append("LOAD_CONST", ResumeCall(resume, fn.__globals__, compile_wrapper))
    for name in code.co_freevars + code.co_cellvars:
        cg.append("LOAD_CLOSURE", cg.cell_ref(name))
    cg.append("BUILD_TUPLE", len(code.co_freevars + code.co_cellvars))
    carried = [(i, var) for i, var in enumerate(kept) if i not in null_slots]  # the resume prefix pushes NULLs back
    for i, var in carried:
        if i in with_slots:
            cg.append("LOAD_CONST", None)  # the resume prefix re-enters the block
        elif isinstance(var, ListIteratorVariable):
            cg.reconstruct(TupleVariable(var.rest()))  # the rest of the loop, as a tuple
        else:
            cg.reconstruct(var)
    for i in results:
        cg.append("LOAD_FAST", f"___result{i}")
    for name in names:
        cg.append("LOAD_FAST", name)
    cg.call(1 + len(carried) + len(results) + len(names))
    cg.append("RETURN_VALUE")
