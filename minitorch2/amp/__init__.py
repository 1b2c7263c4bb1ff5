"""minitorch2.amp (torch.amp): automatic mixed precision on the CPU.

Runtime layer, coverage surface. `autocast("cpu", dtype=torch.float16)` runs matrix products and convolutions in
float16 and losses in float32 (autocast_mode.py, the op lists in _policy.py, its state in _state.py);
`GradScaler` scales losses and skips steps whose gradients overflowed (grad_scaler.py). torch.cuda.amp's
deprecated spellings are in cuda_amp.py; on this CPU-only build they are disabled, as torch's are there.
"""
from ._state import is_autocast_available
from .autocast_mode import autocast, custom_bwd, custom_fwd
from .grad_scaler import GradScaler, OptState

__all__ = ["autocast", "custom_bwd", "custom_fwd", "GradScaler", "is_autocast_available"]
