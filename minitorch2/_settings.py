"""Process-wide settings scripts set in their first lines: thread count, deterministic algorithms,
float32 matmul precision (as torch.set_num_threads, torch.use_deterministic_algorithms, ...).

Runtime library surface. minitorch2's kernels are deterministic and compute float32 matmuls in
float32, so these settings are recorded and read back, with torch's checks, but change no value.
"""
import os
import warnings

# (torch's thread count: OMP_NUM_THREADS where set, else the cores)
_state = {"num_threads": int(os.environ.get("OMP_NUM_THREADS", "0") or 0) or os.cpu_count() or 1,
          "deterministic": False, "warn_only": False, "matmul_precision": "highest"}


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
