"""The compile wrapper: the cache per code object, guard checks, recompiles and eager fallback.

Frontend layer, the entry point (plays torch._dynamo.eval_frame and convert_frame). With no pure-Python
frame-evaluation hook, the wrapper `optimize(backend)(fn)` returns plays Dynamo's frame callback on every call:

    bind args -> L (the frame's locals), G = fn.__globals__
    for entry in CACHE[fn.__code__]:  if entry.guards(L, G) is None: return entry.run(L, G)
    too many entries (config.cache_size_limit)?  warn once naming the failed guard, run eagerly
    else translate the frame (symbolic_convert), call the backend, add an entry, run it

The one idea to hold: a cache entry is (guard function, compiled callable, input sources, output plan), used only
when its guards pass, so a compiled call returns what the eager call would. As in Dynamo, a frame given up on runs
eagerly (under nopython the first break raises), and a failed compile raises BackendCompilerFailed.
"""
import contextlib
import functools
import inspect
import logging
import os
import threading
import warnings

import minitorch2
from minitorch2 import _logging
from minitorch2.fx.experimental.symbolic_shapes import SpecializeFloatInputs
from minitorch2.nn.modules.module_hooks import call_with_hooks

from . import config, dynamic_shapes, resume, rnn_refusal, source
from .eager_frame import call_routed, run_skipped, with_code
from .backends import lookup_backend
from .break_reasons import REASONS, UNTALLIED, explain_reason, jumps_on_a_tensor, note_break
from .compile_logs import translate_logged, warn_cache_size_limit
from .exc import BackendCompilerFailed, FailOnRecompileLimitHit, Unsupported
from .explain import exporting_guards  # (explain.py reads this module's _observers)
from .guard_failures import guard_failures
from .profile_capture import CaptureBlocksMixin, original_function
from .symbolic_convert import InstructionTranslator
from .variables import requires_grad_leaks

log = logging.getLogger("frontend")

CACHE = {}  # code object -> [CacheEntry]
SKIPPED_CODE = set()  # code objects where a translation traced no op (or failed): every later call runs eagerly
RUN_ONLY_CODE = set()  # code objects past config.cache_size_limit: cache hits run, misses run eagerly
_state = threading.local()


class CacheEntry:
    """One compiled version of a frame: a whole-frame graph, a frame split by a break (resume.py), or eager."""

    def __init__(self, guard_fn, backend, compiled=None, input_sources=(), plan=None, graph=None, break_reason=None,
                 transformed_code=None, skip_code=False):
        # graph: the GraphModule handed to the backend (None: no graph had ops)
        self.guard_fn, self.backend, self.compiled, self.plan, self.graph = guard_fn, backend, compiled, plan, graph
        self.fetch_inputs = source.fetch_function(input_sources)  # one call fetches every graph input
        self.boxed_call = getattr(compiled, "_boxed_call", False)
        self.break_reason, self.transformed_code = break_reason, transformed_code
        self.skip_code = skip_code  # no op traced, or an unresumable break: this call and all later ones run eagerly

    def run(self, fn, args, kwargs, L, G):
        if self.transformed_code is not None:
            # No PEP 523 hook: instead of CPython running the rewritten frame, we call a function made of
            # it, with fn's globals, defaults and closure cells, on the caller's original arguments.
            return with_code(fn, self.transformed_code)(*args, **kwargs)
        if self.compiled is None:  # as Dynamo skips a frame: it runs as written, but what it calls still compiles
            return run_skipped(fn, args, kwargs, CompileWrapper(self.backend, False))
        inputs = self.fetch_inputs(L, G)
        return self.plan(self.compiled(inputs) if self.boxed_call else self.compiled(*inputs), L, G, fn)


def is_disabled():
    return getattr(_state, "disabled", 0) > 0


def run_eagerly(fn, args, kwargs):
    """fn(*args, **kwargs) with nothing inside it compiled."""
    _state.disabled = getattr(_state, "disabled", 0) + 1
    try:
        return fn(*args, **kwargs)
    finally:
        _state.disabled -= 1


_observers = []  # observers of translations (explain.py's): called with each new CacheEntry


def frame_locals(fn, args, kwargs):
    """The frame's locals at entry: parameters bound as Python binds them, plus closure cells' contents."""
    return _make_binder(fn.__code__)(fn, args, kwargs)


@functools.cache
def _make_binder(code):
    """A binder for one code object, made once: positional calls bind by dict(zip()), others by inspect."""
    names = code.co_varnames[:code.co_argcount]
    positional_only_call = not (code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)) and \
        code.co_kwonlyargcount == 0

    def bind(fn, args, kwargs):
        defaults = fn.__defaults__ or ()
        missing = len(names) - len(args)
        if positional_only_call and not kwargs and 0 <= missing <= len(defaults):  # (the last `missing` defaults)
            L = dict(zip(names, (*args, *defaults[len(defaults) - missing:])))
        else:
            # the signature of a bare function of fn's code (inspect.signature of fn would believe the
            # __wrapped__ or __signature__ that functools.wraps copies)
            bound = inspect.signature(with_code(fn, fn.__code__)).bind(*args, **kwargs)
            bound.apply_defaults()
            L = dict(bound.arguments)
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
            with contextlib.suppress(ValueError):  # (an empty cell: a local not yet assigned)
                L[name] = cell.cell_contents
        return L

    return bind


def translate(fn, L, backend, nopython):
    """Capture fn's frame and compile it with backend: a CacheEntry (split at a break, or eager with the reason)."""
    tx = InstructionTranslator(fn.__code__, fn.__globals__, L, fn.__closure__)
    try:
        gm, plan = tx.output.finish(tx.run())
    except Unsupported as e:
        note_break(e, nopython)  # (Dynamo's words for it; torch's warning at a first .item())
        if nopython:
            raise
        log.info("graph break in %s: %s [%s]", fn.__qualname__, e, e.code)
        where = e.where.rsplit(" at ", 1)[-1] if e.where else f"{fn.__code__.co_filename}:{fn.__code__.co_firstlineno}"
        _logging.log_graph_break(where, e.msg, *REASONS.get(e.code, REASONS["unsupported"]))
        eager_rest = rnn_refusal.runs_rest_eagerly(e, tx)  # (a break Dynamo cannot resume at)
        reason = f"{e} [{e.code}]" + (UNTALLIED if getattr(e, "untallied", False) else "")
        why_not = resume.why_cannot_resume(fn.__code__, e)
        if why_not is None:
            try:
                return translate_split(fn, L, backend, nopython, e, reason, eager_rest)
            except Unsupported as e2:
                why_not = e2.code
                reason = f"{reason}; cannot resume: {e2}"
        reason = f"{reason}; {explain_reason(why_not)} [{why_not}]" if why_not != e.code else reason
        return CacheEntry(tx.output.guards.compile(), backend, break_reason=reason, skip_code=True)  # (for good)
    og = tx.output
    if not (og.calls_traced or og.switches_dropped or nopython):
        # as Dynamo's SkipFrame("No ops traced"): the frame runs eagerly, and so do later calls of its code, even
        # those an earlier entry would serve. (Reading a symbolic size records nodes, as Dynamo's `size = l_x_.size()`:
        # a frame that only branches on sizes compiles when they are dynamic.)
        log.info("skipping %s: no ops traced", fn.__qualname__)
        return CacheEntry(og.guards.compile(), backend, skip_code=True)
    compiled = compile_graph(fn, gm, og, backend)
    return CacheEntry(og.guards.compile(), backend, compiled, [inp.source for inp in og.inputs], plan,
                      gm if og.op_count() else None)


def translate_split(fn, L, backend, nopython, e, reason, eager_rest=False):
    """Replay up to the break, compile the graph so far, build the code running it, the instruction, the resumes."""
    with _logging.restarted_compile(same_attempt=jumps_on_a_tensor(reason)):
        tx = InstructionTranslator(fn.__code__, fn.__globals__, L, fn.__closure__)
        tx.stop_at_step = e.break_step
        tx.run()
        bp, og = tx.break_point, tx.output
        if bp is None or bp.inst.offset != e.break_offset:
            raise Unsupported("replaying the frame did not reach the same break", "unresumable")
        graph_call = resume.GraphCall()
        graph_name = _logging.next_graph_name() if og.op_count() else None  # named before the resume functions
        try:
            wrapper = rnn_refusal.rest_wrapper(CompileWrapper(backend, nopython), eager_rest)
            code = resume.transform_frame(fn, bp, og, graph_call, wrapper)
        except Unsupported:
            raise
        except Exception as err:  # a frame shape the bytecode rewrite does not handle: eager, never a crash
            raise Unsupported(f"building the resume function failed: {type(err).__name__}: {err}",
                              "unresumable") from err
        if (leak := requires_grad_leaks.leak_at_break(og, fn.__code__)) is not None:  # (Dynamo restarts there)
            return translate_split(fn, L, backend, nopython, leak, f"{reason}; restarted at: {leak} [{leak.code}]")
        gm = og.close()
        graph_call.compiled = compile_graph(fn, gm, og, backend, graph_name)
        return CacheEntry(og.guards.compile(), backend, graph=gm if og.op_count() else None, break_reason=reason,
                          transformed_code=code)


def compile_graph(fn, gm, og, backend, name=None):
    """The backend's callable for gm (not for one without calls or outputs, as Dynamo); raises BackendCompilerFailed."""
    if og.calls_traced == 0 and not (og.outputs and og.common_case):  # (else returned inputs are read from L)
        return gm.forward
    _logging.log_graph("graph_code", name or _logging.next_graph_name(), gm)
    try:
        compiled = backend(gm, [inp.value for inp in og.inputs])
    except Exception as e:
        failed = BackendCompilerFailed(getattr(backend, "__name__", repr(backend)), e)
        failed.floats = [og.inputs[p].source.base.name() for p in e.args[0]] if isinstance(
            e, SpecializeFloatInputs) else og.shape_env.float_sources.values()  # (the floats AOT took as numbers)
        raise failed from e
    og.install_shape_guards()
    og.shape_env.check_constraints(og.marked_sizes)
    return compiled


COMPILE_LOCK = threading.RLock()
# a forked child gets a fresh one: a thread that held it at the fork does not exist there, and would never release it
os.register_at_fork(after_in_child=lambda: globals().update(COMPILE_LOCK=threading.RLock()))


def call_compiled(fn, args, kwargs, backend, nopython):
    if is_disabled() or (config.stance is not None and config.stance.runs_eagerly()):
        return fn(*args, **kwargs)
    fn = original_function(fn)  # a function `with optimize()` routed: compile its real code, not the trampoline
    code = fn.__code__
    if fn.__dict__.get("_torchdynamo_disable_recursive") is False:  # a frame Dynamo skips (a scheduler's wrapped step)
        return call_routed(fn, args, kwargs, CompileWrapper(backend, False))  # (run as written, its callees compiled)
    if code in SKIPPED_CODE:
        return run_skipped(fn, args, kwargs, CompileWrapper(backend, False))
    try:
        L = frame_locals(fn, args, kwargs)
    except TypeError:  # the arguments do not bind: the eager call raises Python's own error, in its words
        return run_eagerly(fn, args, kwargs)
    G = fn.__globals__
    entries = CACHE.setdefault(code, [])
    for entry in entries:
        if entry.backend == backend and entry.guard_fn(L, G) is None:  # (torch.compile's backends: equal)
            return _run(entry, fn, args, kwargs, L, G)
    if config.stance is not None:  # torch.compiler.set_stance: no compile (compiler.py)
        return config.stance.cache_miss(fn, args, kwargs, lambda: guard_failures(fn, entries, L, backend))
    if code not in RUN_ONLY_CODE and len(entries) >= config.recompile_limit:
        _hit_cache_size_limit(fn, entries, L, backend, nopython)
    if code in RUN_ONLY_CODE:
        return run_eagerly(fn, args, kwargs)
    if entries and log.isEnabledFor(logging.INFO):
        log.info("recompiling %s: %s", code.co_name, guard_failures(fn, entries, L, backend)[-1][1])
    with COMPILE_LOCK:  # as Dynamo's compile_lock: one translation at a time (threads that missed the cache queue)
        try:
            entry = translate_logged(translate_specializing_floats, fn, L, backend, nopython, entries)
        except Exception as e:
            if nopython or not config.suppress_errors or isinstance(e, FailOnRecompileLimitHit):
                raise
            return _run_after_failed_compile(fn, args, kwargs, e, backend)
        if entry.skip_code:
            SKIPPED_CODE.add(code)
        else:
            entries.append(entry)
    for observer in _observers:
        observer(entry)
    with _logging.compile_context(code, len(entries) - 1):  # backends like aot_eager compile at the first run
        return _run(entry, fn, args, kwargs, L, G)


def _run(entry, fn, args, kwargs, L, G):
    """A compiled frame that raises leaves grad mode as it found it (its graph's no_grad block ends with it)."""
    grad_enabled = minitorch2.is_grad_enabled()
    try:
        return entry.run(fn, args, kwargs, L, G)
    except BaseException:
        minitorch2.autograd.grad_mode.state.grad_enabled = grad_enabled
        raise


def _hit_cache_size_limit(fn, entries, L, backend, nopython):
    """Warn once, naming the latest entry's failing guard, and make the code RUN_ONLY (an error under nopython)."""
    warn_cache_size_limit(fn, entries, L, backend)
    if nopython:
        raise FailOnRecompileLimitHit("Hard failure due to fullgraph=True")
    RUN_ONLY_CODE.add(fn.__code__)


def _run_after_failed_compile(fn, args, kwargs, error, backend):
    """config.suppress_errors: as Dynamo, warn, and run this call and every later call of the code eagerly."""
    warnings.warn(f"frontend: compiling {fn.__qualname__} failed, running it eagerly (config.suppress_errors): "
                  f"{type(error).__name__}: {error}")
    SKIPPED_CODE.add(fn.__code__)
    return run_skipped(fn, args, kwargs, CompileWrapper(backend, False))


def translate_specializing_floats(fn, L, backend, nopython):
    try:
        return translate(fn, L, backend, nopython)
    except BackendCompilerFailed as e:  # floats AOT cannot take as tensors: as Dynamo's restart, constants
        if not dynamic_shapes.specialize_floats(fn.__code__, e.floats):
            raise
        return translate(fn, L, backend, nopython)


def _call_module(fn, *args, **kwargs):  # (torch.nn's own module compiled as Dynamo does: `fn` and `args` its names)
    return fn(*args, **kwargs)


class OptimizedModule(minitorch2.nn.Module):
    """A compiled nn.Module: shares the original's parameters (it holds it as `_orig_mod`)."""

    def __init__(self, mod, compile_wrapper):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_compile_wrapper", compile_wrapper)
        del self.__dict__["training"]  # read from the original (__getattr__), as torch's: model.eval() shows here

    # compiled again (torch.compile(compiled)), as Dynamo's innermost_fn: the original's forward, a bound method
    _torchdynamo_orig_callable = property(lambda self: self._orig_mod.forward)

    def __reduce__(self):  # pickled and deep-copied as torch's: a new OptimizedModule of the original, copied
        return type(self), (self._orig_mod, self._compile_wrapper)

    def __setattr__(self, name, value):  # as torch's: a compiled module's attributes are its original's
        if "_orig_mod" in self._modules and not hasattr(type(self), name):
            return setattr(self._orig_mod, name, value)
        super().__setattr__(name, value)

    def forward(self, *args, **kwargs):
        mod, wrapper = self._orig_mod, self._compile_wrapper
        if type(mod).__call__ is not minitorch2.nn.Module.__call__:
            return mod(*args, **kwargs)
        if (type(mod).forward.__module__ or "").startswith("minitorch2.nn."):  # torch.nn's own, whose forward Dynamo's
            # trace_rules skip: compiled, hooks and all, from a frame that calls it, as Dynamo's wrap_inline
            return wrapper.call_as_compiled(_call_module, (mod, *args), kwargs)
        # a user's: Dynamo skips Module.__call__'s own frame and catches those it calls, forward's and each hook's (a
        # hook that is a callable object runs as it is)
        return call_with_hooks(mod, args, kwargs, lambda fn: wrapper(fn) if hasattr(fn, "__code__") else fn)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules["_orig_mod"], name)


class CompileWrapper(CaptureBlocksMixin):  # (the mixin: `with optimize(backend):` blocks, profile_capture.py)
    """What optimize(backend) returns: it compiles a function or module, or the functions its `with` block calls."""

    def __init__(self, backend, nopython, dynamic=None, guard_export_fn=None):
        self.backend, self.nopython = backend, nopython
        self.dynamic = dynamic  # None, True or False: which sizes are symbols (dynamic_shapes.py)
        self.guard_export_fn = guard_export_fn  # called with each compiled frame's guards (a list of Guard)

    def __call__(self, fn):
        while hasattr(fn, "_torchdynamo_orig_callable"):  # as Dynamo's innermost_fn: compiling disable(f) compiles f
            fn = fn._torchdynamo_orig_callable
        if isinstance(fn, minitorch2.nn.Module):
            return OptimizedModule(fn, self)
        if isinstance(fn, functools.partial):  # its function compiled, its arguments bound in front as before
            return functools.partial(self(fn.func), *fn.args, **fn.keywords)
        if inspect.ismethod(fn):  # a bound method: compile its function, with its self in front
            func, bound = fn.__func__, (fn.__self__,)
        elif inspect.isfunction(fn):
            func, bound = fn, ()
        else:
            raise TypeError(f"frontend.optimize expects a function or nn.Module, got {type(fn).__name__}")

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return self.call_as_compiled(func, (*bound, *args), kwargs)

        return wrapper

    def call_as_compiled(self, fn, args, kwargs):
        """A call of a function optimize() was given: under its dynamic= and guard_export_fn=."""
        with dynamic_shapes.compiling_with(self.dynamic), exporting_guards(self.guard_export_fn):
            return self.call(fn, args, kwargs)

    def call(self, fn, args, kwargs):
        return call_compiled(fn, args, kwargs, self.backend, self.nopython)

    is_disabled = staticmethod(is_disabled)  # frontend.disable is in effect on this thread: calls run eagerly


def optimize(backend=None, *, nopython=False, dynamic=None, disable=False, guard_export_fn=None):
    """`@optimize(backend)`: compile a function or module with backend (a name, a callable, None: the default)."""
    if disable:
        return lambda fn: fn
    _patch_library_once()
    return CompileWrapper(lookup_backend(backend), nopython, dynamic, guard_export_fn)


@functools.cache
def _patch_library_once():
    """As Dynamo's TorchPatcher, at the first compile: distributions stop validating their arguments (graph breaks)."""
    minitorch2.distributions.Distribution.set_default_validate_args(False)


def reset():
    """Forget every compiled entry (as torch._dynamo.reset()); log frame ids count from 0 again."""
    for table in (CACHE, SKIPPED_CODE, RUN_ONLY_CODE):
        table.clear()
    dynamic_shapes.reset()
    _logging.reset_ids()
