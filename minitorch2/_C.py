"""torch._C's Python-visible queries that scripts, libraries and Dynamo's tests call (runtime layer, coverage surface).

torch._C is PyTorch's C++ extension; minitorch2 has none. These answer as a CPU-only torch does: no tracer running
(`if torch._C._get_tracing_state():` in older Hugging Face code), no autocast unless one is on, no TF32, no functorch
transform active; `_log_api_usage_once` (torchvision's models call it) does nothing. `torch._C._nn`, `_fft`,
`_linalg`, `_special` and `_autograd` are the namespaces Dynamo's graphs spell calls with (fx/_spelling.py).
"""
from . import _settings, _unsupported
from .amp import _state as _autocast_state
from .fx._spelling import TorchNamespace


def _get_tracing_state():
    return None


def _log_api_usage_once(event):
    return None


def _is_any_autocast_enabled():
    return any(_autocast_state.local.enabled.values())


def _get_cublas_allow_tf32():
    return False


def _get_cudnn_enabled():
    return True


def _get_privateuse1_backend_name():
    return "privateuseone"


def _are_functorch_transforms_active():
    return False


def _get_deterministic_algorithms():
    return _settings.are_deterministic_algorithms_enabled()


_missing = _unsupported.module_getattr("minitorch2._C", "torch._C")


def __getattr__(name):
    try:
        return getattr(TorchNamespace("torch._C"), name)  # (a namespace of spelled functions: torch._C._nn.linear)
    except AttributeError:
        return _missing(name)
