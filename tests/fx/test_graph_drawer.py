"""FxGraphDrawer: DOT text for every node and edge; SVG when Graphviz's `dot` is installed."""
import shutil

import pytest

import minitorch2
import minitorch2.fx
from minitorch2.fx.passes.graph_drawer import FxGraphDrawer
from minitorch2.fx.passes.shape_prop import ShapeProp

pytestmark = pytest.mark.fx


def _gm():
    model = minitorch2.nn.Sequential(minitorch2.nn.Linear(3, 4), minitorch2.nn.ReLU())
    gm = minitorch2.fx.symbolic_trace(model)
    ShapeProp(gm).propagate(minitorch2.randn(2, 3))
    return gm


def test_dot_has_a_box_per_node_and_an_edge_per_use():
    gm = _gm()
    dot = FxGraphDrawer(gm, "mlp").get_dot_graph().to_string()
    assert dot.startswith('digraph "mlp" {') and dot.rstrip().endswith("}")
    for node in gm.graph.nodes:
        assert f'"{node.name}" [label=' in dot
        for user in node.users:
            assert f'"{node.name}" -> "{user.name}";' in dot
    assert "torch.float32[2, 4]" in dot and "op_code=call_module" in dot


def test_svg_when_dot_is_installed(tmp_path):
    dot = FxGraphDrawer(_gm(), "mlp").get_dot_graph()
    if shutil.which("dot") is None:
        with pytest.raises(RuntimeError, match="Graphviz"):
            dot.create_svg()
        pytest.skip("Graphviz's `dot` is not installed")
    path = tmp_path / "mlp.svg"
    dot.write_svg(str(path))
    assert b"<svg" in path.read_bytes()
