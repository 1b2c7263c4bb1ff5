"""The graph being lowered on this thread (plays torch._inductor.virtualized's `V.graph`).

Backend layer, below `lowering.py` and the op modules it calls (`lowering_pointwise`, `_views`, `_reductions`,
`_pooling`, `_indexing`). A lowering is a plain function of IR values, `P.add(a, b)`, yet the buffers it
creates must be registered with the graph being lowered; rather than pass that graph to every lowering,
`GraphLowering.run()` makes itself current here and the lowerings ask for it:

    with lowering_graph(graph):     # GraphLowering.run
        ...                         # any lowering: current_graph().register_buffer(...)

The one idea to hold: the state is per thread (compiles run on several threads at once), and nests (a lowering
may lower another graph inside: the outer one is current again after it). It sits in a module of its own so that
lowering.py and its op modules can all import it at the top without importing each other.
"""
import contextlib
import threading

_current = threading.local()  # .graph, .shape_env: what this thread lowers and compiles now


def current_graph():
    """The GraphLowering being run on this thread, or None."""
    return getattr(_current, "graph", None)


def shape_env():
    """The ShapeEnv of the graph over symbolic sizes being compiled on this thread (its symbols' ranges), or None."""
    return getattr(_current, "shape_env", None)


def lowering_graph(graph):
    return _made_current("graph", graph)


def sizes_of(env):
    """Compile under `env`: what loop_ir.known asks when it decides something about a size over symbols."""
    return _made_current("shape_env", env)


@contextlib.contextmanager
def _made_current(name, value):
    """`value` as this thread's `name` inside the with block, the outer one again after it."""
    outer = getattr(_current, name, None)
    setattr(_current, name, value)
    try:
        yield value
    finally:
        setattr(_current, name, outer)
