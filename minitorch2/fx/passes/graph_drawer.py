"""FxGraphDrawer: an FX graph as a Graphviz picture.

FX pass utility (as torch.fx.passes.graph_drawer, without pydot). Each node
becomes a box (name, opcode, target, and dtype and shape once ShapeProp ran);
each use an edge from producer to user:

    dot = FxGraphDrawer(gm, "mlp").get_dot_graph()
    print(dot.to_string())          # DOT text, always available
    dot.write_svg("mlp.svg")        # needs the `dot` program (Graphviz) on PATH
"""
import shutil
import subprocess

from .._spelling import pretty_print_target

__all__ = ["FxGraphDrawer", "DotGraph"]

_COLORS = {
    "placeholder": "AliceBlue",
    "get_attr": "LemonChiffon1",
    "call_function": "LightGrey",
    "call_method": "Thistle",
    "call_module": "PaleGreen",
    "output": "PowderBlue",
}


def _escape(text):
    return "".join("\\" + c if c in '\\"{}<>|' else c for c in str(text))


class DotGraph:
    """DOT source with helpers to render it."""

    def __init__(self, source):
        self.source = source

    def to_string(self):
        return self.source

    __str__ = to_string

    def create_svg(self):
        """SVG bytes rendered by Graphviz's `dot`; RuntimeError when it is not installed."""
        dot = shutil.which("dot")
        if dot is None:
            raise RuntimeError("rendering needs Graphviz's `dot` program on PATH; to_string() gives the DOT text")
        return subprocess.run([dot, "-Tsvg"], input=self.source.encode(), capture_output=True, check=True).stdout

    def write_svg(self, path):
        with open(path, "wb") as f:
            f.write(self.create_svg())

    def write_raw(self, path):
        with open(path, "w") as f:
            f.write(self.source)


class FxGraphDrawer:
    def __init__(self, graph_module, name, ignore_getattr=False):
        self._name = name
        self._dot = DotGraph(self._to_dot(graph_module, ignore_getattr))

    def get_dot_graph(self):
        return self._dot

    get_main_dot_graph = get_dot_graph

    def _label(self, node):
        target = node.target if isinstance(node.target, str) else pretty_print_target(node.target)
        fields = [f"name=%{node.name}", f"op_code={node.op}", f"target={target}"]
        meta = node.meta.get("tensor_meta")
        if meta is not None and hasattr(meta, "shape"):
            fields.append(f"{meta.dtype}{list(meta.shape)}")
        return "{" + "|".join(_escape(f) for f in fields) + "}"

    def _to_dot(self, gm, ignore_getattr):
        lines = [f'digraph "{self._name}" {{', '  rankdir=TB;', '  node [shape=record, style=filled];']
        shown = [n for n in gm.graph.nodes if not (ignore_getattr and n.op == "get_attr")]
        for node in shown:
            color = _COLORS.get(node.op, "white")
            lines.append(f'  "{node.name}" [label="{self._label(node)}", fillcolor="{color}"];')
        names = {n for n in shown}
        for node in shown:
            for user in node.users:
                if user in names:
                    lines.append(f'  "{node.name}" -> "{user.name}";')
        lines.append("}")
        return "\n".join(lines) + "\n"
