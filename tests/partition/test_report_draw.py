"""The activation-memory report and the DOT picture of the cut, checked structurally."""
import re
import shutil

import minitorch2
import partition
from partition import draw

from .helpers import joint_of


def _reports(name):
    joint, n = joint_of(minitorch2, name)
    return joint, n, partition.compare_partitions(joint, n)


def test_report_lists_saved_tensors_bytes_and_recomputation():
    _, _, reports = _reports("sin_cos_chain")
    default, min_cut = reports["default_partition"], reports["min_cut_rematerialization_partition"]
    assert default.saved_names == ["primals_1", "sin", "cos"]
    assert [s.op for s in default.saved] == ["placeholder", "aten.sin.default", "aten.cos.default"]
    assert all(s.shape == (8,) and s.dtype == "float32" and s.nbytes == 32 for s in default.saved)
    assert default.total_bytes == 96 and default.recomputed == []
    assert min_cut.saved_names == ["primals_1"] and min_cut.total_bytes == 32
    assert min_cut.recomputed == ["sin", "cos"]


def test_report_prints_a_table():
    _, _, reports = _reports("gelu_mul")
    text = str(reports["default_partition"])
    assert text.splitlines()[0] == ("default_partition: saves 3 tensors (3.0 KiB), recomputes 0 ops; "
                                    "forward 3 ops, backward 4 ops")
    assert re.search(r"gelu\s+aten\.gelu\.default\s+\[16, 16\]\s+float32\s+1024", text)
    assert "recomputed in backward: (nothing)" in text
    assert "recomputed in backward: gelu" in str(reports["min_cut_rematerialization_partition"])


def test_report_of_a_partition_made_by_aot():
    graphs = {}

    def keep(tag):
        def compiler(gm, _):
            graphs[tag] = gm
            return gm.forward
        return compiler

    joints = {}

    def cut(joint, inputs, **kwargs):
        joints["joint"] = joint
        return partition.min_cut_rematerialization_partition(joint, inputs, **kwargs)

    x = minitorch2.randn(4, 4, requires_grad=True)
    w = minitorch2.randn(4, 4, requires_grad=True)
    import autograd
    autograd.aot_function(lambda a, b: (a @ b).relu().sum(), keep("fw"), keep("bw"), partition_fn=cut)(x, w).backward()
    report = partition.partition_report(joints["joint"], graphs["fw"], graphs["bw"], "min-cut")
    assert report.saved_names == [n.name for n in graphs["bw"].graph.nodes
                                  if n.op == "placeholder" and not n.name.startswith("tangents")]
    assert report.total_bytes == sum(s.nbytes for s in report.saved) > 0


def test_dot_has_one_cluster_per_partition_and_marks_the_cut():
    joint, n = joint_of(minitorch2, "sin_cos_chain")
    text = partition.draw_partitions(joint, n)
    assert text.startswith('digraph "partitions" {') and text.rstrip().endswith("}")
    assert text.count("{") == text.count("}")
    assert text.count("subgraph cluster_") == 2
    assert 'label="default_partition: 3 saved, 96 bytes, 0 recomputed"' in text
    assert 'label="min_cut_rematerialization_partition: 1 saved, 32 bytes, 2 recomputed"' in text
    # saved values: double border and their bytes; recomputed values: yellow, in the min-cut cluster only
    assert re.search(r'"p0_sin" \[label="sin\\nsin.default\\nsaved: 32 B", [^]]*peripheries=2', text)
    assert re.search(r'"p1_sin" \[label="sin\\nsin.default", style="filled", fillcolor="#fff2a8"\]', text)
    assert "#fff2a8" not in text.split("subgraph cluster_1")[0]
    # every joint node appears in both clusters; cut edges (saved value -> backward user) are red
    nodes = [node.name for node in joint.graph.nodes if node.op != "output"]
    for prefix in ("p0_", "p1_"):
        assert all(f'"{prefix}{name}" [' in text for name in nodes)
    red = re.findall(r'"(p\d_\w+)" -> "(p\d_\w+)" \[color="#d62728"', text)
    assert sorted(red) == sorted([("p0_primals_1", "p0_cos_2"), ("p0_sin", "p0_sin_2"), ("p0_cos", "p0_cos_1"),
                                  ("p1_primals_1", "p1_sin"), ("p1_primals_1", "p1_cos_2")])


def test_cut_edges_lead_from_saved_values_into_the_backward():
    joint, n = joint_of(minitorch2, "linear_gelu_linear")
    fw, bw = partition.min_cut_rematerialization_partition(joint, None, num_fwd_outputs=n)
    edges = draw.cut_edges(joint, fw, bw)
    saved = {node.name for node in bw.graph.nodes if node.op == "placeholder" and not node.name.startswith("tangents")}
    backward = {node.name for node in bw.graph.nodes if node.op == "call_function"}
    assert edges and {a for a, _ in edges} <= saved and {b for _, b in edges} <= backward
    assert {a for a, _ in edges} == saved  # every saved value is read by the backward


def test_svg_only_when_graphviz_is_installed(monkeypatch):
    joint, n = joint_of(minitorch2, "gelu_mul")
    text = partition.draw_partitions(joint, n)
    if shutil.which("dot"):
        assert "<svg" in partition.render_svg(text)
    monkeypatch.setattr(draw.shutil, "which", lambda _: None)
    assert partition.render_svg(text) is None
