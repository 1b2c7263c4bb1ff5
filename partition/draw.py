"""A picture of the cut: the joint graph as Graphviz DOT, once per partition, side by side.

partition layer, an observer like `partition/report.py`. Each partition of one joint graph becomes a cluster (a
boxed subgraph) in a single DOT document, so the default and the min-cut partition of the same program sit next to
each other and differ only in colour:

    forward      light blue    runs in the forward only
    backward     light red     runs in the backward only
    recomputed   yellow        runs in both: the backward redoes it
    saved        bold outline, double border; the label gives its bytes
    not run      grey, dashed  in neither graph (merged duplicates, unused detaches)
    cut edges    red, bold     a saved value flowing into the backward: what
                               crosses from one pass to the other

The one idea to hold: the drawing is pure text generation (`partition_dot` returns a string, testable structurally);
turning it into SVG is Graphviz's job, done only when the `dot` program is installed (`render_svg`).
"""
import shutil
import subprocess

from .report import partition_report

STYLE = {
    "forward": 'style="filled", fillcolor="#dbe9f6"',
    "backward": 'style="filled", fillcolor="#f8d7d3"',
    "recomputed": 'style="filled", fillcolor="#fff2a8"',
    "input": 'style="filled", fillcolor="#e8e8e8"',
    "unused": 'style="dashed", color="#999999", fontcolor="#999999"',
}
SAVED_STYLE = 'penwidth=2.5, peripheries=2'
LEGEND = ("blue: forward only\nred: backward only\nyellow: recomputed in the backward\n"
          "double border: saved\ngrey dashed: not run\nred arrow: a saved value read by the backward")
CUT_EDGE = 'color="#d62728", penwidth=2.5'


def node_roles(joint_module, fw_module, bw_module):
    """{joint node name: role} with roles forward / backward / recomputed / input / unused."""
    fw = {n.name for n in fw_module.graph.nodes if n.op == "call_function"}
    bw = {n.name for n in bw_module.graph.nodes if n.op == "call_function"}
    roles = {}
    for node in joint_module.graph.nodes:
        if node.op in ("placeholder", "get_attr"):
            roles[node.name] = "input"
        elif node.op != "output":
            roles[node.name] = _ROLES[node.name in fw, node.name in bw]
    return roles


# (run in the forward, run in the backward) -> role
_ROLES = {(True, True): "recomputed", (True, False): "forward", (False, True): "backward", (False, False): "unused"}


def partition_dot(joint_module, partitions, title="partitions"):
    """DOT text for `partitions` ({name: (fw_module, bw_module)}) of one joint graph, one cluster each."""
    lines = [f"digraph {_quote(title)} {{", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [color="#555555"];', f"  legend [shape=note, label={_quote(LEGEND)}];"]
    for index, (name, (fw_module, bw_module)) in enumerate(partitions.items()):
        lines.extend(_cluster(index, name, joint_module, fw_module, bw_module))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cluster(index, name, joint_module, fw_module, bw_module):
    roles = node_roles(joint_module, fw_module, bw_module)
    report = partition_report(joint_module, fw_module, bw_module, name)
    saved = {s.name: s.nbytes for s in report.saved}  # the backward's inputs but the tangents
    cuts = set(cut_edges(joint_module, fw_module, bw_module))
    prefix = f"p{index}_"
    label = f"{name}: {len(saved)} saved, {report.total_bytes} bytes, {len(report.recomputed)} recomputed"
    lines = [f"  subgraph cluster_{index} {{", f"    label={_quote(label)};", '    fontname="Helvetica";']
    for node in joint_module.graph.nodes:
        if node.op == "output":
            continue
        text = node.name if node.op in ("placeholder", "get_attr") else f"{node.name}\n{_short(node)}"
        attrs = [STYLE[roles[node.name]]]
        if node.name in saved:
            text += f"\nsaved: {saved[node.name]} B"
            attrs.append(SAVED_STYLE)
        if node.op == "placeholder":
            attrs.append("shape=ellipse")
        lines.append(f"    {_quote(prefix + node.name)} [label={_quote(text)}, {', '.join(attrs)}];")
    for node in joint_module.graph.nodes:
        for user in node.users:
            if user.op == "output":
                continue
            style = f" [{CUT_EDGE}]" if (node.name, user.name) in cuts else ""
            lines.append(f"    {_quote(prefix + node.name)} -> {_quote(prefix + user.name)}{style};")
    lines.append("  }")
    return lines


def cut_edges(joint_module, fw_module, bw_module):
    """Joint-graph edges (producer, user) along which a saved value reaches the backward."""
    saved = {n.name for n in bw_module.graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")}
    backward = {n.name for n in bw_module.graph.nodes if n.op == "call_function"}
    return [(node.name, user.name) for node in joint_module.graph.nodes if node.name in saved
            for user in node.users if user.name in backward]


def _short(node):
    return getattr(node.target, "__name__", str(node.target))


def _quote(text):
    """A DOT string literal; newlines become DOT's centred line breaks."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def render_svg(dot_text):
    """SVG text from DOT text via Graphviz's `dot`, or None when Graphviz is not installed."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    return subprocess.run([dot, "-Tsvg"], input=dot_text, capture_output=True, text=True, check=True).stdout
