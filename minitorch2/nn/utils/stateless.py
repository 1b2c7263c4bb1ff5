"""torch.nn.utils.stateless: call a module with some of its parameters and buffers replaced for one call.

Runtime layer, coverage surface. `_functional_call` is torch.func.functional_call (autograd/func.py re-exports
it); this module's `functional_call` is the same call under its deprecated name, with torch's FutureWarning.
"""
import contextlib
import warnings


@contextlib.contextmanager
def _swapped(module, tensors):
    """module with each dotted-name parameter or buffer replaced by the given tensor, restored after."""
    saved = []
    for name, value in tensors.items():
        owner_path, _, leaf = name.rpartition(".")
        owner = module.get_submodule(owner_path) if owner_path else module
        slots = owner._parameters if leaf in owner._parameters else owner._buffers
        if leaf not in slots:
            raise AttributeError(f"{type(owner).__name__} has no parameter or buffer named {leaf!r} (from {name!r})")
        saved.append((slots, leaf, slots[leaf]))
        slots[leaf] = value
    try:
        yield module
    finally:
        for slots, leaf, old in reversed(saved):
            slots[leaf] = old


def _functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    dicts = parameter_and_buffer_dicts
    tensors = dict(pair for d in (dicts if isinstance(dicts, (list, tuple)) else [dicts]) for pair in d.items())
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, tensors):
        return module(*args, **(kwargs or {}))


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed "
                  "in a future version of PyTorch. Please use `torch.func.functional_call` instead which is a "
                  "drop-in replacement.", FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
