"""torch.nn.utils.init.skip_init: a module built without initialising its parameters.

Runtime layer, coverage surface. torch builds the module on the meta device (no memory, no draws) and then
gives it empty memory; here it is built as usual and the default generator's state put back afterwards, so
the parameters hold arbitrary values (as torch's empty memory does) and later draws are torch's.
"""
import inspect

from ... import _random
from ..modules.module import Module


def skip_init(module_cls, *args, **kwargs):
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    state = _random.get_rng_state()
    try:
        return module_cls(*args, **kwargs)
    finally:
        _random.set_rng_state(state)
