"""Frames Dynamo does not translate because they hold nothing of torch's: its convert_frame.has_tensor_in_frame.

Frontend layer, beside eager_frame.py, which calls a resume function, or a function a skipped frame calls, through
here. Dynamo looks at every frame that is not a compiled function's own before translating it: with no global naming
torch (or numpy) and no local holding a tensor or a module, it lets the frame run as written (its callees still
compile). A resume function left after a break with only Python values alive (an optimizer step's call, then
`sched.step()`) is such a frame: it is never traced, so its own breaks are never counted. So is a 3.11 <listcomp>
run eagerly after a break at its call: its locals are an iterator and cells, in which Dynamo does not look for
tensors.
"""
import types

import minitorch2

from . import eager_frame  # (a cycle: eager_frame calls call_frame; run_skipped is read at call time)


def call_frame(fn, args, kwargs, compile_wrapper):
    """fn(*args, **kwargs) through compile_wrapper, or run as written (its callees compiled) when Dynamo would skip
    it: a user function a skipped frame calls, or a resume function."""
    if not has_tensor_in_frame(fn, (*args, *kwargs.values())):
        return eager_frame.run_skipped(fn, args, kwargs, compile_wrapper)
    return compile_wrapper.call(fn, args, dict(kwargs))


def has_tensor_in_frame(fn, args):
    """A global naming torch (or frontend, our torch._dynamo) or numpy, or an argument holding a tensor or a module
    (or its class), in lists, tuples, dicts or namedtuples to any depth. A function of minitorch2's own (an
    optimizer's step) counts as naming torch, as torch.optim's functions do."""
    if fn.__globals__.get("__name__", "").startswith("minitorch2."):
        return True
    for name in fn.__code__.co_names:
        value = fn.__globals__.get(name)
        if isinstance(value, types.ModuleType) and value.__name__.split(".")[0] in ("minitorch2", "frontend", "numpy"):
            return True
    seen = set()

    def holds_tensor(value):
        if id(value) in seen:
            return False
        seen.add(id(value))
        if isinstance(value, (minitorch2.Tensor, minitorch2.nn.Module)) or (
                type(value) is type and issubclass(value, minitorch2.nn.Module)):
            return True
        if type(value) in (list, tuple):
            return any(holds_tensor(v) for v in value)
        if type(value) is dict:
            return any(holds_tensor(v) for v in value.values())
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            return any(holds_tensor(getattr(value, f)) for f in value._fields)
        return type(value).__module__ == "numpy" and hasattr(value, "dtype")  # (an ndarray or numpy scalar)
    return any(holds_tensor(v) for v in [*args, *_cell_values(fn)])


def _cell_values(fn):
    """The contents of fn's closure cells (Dynamo's f_locals holds them too), the empty ones left out."""
    for cell in fn.__closure__ or ():
        try:
            yield cell.cell_contents
        except ValueError:  # (an empty cell)
            pass
