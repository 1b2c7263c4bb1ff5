"""The table of graph-break reasons: code -> (what happened, what to do).

Frontend layer. Every `Unsupported` names one row, so every way capture can stop is in one place and `explain()`
prints a hint next to each break; the rows `graph_break_in_*` and `unresumable` make the whole frame run eagerly.
The first break at a `Tensor.item()` also logs torch's warning (WARNING, the frontend's logger), once a process.
"""
import logging

from .exc import TorchRuntimeError

REASONS = {
    "unsupported_opcode": ("the translator has no handler for this bytecode instruction",
                           "rewrite the construct or mark the function with frontend.disable"),
    "data_dependent_branch": ("a branch or bool() depends on a tensor's values, which are unknown while tracing",
                              "use torch.where, or move the branch outside the compiled function"),
    "data_dependent_value": ("a Python value (item(), tolist(), len of a tensor's contents) depends on tensor data",
                             "keep the computation in tensors"),
    "print": ("print() has a side effect that must happen at run time",
              "remove the print from the compiled region, or accept the eager fallback"),
    "graph_break": ("frontend.graph_break() was called", "remove the call to capture one graph"),
    "unsupported_call": ("a call to a function or object the translator cannot model",
                         "use minitorch2 functions, user functions or nn.Modules"),
    "unsupported_attr": ("an attribute read or write the translator cannot model",
                         "read plain attributes of modules and tensors only"),
    "side_effect": ("a mutation of a Python object that lives outside the frame",
                    "return new values instead of mutating inputs or attributes"),
    "generator": ("generators and coroutines cannot be captured", "call the function without compiling it"),
    "unsupported": ("the translator cannot model this construct", "see the message"),
    "graph_break_in_loop": ("a graph break inside a for/while loop: the frame runs eagerly, as Dynamo skips it",
                            "move the break out of the loop, or set frontend.config.resume_inside_loops"),
    "graph_break_in_try": ("a graph break inside a try/except block cannot resume; the frame runs eagerly",
                           "move the break out of the try block"),
    "graph_break_in_with": ("a graph break inside a `with` block (other than no_grad/enable_grad) cannot "
                            "resume; the frame runs eagerly", "move the break out of the with block"),
    "uncaught_exception": ("the frame raises an exception that no `except` in it catches: the frame runs eagerly "
                           "(Dynamo's \"Observed exception\")", "catch the exception in the frame, or fix the error"),
    "getattribute": ("an object whose class defines __getattribute__: Dynamo inlines it and cannot trace "
                     "object.__getattribute__ there; the frame runs eagerly (or from its last checkpoint)",
                     "read the attributes outside the compiled function"),
    "unresumable": ("the frame's state at the break cannot be rebuilt (closure cells, values the "
                    "translator cannot reconstruct); the frame runs eagerly",
                    "move the break, or mark the function with frontend.disable"),
}


def explain_reason(code):
    what, hint = REASONS.get(code, REASONS["unsupported"])
    return f"{what}; hint: {hint}"


ITEM_WARNING = """Graph break from `Tensor.item()`, consider setting:
    torch._dynamo.config.capture_scalar_outputs = True
or:
    env TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1
to include these operations in the captured graph.

Graph break: from user code at:
%s
"""
_item_warned = []


def warn_item_break(e):
    """torch's words at the first break from Tensor.item() in a process (Dynamo caches its warning), with the user
    code's frames: the translators the exception unwound through (each `self` of a _run_instructions frame), each
    still at the instruction it broke at, formatted as the nodes' stack traces."""
    if _item_warned or not e.msg.startswith("Tensor.item()"):
        return
    _item_warned.append(True)
    from .stack_trace import StackTraceRecorder  # (stack_trace.py imports minitorch2.nn, after this module)
    recorder, tb = StackTraceRecorder(), e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "_run_instructions":
            recorder.tracers.append(tb.tb_frame.f_locals["self"])
        tb = tb.tb_next
    logging.getLogger("frontend").warning(ITEM_WARNING, recorder.current())


UNTALLIED = " (compiled up to the checkpoint, the rest eagerly: Dynamo tallies no break)"


def untallied(reason):
    return reason.endswith(UNTALLIED)


def jumps_on_a_tensor(reason):
    """A branch on a tensor's truth value (`if t.any():`): Dynamo 2.13's generic_jump, which splits the frame within
    the attempt that met it, logs the break and does not tally it under "graph_break" (bool(t) called, `not t`, are
    tallied)."""
    return reason.endswith("[data_dependent_branch]") and "JUMP" in reason.rsplit("(instruction ", 1)[-1]


def fake_run_error(kind, target, fake_args, fake_kwargs, error):
    """Dynamo's TorchRuntimeError for an op whose fake run failed as the program's eager run would."""
    return TorchRuntimeError(f"RuntimeError when making fake tensor call\n  Explanation: Dynamo failed to run FX node"
                             f" with fake tensors: {kind} {target}(*{tuple(fake_args)}, **{fake_kwargs}): "
                             f"got {error!r}\n  Hint: Your code may result in an error when running in eager.")
