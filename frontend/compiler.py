"""torch.compiler: the compiler's user-facing names (under `python -m minitorch2 run`, `torch.compiler` is this
module; cli/aliases.py). Frontend layer: each name is the frontend's own, under the name torch.compiler gives it.

Also here, as torch._dynamo has them (frontend/__init__.py): `set_stance`, which eval_frame.call_compiled asks
(config.stance) what to run instead of a compile, and `allow_in_graph` / `disallow_in_graph`, which fill the
tables the variable builder reads (variables/torch.py): an allowed function becomes one call_function node
instead of being inlined; a disallowed torch function is a graph break. And `disable`, whose marks
(`_torchdynamo_disable`, `_torchdynamo_disable_recursive`) the builder and eager_frame.py read.
"""
import contextlib
import functools
import weakref

import minitorch2
from minitorch2._unsupported import Unsupported

from . import config
from .backends import list_backends  # noqa: F401
from .eval_frame import reset, run_eagerly  # noqa: F401
from minitorch2._compile_markers import is_compiling
from .variables.torch import ALLOWED_IN_GRAPH, DISALLOWED_IN_GRAPH, is_torch_object

is_dynamo_compiling = is_compiling


def compile(*args, **kwargs):
    """torch.compiler.compile: torch.compile under another name."""
    return minitorch2.compile(*args, **kwargs)


def is_exporting():
    """True only while torch.export traces, which minitorch2 does not have."""
    return False


STANCES = ("default", "force_eager", "eager_on_recompile", "fail_on_recompile")


class set_stance:
    """What compiled functions do (torch.compiler.set_stance), as a call, a `with` block or a decorator:
    "default" compiles; "force_eager" runs everything eagerly; "eager_on_recompile" runs cached code but runs a
    call eagerly where it would compile; "fail_on_recompile" raises RuntimeError there instead. With
    skip_guard_eval_unsafe, a call that would compile raises RuntimeError (Dynamo then checks only the guards that
    tell its entries apart; we check every guard, which is safe and gives the same choice of entry).
    eval_frame.call_compiled asks the stance in force (config.stance) what to do instead of compiling."""

    def __init__(self, stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
        if force_backend is not None and stance != "default":
            raise RuntimeError("non-default stance cannot have force_backend set")
        if force_backend is not None or stance in ("eager_then_compile", "aot_eager_then_compile"):
            raise Unsupported(f"torch.compiler.set_stance({stance!r}, force_backend={force_backend!r}) is not "
                              "supported (minitorch2 has the stances default, force_eager, eager_on_recompile and "
                              "fail_on_recompile)")
        self.stance = stance
        self.skip_guard_eval_unsafe = skip_guard_eval_unsafe
        self.prev = config.stance
        self.__enter__()  # in force from the call on, as torch's

    def __enter__(self):
        config.stance = None if self.stance == "default" and not self.skip_guard_eval_unsafe else self

    def __exit__(self, *exc):
        config.stance = self.prev

    def __call__(self, fn):
        self.__exit__()  # a decorator's stance holds only inside the calls of fn

        @functools.wraps(fn)
        def in_stance(*args, **kwargs):
            with set_stance(self.stance, skip_guard_eval_unsafe=self.skip_guard_eval_unsafe):
                return fn(*args, **kwargs)

        return in_stance

    def __repr__(self):  # torch's words
        return (f"DynamoStance(stance={self.stance!r}, skip_guard_eval_unsafe={self.skip_guard_eval_unsafe}, "
                "backend=None)")

    # ---- what eval_frame.call_compiled asks ----

    def runs_eagerly(self):
        """Every call runs eagerly ("force_eager"); an unknown stance raises at the call, as torch's."""
        if self.stance not in STANCES:
            raise RuntimeError(f"invalid torch.compile stance '{self!r}'")
        return self.stance == "force_eager"

    def cache_miss(self, fn, args, kwargs, guard_failures):
        """A call no cache entry fits: run it eagerly ("eager_on_recompile"; the functions it calls still use their
        cached code) or raise, naming the guards that failed (guard_failures(): [(entry id, reason)]), as Dynamo."""
        if self.skip_guard_eval_unsafe:
            raise RuntimeError("Recompilation triggered with skip_guard_eval_unsafe stance. This usually means that "
                               "you have not warmed up your model with enough inputs such that you can guarantee no "
                               "more recompilations.")
        if self.stance != "fail_on_recompile":
            return fn(*args, **kwargs)
        code = fn.__code__
        message = (f"Detected recompile when torch.compile stance is 'fail_on_recompile'. filename: "
                   f"'{code.co_filename}', function name: '{code.co_name}', line number: {code.co_firstlineno}")
        failures = "".join(f"\n    - {entry}: {why}" for entry, why in guard_failures())
        if failures:
            message += f"\n    triggered by the following guard failure(s):{failures}"
        raise RuntimeError(message)


def allow_in_graph(fn):
    """Put calls of fn into the graph as one call_function node instead of tracing into it (the node runs fn;
    AOT and the backend trace through it); fn takes and returns tensors. Returns fn."""
    if isinstance(fn, (list, tuple)):
        return [allow_in_graph(x) for x in fn]
    if not callable(fn):
        raise AssertionError("allow_in_graph expects a callable")
    DISALLOWED_IN_GRAPH.discard(id(fn))
    if not is_torch_object(fn):  # (a torch function is in the graph already, unless disallowed)
        _add_while_alive(ALLOWED_IN_GRAPH, fn)
    return fn


def disallow_in_graph(fn):
    """Make calls of fn, a torch function or one allow_in_graph let in, a graph break (fn runs natively)."""
    if isinstance(fn, (list, tuple)):
        return [disallow_in_graph(x) for x in fn]
    if not callable(fn):
        raise AssertionError("disallow_in_graph expects a callable")
    if not is_torch_object(fn) and id(fn) not in ALLOWED_IN_GRAPH:
        raise RuntimeError("disallow_in_graph is expected to be used on an already allowed callable (like torch.* "
                           "ops). Allowed callables means callables that TorchDynamo puts as-is in the extracted "
                           "graph.")
    ALLOWED_IN_GRAPH.discard(id(fn))
    _add_while_alive(DISALLOWED_IN_GRAPH, fn)
    return fn


def _add_while_alive(table, fn):
    """Add id(fn) to table until fn dies (its id may then be reused); a builtin lives for good."""
    table.add(id(fn))
    with contextlib.suppress(TypeError):  # (no weak reference to a builtin)
        weakref.finalize(fn, table.discard, id(fn))


def assume_constant_result(fn):
    """Calls of fn in a compiled frame run while tracing; the graph holds their result as a constant, unguarded."""
    fn._dynamo_marked_constant = True
    return fn


def mark_static_address(t, guard=False):
    """torch._dynamo.mark_static_address: t keeps its memory across calls, which only CUDA graphs read; here the mark
    is kept and nothing reads it."""
    if not isinstance(t, minitorch2.Tensor):
        raise TypeError(f"mark_static_address expects a tensor but received {type(t)}")
    t._dynamo_static_input_type = "guarded" if guard else "unguarded"


def cudagraph_mark_step_begin():
    """Start a new step of CUDA-graph trees: nothing to do, as there are no CUDA graphs on a CPU."""


def disable(fn=None, recursive=True, *, reason=None):
    """Run fn (or, as a decorator, the decorated function) without compiling anything inside it."""
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # (recursive=False: a compiled caller runs fn's frame skipped, eager_frame.py)
        return run_eagerly(fn, args, kwargs) if recursive else fn(*args, **kwargs)

    wrapper.__dict__.update(_torchdynamo_disable=True, _torchdynamo_disable_recursive=recursive,
                            _torchdynamo_orig_callable=fn)  # (compiling the wrapper compiles fn: eval_frame.py)
    return wrapper


__all__ = ["compile", "disable", "reset", "list_backends", "is_compiling", "is_dynamo_compiling", "is_exporting",
           "set_stance", "allow_in_graph", "assume_constant_result", "cudagraph_mark_step_begin",
           "mark_static_address"]

