"""minitorch2.fx (as torch.fx): the graph IR every layer of minitorch2 speaks.

A program is a `Graph` of `Node`s (six opcodes: placeholder, get_attr, call_function, call_method, call_module,
output), owned by a `GraphModule` whose `forward` is Python generated from the graph; `Interpreter` is the reference
way to run one.

Reading order: node.py, graph.py, _codegen.py, graph_module.py, proxy.py, interpreter.py, passes/. Counted
apart (the pipeline uses none of them): symbolic_trace, Tracer and Transformer (_symbolic_trace.py, _patching.py),
torch.fx's original way in, with what a Proxy records (_proxy_recording.py); subgraph_rewriter.py; _graph_more.py.
Everything prints as PyTorch prints it, with minitorch2 spelled `torch` (_spelling.py).
"""
from .graph import CodeGen, Graph, PythonCode
from .graph_module import GraphModule
from .interpreter import Interpreter
from .node import Node, has_side_effect, map_aggregate, map_arg
from .proxy import Proxy, TraceError
from ._symbolic_trace import PH, Tracer, Transformer, symbolic_trace, wrap
from . import passes, subgraph_rewriter  # noqa: F401
from .subgraph_rewriter import replace_pattern

__all__ = [
    "symbolic_trace", "Tracer", "wrap", "PH", "Graph", "GraphModule", "Interpreter", "Transformer", "Node", "Proxy",
    "TraceError", "map_arg", "map_aggregate", "has_side_effect", "CodeGen", "PythonCode", "subgraph_rewriter",
    "passes", "replace_pattern",
]
