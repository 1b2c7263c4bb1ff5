"""Autocast's thread-local state, and the torch-level functions that read and set it.

Runtime layer, coverage surface. Per device type: whether autocast is on and its dtype (CPU and HPU default to
torch.bfloat16, the others to float16); then whether casts of weights are cached, the cache itself, and how deep
autocast regions nest (the cache is dropped when the outermost one exits). These are torch's
`torch.is_autocast_enabled(device_type)`, `torch.get_autocast_dtype`, `torch.set_autocast_*`,
`torch.clear_autocast_cache`, `torch.autocast_increment_nesting`... and the deprecated CPU/GPU spellings.

Only CPU tensors exist, so only the CPU setting ever casts anything.
"""
import threading
import warnings

from .. import _dtype


DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class _State(threading.local):
    def __init__(self):
        self.enabled = {}
        self.dtype = {}
        self.cache_enabled = True
        self.cache = {}  # id(weight) -> (weight, its cast)
        self.nesting = 0


local = _State()


def _check(device_type):
    if device_type not in DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: "
                           f"{device_type}")
    return device_type


def is_autocast_available(device_type):
    return _check(device_type) != "meta"


def is_autocast_enabled(device_type=None):
    return local.enabled.get(_check(device_type or "cuda"), False)


def set_autocast_enabled(device_type, enabled):
    local.enabled[_check(device_type)] = bool(enabled)


def get_autocast_dtype(device_type):
    default = _dtype.bfloat16 if device_type in ("cpu", "hpu") else _dtype.float16
    return local.dtype.get(_check(device_type), default)


def set_autocast_dtype(device_type, dtype):
    local.dtype[_check(device_type)] = dtype


def is_autocast_cache_enabled():
    return local.cache_enabled


def set_autocast_cache_enabled(enabled):
    local.cache_enabled = bool(enabled)


def clear_autocast_cache():
    local.cache.clear()


def autocast_increment_nesting():
    local.nesting += 1
    return local.nesting


def autocast_decrement_nesting():
    local.nesting -= 1
    return local.nesting


def cpu_casting():
    return local.enabled.get("cpu", False)


def cpu_dtype():
    return local.dtype.get("cpu", _dtype.bfloat16)


def _deprecated(old, new, value):
    def deprecated(*args):
        warnings.warn(f"torch.{old}() is deprecated. Please use torch.{new} instead.", DeprecationWarning,
                      stacklevel=2)
        return value(*args)

    deprecated.__name__ = old
    return deprecated


is_autocast_cpu_enabled = _deprecated("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')",
                                      lambda: is_autocast_enabled("cpu"))
get_autocast_cpu_dtype = _deprecated("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')",
                                     lambda: get_autocast_dtype("cpu"))
get_autocast_gpu_dtype = _deprecated("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')",
                                     lambda: get_autocast_dtype("cuda"))
set_autocast_cpu_enabled = _deprecated("set_autocast_cpu_enabled", "set_autocast_enabled('cpu', enabled)",
                                       lambda enabled: set_autocast_enabled("cpu", enabled))
set_autocast_cpu_dtype = _deprecated("set_autocast_cpu_dtype", "set_autocast_dtype('cpu', dtype)",
                                     lambda dtype: set_autocast_dtype("cpu", dtype))
