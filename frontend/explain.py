"""explain(fn)(*args): what capture made of a call: graphs, breaks and their reasons, guards.

Frontend layer (plays torch._dynamo.explain): forgets every compiled frame, runs the call once with a backend that
records each graph, and reports the cache entries the call created, counting as Dynamo does; frames that ran eagerly
are listed in `eager_frames` with their reasons.
"""
import collections
import contextlib
import re

from minitorch2._ops import OpOverload, OpOverloadPacket

from . import eval_frame
from .break_reasons import DYNAMO_WORDS, REASONS


class ExplainOutput:
    def __init__(self, graphs, break_reasons, out_guards, eager_frames=()):
        self.graphs = graphs
        self.graph_count = len(graphs)
        self.graph_break_count = self.graph_count - 1  # as torch._dynamo.explain counts (-1: nothing compiled)
        self.break_reasons = break_reasons
        self.eager_frames = list(eager_frames)
        # Dynamo counts call_function nodes only (method calls and module calls are not "ops" here)
        self.ops_per_graph = [[n.target for n in gm.graph.nodes if n.op == "call_function"] for gm in graphs]
        self.op_count = sum(len(ops) for ops in self.ops_per_graph)
        self.out_guards = out_guards

    def __str__(self):
        """The report as torch._dynamo.explain prints it, plus hints from break_reasons.py and the eager frames."""
        lines = [f"Graph Count: {self.graph_count}", f"Graph Break Count: {self.graph_break_count}",
                 f"Op Count: {self.op_count}", "Break Reasons:"]
        for i, reason in enumerate(self.break_reasons, 1):
            lines += [f"  Break Reason {i}:", *_describe_reason(reason)]
        if self.eager_frames:
            lines.append("Frames Run Eagerly:")
            for i, reason in enumerate(self.eager_frames, 1):
                lines += [f"  Frame {i}:", *_describe_reason(reason)]
        lines.append("Ops per Graph:")
        for i, ops in enumerate(self.ops_per_graph, 1):
            lines.append(f"  Ops {i}:")
            lines += [f"    {_op_name(op)}" for op in ops]
        lines.append("Out Guards:")
        for i, guard in enumerate(self.out_guards, 1):
            lines += [f"  Guard {i}:", f"    Create Function: {guard.kind}", f"    Code List: [{guard.code!r}]",
                      f"    Why: {guard.why}"]
        return "\n".join(lines) + "\n"


def _describe_reason(reason):
    """Reason, explanation and hint, and the user line the break happened at (from the Unsupported text)."""
    where = re.search(r"\(instruction (\w+) at (.+):(\d+)\)", reason.ours or "")
    text = re.sub(r" \(instruction \w+ at .+:\d+\)", "", reason.ours or "")
    text = re.sub(r" \[\w+\]$", "", text)  # the reason's code, shown as its explanation below
    what, hint = REASONS.get(reason.code, REASONS["unsupported"])
    lines = [f"    Reason: {text}", f"      Explanation: {what}", f"      Hint: {hint}"]
    if where:
        lines += ["    User Stack:", f"      <FrameSummary file {where.group(2)}, line {where.group(3)} ({where.group(1)})>"]
    return lines


def _op_name(op):
    if isinstance(op, (str, OpOverload, OpOverloadPacket)) or type(op).__name__ == "builtin_function_or_method":
        return str(op)  # a method name ("sin"), aten.sin, or <built-in function mul> as torch prints them
    module = getattr(op, "__module__", None)
    name = getattr(op, "__qualname__", None) or getattr(op, "__name__", None)
    return f"{module}.{name}" if module and name else str(op)


BreakReason = collections.namedtuple("BreakReason", "reason code ours")  # (Dynamo's or our text; our code and text)


def _reason(entry):
    """Dynamo's words for the break where it has them (break_reasons.DYNAMO_WORDS), else ours, with the code."""
    ours = entry.break_reason
    words = next((w for key, w in DYNAMO_WORDS.items() if ours.startswith(key)), ours)
    return BreakReason(words, ours.rsplit("[", 1)[-1].rstrip("]"), ours)


def explain(fn, *extra_args, **extra_kwargs):
    def inner(*args, **kwargs):
        graphs = []
        entries = []

        def recording_backend(gm, example_inputs):
            graphs.append(gm)
            return gm.forward

        eval_frame.reset()
        try:
            with observing(entries.append):
                eval_frame.optimize(recording_backend)(fn)(*args, **kwargs)
        finally:
            eval_frame.reset()
        reasons = [_reason(e) for e in entries if e.break_reason and e.transformed_code and e.graph is not None]
        eager = [_reason(e) for e in entries if e.break_reason and e.transformed_code is None]
        guards = [g for e in entries for g in e.guard_fn.guard_list]
        return ExplainOutput(graphs, reasons, guards, eager)

    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner


@contextlib.contextmanager
def observing(observer):
    """observer(entry) for each CacheEntry translated inside the block."""
    eval_frame._observers.append(observer)
    try:
        yield
    finally:
        eval_frame._observers.remove(observer)


def exporting_guards(guard_export_fn):
    """guard_export_fn(guards) for each frame compiled inside the block, as Dynamo's `guard_export_fn` (optimize()'s
    argument): what the tests read torch's shape guards with, and ours."""
    def observer(entry):
        if not entry.skip_code:  # (a frame with no ops compiles nothing: no guards to export, as Dynamo)
            guard_export_fn(list(entry.guard_fn.guard_list))

    return contextlib.nullcontext() if guard_export_fn is None else observing(observer)
