"""torch.nn.attention: which kernels F.scaled_dot_product_attention may choose (the SDPA tutorial's sdpa_kernel).

Runtime library surface. The switches are torch.backends.cuda's (`enable_flash_sdp`, `math_sdp_enabled`, ...,
minitorch2/backends/cuda.py), which sdpa_kernel sets for the length of its block. On the CPU, as ATen's choice
there, only two kernels exist: the fused flash attention for the CPU where its constraints hold, else the math path
(minitorch2/nn/_functional_apart.py reads the switches); with both turned off no kernel is left and the call fails
as torch's does.
"""
import contextlib
import enum
from collections.abc import Iterable

from ...backends import cuda as _switches

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.Enum):
    """The attention kernels, numbered as ATen's."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self):
        return self.value


_SWITCH = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
           SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.CUDNN_ATTENTION: "cudnn"}


def _cur_sdpa_kernel_backends(with_priority=False):
    return [backend for backend, name in _SWITCH.items() if _switches._SDP_ENABLED[name]]


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Within the block only `backends` (one SDPBackend or an iterable of them) may run attention."""
    chosen = [backends] if isinstance(backends, SDPBackend) else list(backends) if isinstance(backends, Iterable) \
        else None
    if chosen is None or not all(isinstance(b, SDPBackend) for b in chosen):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances")
    before = dict(_switches._SDP_ENABLED)
    _switches._SDP_ENABLED.update({name: backend in chosen for backend, name in _SWITCH.items()})
    try:
        yield {}
    finally:
        _switches._SDP_ENABLED.update(before)
