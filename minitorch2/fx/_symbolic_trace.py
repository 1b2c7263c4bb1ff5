"""symbolic_trace and Tracer: capture a module's forward as a Graph by running it on Proxies.

FX layer, the original front door to the IR. The compile pipeline never uses it (the frontend/ package, playing
Dynamo, records into the same Graph from bytecode), so it is counted with the coverage surface, together with
_patching.py and torch.fx's Transformer (an Interpreter that re-traces a graph, at the end). `symbolic_trace(m)`:

    1. make one `placeholder` per parameter of `forward` (concrete_args pin some to constants)
    2. patch, for the duration of the call:
         nn.Module.__call__     leaf modules (minitorch2.nn layers) become `call_module` nodes;
                                user modules are traced through
         nn.Module.__getattr__  parameters become `get_attr` nodes (one per parameter)
         torch namespaces       minitorch2 functions on Proxies become `call_function` (_patching.py)
    3. call forward(*proxies); each operation on a Proxy appends a node
    4. add an `output` node for whatever forward returned, and wrap root + graph
       in a GraphModule

The one idea to hold: tracing runs the Python code once, with symbolic
values. Whatever does not touch a Proxy happens at trace time and is baked
in; whatever needs a Proxy's value (`if x.sum() > 0`) raises TraceError.
"""
import builtins
import functools
import inspect
import math
from itertools import chain
from types import FunctionType

from .. import _tensor
from ..nn import Module, Parameter, Sequential
from . import _patching
from ._spelling import public_functions, register_spelling
from .graph import Graph
from .graph_module import GraphModule
from .interpreter import Interpreter
from .node import map_aggregate
from .proxy import Proxy, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap", "PH", "is_fx_tracing", "Transformer"]

HAS_VARSTUFF = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
_is_fx_tracing_flag = False


def is_fx_tracing():
    """True while symbolic_trace is running (user code may take a traceable path)."""
    return _is_fx_tracing_flag
_orig_module_call = Module.__call__
_orig_module_getattr = Module.__getattr__


def _assert(condition, message):
    """torch._assert: the guard concrete_args leaves in the graph (recorded again if re-traced)."""
    if isinstance(condition, Proxy):
        return condition.tracer.create_proxy("call_function", _assert, (condition, message), {})
    if not condition:
        raise AssertionError(message)


register_spelling("torch._assert", _assert)


def _assert_is_none(value, msg):
    assert value is None, msg


class PHBase:
    """A placeholder marker for `concrete_args`: this input stays symbolic."""

    def __repr__(self):
        return "PH"


PH = PHBase()


class ParameterProxy(Proxy):
    """A parameter's Proxy whose shape queries answer from the real parameter (param_shapes_constant)."""

    def __init__(self, tracer, node, name, param):
        super().__init__(node, tracer)
        self.param = param
        self.name = name

    def __repr__(self):
        return f"ParameterProxy({self.name})"

    def __getattr__(self, k):
        if k in ("shape", "ndim", "size", "dim", "numel"):
            return getattr(self.param, k)
        return super().__getattr__(k)


def _patch_function(fn, nargs):
    """A copy of fn whose *args / **kwargs / keyword-only parameters are plain positional ones."""
    code = fn.__code__
    code = code.replace(co_argcount=nargs, co_posonlyargcount=0, co_kwonlyargcount=0,
                        co_flags=code.co_flags & ~HAS_VARSTUFF)
    return FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def _default(sig, name):
    default = sig.parameters[name].default
    return () if default is inspect.Parameter.empty else (default,)


class Tracer(TracerBase):
    """Implements symbolic_trace; subclass and override is_leaf_module, create_arg, call_module..."""

    _qualname_counter = {}

    def __init__(self, autowrap_modules=(math,), autowrap_functions=(), param_shapes_constant=False):
        super().__init__()
        self._autowrap_function_ids = {
            id(value)
            for name, value in chain.from_iterable(m.__dict__.items() for m in autowrap_modules)
            if not name.startswith("_") and callable(value)
        }
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths = None

    # ---------------------------------------------------------- arguments
    def get_fresh_qualname(self, prefix):
        """`_tensor_constant0`, `_tensor_constant1`...: a root attribute name not yet taken."""
        if not hasattr(self.root, f"{prefix}0"):
            self._qualname_counter[prefix] = 0  # (as torch.fx: the next search starts at 0 again)
            return f"{prefix}0"
        i = self._qualname_counter.get(prefix, 0)
        while hasattr(self.root, f"{prefix}{i}"):
            i += 1
        self._qualname_counter[prefix] = i + 1
        return f"{prefix}{i}"

    def create_arg(self, a):
        """Parameters and buffers become get_attr nodes; other tensors become root attributes."""
        if isinstance(a, (_tensor.Tensor, Module)):
            members = (self.root.named_parameters() if isinstance(a, Parameter)
                       else self.root.named_buffers() if isinstance(a, _tensor.Tensor) else self.root.named_modules())
            for name, member in members:
                if a is member:
                    return self.create_node("get_attr", name, (), {})
            if isinstance(a, Parameter):
                raise NameError("parameter is not a member of this module")
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            args = tuple(self.create_arg(elem) for elem in a)
            return self.create_node("call_function", a.__class__, args, {})
        if isinstance(a, _tensor.Tensor):
            qualname = self.tensor_attrs.get(a)
            if not qualname:
                qualname = self.get_fresh_qualname("_tensor_constant")
                self.tensor_attrs[a] = qualname
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    # ---------------------------------------------------------- modules
    def is_leaf_module(self, m, module_qualified_name):
        """minitorch2.nn's own layers are leaves (except Sequential); user modules are traced through."""
        return m.__module__.startswith("minitorch2.nn") and not isinstance(m, Sequential)

    def path_of_module(self, mod):
        paths = self.submodule_paths or {m: name for name, m in self.root.named_modules()}
        if mod not in paths:
            raise NameError("module is not installed as a submodule")
        return paths[mod]

    def call_module(self, m, forward, args, kwargs):
        """A leaf module becomes one call_module node; any other module runs (and is traced)."""
        qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        """A parameter read through a module attribute becomes (once) a get_attr node."""
        if isinstance(attr_val, Parameter):
            for name, p in self.root.named_parameters():
                if attr_val is p:
                    if name not in parameter_proxy_cache:
                        # with param_shapes_constant, `self.w.shape` answers from the real parameter
                        factory = self.param_shapes_constant and (lambda node: ParameterProxy(self, node, name, p))
                        parameter_proxy_cache[name] = self.create_proxy("get_attr", name, (), {},
                                                                        proxy_factory_fn=factory)
                    return parameter_proxy_cache[name]
        return attr_val

    # ---------------------------------------------------------- placeholders
    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        """Placeholders for root_fn's parameters; returns (function to call, its arguments)."""
        fn = inspect.unwrap(root_fn)
        code = fn.__code__
        total_args = code.co_argcount + code.co_kwonlyargcount
        if is_module and total_args == 0:
            raise RuntimeError("``self`` argument cannot be part of *args expansion!")
        args = [self.root] if is_module else []
        arg_names = list(code.co_varnames[len(args):total_args])
        names = iter(code.co_varnames[total_args:])  # then *args and **kwargs, when fn has them
        sig = inspect.signature(fn)
        if isinstance(concrete_args, tuple):
            if len(arg_names) != len(concrete_args):
                raise RuntimeError(
                    f"Tracing expected {len(arg_names)} arguments but got {len(concrete_args)} concrete arguments"
                )
            concrete_args = dict(zip(arg_names, concrete_args))
        args.extend(self._proxy_placeholder(name, concrete_args, sig, fn) for name in arg_names)
        if code.co_kwonlyargcount > 0 or code.co_flags & HAS_VARSTUFF:
            if code.co_flags & inspect.CO_VARARGS:
                args.append(self._proxy_placeholder("*" + next(names), concrete_args, sig, fn))
            if code.co_flags & inspect.CO_VARKEYWORDS:
                args.append(self._proxy_placeholder("**" + next(names), concrete_args, sig, fn))
            root_fn = _patch_function(root_fn, len(args))
        return root_fn, args

    def _proxy_placeholder(self, name, concrete_args, sig, fn):
        if concrete_args is not None and name in concrete_args:
            return self._concrete_placeholder(name, concrete_args[name], sig)
        default = () if name[0] == "*" else _default(sig, name)
        return self.create_proxy("placeholder", name, default, {}, type_expr=fn.__annotations__.get(name, None))

    def _concrete_placeholder(self, name, value, sig):
        """A pinned input still gets a placeholder (`flag_1`), plus a check that it keeps its value."""
        out = self.create_proxy("placeholder", f"{name}_1", _default(sig, name), {})
        if isinstance(value, PHBase):
            return out
        message = f"{name} has been specialized to have value {value} but got another value"
        if type(value) in (bool, int, float, str, complex):
            self.create_proxy("call_function", _assert, (out == value, message), {})
        elif value is None:
            self.create_proxy("call_function", _assert_is_none, (out, message), {})
        return value

    # ---------------------------------------------------------- tracing
    def trace(self, root, concrete_args=None):
        if isinstance(root, Module):
            self.root = root
            fn = getattr(type(root), self.traced_func_name)
            self.submodule_paths = {mod: name for name, mod in root.named_modules()}
        else:
            self.root = Module()
            fn = root
        self.graph = Graph(tracer_cls=getattr(self, "__class__", None))
        self.tensor_attrs = {}
        self._collect_tensor_attrs(self.root, [])
        fn_globals = fn.__globals__
        fn, args = self.create_args_for_root(fn, isinstance(root, Module), concrete_args)
        parameter_proxy_cache = {}
        functions = _patching.torch_functions()
        tracer = self

        def module_getattr_wrapper(mod, attr):
            return tracer.getattr(attr, _orig_module_getattr(mod, attr), parameter_proxy_cache)

        def module_call_wrapper(mod, *args, **kwargs):
            forward = functools.partial(_orig_module_call, mod)
            forward_globals = getattr(getattr(mod, "forward", mod), "__globals__", {})
            _patching.patch_globals(patcher, forward_globals, functions, tracer._autowrap_function_ids)
            return tracer.call_module(mod, forward, args, kwargs)

        global _is_fx_tracing_flag
        was_tracing, _is_fx_tracing_flag = _is_fx_tracing_flag, True
        with _patching._Patcher() as patcher:
            patcher.set_attr(Module, "__getattr__", module_getattr_wrapper)
            patcher.set_attr(Module, "__call__", module_call_wrapper)
            _patching.patch_torch_namespaces(patcher, functions)
            _patch_wrapped_functions(patcher)
            _patching.patch_globals(patcher, fn_globals, functions, self._autowrap_function_ids)
            for module in self._autowrap_search:
                _patching.patch_globals(patcher, module.__dict__, {}, self._autowrap_function_ids)
            try:
                result = fn(*args)
                return_type = getattr(inspect.unwrap(fn), "__annotations__", {}).get("return", None)
                self.create_node("output", "output", (self.create_arg(result),), {}, type_expr=return_type)
            finally:
                _is_fx_tracing_flag = was_tracing
        self.submodule_paths = None
        return self.graph

    def _collect_tensor_attrs(self, m, prefix_atoms):
        """Plain tensor attributes of the module tree, so traced uses become get_attr by name."""
        for k, v in m.__dict__.items():
            if isinstance(v, _tensor.Tensor):
                self.tensor_attrs[v] = ".".join(prefix_atoms + [k])
        for k, v in m.named_children():
            self._collect_tensor_attrs(v, prefix_atoms + [k])


# ------------------------------------------------------------------ wrap
_wrapped_fns_to_patch = {}  # (id of globals, name) -> globals dict


def wrap(fn_or_name):
    """Make a module-level function a leaf: traced calls are recorded, not traced through.

    Call at module scope, with the function or its name: `torch.fx.wrap("my_fn")`.
    """
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise RuntimeError("Unsupported type for global function! Must be either a callable or string name")
    name = fn_or_name.__name__ if callable(fn_or_name) else fn_or_name
    caller = inspect.currentframe().f_back
    if caller is None or caller.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped_fns_to_patch[(id(caller.f_globals), name)] = caller.f_globals
    return fn_or_name


def _patch_wrapped_functions(patcher):
    for (_, name), frame_dict in list(_wrapped_fns_to_patch.items()):
        original = getattr(builtins, name) if name not in frame_dict and hasattr(builtins, name) else frame_dict[name]
        patcher.set_item(frame_dict, name, _patching.leaf_function_wrapper(original))


def symbolic_trace(root, concrete_args=None):
    """Trace a Module or function into a GraphModule (see the module docstring)."""
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)


# ------------------------------------------------------------------ Transformer
class _TransformerTracer(Tracer):
    """Records every module call as a call_module node (the graph being re-traced is already flat)."""

    def __init__(self, graph):
        super().__init__()
        self.graph = graph
        self.tensor_attrs = {}

    def is_leaf_module(self, m, module_qualified_name):
        return True


class Transformer(Interpreter):
    """Run the graph on Proxies of a new graph: a copy you can rewrite one opcode at a time (override, say,
    `call_function`, and the copy is a one-method pass)."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = Graph()
        self.new_graph.set_codegen(module.graph._codegen)
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module
        self._patched = {}  # id(a torch function) -> the recording wrapper in its place while transform() runs

    def placeholder(self, target, args, kwargs):
        default = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target, args, kwargs):
        return self.tracer.create_proxy("get_attr", target, args, kwargs)

    def call_module(self, target, args, kwargs):
        submod = self.fetch_attr(target)
        return self.tracer.call_module(submod, submod.forward, args, kwargs)

    def call_function(self, target, args, kwargs):
        original = getattr(target, "__wrapped__", None)
        return self.tracer.create_proxy("call_function", original if self._patched.get(id(original)) is target
                                        else target, args, kwargs)

    def run_node(self, n):
        if n.op == "call_function":  # the target as its name now holds it (see transform)
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            return self.call_function(self._patched.get(id(n.target), n.target), args, kwargs)
        return super().run_node(n)

    def transform(self):
        # torch's Proxy records `torch.neg(proxy)` in an overridden call_function by __torch_function__; here the torch
        # namespaces are patched while the graph is re-traced, as symbolic_trace does, and call_function is handed
        # a node's target as the patched namespace holds it, so `target == torch.sigmoid` still holds
        with _patching._Patcher() as patcher:
            _patching.patch_torch_namespaces(patcher, _patching.torch_functions())
            self._patched = {id(value.__wrapped__): value for _, _, _, value in public_functions()
                             if hasattr(value, "__wrapped__")}
            result = super().run()
        if result is not None:
            new_output = self.new_graph.output(map_aggregate(result, lambda a: a.node if isinstance(a, Proxy) else a))
            old_output = list(self.graph.nodes)[-1]
            new_output.meta.update(old_output.meta)
        return GraphModule(self.module, self.new_graph)
