"""The compile wrapper: the cache per code object, guard checks, recompiles and eager fallback.

Frontend layer, the entry point (plays torch._dynamo.eval_frame and
convert_frame). CPython has no pure-Python frame-evaluation hook, so the
wrapper returned by `optimize(backend)(fn)` plays Dynamo's frame callback on
every call of fn:

    bind args -> L (the frame's locals), G = fn.__globals__
    for entry in CACHE[fn.__code__]:  if entry.guards(L, G) is None: return entry.run(L, G)
    too many entries (config.cache_size_limit)?  warn naming the failed guard, run eagerly
    else translate the frame (symbolic_convert), call the backend, add an entry, run it

The one idea to hold: a cache entry is (guard function, compiled callable,
input sources, output plan), and it is only ever used when its guards pass,
so a compiled call returns what the eager call would. A frame the translator
cannot capture gets an entry that runs it eagerly (with the reason recorded),
or, with nopython/fullgraph, raises `Unsupported`.
"""
import functools
import inspect
import logging
import threading
import warnings

import minitorch2

from . import config
from .backends import lookup_backend
from .exc import BackendCompilerFailed, Unsupported
from .symbolic_convert import InstructionTranslator

log = logging.getLogger("frontend")

CACHE = {}  # code object -> [CacheEntry]
_state = threading.local()


class CacheEntry:
    def __init__(self, guard_fn, backend, compiled=None, input_sources=(), plan=None, graph=None, break_reason=None):
        self.guard_fn = guard_fn
        self.backend = backend
        self.compiled = compiled
        self.input_sources = list(input_sources)
        self.plan = plan
        self.graph = graph
        self.break_reason = break_reason

    def run(self, fn, args, kwargs, L, G):
        if self.compiled is None:
            with _disabled():
                return fn(*args, **kwargs)
        inputs = [s.fetch(L, G) for s in self.input_sources]
        if getattr(self.compiled, "_boxed_call", False):
            outs = self.compiled(inputs)
        else:
            outs = self.compiled(*inputs)
        return self.plan(outs, L, G)


class _disabled:
    def __enter__(self):
        _state.disabled = getattr(_state, "disabled", 0) + 1

    def __exit__(self, *exc):
        _state.disabled -= 1


def is_disabled():
    return getattr(_state, "disabled", 0) > 0


# Observers of translations (explain() installs one): called with each new CacheEntry.
_observers = []


def frame_locals(fn, args, kwargs):
    """The frame's locals at entry: parameters bound as Python binds them, plus closure cells' contents."""
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()
    L = dict(bound.arguments)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            L[name] = cell.cell_contents
        except ValueError:
            pass
    return L


def translate(fn, L, backend, nopython):
    """Capture fn's frame and compile it with backend; returns a CacheEntry (eager on a graph break)."""
    tx = InstructionTranslator(fn.__code__, fn.__globals__, L)
    try:
        return_var = tx.run()
        gm, plan = tx.output.finish(return_var)
    except Unsupported as e:
        if nopython:
            raise
        reason = f"{e} [{e.code}]"
        log.info("graph break in %s: %s", fn.__qualname__, reason)
        return CacheEntry(tx.output.guards.compile(), backend, break_reason=reason)
    og = tx.output
    example_inputs = [inp.value for inp in og.inputs]
    if og.op_count() == 0:
        compiled = gm.forward  # nothing to compile, as Dynamo skips graphs without calls
    else:
        try:
            compiled = backend(gm, example_inputs)
        except Exception as e:
            if config.suppress_errors:
                warnings.warn(f"backend failed, running {fn.__qualname__} eagerly: {e}")
                return CacheEntry(og.guards.compile(), backend, break_reason=f"backend failed: {e}")
            raise BackendCompilerFailed(getattr(backend, "__name__", repr(backend)), e) from e
    return CacheEntry(og.guards.compile(), backend, compiled, [inp.source for inp in og.inputs], plan, gm)


def call_compiled(fn, args, kwargs, backend, nopython):
    if is_disabled():
        return fn(*args, **kwargs)
    code = fn.__code__
    L = frame_locals(fn, args, kwargs)
    G = fn.__globals__
    entries = CACHE.setdefault(code, [])
    failed = None
    for entry in entries:
        if entry.backend is not backend:
            failed = failed or "compiled for a different backend"
            continue
        failed_guard = entry.guard_fn(L, G)
        if failed_guard is None:
            return entry.run(fn, args, kwargs, L, G)
        failed = failed or failed_guard
    if len(entries) >= config.cache_size_limit:
        warnings.warn(f"frontend: {code.co_name} ({code.co_filename}:{code.co_firstlineno}) hit "
                      f"config.cache_size_limit ({config.cache_size_limit}); running it eagerly. "
                      f"Last failing guard: {failed}")
        with _disabled():
            return fn(*args, **kwargs)
    if entries:
        log.info("recompiling %s: %s", code.co_name, failed)
    entry = translate(fn, L, backend, nopython)
    entry.recompile_reason = failed if entries else None
    entries.append(entry)
    for observer in _observers:
        observer(entry)
    return entry.run(fn, args, kwargs, L, G)


class OptimizedModule(minitorch2.nn.Module):
    """A compiled nn.Module: shares the original's parameters (it holds it as `_orig_mod`)."""

    def __init__(self, mod, backend, nopython):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_frontend_backend", backend)
        object.__setattr__(self, "_frontend_nopython", nopython)

    def forward(self, *args, **kwargs):
        mod = self._orig_mod
        if mod._forward_hooks or mod._forward_pre_hooks or type(mod).__call__ is not minitorch2.nn.Module.__call__:
            return mod(*args, **kwargs)
        return call_compiled(type(mod).forward, (mod, *args), kwargs, self._frontend_backend, self._frontend_nopython)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules["_orig_mod"], name)


class _OptimizeContext:
    def __init__(self, backend, nopython):
        self.backend = backend
        self.nopython = nopython

    def __call__(self, fn):
        if isinstance(fn, minitorch2.nn.Module):
            return OptimizedModule(fn, self.backend, self.nopython)
        if inspect.ismethod(fn):
            func, obj = fn.__func__, fn.__self__

            @functools.wraps(func)
            def bound_wrapper(*args, **kwargs):
                return call_compiled(func, (obj, *args), kwargs, self.backend, self.nopython)

            bound_wrapper._torchdynamo_orig_callable = fn
            return bound_wrapper
        if not inspect.isfunction(fn):
            raise TypeError(f"frontend.optimize expects a function or nn.Module, got {type(fn).__name__}")

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return call_compiled(fn, args, kwargs, self.backend, self.nopython)

        wrapper._torchdynamo_orig_callable = fn
        return wrapper

    def __enter__(self):
        raise NotImplementedError("frontend.optimize(...) as a context manager (sys.setprofile frame capture) "
                                  "is not built yet; use it as a decorator")

    def __exit__(self, *exc):
        return False


def optimize(backend="inductor", *, nopython=False, dynamic=None, disable=False):
    """`@optimize(backend)`: compile a function or module with backend (a name or a callable)."""
    if disable:
        return lambda fn: fn
    return _OptimizeContext(lookup_backend(backend), nopython)


def disable(fn=None, recursive=True):
    """Run fn (or, as a decorator, the decorated function) without compiling anything inside it."""
    if fn is None:
        return functools.partial(disable, recursive=recursive)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _disabled():
            return fn(*args, **kwargs)

    wrapper._torchdynamo_disable = True
    return wrapper


def reset():
    """Forget every compiled entry (as torch._dynamo.reset())."""
    CACHE.clear()
