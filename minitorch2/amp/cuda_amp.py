"""torch.cuda.amp: the deprecated CUDA spellings of autocast, GradScaler, custom_fwd and custom_bwd.

Runtime layer, coverage surface. Each warns torch's FutureWarning ("`torch.cuda.amp.autocast(args...)` is
deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.", and so on) and then is its torch.amp
form for device "cuda". On a CPU-only build that means disabled: autocast warns "CUDA is not available or
torch_xla is imported. Disabling autocast." and casts nothing, GradScaler warns "torch.cuda.amp.GradScaler is
enabled, but CUDA is not available.  Disabling." and passes everything through, as torch does there.
`amp_definitely_not_available()` is True.
"""
import functools
import warnings

from .. import _dtype
from . import autocast_mode as _autocast_mode
from . import grad_scaler as _grad_scaler
from .grad_scaler import OptState  # noqa: F401  (torch.cuda.amp.grad_scaler keeps this name)

__all__ = ["amp_definitely_not_available", "autocast", "custom_bwd", "custom_fwd", "GradScaler"]


def amp_definitely_not_available():
    return True


def _deprecation(old, new):
    warnings.warn(f"`torch.cuda.amp.{old}(args...)` is deprecated. Please use `torch.amp.{new}` instead.",
                  FutureWarning, stacklevel=3)


class autocast(_autocast_mode.autocast):
    def __init__(self, enabled=True, dtype=_dtype.float16, cache_enabled=True):
        _deprecation("autocast", "autocast('cuda', args...)")
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_grad_scaler.GradScaler):
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        _deprecation("GradScaler", "GradScaler('cuda', args...)")
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)


def custom_fwd(fwd=None, *, cast_inputs=None):
    _deprecation("custom_fwd", "custom_fwd(args..., device_type='cuda')")
    return functools.partial(_autocast_mode.custom_fwd, device_type="cuda")(fwd=fwd, cast_inputs=cast_inputs)


def custom_bwd(bwd):
    _deprecation("custom_bwd", "custom_bwd(args..., device_type='cuda')")
    return _autocast_mode.custom_bwd(bwd, device_type="cuda")
