"""Why a guard failed, in Dynamo's words: the helpers a guard function calls to describe its first failing guard.

The observability side of the frontend: why a cached entry was refused, as torch's recompiles log words it. A
guard in `guards.py` may carry a `failure` expression over these `___` helpers (which `GUARD_NAMESPACE` binds);
the text it returns is what the recompiles log, the cache-size-limit warning and explain() show. Checking a guard
never calls them: only a guard that failed is explained. guard_failures() asks each cache entry of a frame.
"""
from minitorch2 import _logging
from minitorch2._aten.memory import _dtype_title

from .dynamic_shapes import DIM_MARKS, dim_marks
from .global_state import AUTOCAST_DEVICES, global_state


def ___tensor_mismatch(value, name, dtype, size, stride, requires_grad, tensor_type, inference=False, marks=(None,) * 3):
    """Why ___check_tensor failed: the first property that differs, expected and actual."""
    if type(value) is not tensor_type:
        return f"tensor '{name}' type mismatch. expected {tensor_type.__name__}, actual {type(value).__name__}"
    if value._version_counter.inference != inference:  # (an inference tensor has no Autograd key)
        keys = ("DispatchKeySet(CPU, BackendSelect, ADInplaceOrView)",
                "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)")
        return f"tensor '{name}' dispatch key set mismatch. expected {keys[not inference]}, actual {keys[inference]}"
    if value.dtype != dtype:
        return f"tensor '{name}' dtype mismatch. expected {_dtype_title(dtype)}, actual {_dtype_title(value.dtype)}"
    if value.requires_grad != requires_grad:
        return f"tensor '{name}' requires_grad mismatch. expected requires_grad={int(requires_grad)}"
    if value.dim() != len(size):
        return f"tensor '{name}' rank mismatch. expected {len(size)}, actual {value.dim()}"
    for what, expected, actual in (("size", size, tuple(value.shape)), ("stride", stride, tuple(value.stride()))):
        for i, (e, a) in enumerate(zip(expected, actual)):
            if e is not None and e != a:
                return f"tensor '{name}' {what} mismatch at index {i}. expected {e}, actual {a}"
    for attribute, then, now in zip(DIM_MARKS, marks, dim_marks(value)):
        if now is not None and (then is None or not now <= then):
            return f"tensor '{name}' {attribute} mismatch. expected a subset of {then or set()}, actual {now}"
    return f"tensor '{name}' mismatch"


def ___global_state_mismatch(**expected):
    """Why ___check_global_state failed: the settings that changed (autocast per device)."""
    changed = []
    for name, value in global_state().items():
        if name == "autocast":
            was = expected[name]
            changed += [f"autocast({d})_enabled" if (d in value) != (d in was) else f"autocast({d})_dtype"
                        for d in AUTOCAST_DEVICES if value.get(d) != was.get(d)]
        elif value != expected[name]:
            changed.append(name)
    return f"GLOBAL_STATE changed: {' '.join(changed)}"


def ___duplicate_tensors(names, *tensors):
    """Why ___check_no_aliasing failed: the sources that hold one tensor."""
    holders = {}
    for name, t in zip(names, tensors):
        holders.setdefault(id(t), []).append(name)
    return f"Duplicate tensors found: {[name for group in holders.values() if len(group) > 1 for name in group]}"


def guard_failures(fn, entries, L, backend):
    """(frame_id/entry, the guard that failed) for each cache entry of fn, the latest first."""
    return [(f"{_logging.frame_id(fn.__code__)}/{i}",
             e.guard_fn(L, G=fn.__globals__) if e.backend == backend else "compiled for a different backend")
            for i, e in reversed(list(enumerate(entries)))]
