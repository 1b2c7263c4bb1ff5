"""frontend: Dynamo in pure Python (plays `torch._dynamo`).

Pipeline position: first. `minitorch2.compile(fn)` / `frontend.optimize(backend)(fn)` capture each call's frame from its
bytecode into an FX graph of torch-level calls, guard the assumptions, and hand the graph to a backend. Read in order:

    eval_frame.py        the wrapper: cache per code object, guards, recompiles, eager fallback
    symbolic_convert.py  InstructionTranslator: one handler per opcode over VariableTrackers (variables/)
    source.py guards.py  where values came from; the checks that keep a graph valid
    output_graph.py      the FX graph being built, its inputs, outputs and side effects
    resume.py            graph breaks: the transformed frame and its torch_dynamo_resume_in_<fn>_at_<line> functions
    assemble.py          instruction lists and code objects (the `bytecode` package), rebuilding values
    pyversion.py         Python-version facts (3.11, 3.12, 3.13); opcodes_312.py the opcodes only 3.12/3.13 have
"""
from minitorch2._compile_markers import graph_break, is_compiling

from . import config, exc, testing, utils
from .backends import list_backends, lookup_backend, register_backend
from .compiler import (allow_in_graph, assume_constant_result, disable, disallow_in_graph, mark_static_address,
                       set_stance)
from .dynamic_shapes import mark_dynamic, mark_static, maybe_mark_dynamic
from .eval_frame import OptimizedModule, optimize, reset
from .explain import explain

__all__ = ["optimize", "explain", "reset", "disable", "graph_break", "is_compiling", "config", "testing", "exc",
           "utils", "register_backend", "list_backends", "lookup_backend", "OptimizedModule", "set_stance",
           "allow_in_graph", "disallow_in_graph", "mark_dynamic", "mark_static", "maybe_mark_dynamic",
           "assume_constant_result", "mark_static_address"]
