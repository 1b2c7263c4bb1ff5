"""The graph being lowered on this thread (plays torch._inductor.virtualized's `V.graph`).

Backend layer, below `lowering.py` and the op modules it calls (`lowering_pointwise`, `_views`, `_reductions`,
`_pooling`, `_indexing`). A lowering is a plain function of IR values, `P.add(a, b)`, yet the buffers it
creates must be registered with the graph being lowered; rather than pass that graph to every lowering,
`GraphLowering.run()` makes itself current here and the lowerings ask for it:

    with lowering_graph(graph):     # GraphLowering.run
        ...                         # any lowering: current_graph().register_buffer(...)

The one idea to hold: the state is per thread (compiles run on several threads at once), and a stack (a
lowering may lower another graph inside). It sits in a module of its own so that lowering.py and its op
modules can all import it at the top without importing each other.
"""
import contextlib
import threading

_current = threading.local()  # .stack: the graphs being lowered on this thread, innermost last


def current_graph():
    """The GraphLowering being run on this thread, or None."""
    stack = getattr(_current, "stack", None)
    return stack[-1] if stack else None


def shape_env():
    """The ShapeEnv of the graph over symbolic sizes being compiled on this thread (its symbols' ranges), or None."""
    return getattr(_current, "shape_env", None)


@contextlib.contextmanager
def sizes_of(env):
    """Compile under `env`: what loop_ir.known asks when it decides something about a size over symbols."""
    outer, _current.shape_env = shape_env(), env
    try:
        yield env
    finally:
        _current.shape_env = outer


@contextlib.contextmanager
def lowering_graph(graph):
    stack = _current.__dict__.setdefault("stack", [])
    stack.append(graph)
    try:
        yield graph
    finally:
        stack.pop()
