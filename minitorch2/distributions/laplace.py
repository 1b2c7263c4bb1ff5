"""torch.distributions.Laplace: the double exponential with location `loc` and scale `scale`; samples by inverting
the CDF of a uniform drawn in (eps - 1, 1), as torch's."""
import numpy as np

from .. import _functions, autograd
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .utils import _NUMBER, broadcast_all


class Laplace(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, _NUMBER) and isinstance(scale, _NUMBER)
        super().__init__(Size() if scalar else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Laplace, batch_shape, _instance, loc=self.loc.expand(batch_shape),
                              scale=self.scale.expand(batch_shape))

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        eps = float(np.finfo(self.loc.dtype.np).eps)
        u = self.loc.new_empty(shape).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * _functions.log1p(-u.abs())

    def sample(self, sample_shape=Size()):
        with autograd.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -_functions.log(2 * self.scale) - _functions.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * _functions.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        centered = value - 0.5
        return self.loc - self.scale * centered.sign() * _functions.log1p(-2 * centered.abs())

    def entropy(self):
        return 1 + _functions.log(2 * self.scale)
