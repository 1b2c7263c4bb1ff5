"""torch.autocast (torch.amp.autocast): regions where some ops run in a lower precision; custom_fwd/custom_bwd.

Runtime layer, coverage surface. `with autocast("cpu", dtype=torch.float16):` sets the CPU's autocast state
(_state.py) for the region and applies the cast policy (_policy.py) to every op in it; leaving restores the state
around it, and leaving the outermost region drops the cache of cast weights. It also works as a decorator.

As on a CPU-only torch:
    device_type "cuda"       warns "CUDA is not available or torch_xla is imported. Disabling autocast." and
                             leaves the region disabled
    dtype neither bfloat16   warns "In CPU autocast, but the target dtype is not supported. Disabling autocast..."
    nor float16 on the CPU
Without a dtype the CPU's is torch's default, bfloat16.

The policy runs above autograd where the dispatcher has its autocast hook (so the casts are recorded and backward
runs through them, as in torch); otherwise as a dispatch mode below autograd, which casts only the ops autograd
does not record (no_grad, inference, inputs that need no gradient) and leaves the others in float32.
"""
import collections.abc
import functools
import warnings

from .. import _dispatch, _dtype
from .._dispatch import current_modes, pop_mode, push_mode
from .._tensor import Tensor
from . import _state
from ._policy import AutocastMode, cast_inputs


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = _state.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not _state.is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self._cache_enabled = _state.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        if enabled and device_type == "cuda":
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
            enabled = False
        elif enabled and self.fast_dtype not in (_dtype.bfloat16, _dtype.float16):
            name = device_type.upper()
            warnings.warn(f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                          f"{name} Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                          stacklevel=2)
            enabled = False
        self._enabled = enabled
        self._casting = None

    def __enter__(self):
        self.prev_cache_enabled = _state.is_autocast_cache_enabled()
        self.prev = _state.is_autocast_enabled(self.device)
        self.prev_fastdtype = _state.get_autocast_dtype(self.device)
        _state.set_autocast_enabled(self.device, self._enabled)
        _state.set_autocast_dtype(self.device, self.fast_dtype)
        _state.autocast_increment_nesting()
        _state.set_autocast_cache_enabled(self._cache_enabled)
        if self.device == "cpu" and self._enabled:
            self._casting = _start_casting()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if self._casting is not None:
            _stop_casting(self._casting)
            self._casting = None
        if _state.autocast_decrement_nesting() == 0:
            _state.clear_autocast_cache()
        _state.set_autocast_enabled(self.device, self.prev)
        _state.set_autocast_dtype(self.device, self.prev_fastdtype)
        _state.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"autocast()(func) requires a callable, but got {type(func).__name__}. Did you mean to "
                            "use autocast as a context manager? For example:\n    with torch.autocast(device_type=...)"
                            ":\n        output = model(input)")

        @functools.wraps(func)
        def run_in_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return run_in_autocast


def _start_casting():
    """Apply the policy for a region: through the dispatcher's autocast hook where it has one, else as a mode."""
    if hasattr(_dispatch.state, "autocast"):
        previous = _dispatch.state.autocast
        _dispatch.state.autocast = cast_inputs
        return ("hook", previous)
    mode = AutocastMode()
    push_mode(mode)
    return ("mode", mode)


def _stop_casting(casting):
    kind, value = casting
    if kind == "hook":
        _dispatch.state.autocast = value
    elif current_modes() and current_modes()[-1] is value:
        pop_mode()
    else:  # a mode entered inside the region is still on (a profiler started there): take ours out from under it
        _dispatch.state.modes.remove(value)


def _cast(value, device_type, dtype):
    """Floating tensors of that device (float64 aside) in `dtype`, through containers; everything else as is."""
    if isinstance(value, Tensor):
        eligible = value.is_floating_point() and value.device.type == device_type and value.dtype is not _dtype.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)) or not isinstance(value, collections.abc.Iterable):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    cast = (_cast(v, device_type, dtype) for v in value)
    return type(value)(cast) if isinstance(value, (list, tuple)) else cast


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """For a custom autograd Function's forward: remember the autocast state for backward; with `cast_inputs`,
    inside an autocast region, run forward with autocast off on inputs cast to that dtype."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def forward(ctx, *args, **kwargs):
        ctx._dtype = _state.get_autocast_dtype(device_type)
        region = _state.is_autocast_enabled(device_type)
        ctx._fwd_used_autocast = region and cast_inputs is None
        if cast_inputs is None or not region:
            return fwd(ctx, *args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return fwd(ctx, *_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))

    return forward


def custom_bwd(bwd=None, *, device_type):
    """For a custom autograd Function's backward: run it in the autocast state its forward ran in."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def backward(ctx, *args, **kwargs):
        with autocast(device_type=device_type, enabled=ctx._fwd_used_autocast, dtype=ctx._dtype):
            return bwd(ctx, *args, **kwargs)

    return backward


def _enter_autocast(device_type, dtype, enabled, cache_enabled):
    """A compiled graph's autocast entry (frontend/variables/autocast.py records it, as Dynamo): the region, entered."""
    region = autocast(device_type, dtype, enabled, cache_enabled)
    region.__enter__()
    return region


def _exit_autocast(region):
    """A compiled graph's autocast exit."""
    region.__exit__(None, None, None)
