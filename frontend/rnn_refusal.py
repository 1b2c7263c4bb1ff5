"""Dynamo 2.13's refusal of recurrent modules (frontend layer, used by the variable builder and eval_frame).

Coverage surface: it exists only for fidelity to that quirk; with config.allow_rnn = True the translator traces
nn.RNN, GRU and LSTM like any module. With it False, wrapping one is a graph break. Dynamo resumes only after a
call: at `self.lstm` (an attribute read) it goes back to its last checkpoint, an instruction with an empty stack
once the graph has two ops (symbolic_convert notes it), compiles the graph so far and runs the rest of the frame
as written; with no checkpoint the whole frame runs eagerly (its callees compile). The same rule holds for the
other breaks Dynamo takes outside a call (runs_rest_eagerly): without it ours would resume after them.
"""
import functools
import types

import minitorch2

from . import config
from .break_reasons import REASONS
from .eager_frame import run_skipped
from .exc import Unsupported
from .source import LocalSource

REASONS["rnn"] = REASONS["rnn_local"] = (
    "Dynamo does not trace nn.RNN, GRU or LSTM (config.allow_rnn is False): they run eagerly",
    "set frontend.config.allow_rnn = True to trace them")


def refuse_rnn(value, source):
    """A frame's own local (an argument) is refused again when Dynamo rebuilds the frame's state at a call's
    break, so it goes back to the checkpoint whatever the instruction ("rnn_local")."""
    if isinstance(value, (minitorch2.nn.RNN, minitorch2.nn.GRU, minitorch2.nn.LSTM)) and not config.allow_rnn:
        code = "rnn_local" if isinstance(source, LocalSource) else "rnn"
        raise Unsupported("Attempted to wrap RNN, GRU, or LSTM", code)


def note_checkpoint(tx, inst):
    """Before each instruction: in the root frame, with an empty stack and two ops, it is the checkpoint."""
    if tx.depth == 0 and not tx.stack and (tx.checkpoint or tx.output.op_count() > 1):
        tx.checkpoint = (tx.steps + 1, inst.offset)


def runs_rest_eagerly(e, tx):
    """True for a break Dynamo does not resume after: a refusal outside a call or of the frame's own argument, a
    break inside what an attribute read inlined (a property, a cached_property's locked __get__), at a dict display
    (a user object as a key) or in an f-string (a user __str__), where Dynamo goes back to its checkpoint; then e's break moves to tx's checkpoint (None:
    unresumable, the frame runs eagerly)."""
    at_call = e.break_opname is None or e.break_opname.startswith("CALL")
    inside_a_read = e.break_opname in ("LOAD_ATTR", "LOAD_METHOD") and e.where != (
        f"{e.break_opname} at {tx.code.co_filename}:{tx.lineno}")
    if e.code != "rnn_local" and (e.code != "rnn" or at_call) and not inside_a_read and e.break_opname not in (
            "BUILD_MAP", "FORMAT_VALUE"):
        return False
    e.break_step, e.break_offset = tx.checkpoint or (None, None)
    return True


def rest_wrapper(compile_wrapper, eager_rest):
    """What calls the resume function: compile_wrapper, or for an eager rest one running it as written whose
    callees compile_wrapper compiles (as under Dynamo's frame callback)."""
    if not eager_rest:
        return compile_wrapper
    return types.SimpleNamespace(call=functools.partial(run_skipped, compile_wrapper=compile_wrapper))
