"""torch.autograd's anomaly mode: detect_anomaly, set_detect_anomaly and the flag the backward engine reads.

Runtime layer, coverage surface. Anomaly mode is one process-wide flag and a second one, check_nan, as torch's
(torch.is_anomaly_enabled, is_anomaly_check_nan_enabled and set_anomaly_enabled reach them through _functions_extra).
With both on, the engine hands every node's returned gradients to `check_nan`, which raises torch's
RuntimeError naming the node and the output that holds a NaN. torch also records each forward op's traceback
and prints it when a backward fails; minitorch2 keeps no such record, so only the warning on entry is torch's.
"""
import warnings

import numpy as np

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "set_anomaly_enabled", "check_nan"]


class _AnomalyState:
    enabled = False
    check_nan = True


state = _AnomalyState()


def is_anomaly_enabled():
    return state.enabled


def is_anomaly_check_nan_enabled():
    return state.check_nan


def set_anomaly_enabled(enabled, check_nan=True):
    """torch.set_anomaly_enabled: the flags, with no context to restore them."""
    _set(enabled, check_nan)


def _set(enabled, check_nan):
    previous = (state.enabled, state.check_nan)
    state.enabled, state.check_nan = enabled, check_nan
    return previous


class detect_anomaly:
    """A context manager (and decorator) that turns anomaly mode on for its body."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        self._previous = None
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", stacklevel=2)

    def __enter__(self):
        self._previous = _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(*self._previous)
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)

        return wrapper


class set_detect_anomaly:
    """Sets anomaly mode at construction; as a context manager, restores the previous mode on exit."""

    def __init__(self, mode, check_nan=True):
        self._previous = _set(mode, check_nan)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _set(*self._previous)
        return False


def check_nan(node, grads):
    """The engine's check after `node` ran: torch's error for the first returned gradient holding a NaN (a fake
    tensor, met while tracing, holds no values to check)."""
    if not (state.enabled and state.check_nan):
        return
    for i, g in enumerate(grads):
        if g is not None and g._np is not None and g.dtype.is_floating_point and np.isnan(g._np).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
