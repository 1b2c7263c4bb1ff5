"""Dynamo's break at `t.requires_grad_()` of an intermediate tensor whose grad-requiring result leaves the frame.

Frontend layer, called from variables/tensor.py (at the method call), OutputGraph.finish (at the return) and
eval_frame.translate_split (at another break, whose graph outputs the frame's live tensors). AOT's
functionalization would drop the requires_grad_() of a tensor made in the graph, so Dynamo 2.13 checks the graph's
outputs at the end: if one requires grad and derives from such a call, it restarts the analysis with a graph break at
the call (the call runs eagerly, the rest resumes after it; `w = a.detach().requires_grad_()` then reaches the resume
function as a leaf). Here the break is prepared when the call is traced, as the translator would raise it there
(where it stands in each frame being traced), and raised from the return if the outputs show the leak: the frame
is then replayed up to that call and split there, as at any other break.
"""
from minitorch2 import _logging

from ..break_reasons import REASONS
from ..exc import Unsupported
from . import dicts, lists, tensor  # (modules: tensor.py imports this one)


def note_call(tx, tensor_var, name):
    """At `t.requires_grad_(...)` of a tensor that is no graph input: the break it becomes if its result leaks."""
    og = tx.output
    if name != "requires_grad_" or tensor_var.source is not None or getattr(og, "requires_grad_break", None):
        return
    e = Unsupported("requires_grad_() intermediate leaked as output: Dynamo breaks at the call", "graph_break")
    for tracer in reversed(og.tracers):  # innermost first, as the exception would pass through them
        e.add_location(tracer.current_instruction, tracer.code.co_filename, tracer.lineno)
        tracer.note_break_context(e, tracer.current_instruction)
    og.requires_grad_break = e


def check_outputs(og, return_var):
    """Raise the prepared break if a returned tensor requires grad and derives from an intermediate's
    requires_grad_() (Dynamo's taint: its node and every node computed from it)."""
    if _leaks(og, _tensors(return_var.realize())):
        raise og.requires_grad_break


def leak_at_break(og, code):
    """At another break: the prepared break (logged, as Dynamo's restart logs it) if a tensor the graph cut there
    outputs leaks and the frame (`code`) can resume at the requires_grad_(), else None. Dynamo checks every graph it
    compiles, so it restarts there too."""
    from ..resume import why_cannot_resume  # (resume.py imports this package)
    e = getattr(og, "requires_grad_break", None)
    if e is None or not _leaks(og, og.outputs) or why_cannot_resume(code, e) is not None:
        return None
    _logging.log_graph_break(e.where.rsplit(" at ", 1)[-1], e.msg, *REASONS["graph_break"])
    return e


def _leaks(og, tensor_vars):
    if getattr(og, "requires_grad_break", None) is None:
        return False
    tainted = set()
    for node in og.graph.nodes:
        seed = node.op == "call_method" and node.target == "requires_grad_" and node.args[0].op != "placeholder"
        if seed or any(arg in tainted for arg in node.all_input_nodes):
            tainted.add(node)
    return any(v.example_value.requires_grad and v.proxy.node in tainted for v in tensor_vars)


def _tensors(var):
    """The tensors of a returned value: itself, or in its (nested) tuples, lists and dict values."""
    if isinstance(var, tensor.TensorVariable):
        yield var
    items = var.items if isinstance(var, (lists.BaseListVariable, dicts.DictVariable)) else ()
    for item in items.values() if isinstance(items, dict) else items:
        yield from _tensors(item.realize())
