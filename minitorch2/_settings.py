"""Process-wide settings scripts set in their first lines: thread count, deterministic algorithms,
float32 matmul precision (as torch.set_num_threads, torch.use_deterministic_algorithms, ...).

Runtime library surface. minitorch2's kernels are deterministic and compute float32 matmuls in
float32, so these settings are recorded and read back, with torch's checks, but change no value.
"""
import os
import warnings

# (torch's thread count: OMP_NUM_THREADS where set, else the cores)
_state = {"num_threads": int(os.environ.get("OMP_NUM_THREADS", "0") or 0) or os.cpu_count() or 1,
          "deterministic": False, "warn_only": False, "matmul_precision": "highest",
          "interop_threads": os.cpu_count() or 1, "interop_threads_set": False, "warn_always": False}

__all__ = ["set_num_threads", "get_num_threads", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_float32_matmul_precision",
           "get_float32_matmul_precision", "set_num_interop_threads", "get_num_interop_threads",
           "set_deterministic_debug_mode", "get_deterministic_debug_mode", "set_warn_always", "is_warn_always_enabled",
           "is_storage", "compiled_with_cxx11_abi"]


def set_num_threads(num):
    if not isinstance(num, int) or num <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _state["num_threads"] = num


def get_num_threads():
    return _state["num_threads"]


def use_deterministic_algorithms(mode, *, warn_only=False):
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["warn_only"]


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.")
        return
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _state["matmul_precision"]


def set_num_interop_threads(num):
    """Once per process, as torch's (which also refuses once parallel work has started)."""
    if not isinstance(num, int) or num <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _state["interop_threads_set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    _state["interop_threads"], _state["interop_threads_set"] = num, True


def get_num_interop_threads():
    return _state["interop_threads"]


_DEBUG_MODES = ("default", "warn", "error")


def set_deterministic_debug_mode(debug_mode):
    """0/"default": deterministic algorithms off; 1/"warn": on, warning only; 2/"error": on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    return 0 if not _state["deterministic"] else 1 if _state["warn_only"] else 2


def set_warn_always(b):
    """Recorded only: minitorch2's warnings that torch gives once are given once."""
    _state["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _state["warn_always"]


def is_storage(obj):
    """torch.is_storage: a tensor's untyped_storage() is one; a tensor is not."""
    return type(obj).__name__ in ("UntypedStorage", "TypedStorage", "_StorageRef")


def compiled_with_cxx11_abi():
    return True  # (what torch's wheels answer; minitorch2 compiles no C++ of its own)


def alert_not_deterministic(caller):
    """ATen's alertNotDeterministic: under use_deterministic_algorithms(True), an op with no deterministic kernel
    raises (warns, with warn_only=True)."""
    if not _state["deterministic"]:
        return
    message = f"{caller} does not have a deterministic implementation, but you set 'torch.use_deterministic_algorithms("
    issue = ("file an issue at https://github.com/pytorch/pytorch/issues to help us prioritize adding deterministic "
             "support for this operation.")
    if _state["warn_only"]:
        warnings.warn(f"{message}True, warn_only=True)'. You can {issue} (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:186.)", stacklevel=2)
    else:
        raise RuntimeError(f"{message}True)'. You can turn off determinism just for this operation, or you can use "
                           "the 'warn_only=True' option, if that's acceptable for your application. You can also "
                           + issue)
