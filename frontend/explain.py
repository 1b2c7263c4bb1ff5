"""explain(fn)(*args): what capture made of a call: graphs, breaks and their reasons, guards.

Frontend layer (plays torch._dynamo.explain). It forgets fn's cache, runs the
call once with a backend that records each graph, and reports every cache
entry the call created.
"""
from . import eval_frame
from .break_reasons import explain_reason


class ExplainOutput:
    def __init__(self, graphs, break_reasons, out_guards):
        self.graphs = graphs
        self.graph_count = len(graphs)
        self.graph_break_count = len(break_reasons)
        self.break_reasons = break_reasons
        self.ops_per_graph = [[n.target for n in gm.graph.nodes if n.op.startswith("call")] for gm in graphs]
        self.op_count = sum(len(ops) for ops in self.ops_per_graph)
        self.out_guards = out_guards

    def __str__(self):
        lines = [f"Graph Count: {self.graph_count}", f"Graph Break Count: {self.graph_break_count}",
                 f"Op Count: {self.op_count}", "Break Reasons:"]
        for i, reason in enumerate(self.break_reasons, 1):
            lines += [f"  Break Reason {i}:", f"    Reason: {reason.reason}", f"    Why: {reason.explanation}"]
        lines.append("Ops per Graph:")
        for i, ops in enumerate(self.ops_per_graph, 1):
            lines.append(f"  Ops {i}:")
            lines += [f"    {getattr(op, '__name__', op)}" for op in ops]
        lines.append("Out Guards:")
        lines += [f"  {g}" for g in self.out_guards]
        return "\n".join(lines) + "\n"


class BreakReason:
    def __init__(self, reason, code):
        self.reason = reason
        self.code = code
        self.explanation = explain_reason(code)

    def __repr__(self):
        return f"BreakReason({self.reason!r})"


def explain(fn, *extra_args, **extra_kwargs):
    def inner(*args, **kwargs):
        graphs = []
        entries = []

        def recording_backend(gm, example_inputs):
            graphs.append(gm)
            return gm.forward

        eval_frame.CACHE.pop(getattr(getattr(fn, "forward", fn), "__code__", None), None)
        eval_frame._observers.append(entries.append)
        try:
            eval_frame.optimize(recording_backend)(fn)(*args, **kwargs)
        finally:
            eval_frame._observers.remove(entries.append)
        reasons = [BreakReason(e.break_reason, e.break_reason.rsplit("[", 1)[-1].rstrip("]"))
                   for e in entries if e.break_reason]
        guards = [g for e in entries for g in e.guard_fn.guard_list]
        return ExplainOutput(graphs, reasons, guards)

    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner
