"""torch.nn.attention: which kernels F.scaled_dot_product_attention may choose (the SDPA tutorial's sdpa_kernel).

Runtime library surface. The switches are torch.backends.cuda's (`enable_flash_sdp`, `math_sdp_enabled`, ...,
minitorch2/backends/cuda.py), which sdpa_kernel sets for the length of its block. On the CPU, as ATen's choice
there, only two kernels exist: the fused flash attention for the CPU where its constraints hold, else the math path
(minitorch2/nn/_functional_apart.py reads the switches); with both turned off no kernel is left and the call fails
as torch's does.
"""
import contextlib
import enum

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


_SWITCH = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
           "mem_efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH,
           "overrideable": SDPBackend.OVERRIDEABLE}  # (the switches in ATen's order)


def _cur_sdpa_kernel_backends(with_priority=False):
    return [backend for name, backend in _SWITCH.items() if _switches._SDP_ENABLED[name]]


def _backend_from_string(name):
    """SDPBackend by its name: how a compiled graph spells a backend (torch.compile records these calls)."""
    return getattr(SDPBackend, name)


def _sdpa_kernel(backends, set_priority=False):
    """Turn on exactly `backends`' switches; a compiled graph calls this where the block starts and ends."""
    _switches._SDP_ENABLED.update({name: backend in backends for name, backend in _SWITCH.items()})


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Within the block only `backends` (one SDPBackend or a list of them) may run attention."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(f"Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "  # noqa: TRY004 (torch's class)
                             f"{type(backends).__name__}")
    backends = list(dict.fromkeys([backends] if isinstance(backends, SDPBackend) else backends))
    previous = _cur_sdpa_kernel_backends(with_priority=set_priority)
    try:
        _sdpa_kernel(backends, set_priority)
        yield {}
    finally:
        _sdpa_kernel(previous, set_priority)
