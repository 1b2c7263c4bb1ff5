"""torch.amp.GradScaler: loss scaling for float16 training, steps skipped when gradients overflow.

Runtime layer, coverage surface. The usual loop:

    scaler.scale(loss).backward()   # loss times the scale (a float32 scalar tensor, 2**16 to start)
    scaler.step(optimizer)          # gradients times 1/scale; optimizer.step() only if all of them are finite
    scaler.update()                 # an overflow halves the scale (backoff_factor) and restarts the count;
                                    # growth_interval clean steps in a row double it (growth_factor)

unscale_(optimizer) does step's unscaling early (to clip gradients). The bookkeeping is torch's: per optimizer a
stage (READY, UNSCALED, STEPPED) and a found-inf flag per device, whose misuse raises torch's errors; the scale
and the growth tracker are tensors made at the first scale(); state_dict() holds scale, growth_factor,
backoff_factor, growth_interval and _growth_tracker. Unscaling multiplies each gradient by float32(1/scale), the
reciprocal taken in float64, as torch's does.

GradScaler("cuda") (torch's default device) on a CPU-only build warns "torch.cuda.amp.GradScaler is enabled, but
CUDA is not available.  Disabling." and is disabled: scale() returns its input, step() calls optimizer.step(),
get_scale() is 1.0, state_dict() is {}. Optimizers with their own scaling (_step_supports_amp_scaling) are
stepped as any other.
"""
import enum
import warnings

import numpy as np

from .. import _dtype
from .._factories import full
from .._functions import isfinite
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad


class OptState(enum.Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_optimizer_state():
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class _OptimizerStates(dict):
    def __missing__(self, key):
        state = self[key] = _fresh_optimizer_state()
        return state


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=2)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_growth_tracker = 0
        self._scale = None
        self._growth_tracker = None
        self._per_optimizer_states = _OptimizerStates()

    # ------------------------------------------------------------------ scaling
    def scale(self, outputs):
        """outputs (a tensor, or nested lists and tuples of them) times the current scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            return outputs * self._lazy_scale()
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(output) for output in outputs)
        if hasattr(outputs, "__iter__"):
            return map(self.scale, outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _lazy_scale(self):
        if self._scale is None:
            self._scale = full((), self._init_scale, dtype=_dtype.float32)
            self._growth_tracker = full((), self._init_growth_tracker, dtype=_dtype.int32)
        return self._scale

    def _check_scale_growth_tracker(self, funcname):
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate your script did not "
                                 "use scaler.scale(loss or outputs) earlier in the iteration.")
        return self._scale, self._growth_tracker

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale, in place, noting whether any is inf or nan."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = full((), float(np.float32(1.0 / float(self._scale.item()))), dtype=_dtype.float32)
        found_inf = full((), 0.0, dtype=_dtype.float32)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        with no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    grad = param.grad
                    if grad is None:
                        continue
                    if not allow_fp16 and grad.dtype is _dtype.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if not bool(isfinite(grad).all()):
                        found_inf.fill_(1.0)
                    grad.mul_(inv_scale)
        return {found_inf.device: found_inf}

    # ------------------------------------------------------------------ stepping
    def step(self, optimizer, *args, **kwargs):
        """optimizer.step(*args, **kwargs) on unscaled gradients, unless one of them was inf or nan."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        result = None
        if not sum(found.item() for found in state["found_inf_per_device"].values()):
            result = optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return result

    def update(self, new_scale=None):
        """The next iteration's scale: `new_scale` if given, else backed off after an overflow, grown after
        growth_interval clean steps."""
        if not self._enabled:
            return
        scale, tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            self._set_scale(new_scale)
        else:
            found_infs = [found for state in self._per_optimizer_states.values()
                          for found in state["found_inf_per_device"].values()]
            if not found_infs:
                raise AssertionError("No inf checks were recorded prior to update.")
            self._update_scale(sum(found.item() for found in found_infs) > 0)
        self._per_optimizer_states = _OptimizerStates()

    def _set_scale(self, new_scale):
        if isinstance(new_scale, float):
            self._scale.fill_(new_scale)
            return
        reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or torch.FloatTensor with "
                  "requires_grad=False.")
        if new_scale.device.type != self._device or new_scale.numel() != 1 or new_scale.requires_grad:
            raise AssertionError(reason)
        self._scale.copy_(new_scale)

    def _update_scale(self, found_inf):
        """torch's _amp_update_scale_: the scale and the count of clean steps, in their tensors."""
        if found_inf:
            self._scale.fill_(float(np.float32(self._scale.item() * self._backoff_factor)))
            self._growth_tracker.fill_(0)
            return
        successful = int(self._growth_tracker.item()) + 1
        if successful == self._growth_interval:
            grown = np.float32(self._scale.item() * self._growth_factor)
            if np.isfinite(grown):
                self._scale.fill_(float(grown))
            successful = 0
        self._growth_tracker.fill_(successful)

    # ------------------------------------------------------------------ queries and state
    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if not self._enabled:
            return 0
        return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker.item())

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self):
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the beginning of an iteration, "
                                     "or at the end after scaler.update().")
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = state["_growth_tracker"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    def _check_inf_per_device(self, optimizer):
        scale, _ = self._check_scale_growth_tracker("_check_inf_per_device")
        found = self._unscale_grads_(optimizer, full((), 1.0, dtype=_dtype.float32),
                                     full((), 0.0, dtype=_dtype.float32), True)
        self._per_optimizer_states[id(optimizer)]["found_inf_per_device"] = found
        return found

    def _found_inf_per_device(self, optimizer):
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]
