"""The walkthrough of `run --report`: every compile of a run, stage by stage, narrated, as HTML.

CLI layer. The child of a --report run calls `write_walkthrough` when its script ends; report.py puts the
fragment it writes into the page. Per compile (a frame's compile id, in the order compiles started), one
<section class="compile"> holds one <section class="stage" data-stage=...> per stage the compile went through:

    source     the user's function, the lines that made graph nodes marked (and the line that broke it)
    capture    the frontend's work: recompile reason, graph break (reason, hint, user stack), guards
    dynamo     the captured graph: code and picture
    joint      aot_autograd's joint graph; primals and tangents
    partition  the joint graph cut by the default and the min-cut partitioner, side by side, saved bytes
    aot        the forward and backward graphs this compile ran
    loop-ir    each compiled graph's loop IR before and after fusion, a picture of aten nodes -> kernels
    kernels    each kernel's loop IR, Triton and LLVM IR, the extern calls, the wrapper
    timings    the seconds each stage took

Each stage opens with a sentence or two computed from the data (report_facts.py) and a link to the module that
did the work; pictures are SVG drawn by svg.py. All text goes through html.escape.

The one idea to hold: a stage appears when the compile reached it, so a frame that ran eagerly shows its
capture and why, and a backend that compiles no kernels shows no loop IR but says so.
"""
import collections
import html
import importlib.util
import linecache
import os
import sys

from backend.codegen.llvm_emit import KernelEmitter
from partition.draw import STYLE, cut_edges, node_roles

from . import report_facts, svg
from .report_facts import Cut

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_ROLE_FILL = {role: style.split('fillcolor="')[1].split('"')[0] if "fillcolor" in style else "#ffffff"
              for role, style in STYLE.items()}
_KERNEL_COLORS = ["#cfe8cf", "#fde2b8", "#d7d2f0", "#cde7f0", "#f6d0e4", "#e6efb8", "#f3d6c9", "#d0f0e6"]
_PARTITIONER_TITLES = {"default_partition": "default partition",
                       "min_cut_rematerialization_partition": "min-cut partition", "this compile": "cut that ran"}
_PARTITIONER_MODULES = {"default_partition": "partition/default.py",
                        "min_cut_rematerialization_partition": "partition/min_cut.py"}


def write_walkthrough(path, collector, script):
    with open(path, "w", encoding="utf-8") as f:
        f.write(render_walkthrough(collector, script))


def render_walkthrough(collector, script):
    compiles = list(collector.compiles.values())
    graphs = sum(c.graph is not None for c in compiles)
    breaks = sum(c.graph_break is not None for c in compiles)
    recompiles = sum(bool(c.recompile_failures) for c in compiles)
    parts = ['<section id="walkthrough"><h2>The walkthrough</h2>',
             _p(f"The script made {_count(len(compiles), 'compile')} ({_count(graphs, 'graph')} captured, "
                f"{_count(breaks, 'graph break')}, {_count(recompiles, 'recompile')}). Each compile below follows "
                f"one frame through the pipeline in the order the stages ran: capture, joint graph, partition, "
                f"forward and backward, loop IR, kernels.")]
    if compiles:
        parts.append("<nav><ol>" + "".join(
            f'<li><a href="#{_anchor(c)}">compile {_e(c.compile_id)}: {_e(c.code.co_name)}</a></li>'
            for c in compiles) + "</ol></nav>")
    for record in compiles:
        parts.append(_compile_section(record, compiles))
    if collector.unclaimed:
        parts.append(_p(f"{_count(len(collector.unclaimed), 'graph')} went to the backend outside any aot "
                        f"compile: {', '.join(g.name for g in collector.unclaimed)}."))
    parts.append("</section>")
    return "\n".join(parts) + "\n"


def _compile_section(record, compiles):
    code = record.code
    where = f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}"
    parts = [f'<section class="compile" id="{_anchor(record)}" data-compile="{_e(record.compile_id)}">',
             f"<h2>Compile {_e(record.compile_id)}: <code>{_e(code.co_name)}</code> ({_e(where)})</h2>"]
    stages = [("source", "The user's code", _source), ("capture", "Capture: the frontend", _capture),
              ("dynamo", "The captured graph", _dynamo), ("joint", "The joint graph", _joint),
              ("partition", "The partition: what the forward saves", _partition),
              ("aot", "The forward and backward graphs", _aot), ("loop-ir", "Loop IR and fusion", _loop_ir),
              ("kernels", "The kernels", _kernels), ("timings", "Time per stage", _timings)]
    for number, (stage, title, render) in enumerate(stages, 1):
        try:
            body = render(record, compiles)
        except Exception as error:  # one stage that cannot be shown does not cost the reader the others
            body = _p(f"This stage could not be shown: {type(error).__name__}: {error}", "error")
        if body:
            parts.append(f'<section class="stage" data-stage="{stage}"><h3>{number}. {_e(title)}</h3>{body}</section>')
    parts.append("</section>")
    return "\n".join(parts)


# ---- source and capture -------------------------------------------------------------------------

def _source(record, _compiles):
    code = record.code
    first, last = report_facts.function_lines(code)
    marks = report_facts.source_marks(record)
    broken_at = _break_line(record)
    rows = []
    for number in range(first, last + 1):
        text = linecache.getline(code.co_filename, number).rstrip("\n")
        classes, title = [], ""
        if number in marks:
            classes.append("made-nodes")
            title = "made " + ", ".join(dict.fromkeys(marks[number]))
        if number == broken_at:
            classes.append("graph-break")
            title = (title + "; " if title else "") + "the graph breaks here"
        rows.append(f'<span class="line {" ".join(classes)}" title="{_e(title)}" data-line="{number}">'
                    f'<span class="lineno">{number:4d}</span> {_e(text)}</span>')
    lines = f"Lines {first}-{last}" if last > first else f"Line {first}"
    sentence = (f"{lines} of {_e(code.co_filename)}. "
                + (f"The {_count(len(marks), 'highlighted line')} made the graph's nodes (hover one to see which). "
                   if marks else "No line made a graph node. "))
    if broken_at and first <= broken_at <= last:
        sentence += f"Line {broken_at}, in red, broke the graph."
    elif broken_at:
        sentence += f"The graph broke at line {broken_at}, inside a function this one calls."
    return _p(sentence) + '<pre class="source">' + "".join(rows) + "</pre>"


def _break_line(record):
    if record.graph_break is None:
        return None
    where = record.graph_break[0]
    if where.rsplit(":", 1)[0] != record.code.co_filename:
        return None
    try:
        return int(where.rsplit(":", 1)[1])
    except ValueError:
        return None


def _capture(record, compiles):
    entry = record.entry
    parts = []
    ops = _call_nodes(record.graph) if record.graph is not None else []
    guards = list(entry.guard_fn.guard_list) if entry is not None else []
    sentence = (f"The frontend read <code>{_e(record.code.co_name)}</code>'s bytecode and ran it symbolically: "
                + (f"{_count(len(ops), 'tensor operation')} became graph nodes" if ops
                   else "no tensor operation was captured")
                + f"; {_count(len(guards), 'guard')} decide when this compiled version may be reused.")
    parts.append(_p(sentence, links=["frontend/symbolic_convert.py", "frontend/guards.py", "frontend/eval_frame.py"]))
    if record.recompile_failures:
        items = "".join(f"<li>cache entry {_e(entry_id)}: {_e(text)}</li>"
                        for entry_id, text in record.recompile_failures)
        parts.append(_p(f"This is a recompile: the frame had {_count(len(record.recompile_failures), 'cached version')}"
                        f" already, and each failed a guard on this call:") + f'<ul class="recompile">{items}</ul>')
    if record.graph_break is not None:
        where, reason, explanation, hint = record.graph_break
        resume = _resume_compile(record, compiles)
        after = (f' The rest of the frame runs in <code>{_e(resume.code.co_name)}</code>, compiled as its own frame '
                 f'(<a href="#{_anchor(resume)}">compile {_e(resume.compile_id)}</a>).' if resume else "")
        tail = (" The graph before the break was compiled; Python runs the breaking instruction itself."
                if record.graph is not None else " Nothing before it was captured.")
        parts.append(_p(f"Graph break at {_e(where)}: {_e(reason)}.{tail}{after}", "graph-break-reason"))
        parts.append(f'<dl class="graph-break"><dt>Explanation</dt><dd>{_e(explanation)}</dd>'
                     f"<dt>Hint</dt><dd>{_e(hint)}</dd>"
                     f"<dt>User stack</dt><dd>{_user_stack(record)}</dd></dl>")
    elif entry is not None and entry.break_reason:
        parts.append(_p(f"The frame runs eagerly: {_e(entry.break_reason)}.", "graph-break-reason"))
    if guards:
        items = "".join(f"<li><code>{_e(g.code)}</code>: {_e(g.why)}</li>" for g in guards)
        parts.append(f"<details><summary>The {_count(len(guards), 'guard')}</summary><ul>{items}</ul>"
                     + (_pre(record.guards_source) if record.guards_source else "") + "</details>")
    return "".join(parts)


def _resume_compile(record, compiles):
    line = _break_line(record)
    prefix = f"torch_dynamo_resume_in_{record.code.co_name}_at_{line}"
    later = compiles[compiles.index(record) + 1:]
    return next((c for c in later if c.code.co_name == prefix), None)


def _user_stack(record):
    frames = [f"{f.filename}:{f.lineno} in {f.name}" + (f": {f.line.strip()}" if f.line else "")
              for f in record.stack]
    frames.append(f"{record.graph_break[0]} in {record.code.co_name}")
    return "<br>".join(_e(frame) for frame in frames)


# ---- the graphs ---------------------------------------------------------------------------------

def _dynamo(record, _compiles):
    gm = record.graph
    if gm is None:
        return ""
    inputs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    parameters = [n for n in inputs if n.name.startswith("g_")]
    calls = collections.Counter(_target_name(n) for n in _call_nodes(gm))
    listed = ", ".join(name + (f" x{k}" if k > 1 else "") for name, k in calls.items())
    sentence = (f"<code>{_e(record.graph_name)}</code> is what a backend receives: {_count(len(inputs), 'input')}"
                + (f" ({len(parameters)} of them parameters, buffers or globals)" if parameters else "")
                + f" and {_count(sum(calls.values()), 'call')}, still at torch's level: {_e(listed)}.")
    return (_p(sentence, links=["frontend/output_graph.py"]) + _picture(_fx_boxes(gm), f"{record.graph_name}")
            + _pre(_readable(gm)))


def _joint(record, _compiles):
    parts = []
    for aot in record.aots:
        if aot.joint is None:
            if aot.forward is not None:
                parts.append(_p(f"No output requires grad, so aot_autograd traced the forward alone (an inference "
                                f"graph of {_count(len(_call_nodes(aot.forward)), 'aten op')}): there is no joint "
                                f"graph and no partition.", links=["autograd/aot.py"]))
            continue
        facts = _facts(aot)
        parts.append(_p(
            f"aot_autograd traced the forward and the backward together, on fake tensors, into one graph of "
            f"{_count(len(_call_nodes(aot.joint)), 'aten op')}. Its inputs are the <b>primals</b>, the forward's "
            f"own inputs ({facts.primals} here), and the <b>tangents</b>, the gradient arriving at each output that "
            f"requires grad ({facts.tangents} here: at the first .backward() they hold ones for a scalar loss). "
            f"It returns the forward's {_count(facts.num_fwd_outputs, 'output')}, then one gradient per primal.",
            links=["autograd/aot.py", "autograd/proxy_tensor.py"]))
        parts.append(_pre(_readable(aot.joint)))
    if not record.aots and record.graph is not None:
        parts.append(_p("This backend did not call aot_autograd: no joint graph, no partition."))
    return "".join(parts)


def _partition(record, _compiles):
    parts = []
    for aot in record.aots:
        if aot.joint is None or aot.backward is None:
            continue
        facts = _facts(aot)
        parts.append(_p(_partition_story(facts, bool(aot.compiled)), links=list(_PARTITIONER_MODULES.values()) + ["partition/draw.py"]))
        pictures, tables = [], []
        cuts = dict(facts.cuts)
        if facts.ran_as is None:  # the cut that ran matches neither: drawn too
            cuts["this compile"] = Cut("this compile", aot.forward, aot.backward, facts.ran)
        for name, cut in cuts.items():
            title = _PARTITIONER_TITLES.get(name, name)
            if not isinstance(cut, Cut):
                tables.append(_p(f"The {title} failed: {_e(cut)}", "error"))
                continue
            report = cut.report
            caption = f"{title}: saves {len(report.saved)} ({_bytes(report.total_bytes)})"
            pictures.append(f'<figure class="cut" data-partitioner="{_e(name)}">'
                            f"{svg.draw(_cut_boxes(facts.joint, cut), _cut_arrows(facts.joint, cut), caption)}"
                            f"<figcaption>{_e(caption)}, recomputes {len(report.recomputed)}</figcaption></figure>")
            tables.append(f"<h4>{_e(title)}</h4>{_saved_table(report)}")
        parts.append(_p("Blue runs in the forward only, red in the backward only, yellow in both (recomputed); a "
                        "double border is saved, its bytes in the box; red arrows carry a saved value into the "
                        "backward."))
        parts.append('<div class="side-by-side">' + "".join(pictures) + "</div>" + "".join(tables))
    return "".join(parts)


def _partition_story(facts, inductor):
    sentences = []
    default, min_cut = (facts.cuts.get(name) for name in PARTITION_ORDER)
    if isinstance(default, Cut) and isinstance(min_cut, Cut):
        d, m = default.report, min_cut.report
        sentences.append(f"The default partition saves every forward value the backward reads: "
                         f"{_count(len(d.saved), 'tensor')}, {_bytes(d.total_bytes)}. The min-cut saves "
                         f"{_count(len(m.saved), 'tensor')}, {_bytes(m.total_bytes)}, choosing the cheapest values "
                         f"to keep (a minimum cut of the joint graph) and recomputing the rest.")
        only_default = [s for s in d.saved if s.name not in m.saved_names]
        only_min_cut = [s for s in m.saved if s.name not in d.saved_names]
        if not only_default and not only_min_cut:
            sentences.append("Here both save the same values.")
        else:
            sentences.append(f"Where they differ: the default saves {_saved_list(only_default)}; the min-cut "
                             f"saves {_saved_list(only_min_cut)} instead.")
        pointwise = [n for n in facts.joint.graph.nodes if n.name in m.recomputed
                     and "pointwise" in {str(t) for t in getattr(n.target, "tags", ())}]
        if pointwise:
            names = ", ".join(n.name for n in pointwise)
            sentences.append(f"{names} {'is' if len(pointwise) == 1 else 'are'} recomputed in the backward: "
                             f"pointwise, so redoing {'it' if len(pointwise) == 1 else 'them'} from what is saved "
                             f"costs less than storing the result.")
    ran = facts.ran
    used = _PARTITIONER_TITLES.get(facts.ran_as, facts.ran_as)
    why = ("the inductor backend rewrites the joint graph first (backend/joint_graph.py) and tells its min-cut "
           "which inputs are parameters, which live anyway, so what it saves can differ from the two cuts of the "
           "graph as traced" if inductor else "this backend's partition function cuts otherwise")
    sentences.append(f"This compile ran the {used} (its backward reads the same saved values)." if used else
                     f"This compile's own cut, drawn third, saves {_count(len(ran.saved), 'tensor')} "
                     f"({_bytes(ran.total_bytes)}): {why}.")
    return " ".join(sentences)


PARTITION_ORDER = ("default_partition", "min_cut_rematerialization_partition")


def _aot(record, _compiles):
    parts = []
    for aot in record.aots:
        if aot.forward is None:
            continue
        if aot.backward is None:
            parts.append(_p(f"The inference graph: {_count(len(_call_nodes(aot.forward)), 'aten op')}.",
                            links=["autograd/aot.py"]) + _pre(_readable(aot.forward)))
            continue
        saved = [n for n in aot.backward.graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")]
        tangents = [n for n in aot.backward.graph.nodes if n.op == "placeholder" and n.name.startswith("tangents")]
        parts.append(_p(f"The forward ({_count(len(_call_nodes(aot.forward)), 'op')}) returns its outputs and "
                        f"then the {_count(len(saved), 'saved value')}; the backward "
                        f"({_count(len(_call_nodes(aot.backward)), 'op')}) takes those and "
                        f"{_count(len(tangents), 'tangent')} and returns the gradients. The forward is compiled "
                        f"now; the backward when .backward() first runs.", links=["autograd/aot.py"]))
        parts.append(f"<h4>Forward graph {aot.aot_id}</h4>{_pre(_readable(aot.forward))}"
                     f"<h4>Backward graph {aot.aot_id}</h4>{_pre(_readable(aot.backward))}")
    return "".join(parts)


# ---- the backend --------------------------------------------------------------------------------

def _compiled_graphs(record):
    return [compiled for aot in record.aots for compiled in aot.compiled]


def _loop_ir(record, _compiles):
    compiled = _compiled_graphs(record)
    if not compiled:
        return _p("This backend compiled no kernels: its graphs run as they are (eager aten calls).") \
            if record.aots else ""
    parts = []
    for graph in compiled:
        plan = _plan(graph)
        kernels = [s for s in plan.steps if s.kind == "kernel"]
        externs = [s for s in plan.steps if s.kind == "extern"]
        ops = len(_call_nodes(graph.result._gm))
        sentence = (f"<code>{_e(graph.name)}</code>: lowering turned {_count(ops, 'aten op')} into buffers of loop IR "
                    f"(below, before fusion); the scheduler fused them into {_count(len(kernels), 'kernel')}"
                    + (f" beside {_count(len(externs), 'extern call')} "
                       f"({_e(', '.join(_extern_op(s) for s in externs))}: a library routine, not a generated loop)"
                       if externs else "") + ".")
        if plan.refusals:
            sentence += f" It refused {_count(len(plan.refusals), 'fusion')}, each with its reason (after fusion)."
        if graph.result.from_cache:
            sentence += " (This graph came from the graph cache; its fusion was replayed for the page.)"
        parts.append(_p(sentence, links=["backend/lowering.py", "backend/scheduler.py"]))
        parts.append(_picture(_kernel_boxes(graph.result._gm, plan), f"{graph.name}: which kernel computes each op"))
        parts.append(f"<details><summary>{_e(graph.name)}: IR before fusion</summary>{_pre(plan.pre_fusion)}</details>"
                     f"<h4>{_e(graph.name)}: after fusion</h4>{_pre(plan.post_fusion)}")
    return "".join(parts)


def _kernels(record, _compiles):
    parts = []
    triton = _triton_emitter()
    for graph in _compiled_graphs(record):
        plan = _plan(graph)
        parts.append(f"<h4>{_e(graph.name)}</h4>")
        parts.append(_p(f"{_count(len([s for s in plan.steps if s.kind == 'kernel']), 'kernel')}, each shown as "
                        f"loop IR, as Triton" + ("" if triton else " (Triton is not installed here)")
                        + " and as the LLVM IR that runs on this CPU; the wrapper calls them in order.",
                        links=["backend/codegen/llvm.py", "backend/codegen/triton.py", "backend/wrapper.py"]))
        for step in plan.steps:
            origins = [plan.buffer_origin.get(b) for b in step.buffers]
            made_of = ", ".join(dict.fromkeys(o for o in origins if o))
            if step.kind == "extern":
                parts.append(f'<div class="extern"><b>extern call {_e(step.name)}</b> ({_e(made_of)}): '
                             f"<code>{_e(step.text)}</code></div>")
                continue
            parts.append(f'<div class="kernel" data-kernel="{_e(step.name)}"><b>{_e(step.name)}</b> computes '
                         f"{_e(made_of)}{_pre(step.text)}")
            if triton:
                parts.append(f"<details open><summary>Triton</summary>{_pre(triton(step.kernel).module_text())}"
                             "</details>")
            parts.append(f"<details><summary>LLVM IR</summary>{_pre(KernelEmitter(step.kernel).module_text())}"
                         "</details></div>")
        parts.append(f"<details><summary>{_e(graph.name)}: the wrapper (output_code.py)</summary>"
                     f"{_pre(graph.result.source)}</details>")
    return "".join(parts)


def _timings(record, _compiles):
    times = report_facts.stage_times(record)
    if not times:
        return ""
    slowest = max(times, key=lambda item: item[1])
    rows = "".join(f"<tr><td>{_e(stage)}</td><td>{seconds * 1e3:.1f} ms</td></tr>" for stage, seconds in times)
    total = (record.finished - record.started) if record.finished else None
    return (_p(f"The slowest stage was {_e(slowest[0])} ({slowest[1] * 1e3:.1f} ms)"
               + (f"; the compile took {total * 1e3:.1f} ms before the frame first ran" if total else "")
               + "; a backward's backend time is that of its compile, at the first .backward().")
            + f'<table class="timings"><tr><th>stage</th><th>time</th></tr>{rows}</table>')


# ---- pictures -----------------------------------------------------------------------------------

def _fx_boxes(gm):
    boxes, arrows = [], []
    for node in gm.graph.nodes:
        if node.op == "output":
            continue
        if node.op in ("placeholder", "get_attr"):
            boxes.append(svg.Box(node.name, [node.name], fill=_ROLE_FILL["input"], rounded=True))
        else:
            boxes.append(svg.Box(node.name, [node.name, _target_name(node)]))
        arrows += [svg.Arrow(i.name, node.name) for i in node.all_input_nodes]
    return boxes, arrows


def _cut_boxes(joint, cut):
    roles = node_roles(joint, cut.fw_module, cut.bw_module)
    saved = {s.name: s.nbytes for s in cut.report.saved}
    boxes = []
    for node in joint.graph.nodes:
        if node.op == "output":
            continue
        role = roles[node.name]
        lines = [node.name] if node.op in ("placeholder", "get_attr") else [node.name, _target_name(node)]
        if node.name in saved:
            lines.append(f"saved: {saved[node.name]} B")
        boxes.append(svg.Box(node.name, lines, fill=_ROLE_FILL[role], dashed=role == "unused",
                             double=node.name in saved, rounded=node.op == "placeholder", title=f"{node.name}: {role}"))
    return boxes


def _cut_arrows(joint, cut):
    cuts = set(cut_edges(joint, cut.fw_module, cut.bw_module))
    return [svg.Arrow(i.name, node.name, *(("#d62728", 2.5) if (i.name, node.name) in cuts else ()))
            for node in joint.graph.nodes if node.op != "output" for i in node.all_input_nodes]


def _kernel_boxes(gm, plan):
    colors = {s.name: _KERNEL_COLORS[i % len(_KERNEL_COLORS)]
              for i, s in enumerate(s for s in plan.steps if s.kind == "kernel")}
    boxes, arrows = [], []
    for node in gm.graph.nodes:
        if node.op == "output":
            continue
        steps = plan.node_steps.get(node.name, [])
        if node.op == "placeholder":
            boxes.append(svg.Box(node.name, [node.name], fill=_ROLE_FILL["input"], rounded=True))
        else:
            kernel = next((s for s in steps if s in colors), None)
            where = ", ".join(s if s in colors else f"extern {s}" for s in steps) or "no code (a view)"
            boxes.append(svg.Box(node.name, [node.name, _target_name(node), f"-> {where}"],
                                 fill=colors.get(kernel, "#ffffff"), double=bool(steps) and kernel is None,
                                 title=f"{node.name}: {where}"))
        arrows += [svg.Arrow(i.name, node.name) for i in node.all_input_nodes]
    return boxes, arrows


def _picture(boxes_and_arrows, label):
    boxes, arrows = boxes_and_arrows
    return f'<div class="picture">{svg.draw(boxes, arrows, label)}</div>'


# ---- helpers ------------------------------------------------------------------------------------

_facts_cache, _plan_cache = {}, {}


def _facts(aot):
    if id(aot) not in _facts_cache:
        _facts_cache[id(aot)] = (aot, report_facts.partition_facts(aot))
    return _facts_cache[id(aot)][1]


def _plan(graph):
    if id(graph) not in _plan_cache:
        _plan_cache[id(graph)] = (graph, report_facts.kernel_plan(graph))
    return _plan_cache[id(graph)][1]


def _triton_emitter():
    """backend.codegen.triton's emitter when Triton is installed (only its text is used: no GPU needed)."""
    if "backend.codegen.triton" not in sys.modules and importlib.util.find_spec("triton") is None:
        return None
    # the kernels have run; Triton decides at import whether to interpret, which a text needs no GPU for
    os.environ.setdefault("TRITON_INTERPRET", "1")
    from backend.codegen.triton import TritonEmitter  # here, not at the top: importing Triton takes seconds

    return TritonEmitter


def _saved_table(report):
    rows = "".join(f"<tr><td>{_e(s.name)}</td><td>{_e(s.op)}</td><td>{_e(list(s.shape))}</td><td>{_e(s.dtype)}</td>"
                   f"<td>{s.nbytes}</td></tr>" for s in report.saved)
    recomputed = ", ".join(report.recomputed) or "nothing"
    return (f'<table class="saved"><tr><th>saved</th><th>produced by</th><th>shape</th><th>dtype</th>'
            f"<th>bytes</th></tr>{rows}<tr><td colspan=4>total</td><td>{report.total_bytes}</td></tr></table>"
            + _p(f"Recomputed in the backward: {_e(recomputed)}."))


def _saved_list(saved):
    if not saved:
        return "nothing more"
    return ", ".join(f"{s.name} ({s.dtype}{list(s.shape)}, {_bytes(s.nbytes)})" for s in saved)


def _extern_op(step):
    return step.text.split("=", 1)[1].split("(", 1)[0].strip() if "=" in step.text else step.name


def _call_nodes(gm):
    return [n for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")]


def _target_name(node):
    if node.op == "call_method":
        return f".{node.target}()"
    target = node.target
    name = getattr(target, "__name__", None) or str(target)
    return str(target) if hasattr(target, "overloadpacket") else name


def _readable(gm):
    return gm.print_readable(print_output=False, include_stride=True, include_device=True)


def _bytes(n):
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.1f} KiB"


def _count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _anchor(record):
    return "compile-" + record.compile_id.replace("/", "-")


def _p(text, css_class="narration", links=()):
    link_html = "".join(f' <a class="module" href="file://{_e(os.path.join(_ROOT, path))}">{_e(path)}</a>'
                        for path in links)
    modules = f' <span class="modules">({link_html.strip()})</span>' if links else ""
    return f'<p class="{css_class}">{text}{modules}</p>'


def _pre(text):
    return f"<pre>{_e(text)}</pre>" if text else ""


def _e(text):
    return html.escape(str(text))
