"""What a Proxy records: its operators, calls and attributes become nodes (torch.fx's Proxy and TracerBase behaviour).

FX layer, coverage surface: the recording half of torch.fx's own capture (symbolic_trace, graphs built by hand from
Proxies), which no stage of the pipeline calls: the frontend holds its nodes in Proxies (proxy.py) and records its
graphs itself. proxy.py installs these methods on TracerBase and Proxy. Every operation on a Proxy appends a Node to
the tracer's graph and returns a new Proxy for the result:

    y * torch.sigmoid(y)        Proxy.__mul__      -> call_function operator.mul
    x.sum()                     Proxy.__getattr__  -> call_method sum
    x.shape                     (lazily)           -> call_function builtins.getattr
    x[0]                        Proxy.__getitem__  -> call_function operator.getitem
    torch.relu(x)               patched function   -> call_function torch.relu (see _symbolic_trace.py)

A Proxy has no value, so anything that needs one fails loudly: `if x.sum() > 0:` and iterating raise TraceError
(but tuple unpacking, whose length the bytecode states). Control flow is specialised, not captured.
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
from .proxy import Attribute, Proxy, TraceError


class _TracerMethods:
    """TracerBase's recording: Python values lowered into node arguments, nodes wrapped in Proxies."""

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
                        raise RuntimeError(
                            f"Keys for dictionaries used as an argument cannot contain a Node. Got key: {k}")
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


class _ProxyMethods:
    """Proxy's recording: calls, iteration, copying and (below) every operator."""

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


def _magic(method):
    def impl(*args, **kwargs):
        return args[0].tracer.create_proxy("call_function", getattr(operator, method), args, kwargs)

    impl.__name__ = f"__{method.strip('_')}__"
    return impl


def _reflected(method):
    def impl(self, rhs):
        return self.tracer.create_proxy("call_function", getattr(operator, method), (rhs, self), {})

    impl.__name__ = impl.__qualname__ = f"__r{method.strip('_')}__"
    return impl


def install(tracer_cls, proxy_cls):
    """Give TracerBase and Proxy their recording methods (Proxy's operators: "div" too, as in torch.fx; Python 3
    only ever calls __truediv__)."""
    for cls, methods in ((tracer_cls, _TracerMethods), (proxy_cls, _ProxyMethods)):
        for name, fn in vars(methods).items():
            if callable(fn):
                setattr(cls, name, fn)
    for method in magic_methods:
        setattr(proxy_cls, f"__{method.strip('_')}__", _magic(method))
    for method in reflectable_magic_methods:
        setattr(proxy_cls, f"__r{method.strip('_')}__", _reflected(method))
