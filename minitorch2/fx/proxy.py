"""Proxy: a handle on a graph node, with the tracer that made it.

FX layer. The frontend holds each value it records as a Proxy on its node (`TensorVariable.proxy.node`). In torch.fx
a Proxy also records whatever is done to it (`y * 2` appends a call_function operator.mul node): that recording,
which only FX's own capture (symbolic_trace, graphs built by hand) uses, lives in _proxy_recording.py (coverage
surface), installed on these classes below.
"""
__all__ = ["TracerBase", "GraphAppendingTracer", "TraceError", "Proxy", "Attribute"]


class TraceError(ValueError):
    pass


class TracerBase:
    """Turns Python-level operations on Proxies into Nodes of `self.graph`."""

    graph = None
    traced_func_name = "forward"

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)


class GraphAppendingTracer(TracerBase):
    """The tracer behind a Proxy made directly on a graph's node (no symbolic_trace running). A program that
    makes one builds graphs by hand, calling torch functions on its Proxies, which torch records through
    __torch_function__; so from then on ours record them too (the frontend's own appender opts out)."""

    def __init__(self, graph, record_torch_functions=True):
        self.graph = graph
        if record_torch_functions:
            from ._patching import record_torch_functions_on_proxies  # _patching imports this module
            record_torch_functions_on_proxies()


class Proxy:
    """A Node and its tracer; operations on it record nodes (see the module docstring)."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, k):
        return Attribute(self, k)

    # Proxy gets __eq__ from _proxy_recording, after class creation, so it stays hashable.
    __hash__ = object.__hash__


class Attribute(Proxy):
    """`proxy.name`: becomes a method call if called, else (lazily) a getattr node."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        # Created only when the value is used: `x.T` is recorded where it is consumed.
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


from . import _proxy_recording  # noqa: E402  (it takes Proxy and Attribute from this module)

_proxy_recording.install(TracerBase, Proxy)
