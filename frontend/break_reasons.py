"""The table of graph-break reasons: code -> (what happened, what to do).

Frontend layer. Every `Unsupported` names one row, so every way capture can stop is in one place and `explain()`
prints a hint next to each break; the rows `graph_break_in_*` and `unresumable` make the whole frame run eagerly.
The first break at a `Tensor.item()` also logs torch's warning (WARNING, the frontend's logger), once a process.
For the commonest breaks, `note_break` keeps Dynamo 2.13's own words (graph-break type, explanation, hints): the
reason explain() reports, and the message fullgraph=True raises, with the user code it broke at.
"""
import logging
import textwrap

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
    logging.getLogger("frontend").warning(ITEM_WARNING, _user_frames(e))


_SITE = "\n\n For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/"
_VERBOSE = ("\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting "
            "a bug to PyTorch). For even more developer context, set TORCH_LOGS=\"+dynamo\"\n")
_ITEM = ("Unsupported Tensor.item() call with capture_scalar_outputs=False\n  Explanation: Dynamo does not support "
         "tracing `Tensor.item()` with config.capture_scalar_outputs=False.\n  Hint: Set `torch._dynamo.config."
         "capture_scalar_outputs = True` or `export TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations "
         "in the captured graph.\n\n  Developer debug context: call_method TensorVariable() item () {}" + _SITE
         + "gb0124.html")
_BRANCH = ("Data-dependent branching\n  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`)."
           " Dynamo does not support tracing dynamic control flow.{trace}\n  Hint: For the common pattern `if tensor_cond: x = "
           "transform(x)` (e.g. clamping inf/nan values), consider making the code branchless by always applying the "
           "transform. Operations like torch.clamp, torch.nan_to_num, and torch.where are typically no-ops on "
           "well-behaved inputs and compile without graph breaks.\n  Hint: This graph break is fundamental - it is "
           "unlikely that Dynamo will ever be able to trace through your code. Consider finding a workaround.\n  Hint: "
           "Use `torch.cond` to express dynamic control flow.\n\n  Developer debug context: attempted to jump with "
           "TensorVariable()" + _SITE + "gb0170.html")
_GRAPH_BREAK = ("Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break. Message: None\n  Hint: "
                "Remove the `torch._dynamo.graph_break()` call.\n\n  Developer debug context: Called "
                "`torch._dynamo.graph_break()` with args `[]`, kwargs `{}`" + _SITE + "gb0025.html")
DYNAMO_WORDS = {}  # our reason for a break seen (its text and [code]) -> Dynamo's, for explain()


def _type_name(variable):
    try:
        return variable.python_type().__name__
    except Exception:  # noqa: BLE001 - (NotImplementedError, or Unsupported from a lazy value: words only)
        return "<unknown type>"


def _variable_class(variable):
    try:
        return type(variable.realize())
    except Exception:  # noqa: BLE001 - (a lazy value that cannot be built: its own class names it)
        return type(variable)


def dynamo_words(e):
    """Dynamo 2.13's message for this break (without the user code), or None where ours stands."""
    if e.code == "data_dependent_value" and e.msg.startswith("Tensor.item()"):
        return _ITEM
    if e.code == "data_dependent_branch" and "JUMP" in (e.where or ""):
        return _BRANCH.format(trace=textwrap.indent(_condition_trace(e.call_args[0].proxy.node), "    "))
    if e.code == "graph_break" and e.msg.startswith("frontend.graph_break()"):
        return _GRAPH_BREAK
    if e.code == "print":
        types = [_type_name(a) for a in e.call_args]
        return (f"Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin operator "
                f"`print` with argument types {types} (has_kwargs False)\n  Hint: Avoid calling builtin `print` with "
                f"argument types {types}. Consider using an equivalent alternative function/method to `print`.\n  Hint: "
                "If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
                "`torch._dynamo.config.reorderable_logging_functions`.\n  Hint: Please report an issue to PyTorch."
                f"\n\n  Developer debug context: builtin print {[_variable_class(a) for a in e.call_args]} False"
                + _SITE + "gb0059.html")  # (the context names our variable classes, where Dynamo's names its own)
    return None


def _condition_trace(node, most=20):
    """How a branch's condition was computed, as Dynamo's message shows it: the graph inputs reached, then the
    function calls (not method calls) leading to the condition, each under the user line that made it."""
    ops, inputs, seen = [], [], set()

    def walk(n):
        if n.name in seen:
            return
        seen.add(n.name)
        at = _innermost_user_line(n)
        if n.op == "placeholder":
            inputs.append([f"# {at}"] * bool(at) + [f"{n.name}: graph input ({n.target})"])
        elif n.op == "call_function" and len(ops) < most:
            args = ", ".join(a.name if hasattr(a, "op") else repr(a) for a in n.args)
            ops.append([f"# {at}"] * bool(at) + [f"{n.name} = {getattr(n.target, '__name__', n.target)}({args})"])
            for a in n.args:
                if hasattr(a, "op"):
                    walk(a)

    walk(node)
    lines = [line for block in inputs + ops[::-1] for line in (*block, "")]
    if not lines:
        return ""
    return "\n\n  The branch condition involves a tensor computed as follows:\n" + "\n".join(f"    {x}" for x in lines)


def _innermost_user_line(node):
    """'File "f.py", line 3, in fn, code: the line' for the last frame of the node's stack trace, or ''."""
    lines = (node.meta.get("stack_trace") or "").strip().split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip().startswith("File ")), default=None)
    if last is None:
        return ""
    code = lines[last + 1].strip() if last + 1 < len(lines) else ""
    return lines[last].strip() + (f", code: {code}" if code else "")


def note_break(e, nopython):
    """A break met while translating: under fullgraph=True, e's message becomes Dynamo's (with the user code, as its
    augment_exc_message adds it) where it has words for it; otherwise they are kept for explain(), and the first
    `Tensor.item()` break logs torch's warning."""
    words = dynamo_words(e)
    if nopython and words is not None:
        e.args = (f"{words}\n\nfrom user code:\n {_user_frames(e)}{_VERBOSE}",)
    elif not nopython:
        if words is not None:
            DYNAMO_WORDS[f"{e} [{e.code}]"] = "generic_jump TensorVariable()" if words.startswith("Data-") else words
        warn_item_break(e)


def _user_frames(e):
    """The translators e unwound through (each `self` of a _run_instructions frame, still at the instruction it
    broke at), formatted as the nodes' stack traces."""
    from .stack_trace import StackTraceRecorder  # (stack_trace.py imports minitorch2.nn, after this module)
    recorder, tb = StackTraceRecorder(), e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "_run_instructions":
            recorder.tracers.append(tb.tb_frame.f_locals["self"])
        tb = tb.tb_next
    return recorder.current()


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
