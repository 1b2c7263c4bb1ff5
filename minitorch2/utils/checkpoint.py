"""torch.utils.checkpoint: activation checkpointing. The checkpointed function runs without recording its
intermediates; the backward runs it again (with the random state it first saw) to get them, then
backpropagates through the recomputation. Runtime layer, coverage surface.

Both of torch's variants compute the same values and gradients. `use_reentrant=True` (the legacy default, with
its warning) is an autograd.Function over the inputs, so when none requires grad nothing is differentiated, as in
torch; `use_reentrant=False` recomputes the same way when an input requires grad, and otherwise runs the
function as it is, keeping the parameters' gradients, as torch's saved-tensor-hook variant does.
"""
import contextlib
import warnings

from .. import _random
from .._tensor import Tensor
from ..autograd import Function, backward, enable_grad, no_grad
from ._pytree import tree_leaves


class _Recompute(Function):
    @staticmethod
    def forward(ctx, function, preserve_rng_state, *args):
        ctx.function, ctx.rng_state = function, _random.get_rng_state() if preserve_rng_state else None
        ctx.inputs = args
        with no_grad():
            return function(*args)

    @staticmethod
    def backward(ctx, *grads):
        saved_state = _random.get_rng_state()
        if ctx.rng_state is not None:
            _random.set_rng_state(ctx.rng_state)
        inputs = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a for a in ctx.inputs]
        with enable_grad():
            outputs = ctx.function(*inputs)
        _random.set_rng_state(saved_state)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad and g is not None]
        if pairs:
            backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *(a.grad if isinstance(a, Tensor) else None for a in inputs))


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default", debug=False,
               early_stop=True, **kwargs):
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch "
            "2.9, calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default behavior, you can pass "
            "use_reentrant=True. Refer to docs for more details on the differences between the two variants.",
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if kwargs:
        return checkpoint(lambda *a: function(*a, **kwargs), *args, use_reentrant=False, preserve_rng_state=preserve)
    if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
        if use_reentrant:
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)
        else:
            return function(*args)
    return _Recompute.apply(function, preserve, *args)


# The helpers reversible networks (Reformer-style layers) import to replay a block's randomness by hand. Tensors
# here live on the CPU, whose generator the caller saves itself: no device states to collect or restore.
def get_device_states(*args):
    devices = [a.get_device() for a in _tensors_in(args) if a.device.type not in ("cpu", "meta")]
    return devices, [_random.get_rng_state() for _ in devices]


def set_device_states(devices, states, *, device_type=None):
    if list(devices):
        raise RuntimeError("minitorch2 has no accelerator whose random state could be set")


def _tensors_in(args):
    return [leaf for leaf in tree_leaves(args) if isinstance(leaf, Tensor)]


def detach_variable(inputs):
    if not isinstance(inputs, tuple):
        raise RuntimeError(  # noqa: TRY004  (torch's class)
            f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    return tuple(x.detach().requires_grad_(x.requires_grad) if isinstance(x, Tensor) else x for x in inputs)


def check_backward_validity(inputs):
    if not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


class DefaultDeviceType:
    _default_device_type = None

    @staticmethod
    def set_device_type(device="cuda"):
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type():
        DefaultDeviceType._default_device_type = DefaultDeviceType._default_device_type or "cpu"  # (no accelerator)
        return DefaultDeviceType._default_device_type


__all__ = ["DefaultDeviceType", "check_backward_validity", "checkpoint", "detach_variable", "get_device_states",
           "noop_context_fn", "set_device_states"]
