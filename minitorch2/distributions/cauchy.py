"""torch.distributions.Cauchy and StudentT: the heavy-tailed location-scale distributions.

Cauchy draws with cauchy_; StudentT's rsample divides a standard normal by the root of a Chi2 draw over df, the
Chi2 through ATen's gamma sampler (_samplers.py). Both match torch bit for bit after the same manual_seed.
"""
import math

from .. import _factories, _functions
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .gamma import Chi2
from .utils import _NUMBER, _standard_normal, broadcast_all


class Cauchy(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, _NUMBER) and isinstance(scale, _NUMBER)
        super().__init__(Size() if scalar else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Cauchy, batch_shape, _instance, loc=self.loc.expand(batch_shape),
                              scale=self.scale.expand(batch_shape))

    @property
    def mean(self):
        return _factories.full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return _factories.full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape=Size()):
        eps = self.loc.new_empty(self._extended_shape(sample_shape)).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _functions.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return _functions.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()


class StudentT(Distribution):
    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expanded(StudentT, batch_shape, _instance, df=self.df.expand(batch_shape),
                             loc=self.loc.expand(batch_shape), scale=self.scale.expand(batch_shape))
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self):
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        m, big = self.df.clone(), self.df > 2
        m[big] = self.scale[big].pow(2) * self.df[big] / (self.df[big] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape=Size()):
        x = _standard_normal(self._extended_shape(sample_shape), dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * _functions.rsqrt(z / self.df))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + _functions.lgamma(0.5 * self.df)
             - _functions.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * _functions.log1p(y ** 2.0 / self.df) - z

    def entropy(self):
        df = self.df
        lbeta = _functions.lgamma(0.5 * df) + math.lgamma(0.5) - _functions.lgamma(0.5 * (df + 1))
        return (self.scale.log() + 0.5 * (df + 1) * (_functions.digamma(0.5 * (df + 1)) - _functions.digamma(0.5 * df))
                + 0.5 * df.log() + lbeta)
