"""The process-wide settings a compiled graph depends on: grad mode, autocast, the default dtype.

Frontend layer, below `guards.py` (whose one GLOBAL_STATE guard compares them with their values at trace time, as
Dynamo's GlobalStateGuard) and `guard_failures.py` (which names the ones that changed).
"""
import minitorch2
from minitorch2.amp import _state as autocast_state

# The devices whose autocast Dynamo's GlobalStateGuard checks, in the order its failure message names them.
AUTOCAST_DEVICES = ("cpu", "cuda", "mtia", "maia", "xpu", "ipu", "hpu", "xla", "privateuseone", "mps")


def global_state():
    """The settings as a dict, as Dynamo's GlobalStateGuard checks them (autocast: enabled devices, their dtypes)."""
    enabled = autocast_state.local.enabled
    return {"grad_mode": minitorch2.is_grad_enabled(),
            "autocast": {d: autocast_state.get_autocast_dtype(d) for d in AUTOCAST_DEVICES if enabled.get(d)},
            "autocast_cache_enabled": autocast_state.local.cache_enabled,
            "default_dtype": minitorch2.get_default_dtype()}
