"""Running a frame eagerly while the functions it calls still compile: the frame Dynamo skips, without PEP 523.

Frontend layer, used by eval_frame and resume. A frame Dynamo skips (a break in a loop or try block, a compile that
failed under suppress_errors, disable(recursive=False)) runs as written, but under Dynamo's frame callback, so the
user functions it calls compile as frames of their own. Ours runs a copy of its code whose calls are routed:

    PUSH_NULL            ->  LOAD_CONST NO_SELF         (LOAD_METHOD m -> LOAD_ATTR m; LOAD_CONST NO_SELF; SWAP 2)
    KW_NAMES k; CALL n   ->  BUILD_TUPLE n; LOAD_CONST RoutedCall(k); SWAP 4; SWAP 3; SWAP 2; CALL 2

The one idea to hold: only the callable changes hands. A RoutedCall sends a user function, method or module forward
through the compile wrapper, anything else it calls as it is; a graph break's call (resume.py) goes through one too.
"""
import functools
import inspect
import sys
import threading
import types

from bytecode import Bytecode, Instr

import minitorch2

from . import pyversion, tensorless_frames  # (a cycle: each reads the other's functions at call time)
from .profile_capture import is_user_or_exec_code

_CODES = {}  # code object -> its copy whose calls are routed
# builtins that read their caller's frame: called from a RoutedCall they would read its frame, not the user's
FRAME_READERS = (super, locals, globals, vars, dir, eval, exec, sys._getframe, inspect.currentframe)
_active = threading.local()  # .wrapper: the CompileWrapper the callees of the running skipped frames compile under


def run_skipped(fn, args, kwargs, compile_wrapper):
    """fn(*args, **kwargs) run as written, each user function it calls compiled by compile_wrapper."""
    code = _CODES.get(fn.__code__) or _CODES.setdefault(fn.__code__, _routed_code(fn.__code__))
    outer, _active.wrapper = getattr(_active, "wrapper", None), compile_wrapper
    try:
        return with_code(fn, code)(*args, **kwargs)
    finally:
        _active.wrapper = outer


def with_code(fn, code):
    """A copy of fn (its globals, name, defaults and closure cells) that runs `code`."""
    copy = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    return copy


def _routed_code(code):
    """code with each call made through a RoutedCall; code itself if the `bytecode` package cannot rewrite it."""
    if {reader.__name__ for reader in FRAME_READERS} & set(code.co_names):
        return code
    try:
        bc = Bytecode.from_code(code)
        bc[:] = _routed_instructions(list(bc))
        return bc.to_code()
    except Exception:  # a frame shape the rewrite does not handle runs unrouted: eager, never a crash
        return code


def _routed_instructions(instructions):
    routed = []
    kw_names = ()
    for inst in instructions:
        name = getattr(inst, "name", None)
        if name == "KW_NAMES":  # (3.11, 3.12) the names of the next call's last arguments
            kw_names = inst.arg
        elif name == "PUSH_NULL":
            routed += _instrs(inst, [("LOAD_CONST", NO_SELF)])
        elif name == "LOAD_METHOD" or name in ("LOAD_GLOBAL", "LOAD_ATTR", "LOAD_SUPER_ATTR") and inst.arg[0] is True:
            # a global load with a NULL pushes (NULL, global), a method load (method, self) or (NULL, attribute):
            # load the global or the bound attribute alone, and NO_SELF in the NULL's place
            load = ("LOAD_ATTR", inst.arg) if name == "LOAD_METHOD" else (name, (False, *inst.arg[1:]))
            swap = [] if pyversion.NULL_AFTER_CALLABLE else [("SWAP", 2)]
            routed += _instrs(inst, [load, ("LOAD_CONST", NO_SELF), *swap])
        elif name in ("CALL", "CALL_KW", "CALL_FUNCTION_EX"):
            routed += _instrs(inst, routed_call(name, inst.arg, kw_names))
            kw_names = ()
        elif name == "FORMAT_VALUE":  # (f"{obj}" calls the user's obj.__str__: routed as a call)
            from .opcodes_strings import routed_format  # (it imports this module)
            routed += _instrs(inst, routed_format(inst.arg))
        elif name != "PRECALL":  # (3.11: written again before the routed CALL)
            routed.append(inst)
    return routed


def routed_call(opname, arg, kw_names, compile_wrapper=None):
    """The (opname, arg) pairs that make the call `opname arg` through a RoutedCall: tuple the arguments, slide the
    RoutedCall under the call's two slots, and call it in the method form: routed(slot, slot, args[, kwargs])."""
    if opname == "CALL_FUNCTION_EX":  # [two slots, args, kwargs or nothing]
        pack, routed, n_items = [] if arg & 1 else [("LOAD_CONST", None)], RoutedCall((), compile_wrapper), 4
    else:  # [two slots, args (3.13's CALL_KW: and the names)]
        names = None if opname == "CALL_KW" else kw_names
        pack, routed, n_items = [("BUILD_TUPLE", arg + (opname == "CALL_KW"))], RoutedCall(names, compile_wrapper), 3
    swaps = [("SWAP", depth) for depth in range(n_items + 1, 1, -1)]
    return [*pack, ("LOAD_CONST", routed), *swaps, *pyversion.call_instructions(n_items - 1, ())]


def _instrs(at, pairs):
    return [Instr(name, arg, location=at.location) for name, arg in pairs]


NO_SELF = object()  # what a routed frame pushes for a NULL: a call's empty slot, which a RoutedCall reads


class RoutedCall:
    """The constant a routed call site calls: fn(*args, **kwargs), fn's frame compiled if Dynamo would see it."""

    def __init__(self, kw_names, compile_wrapper=None):
        self.kw_names = kw_names  # None: 3.13's CALL_KW, whose names are the last item of args
        self.compile_wrapper = compile_wrapper  # None: the one the running skipped frame's callees compile under

    def __call__(self, first, second, args, kwargs=None):
        names = args[-1] if self.kw_names is None else self.kw_names
        args = tuple(args[:-1] if self.kw_names is None else args)
        if names:
            kwargs, args = dict(zip(names, args[len(args) - len(names):])), args[:len(args) - len(names)]
        if first is NO_SELF or second is NO_SELF:  # [NULL, fn] (3.13: [fn, NULL]), else [method, self]
            fn = second if first is NO_SELF else first
        else:
            fn, args = first, (second, *args)
        wrapper = self.compile_wrapper or getattr(_active, "wrapper", None)
        return call_routed(fn, args, kwargs or {}, wrapper) if wrapper is not None else fn(*args, **(kwargs or {}))


def call_routed(fn, args, kwargs, compile_wrapper):
    """fn(*args, **kwargs), the first frame of it that Dynamo's callback would see compiled by compile_wrapper."""
    if isinstance(fn, types.FunctionType) and fn.__dict__.get("_torchdynamo_disable_recursive") is False:
        return run_skipped(fn.__wrapped__, args, kwargs, compile_wrapper)  # disable(recursive=False)
    if isinstance(fn, types.FunctionType) and "_grad_mode_context" in fn.__dict__:  # @no_grad: its frame is skipped
        context_class, context_args = fn._grad_mode_context
        with context_class(*context_args):
            return call_routed(fn.__wrapped__, args, kwargs, compile_wrapper)
    if type(fn) is functools.partial:  # (a C callable: Dynamo's callback sees the frame of the function it calls)
        return call_routed(fn.func, (*fn.args, *args), {**fn.keywords, **kwargs}, compile_wrapper)
    frame, bound = fn, ()
    if isinstance(fn, types.MethodType):
        frame, bound = fn.__func__, (fn.__self__,)
    elif isinstance(fn, minitorch2.nn.Module) and type(fn).__call__ is minitorch2.nn.Module.__call__:
        hooked = fn._forward_hooks or fn._forward_pre_hooks or fn._backward_hooks or fn._backward_pre_hooks or \
            "forward" in fn.__dict__  # (an instance's own forward, which Module.__call__ calls as self.forward)
        frame, bound = type(fn).__call__ if hooked else type(fn).forward, (fn,)  # (__call__: run skipped, as torch.nn's)
    if not isinstance(frame, types.FunctionType) or pyversion.is_generator(frame.__code__):
        return fn(*args, **kwargs)
    if is_user_or_exec_code(frame.__code__):  # (one holding nothing of torch's runs as written: tensorless_frames)
        return tensorless_frames.call_frame(frame, (*bound, *args), kwargs, compile_wrapper)
    # torch.nn's forward is skipped: the modules it calls are not; nor is a custom autograd.Function's forward, which
    # Dynamo sees as a frame of its own when apply (C++ in torch) runs eagerly
    if bound and (isinstance(fn, minitorch2.nn.Module) or frame is minitorch2.autograd.Function.apply.__func__):
        return run_skipped(frame, (*bound, *args), kwargs, compile_wrapper)
    return fn(*args, **kwargs)
