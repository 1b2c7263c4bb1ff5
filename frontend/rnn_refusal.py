"""Dynamo 2.13's refusal of recurrent and TorchScript modules (frontend layer, used by the variable builder and
eval_frame).

Coverage surface: it exists only for fidelity to that quirk; with config.allow_rnn = True the translator traces
nn.RNN, GRU and LSTM like any module. With it False, wrapping one is a graph break. Dynamo resumes only after a
call: at `self.lstm` (an attribute read) it goes back to its last checkpoint, an instruction with an empty stack
once the graph has two ops (symbolic_convert notes it), compiles the graph so far and runs the rest of the frame
as written; with no checkpoint the whole frame runs eagerly (its callees compile). The same rule holds for the
other breaks Dynamo takes outside a call (runs_rest_eagerly): without it ours would resume after them. A break at a
subscript, a comparison or an attribute store that the frame resumes after runs its instruction as a routed call
(routed_operator): a user class's own __getitem__, __eq__ or property setter then compiles as a frame of its own, as
under Dynamo's frame callback, so a break inside it is met (and tallied) again. A scripted module (torch.jit.script,
minitorch2/jit.py) is refused as an RNN is, whatever allow_rnn says. A refused module held in a local of the frame
(`m = holder.lstm`, `for m in module_list`; not the frame's own argument, nor `self.lstm`, wrapped at the read) is
one no resume can rebuild: the whole frame runs eagerly (held_in_a_local).
"""
import functools
import inspect
import operator
import types

import bytecode

import minitorch2

from . import config, pyversion
from .break_reasons import REASONS
from .eager_frame import call_routed, run_skipped
from .exc import Unsupported
from .source import GetItemSource, LocalSource
from .variables.base import LazyVariableTracker

REASONS["rnn"] = REASONS["rnn_local"] = (
    "Dynamo does not trace nn.RNN, GRU or LSTM (config.allow_rnn is False): they run eagerly",
    "set frontend.config.allow_rnn = True to trace them")
REASONS["jit_module"] = (
    "Dynamo does not trace a torch.jit.script module (TorchScript runs it): it runs eagerly",
    "compile the module before scripting it, or call the original module")


def refuse_module(value, source):
    """A frame's own local (an argument) is refused again when Dynamo rebuilds the frame's state at a call's
    break, so it goes back to the checkpoint whatever the instruction ("rnn_local")."""
    if isinstance(value, (minitorch2.nn.RNN, minitorch2.nn.GRU, minitorch2.nn.LSTM)) and not config.allow_rnn:
        refusal = Unsupported("Attempted to wrap RNN, GRU, or LSTM", "rnn_local" if isinstance(source, LocalSource)
                              else "rnn")
    elif isinstance(value, minitorch2.jit.RecursiveScriptModule):
        refusal = Unsupported("torch.jit.script/freeze modules unsupported", "jit_module")
    else:
        return
    refusal.refused_source = source  # (held_in_a_local: a module's submodule is wrapped at once, not lazily)
    raise refusal


def note_checkpoint(tx, inst):
    """Before each instruction: in the root frame, with an empty stack and two ops, it is the checkpoint."""
    if tx.depth == 0 and not tx.stack and (tx.checkpoint or tx.output.op_count() > 1):
        tx.checkpoint = (tx.steps + 1, inst.offset)


def runs_rest_eagerly(e, tx):
    """True for a break Dynamo does not resume after: a refusal in the frame itself (not in a function it called) or
    of the frame's own argument, a break inside what an attribute read inlined (a property, a cached_property's
    locked __get__), at a dict display (a user object as a key) or in an f-string (a user __str__), where Dynamo goes
    back to its checkpoint; then e's break moves to tx's checkpoint (None: unresumable, the frame runs eagerly)."""
    if e.code in ("rnn", "rnn_local", "jit_module") and held_in_a_local(e, tx):
        e.break_step = e.break_offset = None  # Dynamo cannot rebuild that local at any resume: all eager
        return True
    in_this_frame = e.where == f"{e.break_opname} at {tx.code.co_filename}:{tx.lineno}"
    # (reading an object of a class with its own __getattribute__: Dynamo inlines it, and breaks inside)
    inside_a_read = e.break_opname in ("LOAD_ATTR", "LOAD_METHOD") and (not in_this_frame or e.code == "getattribute")
    refused_here = e.code in ("rnn", "jit_module") and (in_this_frame or not (e.break_opname or "CALL").startswith("CALL"))
    if e.code != "rnn_local" and not refused_here and not inside_a_read and e.break_opname not in (
            "BUILD_MAP", "FORMAT_VALUE"):
        return False
    e.break_step, e.break_offset = tx.checkpoint or (None, None)
    # (Dynamo tallies a break under "graph_break" only where an instruction handler resumes after it, not when it
    # restarts at the checkpoint for one it cannot resume from: an attribute read's, a dict display's, an f-string's)
    e.untallied = tx.checkpoint is not None and e.code not in ("rnn", "rnn_local", "jit_module")
    return True


def held_in_a_local(e, tx):
    """True if a refused module is (or, read at the break, goes into) a local of the frame other than its own
    argument's. Dynamo reads it as a lazy tracker that fails only when realized: a resume has to rebuild the
    frame's live locals, rebuilding that one realizes it, and with no resume left the whole frame runs eagerly.
    Only a module's submodule (`self.lstm`) is wrapped, and refused, at the read itself."""
    source = getattr(e, "refused_source", None)
    if isinstance(source, GetItemSource) and getattr(source.base, "member", None) == "_modules" and \
            e.break_opname in ("LOAD_ATTR", "LOAD_METHOD"):
        return False
    if not (e.break_opname or "CALL").startswith("CALL"):  # a read: where its value goes (`m = holder.lstm`)
        for inst in tx.instructions[tx.index_of_offset[e.break_offset] + 1:]:
            if inst.opname in ("STORE_FAST", "STORE_DEREF"):
                return True
            if inst.opname.startswith(("CALL", "PRECALL", "STORE", "POP", "RETURN", "JUMP")):
                return False
    return any(isinstance(var, LazyVariableTracker) and _is_refused(var._value) and
               not (isinstance(var.source, LocalSource) and var.source.local_name == name)
               for name, var in tx.symbolic_locals.items())


def _is_refused(value):
    rnn = isinstance(value, (minitorch2.nn.RNN, minitorch2.nn.GRU, minitorch2.nn.LSTM)) and not config.allow_rnn
    return rnn or isinstance(value, minitorch2.jit.RecursiveScriptModule)


def rest_wrapper(compile_wrapper, eager_rest):
    """What calls the resume function: compile_wrapper, or for an eager rest one running it as written whose
    callees compile_wrapper compiles (as under Dynamo's frame callback)."""
    if not eager_rest:
        return compile_wrapper
    return types.SimpleNamespace(call=functools.partial(run_skipped, compile_wrapper=compile_wrapper))


COMPARISONS = {"<": (operator.lt, "__lt__"), "<=": (operator.le, "__le__"), "==": (operator.eq, "__eq__"),
               "!=": (operator.ne, "__ne__"), ">": (operator.gt, "__gt__"), ">=": (operator.ge, "__ge__")}


class RoutedOperator:
    """What a breaking BINARY_SUBSCR, COMPARE_OP or STORE_ATTR calls instead: the left operand's (the stored-to
    object's) own Python dunder or property setter, through call_routed; anything else as the instruction would."""

    def __init__(self, op, dunder, compile_wrapper, attribute=None):
        self.op, self.dunder, self.compile_wrapper, self.attribute = op, dunder, compile_wrapper, attribute

    def __call__(self, left, right):
        if self.attribute is not None:  # STORE_ATTR: (value, obj) as the stack holds them
            setter = getattr(inspect.getattr_static(type(right), self.attribute, None), "fset", None)
            if isinstance(setter, types.FunctionType):
                return call_routed(setter, (right, left), {}, self.compile_wrapper)
            return setattr(right, self.attribute, left)
        method = inspect.getattr_static(type(left), self.dunder, None)
        if isinstance(method, types.FunctionType):
            result = call_routed(method, (left, right), {}, self.compile_wrapper)
            if result is not NotImplemented:
                return result
        return self.op(left, right)


def routed_operator(inst, compile_wrapper):
    """The (opname, arg) pairs running a breaking subscript, comparison or attribute store as a RoutedOperator's
    call (None for another instruction): [left, right] -> [routed, left, right], called in the method form."""
    if inst.opname == "BINARY_SUBSCR":
        routed = RoutedOperator(operator.getitem, "__getitem__", compile_wrapper)
    elif inst.opname == "COMPARE_OP" and inst.argval in COMPARISONS:
        routed = RoutedOperator(*COMPARISONS[inst.argval], compile_wrapper)
    elif inst.opname == "STORE_ATTR":
        routed = RoutedOperator(setattr, None, compile_wrapper, inst.argval)
    else:
        return None
    after = [("POP_TOP", bytecode.UNSET)] if inst.opname == "STORE_ATTR" else []
    return [("LOAD_CONST", routed), ("SWAP", 3), ("SWAP", 2), *pyversion.call_instructions(1, ()), *after]
