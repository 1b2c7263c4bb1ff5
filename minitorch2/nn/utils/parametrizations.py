"""nn.utils.parametrizations.weight_norm (as torch's): the weight as a parametrization of (g, v), g its norm over
every dim but `dim` and v its direction, stored as `parametrizations.weight.original0` and `original1`.
Runtime layer, coverage surface."""
from ..modules.module import Module
from . import parametrize
from .weight_norm import norm_except_dim, weight_from_norm


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_from_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return norm_except_dim(weight, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module
