"""`with frontend.optimize(backend):` — capturing frames without a frame-evaluation hook.

Frontend layer (plays `set_eval_frame` in torch/_dynamo/eval_frame.py). Dynamo's context sees every new frame
through CPython's PEP 523 hook; pure Python has none, so this module builds one from two standard pieces:

    sys.setprofile       a "call" event for every frame entered on this thread (threading.setprofile: new threads)
    fn.__code__ = ...    a function's code can be replaced; its next call runs the replacement (a "trampoline")

The one idea to hold: the profiler only NOTICES; routing happens by swapping code. When a user function is entered
with a minitorch2.Tensor among its arguments, every function holding that code gets a trampoline whose body is
`return handler(args, kwargs)`, which sends the call through the compile wrapper with a stand-in carrying the
original code. That first call is already running, so it runs eagerly: entering the context therefore routes ahead
of time the user functions the `with` frame names. On exit every swapped `__code__` and profile function is put
back, and the `with` frame's locals snapshot is dropped, so `del model` frees the model. Contexts nest (the
innermost compiles); closures made after their code was noticed, generators and coroutines are not routed.
"""
import gc
import inspect
import os
import sys
import sysconfig
import threading
import types
import weakref

import minitorch2

from . import pyversion

_HANDLER_MARKER = "___frontend_trampoline_handler"


# ---- which code is the user's ---------------------------------------------------------------------

def _library_dirs():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = [os.path.join(root, pkg) + os.sep for pkg in ("minitorch2", "frontend", "autograd", "partition", "backend")]
    paths = sysconfig.get_paths()
    dirs += [os.path.abspath(paths[key]) + os.sep for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    return tuple(dirs)


_LIBRARY_DIRS = _library_dirs()
# torch.optim's files whose compiled step is modelled (frontend/variables/optimizer.py's TRACED_OPTIMIZERS)
_TRACED_OPTIM_FILES = tuple(os.path.join(os.path.dirname(os.path.abspath(minitorch2.__file__)), "optim", name)
                            for name in ("optimizer.py", "sgd.py", "adam.py", "adamax.py", "nadam.py", "radam.py",
                                         "adagrad.py", "adadelta.py", "rmsprop.py", "rprop.py", "asgd.py"))


def is_user_code(code):
    """True for code a user wrote: not the library, the standard library, site-packages or generated code."""
    filename = code.co_filename
    if filename.startswith("<"):
        # generated code ("<eval_with_key>.N" GraphModules, "<string>" source fetchers, "<frozen ...>") is
        # the library's; only an interactive session's code is the user's
        return filename == "<stdin>"
    return not os.path.abspath(filename).startswith(_LIBRARY_DIRS)


def is_user_or_exec_code(code):
    """The user's code, or code the user exec'd: frames Dynamo compiles (a GraphModule's forward is the library's);
    and torch.optim's, which Dynamo inlines: an optimizer step's update frame compiles (variables/optimizer.py), where
    the optimizer's compiled step is modelled (not lr_scheduler.py's: a file Dynamo skips)."""
    filename = code.co_filename
    if filename.startswith("<"):
        return not filename.startswith(("<eval_with_key", "<frozen"))
    return is_user_code(code) or os.path.abspath(filename) in _TRACED_OPTIM_FILES


def _has_tensor(values):
    """Whether a tensor is among values, or directly inside one of them that is a tuple, list or dict."""
    for value in values:
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else [value]
        if any(isinstance(v, minitorch2.Tensor) for v in items):
            return True
    return False


def _argument_values(frame):
    """The values bound to the parameters of a frame that has just been entered."""
    frame_locals = frame.f_locals
    return [frame_locals[name] for name in pyversion.parameter_names(frame.f_code) if name in frame_locals]


# ---- trampolines ----------------------------------------------------------------------------------

class _Swap:
    """One routed function: its original code, the trampoline in its place, the capture that routed it."""

    def __init__(self, original, trampoline, owner):
        self.original = original
        self.trampoline = trampoline
        self.owner = owner
        self._stand_in = None

    def stand_in(self, fn):
        """A function like fn but running the original code (made once; remade if fn's defaults change)."""
        made = self._stand_in
        if made is None or made.__defaults__ is not fn.__defaults__ or made.__kwdefaults__ is not fn.__kwdefaults__:
            made = types.FunctionType(self.original, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
            made.__kwdefaults__ = fn.__kwdefaults__
            made.__qualname__ = fn.__qualname__
            made.__module__ = fn.__module__
            made.__dict__ = fn.__dict__
            _STAND_INS.add(made)
            self._stand_in = made
        return made


_SWAPS = weakref.WeakKeyDictionary()  # function object -> _Swap
_STAND_INS = weakref.WeakSet()  # functions made by original_function (they hold original code; never routed)
_lock = threading.RLock()


def _new_lock():
    global _lock
    _lock = threading.RLock()  # a forked child: another thread may have held it at the fork


os.register_at_fork(after_in_child=_new_lock)


def _trampoline_code(original, handler):
    """A `(*args, **kwargs)` code object with original's free variables whose body calls handler."""
    free = original.co_freevars
    lines = ["def ___outer():"]
    if free:
        lines.append(f"    {' = '.join(free)} = None")
    lines.append("    def ___trampoline(*___args, **___kwargs):")
    if free:
        lines.append(f"        nonlocal {', '.join(free)}")  # declares the cells without reading them
    lines += [f"        ___handler = {_HANDLER_MARKER!r}", "        return ___handler(___args, ___kwargs)"]
    namespace = {}
    exec(compile("\n".join(lines), __file__, "exec"), namespace)
    template = next(c for c in namespace["___outer"].__code__.co_consts if isinstance(c, types.CodeType))
    if template.co_freevars != free:
        return None
    consts = tuple(handler if isinstance(c, str) and c == _HANDLER_MARKER else c for c in template.co_consts)
    return template.replace(co_consts=consts, co_name=original.co_name, co_qualname=original.co_qualname)


def original_function(fn):
    """fn, or if a capture routed it, a stand-in running fn's original code (read its bytecode through this)."""
    swap = _SWAPS.get(fn) if isinstance(fn, types.FunctionType) else None
    if swap is None or fn.__code__ is not swap.trampoline:
        return fn
    return swap.stand_in(fn)


class _Handler:
    """The constant a trampoline calls: compile the call if a capture is active on this thread, else run it."""

    def __init__(self, fn):
        self.fn_ref = weakref.ref(fn)
        self.swap = None  # set by _route

    def __call__(self, args, kwargs):
        original, capture = self.swap.stand_in(self.fn_ref()), active_capture()
        if capture is None or capture.compile_wrapper.is_disabled() or not _has_tensor([*args, *kwargs.values()]):
            return original(*args, **kwargs)
        # The compile wrapper is in charge of this call and the frames it runs (as under minitorch2.compile),
        # so the profile function pauses on this thread: its cost stays off compiled calls.
        profile, outer = sys.getprofile(), getattr(_paused, "capture", None)
        sys.setprofile(None)
        _paused.capture = capture
        try:
            return capture.compile_wrapper.call(original, args, kwargs)
        finally:
            _paused.capture = outer
            sys.setprofile(profile)


def _route(fn, owner):
    """Swap a trampoline onto fn (unless it is routed already or cannot be); True if fn is routed now."""
    code = fn.__code__
    with _lock:
        if fn in _SWAPS or fn in _STAND_INS:
            return fn in _SWAPS
        if pyversion.is_generator(code) or not is_user_code(code):
            return False
        handler = _Handler(fn)
        trampoline = _trampoline_code(code, handler)
        if trampoline is None:
            return False
        handler.swap = _SWAPS[fn] = _Swap(code, trampoline, owner)  # first: fn may run (as a profile function)
        fn.__code__ = trampoline
        owner._done.add(code)  # its frames (run by the stand-in) need no more noticing
        return True


_paused = threading.local()  # .capture: the capture whose routed call is running with the profiler paused


def active_capture():
    """The capture compiling calls on this thread: sys.getprofile()'s, or the one that paused it for a routed call."""
    capture = getattr(sys.getprofile(), "__self__", None) or getattr(_paused, "capture", None)
    return capture if isinstance(capture, ProfileCapture) and capture.active else None


# ---- the context ----------------------------------------------------------------------------------

class ProfileCapture:
    """One activation of `with optimize(backend):` on its thread; `compile_wrapper` compiles the calls it routes."""

    def __init__(self, compile_wrapper):
        self.compile_wrapper = compile_wrapper
        self.active = False
        self._done = set()  # code objects already handled: routed, or never routable
        self._user_codes = set()  # user code seen without tensor arguments so far

    def start(self, with_frame=None):
        self.thread_id = threading.get_ident()
        self.prior_profile = sys.getprofile()
        self.prior_thread_hook = threading.getprofile()
        # events are passed on to the previous profile functions, except to an outer capture's (this one
        # does its work while it is the innermost)
        self._chain_main, self._chain_threads = (None if isinstance(getattr(p, "__self__", None), ProfileCapture)
                                                 else p for p in (self.prior_profile, self.prior_thread_hook))
        self.active = True
        self.with_frame = with_frame
        if with_frame is not None:
            self._route_names_of(with_frame)
        sys.setprofile(self._profile)
        threading.setprofile(self._profile)

    def stop(self):
        self.active = False
        sys.setprofile(self.prior_profile)
        threading.setprofile(self.prior_thread_hook)
        with _lock:
            mine = [(fn, swap) for fn, swap in list(_SWAPS.items()) if swap.owner is self]
            for fn, swap in mine:
                if fn.__code__ is swap.trampoline:
                    fn.__code__ = swap.original
                del _SWAPS[fn]
        self._done.clear()
        self._user_codes.clear()
        if self.with_frame is not None:
            # Profile events filled the frame's locals snapshot; drop it so `del model` frees the model.
            _forget_locals_snapshot(self.with_frame)
            self.with_frame = None

    def _profile(self, frame, event, arg):
        # Runs on every call and return of every frame in the block: the common paths come first.
        prior = self._chain_main if threading.get_ident() == self.thread_id else self._chain_threads
        if not self.active:
            sys.setprofile(prior)  # a thread that outlived the context: uninstall
            return
        if prior is not None:
            prior(frame, event, arg)
        if event != "call":
            return
        code = frame.f_code
        if code in self._done:
            return
        if code not in self._user_codes:
            if pyversion.is_generator(code) or not is_user_code(code):
                self._done.add(code)
                return
            self._user_codes.add(code)
        if self.compile_wrapper.is_disabled() or not _has_tensor(_argument_values(frame)):
            return  # maybe a later call passes a tensor
        self._done.add(code)
        for fn in gc.get_referrers(code):  # the functions holding this code, among whatever else refers to it
            if isinstance(fn, types.FunctionType) and fn.__code__ is code:
                _route(fn, self)

    def _route_names_of(self, frame):
        """Route ahead of time the user functions the `with` statement's frame can name."""
        code, local_values = frame.f_code, frame.f_locals
        for name in (*code.co_names, *code.co_varnames, *code.co_cellvars, *code.co_freevars):
            for fn in _functions_of(local_values[name] if name in local_values else frame.f_globals.get(name)):
                _route(fn, self)


def _functions_of(value):
    """The user function a name in the `with` frame may call: itself, a method's function, a module's forward."""
    if isinstance(value, types.MethodType):
        value = value.__func__
    elif isinstance(value, minitorch2.nn.Module):
        value = getattr(type(value), "forward", None)
    return [value] if isinstance(value, types.FunctionType) else []


def _forget_locals_snapshot(frame):
    """Drop the snapshot of locals reading `frame.f_locals` leaves on a 3.11/3.12 function frame, which would keep
    every local alive (`del x` after `with optimize():` would not free x). 3.13 (PEP 667) has none."""
    if not frame.f_code.co_flags & inspect.CO_OPTIMIZED:  # not a function frame (no fast locals, no snapshot)
        return
    if pyversion.VERSION in ((3, 11), (3, 12)):
        frame.f_locals.clear()
    elif pyversion.VERSION < (3, 11):  # (3.13 on: no snapshot)
        raise pyversion.UnsupportedPython(pyversion.VERSION)


class CaptureBlocksMixin:
    """The `with optimize(backend):` half of the CompileWrapper (eval_frame.py): each activation of the block is a
    ProfileCapture, the innermost last in `_captures`."""

    def __enter__(self):
        """Compile user functions called with tensors inside the block."""
        capture = ProfileCapture(self)
        self.__dict__.setdefault("_captures", []).append(capture)
        capture.start(inspect.currentframe().f_back)

    def __exit__(self, *exc):
        self._captures.pop().stop()
        return False
