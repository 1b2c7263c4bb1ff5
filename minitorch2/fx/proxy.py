"""Proxy: a stand-in value that records what is done to it.

FX layer, the recording half of symbolic tracing: every operation on a Proxy
appends a Node to the graph being built and returns a new Proxy for the result:

    y * torch.sigmoid(y)        Proxy.__mul__      -> call_function operator.mul
    x.sum()                     Proxy.__getattr__  -> call_method sum
    x.shape                     (lazily)           -> call_function builtins.getattr
    x[0]                        Proxy.__getitem__  -> call_function operator.getitem
    torch.relu(x)               patched function   -> call_function torch.relu (see _symbolic_trace.py)

The one idea to hold: a Proxy has no value, so anything that needs one fails
loudly: `if x.sum() > 0:` and iterating raise TraceError (but tuple unpacking,
whose length the bytecode states). Control flow is specialised, not captured.
"""
import copy
import dis
import enum
import inspect
import operator
from bisect import bisect_left

from .. import _dtype
from .._ops import OpOverload, OpOverloadPacket
from .._tensor import Tensor, device
from ._codegen import magic_methods, reflectable_magic_methods
from .node import Node

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

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, proxy_factory_fn=None):
        """Lower args/kwargs to graph values (`create_arg`), make the Node, wrap it in a Proxy."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return proxy_factory_fn(node) if proxy_factory_fn else self.proxy(node)

    def create_arg(self, a):
        """Lower a Python value into something a Node may hold: Nodes, containers, constants."""
        if isinstance(a, Proxy):
            return a.node
        if hasattr(a, "__fx_create_arg__"):
            return a.__fx_create_arg__(self)
        if isinstance(a, tuple):
            if hasattr(a, "_fields"):
                return type(a)(*[self.create_arg(elem) for elem in a])
            return tuple(self.create_arg(elem) for elem in a)
        if isinstance(a, list):
            return [self.create_arg(elem) for elem in a]
        if isinstance(a, dict):
            result = {}
            for k, v in a.items():
                if not isinstance(k, str):
                    k = self.create_arg(k)
                    if isinstance(k, Node):
                        raise RuntimeError(f"Keys for dictionaries used as an argument cannot contain a Node. Got key: {k}")
                result[k] = self.create_arg(v)
            return result
        if isinstance(a, (slice, range)):
            return type(a)(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, Node) or _is_base_value(a):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj):
        raise TraceError(
            "Proxy object cannot be iterated. This can be attempted when the Proxy is used in a loop or as a "
            "*args or **kwargs function argument. See the torch.fx docs on pytorch.org for a more detailed "
            "explanation of what types of control flow can be traced, and check out the Proxy docstring for "
            "help troubleshooting Proxy iteration errors"
        )

    def keys(self, obj):
        return Attribute(obj, "keys")()


def _is_base_value(a):
    """Constants a graph may hold directly (PyTorch's base_types)."""
    if a is None or a is ... or isinstance(a, (str, int, float, bool, complex)):
        return True
    return isinstance(a, (enum.Enum, _dtype.dtype, Tensor, device, OpOverload, OpOverloadPacket))


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
    """A Node wrapper that records every operation applied to it. See the module docstring."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, k):
        return Attribute(self, k)

    def __getstate__(self):
        return self.__dict__

    def __setstate__(self, d):
        self.__dict__ = d

    def __deepcopy__(self, memo):
        new = Proxy.__new__(type(self))
        for k, v in self.__dict__.items():
            new.__dict__[k] = copy.deepcopy(v, memo)
        return new

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        caller = inspect.currentframe().f_back
        instructions = list(dis.get_instructions(caller.f_code))
        inst = instructions[bisect_left(instructions, caller.f_lasti, key=lambda i: i.offset)]
        if inst.opname == "UNPACK_SEQUENCE":
            return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)

    def __abs__(self):
        return self.tracer.create_proxy("call_function", operator.abs, (self,), {})

    def __bool__(self):
        return self.tracer.to_bool(self)

    def keys(self):
        return self.tracer.keys(self)

    def __len__(self):
        raise RuntimeError(
            "'len' is not supported in symbolic tracing by default. If you want this call to be recorded, "
            "please call torch.fx.wrap('len') at module scope"
        )

    # Proxy defines __eq__ below, after class creation, so it stays hashable.
    __hash__ = object.__hash__


def _define_magic(method):
    def impl(*args, **kwargs):
        return args[0].tracer.create_proxy("call_function", getattr(operator, method), args, kwargs)

    impl.__name__ = method
    setattr(Proxy, f"__{method.strip('_')}__", impl)


def _define_reflected(method):
    def impl(self, rhs):
        return self.tracer.create_proxy("call_function", getattr(operator, method), (rhs, self), {})

    impl.__name__ = impl.__qualname__ = f"__r{method.strip('_')}__"
    setattr(Proxy, impl.__name__, impl)


for _method in magic_methods:  # ("div" too, as in torch.fx; Python 3 only ever calls __truediv__)
    _define_magic(_method)
for _method in reflectable_magic_methods:
    _define_reflected(_method)


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
