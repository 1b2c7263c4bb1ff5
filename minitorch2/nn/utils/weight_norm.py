"""weight_norm and remove_weight_norm (as torch.nn.utils, the hook-based form torch deprecates in favour of
parametrizations.weight_norm). Runtime layer, coverage surface.

The weight becomes two parameters, `weight_g` (its norm over every dim but `dim`) and `weight_v` (its direction),
and a forward pre-hook recomputes weight = v * g / ||v|| before each call; dim=None (stored as -1) normalises over
the whole tensor, as torch's norm_except_dim.
"""
import warnings

import minitorch2

from ..._ops import ops
from ..parameter import Parameter

aten = ops.aten


def norm_except_dim(v, dim):
    """The 2-norm of v over every dim except `dim` (kept, size 1 elsewhere); the whole tensor's for dim=-1."""
    if dim == -1:
        return aten.linalg_vector_norm.default(v, 2)
    return aten.linalg_vector_norm.default(v, 2, [d for d in range(v.dim()) if d != dim], True)


class WeightNorm:
    """The forward pre-hook that recomputes the weight from `<name>_g` and `<name>_v`."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")  # (read first, as torch's: a compiled graph's inputs come in this order)
        return minitorch2._weight_norm(getattr(module, self.name + "_v"), g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
