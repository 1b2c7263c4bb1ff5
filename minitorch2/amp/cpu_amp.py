"""torch.cpu.amp: the deprecated CPU spellings of autocast and GradScaler.

Runtime layer, coverage surface, beside cuda_amp.py. Each warns torch's FutureWarning ("`torch.cpu.amp.
autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.") and is then
its torch.amp form for device "cpu", bfloat16 by default: autocast casts as torch.autocast("cpu") does.
"""
import warnings

from .. import _dtype
from . import autocast_mode as _autocast_mode
from . import grad_scaler as _grad_scaler

__all__ = ["autocast", "GradScaler"]


def _deprecation(old):
    warnings.warn(f"`torch.cpu.amp.{old}(args...)` is deprecated. Please use `torch.amp.{old}('cpu', args...)` "
                  "instead.", FutureWarning, stacklevel=3)


class autocast(_autocast_mode.autocast):
    def __init__(self, enabled=True, dtype=_dtype.bfloat16, cache_enabled=True):
        _deprecation("autocast")
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_grad_scaler.GradScaler):
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        _deprecation("GradScaler")
        super().__init__("cpu", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)
