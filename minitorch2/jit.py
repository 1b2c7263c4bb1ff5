"""torch.jit as scripts meet it on a machine where TorchScript is not the point (runtime layer, library surface).

minitorch2 has no TorchScript compiler: `script` and `trace` give objects of torch's classes that run the user's
Python. What a program sees is torch's: `@torch.jit.script` on a helper gives a ScriptFunction that computes the
same values; `torch.jit.script(model)` a RecursiveScriptModule with the model's parameters (the same tensors),
its attributes copied at scripting time, its own training flags and torch's printed form; `torch.jit.trace(model,
x)` a TopLevelTracedModule that ran the model once on x. The decorators (ignore, unused, export, interface), the
queries (is_scripting, is_tracing), annotate, Final, Attribute, fork/wait and the fusion settings are torch's
eager behaviour. Inside a compiled frame a ScriptFunction is its Python function, inlined, as Dynamo inlines
`_torchdynamo_inline` (frontend/variables/dataclass_internals.py's wrap_other).

Where this differs from torch: a traced module runs its Python at each call, so a branch on tensor values (which
torch freezes at trace time, with a TracerWarning) is taken anew (a traced function replays what it recorded); while a traced callable runs, is_tracing() is
True, so code branching on it takes the path torch recorded. TorchScript's IR (`.code`, `.graph`), its archives
(`torch.jit.save`/`load`) and its type checks are not provided: reading them fails naming what is missing.
"""
import contextlib
import copy
import threading
import typing

from . import _unsupported
from .nn.modules.module import Module

Final = typing.Final
_state = threading.local()  # .tracing: a traced callable is running on this thread


class TracerWarning(Warning):
    pass


class Error(RuntimeError):
    pass


def is_scripting():
    return False


def _unwrap_optional(x):
    assert x is not None, "Unwrapping null optional"
    return x


def is_tracing():
    return getattr(_state, "tracing", False)


@contextlib.contextmanager
def _tracing():
    before = is_tracing()
    _state.tracing = True
    try:
        yield
    finally:
        _state.tracing = before


_TORCHSCRIPT_ONLY = ("code", "graph", "inlined_graph", "code_with_constants", "save", "_c")


def _missing(owner, name):
    return _unsupported.Unsupported(f"torch.jit: {owner}.{name} is not supported (minitorch2 runs the Python; "
                                    "TorchScript's IR and archives are not part of it)")


class ScriptFunction:
    """A scripted or traced function: calls run the Python function."""

    def __init__(self, fn, traced=False):
        self._torchdynamo_inline = fn  # (what Dynamo inlines, as torch's: the Python function, traced or not)
        self._traced = traced
        self.name = self.qualified_name = getattr(fn, "__name__", "fn")

    def __call__(self, *args, **kwargs):
        if not self._traced:
            return self._torchdynamo_inline(*args, **kwargs)
        with _tracing():
            return self._traced(*args, **kwargs)

    def __getattr__(self, name):
        raise _missing(type(self).__name__, name) if name in _TORCHSCRIPT_ONLY else AttributeError(name)


class ScriptModule(Module):
    """The base of scripted and traced modules: printed as a plain Module (a ModuleList's repeats not folded)."""

    __repr__ = Module.__repr__

    def __getattr__(self, name):
        if name in _TORCHSCRIPT_ONLY:
            raise _missing(type(self).__name__, name)
        return super().__getattr__(name)


class RecursiveScriptModule(ScriptModule):
    """torch.jit.script(module): a module of its own holding the original's parameters and buffers (the same tensors),
    its submodules scripted, its other attributes copied, and its methods bound to it."""

    def extra_repr(self):
        return f"original_name={self.original_name}"

    def __call__(self, *args, **kwargs):
        # its own __call__: TorchScript runs it, so no Python frame of it is one a frame callback sees (a frame
        # Dynamo runs eagerly does not compile its forward: frontend/eager_frame.py's call_routed)
        return super().__call__(*args, **kwargs)


class TracedModule(ScriptModule):
    def _get_name(self):
        return self.original_name

    def extra_repr(self):
        return f"original_name={self.original_name}"

    def __call__(self, *args, **kwargs):
        with _tracing():
            return super().__call__(*args, **kwargs)


class TopLevelTracedModule(TracedModule):
    pass


_classes = {}  # (RecursiveScriptModule or a traced class, the module's class) -> their subclass


def _copy_module(original, jit_class):
    """A module of jit_class and original's class standing for original: its own dicts over the same tensors, its
    submodules copied the same way. (isinstance of the original's class holds, where torch's does not.)"""
    key = (jit_class, type(original))
    if key not in _classes:
        _classes[key] = type(jit_class.__name__, key, {"__module__": __name__})
    new = object.__new__(_classes[key])
    state = {name: copy.copy(value) if isinstance(value, dict) else value  # (own dicts of hooks and tensors)
             for name, value in original.__dict__.items()}
    child_class = TracedModule if jit_class is TopLevelTracedModule else jit_class
    state["_modules"] = {name: None if child is None else _copy_module(child, child_class)
                         for name, child in original._modules.items()}
    new.__dict__.update(state, original_name=type(original).__name__)
    return new


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    if isinstance(obj, ScriptModule | ScriptFunction):
        return obj
    if isinstance(obj, Module):
        return _copy_module(obj, RecursiveScriptModule)
    if isinstance(obj, type):  # a TorchScript class: used as the Python class
        return obj
    if callable(obj):
        return ScriptFunction(obj)
    raise RuntimeError(f"Type '{type(obj)}' cannot be compiled since it inherits from nn.Module, pass in an "
                       "instance instead")


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None, example_kwarg_inputs=None,
          _store_inputs=True):
    """Run func once on the example inputs (its side effects, a BatchNorm's statistics, happen as torch's). A
    function is recorded as it ran, as torch's trace records it: its aten ops replayed at each call, a branch on
    tensor values frozen the way it went, what it computed outside torch (numpy, scipy) a constant."""
    args = example_inputs if isinstance(example_inputs, tuple) else () if example_inputs is None else (example_inputs,)
    kwargs = example_kwarg_inputs or {}
    if isinstance(func, Module):
        traced = _copy_module(func, TopLevelTracedModule)
        traced(*args, **kwargs)
        return traced
    from autograd.proxy_tensor import make_fx  # reason: deferred, the compiler's tracer sits above the runtime

    with _tracing():
        recorded = make_fx(lambda *inputs: func(*inputs, **kwargs))(*args)
    traced = ScriptFunction(func, traced=lambda *inputs, **_: recorded(*inputs))
    return traced


def trace_module(mod, inputs, **kwargs):
    traced = _copy_module(mod, TopLevelTracedModule)
    for method, example in inputs.items():
        with _tracing():
            getattr(traced, method)(*(example if isinstance(example, tuple) else (example,)))
    return traced


def _returns_fn(fn=None, **kwargs):
    """A decorator with optional arguments (`@ignore`, `@ignore(drop=True)`) that leaves the function as it is."""
    return (lambda f: f) if fn is None or not callable(fn) else fn


ignore = unused = export = interface = script_if_tracing = _overload_method = _returns_fn


def annotate(the_type, the_value):
    return the_value


class Attribute(typing.NamedTuple):
    value: typing.Any
    type: typing.Any


class Future:
    """torch.jit.fork's result: outside TorchScript, fork runs the function at once."""

    def __init__(self, value):
        self._value = value

    def wait(self):
        return self._value

    value = wait

    def done(self):
        return True


def fork(func, *args, **kwargs):
    return Future(func(*args, **kwargs))


def wait(future):
    return future.wait()


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use torch.jit.script or "
                           "torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. Please call .eval() on "
                           "your module before freezing.")
    return mod


def optimize_for_inference(mod, other_methods=None):
    return freeze(script(mod).eval() if not isinstance(mod, ScriptModule) else mod)


_fusion = {"onednn": False, "strategy": [("STATIC", 2), ("DYNAMIC", 10)]}


def enable_onednn_fusion(enabled):
    _fusion["onednn"] = bool(enabled)


def onednn_fusion_enabled():
    return _fusion["onednn"]


def set_fusion_strategy(strategy):
    before, _fusion["strategy"] = _fusion["strategy"], list(strategy)
    return before


@contextlib.contextmanager
def strict_fusion():
    yield


def _jit_isinstance(obj, target_type):
    """torch.jit.isinstance outside TorchScript: the builtin, over List[int]'s origin for a generic."""
    return isinstance(obj, typing.get_origin(target_type) or target_type)


_missing_name = _unsupported.module_getattr("minitorch2.jit", "torch.jit")


def __getattr__(name):  # (torch.jit.isinstance given here, not defined as a global that would hide the builtin)
    return _jit_isinstance if name == "isinstance" else _missing_name(name)
