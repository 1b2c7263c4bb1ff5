"""The facts `run --report` states about one compile, computed from what walkthrough.py recorded.

CLI layer, between walkthrough.py (the live objects of a run) and report_stages.py (the page). Each function
answers one question a reader of the walkthrough asks, from data, not from log text:

    source_marks(compile)        which lines of the user's function made which graph nodes
    partition_facts(aot)         the joint graph cut by the default and the min-cut partitioner, each one's
                                 saved values and bytes, and which of them this compile ran
    kernel_plan(backend_graph)   the loop IR before and after fusion, each kernel and extern call, and which
                                 aten nodes went into which kernel (the lowering replayed with a recorder)
    stage_times(compile)         seconds per stage, from the times the stages reported their work

The one idea to hold: nothing here changes what ran. The partitioners run again on the recorded joint graph
(they do not modify it) and the lowering is replayed on the recorded aten graph; both are deterministic, so
they give what the compile itself did.
"""
import re
from dataclasses import dataclass, field

from backend import ir
from backend.lowering import GraphLowering
from backend.debug import describe, post_fusion_text, pre_fusion_text
from backend.scheduler import ExternStep, KernelStep, Scheduler
from partition.compare import PARTITIONERS
from partition.report import partition_report

_STACK_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


# ---- the user's source --------------------------------------------------------------------------

def source_marks(compile_record):
    """{line number: [names of the graph nodes the line made]} in the compiled function's own file."""
    marks = {}
    if compile_record.graph is None:
        return marks
    for node in compile_record.graph.graph.nodes:
        if node.op not in ("call_function", "call_method", "call_module"):
            continue
        for match in _STACK_LINE.finditer(node.meta.get("stack_trace") or ""):
            if match["file"] == compile_record.code.co_filename:
                marks.setdefault(int(match["line"]), []).append(node.name)
    return marks


def function_lines(code):
    """(first, last) line of a code object's source, its nested functions included."""
    lines = [line for _, _, line in code.co_lines() if line is not None] + [code.co_firstlineno]
    return min(lines), max(lines)


# ---- the partition ------------------------------------------------------------------------------

@dataclass
class Cut:
    """One partitioner's cut of the joint graph."""
    partitioner: str
    fw_module: object
    bw_module: object
    report: object  # partition.report.PartitionReport


@dataclass
class PartitionFacts:
    joint: object
    num_fwd_outputs: int
    primals: int
    tangents: int
    cuts: dict  # partitioner name -> Cut (or the error text when it failed)
    ran: object  # the PartitionReport of the forward and backward this compile used
    ran_as: str = None  # the partitioner whose saved values those are, when one matches


def partition_facts(aot):
    joint = aot.joint
    placeholders = [n.name for n in joint.graph.nodes if n.op == "placeholder"]
    primals = sum(name.startswith("primals") for name in placeholders)
    output = next(n for n in joint.graph.nodes if n.op == "output")
    flat_outputs = output.args[0] if isinstance(output.args[0], (list, tuple)) else [output.args[0]]
    num_fwd = len(flat_outputs) - primals  # the joint returns the forward's outputs, then one gradient per primal
    cuts = {}
    for name, partition_fn in PARTITIONERS.items():
        try:
            fw, bw = partition_fn(joint, None, num_fwd_outputs=num_fwd)
        except Exception as error:  # a cut that fails is reported on the page, the rest of it still drawn
            cuts[name] = f"{type(error).__name__}: {error}"
            continue
        cuts[name] = Cut(name, fw, bw, partition_report(joint, fw, bw, name))
    ran = partition_report(joint, aot.forward, aot.backward, "this compile")
    ran_as = next((name for name, cut in cuts.items() if isinstance(cut, Cut)
                   and cut.report.saved_names == ran.saved_names), None)
    return PartitionFacts(joint, num_fwd, primals, len(placeholders) - primals, cuts, ran, ran_as)


# ---- lowering and fusion ------------------------------------------------------------------------

@dataclass
class Step:
    """One step of a compiled graph's wrapper: a generated kernel or an extern call."""
    name: str  # kernel0, or the extern call's buffer (buf0)
    kind: str  # "kernel" | "extern"
    buffers: list  # the buffers it writes
    text: str  # the kernel's loop IR, or the extern call described
    kernel: object = None  # the loop_ir.Kernel


@dataclass
class KernelPlan:
    pre_fusion: str
    post_fusion: str
    steps: list  # Step, in execution order
    refusals: list
    node_steps: dict = field(default_factory=dict)  # aten node name -> names of the steps that compute it
    buffer_origin: dict = field(default_factory=dict)  # buffer name -> the aten node it holds


class _RecordingLowering(GraphLowering):
    """The backend's lowering, noting for every buffer the aten node whose value it holds."""

    def __init__(self, gm, name):
        super().__init__(gm, name)
        self.results, self.registered_during = {}, {}

    def register_buffer(self, make):
        buffer = super().register_buffer(make)
        self.registered_during[buffer.name] = getattr(self.current_node, "name", None)
        return buffer

    def call_function(self, node, env):
        result = super().call_function(node, env)
        self.results[node.name] = result
        return result


def kernel_plan(backend_graph):
    """The loop IR of one compiled graph before and after fusion, replayed from its aten graph."""
    gm = backend_graph.result._gm
    graph = _RecordingLowering(gm, backend_graph.name).run()
    scheduler = Scheduler(graph).schedule()
    origin = dict(graph.registered_during)  # a buffer realized while lowering a later node: corrected below
    corrected = set()
    for name, result in graph.results.items():
        buffer = result.data if isinstance(result, ir.StorageBox) and result.is_realized() else result
        if isinstance(buffer, ir.Buffer) and buffer.name in origin and buffer.name not in corrected:
            origin[buffer.name] = name
            corrected.add(buffer.name)
    steps = []
    for step in scheduler.steps:
        if isinstance(step, KernelStep):
            steps.append(Step(step.kernel.name, "kernel", [n.name for n in step.group.nodes], str(step.kernel),
                              step.kernel))
        elif isinstance(step, ExternStep):
            outputs = [o.name for o in step.kernel.outputs if o is not None]
            steps.append(Step(step.kernel.name, "extern", [step.kernel.name, *outputs], describe(step.kernel)))
    plan = KernelPlan(pre_fusion_text(graph), post_fusion_text(scheduler), steps, list(scheduler.refusals),
                      buffer_origin=origin)
    for step in steps:
        for buffer in step.buffers:
            names = plan.node_steps.setdefault(origin.get(buffer), [])
            if step.name not in names:
                names.append(step.name)
    for node in reversed(gm.graph.nodes):  # a value no buffer holds is computed inside its users' kernels
        if node.op == "call_function" and node.name not in plan.node_steps:
            inherited = [s for user in node.users for s in plan.node_steps.get(user.name, ())]
            if inherited:
                plan.node_steps[node.name] = list(dict.fromkeys(inherited))
    return plan


# ---- timings ------------------------------------------------------------------------------------

def stage_times(compile_record):
    """[(stage, seconds)] for the stages that ran, in pipeline order (None where a time is not known)."""
    times = []
    end_of_capture = compile_record.captured_at or compile_record.finished
    if end_of_capture is not None:
        times.append(("capture (frontend)", end_of_capture - compile_record.started))
    previous = compile_record.captured_at
    for aot in compile_record.aots:
        if aot.joint_at is not None and previous is not None:
            times.append((f"joint graph {aot.aot_id} (aot trace)", aot.joint_at - previous))
            if aot.forward_at is not None:
                times.append((f"partition {aot.aot_id}", aot.forward_at - aot.joint_at))
        elif aot.forward_at is not None and previous is not None:
            times.append((f"forward graph {aot.aot_id} (aot trace)", aot.forward_at - previous))
        for compiled in aot.compiled:
            times.append((f"{compiled.name} (backend)", compiled.finished - compiled.started))
    return times
