"""torch.distributions' gamma family: Exponential, Gamma, Chi2, Beta, Dirichlet, and Poisson (counts at a rate).

Exponential draws with exponential_; Gamma, Chi2, Beta, Dirichlet and FisherSnedecor through ATen's gamma sampler
(_samplers.py): all match torch bit for bit after the same manual_seed, and differentiate their samples with torch's
implicit reparameterization gradient; Poisson draws through ATen's Poisson sampler, also torch's draws exactly.
"""
import math

from .. import _factories, _functions, autograd, special
from .._tensor import Size
from ..nn import functional as F
from . import constraints
from ._samplers import poisson, sample_dirichlet, standard_gamma
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .utils import _NUMBER, _finfo, broadcast_all


def _batch_shape_of(*params):
    return Size() if all(isinstance(p, _NUMBER) for p in params) else None


class Exponential(ExponentialFamily):
    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (-self.rate,))

    def _log_normalizer(self, x):
        return -_functions.log(-x)

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(Size() if isinstance(rate, _NUMBER) else self.rate.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Exponential, batch_shape, _instance, rate=self.rate.expand(batch_shape))

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return _factories.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=Size()):
        return self.rate.new_empty(self._extended_shape(sample_shape)).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - _functions.exp(-self.rate * value)

    def icdf(self, value):
        return -_functions.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - _functions.log(self.rate)


class Gamma(ExponentialFamily):
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (self.concentration - 1, -self.rate))

    def _log_normalizer(self, x, y):
        return _functions.lgamma(x + 1) + (x + 1) * _functions.log(-y.reciprocal())

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        shape = _batch_shape_of(concentration, rate)
        super().__init__(self.concentration.size() if shape is None else shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Gamma, batch_shape, _instance, concentration=self.concentration.expand(batch_shape),
                              rate=self.rate.expand(batch_shape))

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        with autograd.no_grad():
            value.clamp_(min=float(_finfo(value.dtype).tiny))
        return value

    def log_prob(self, value):
        value = _factories.as_tensor(value, dtype=self.rate.dtype)  # numbers, lists, other dtypes: as torch's
        if self._validate_args:
            self._validate_sample(value)
        return (_functions.xlogy(self.concentration, self.rate) + _functions.xlogy(self.concentration - 1, value)
                - self.rate * value - _functions.lgamma(self.concentration))

    def entropy(self):
        c = self.concentration
        return c - _functions.log(self.rate) + _functions.lgamma(c) + (1.0 - c) * _functions.digamma(c)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return special.gammainc(self.concentration, self.rate * value)


class Chi2(Gamma):
    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, self._get_checked_instance(Chi2, _instance))

    @property
    def df(self):
        return self.concentration * 2


class Dirichlet(ExponentialFamily):
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True
    _natural_params = property(lambda self: (self.concentration,))

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - _functions.lgamma(x.sum(-1))

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        concentration = self.concentration.expand(Size(batch_shape) + self.event_shape)
        return self._expanded(Dirichlet, batch_shape, _instance, concentration=concentration)

    def rsample(self, sample_shape=()):
        return sample_dirichlet(self.concentration.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return (_functions.xlogy(c - 1.0, value).sum(-1) + _functions.lgamma(c.sum(-1))
                - _functions.lgamma(c).sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        minus_one = (self.concentration - 1).clamp(min=0.0)
        mode = minus_one / minus_one.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = F.one_hot(mode[mask].argmax(dim=-1), minus_one.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def entropy(self):
        c = self.concentration
        k, total = c.size(-1), c.sum(-1)
        return (_functions.lgamma(c).sum(-1) - _functions.lgamma(total) - (k - total) * _functions.digamma(total)
                - ((c - 1.0) * _functions.digamma(c)).sum(-1))


class Beta(ExponentialFamily):
    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True
    _natural_params = property(lambda self: (self.concentration1, self.concentration0))

    def _log_normalizer(self, x, y):
        return _functions.lgamma(x) + _functions.lgamma(y) - _functions.lgamma(x + y)

    def __init__(self, concentration1, concentration0, validate_args=None):
        if isinstance(concentration1, _NUMBER) and isinstance(concentration0, _NUMBER):
            both = _factories.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            both = _functions.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Beta, _instance)
        new._dirichlet = self._dirichlet.expand(batch_shape)
        Distribution.__init__(new, Size(batch_shape), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._dirichlet.log_prob(_functions.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()


class Poisson(ExponentialFamily):
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer
    _natural_params = property(lambda self: (_functions.log(self.rate),))

    def _log_normalizer(self, x):
        return _functions.exp(x)

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(Size() if isinstance(rate, _NUMBER) else self.rate.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Poisson, batch_shape, _instance, rate=self.rate.expand(batch_shape))

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=Size()):
        with autograd.no_grad():
            return poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()



class FisherSnedecor(Distribution):
    """The F distribution: the ratio of two Gamma(df/2, df) draws."""
    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1, self._gamma2 = Gamma(self.df1 * 0.5, self.df1), Gamma(self.df2 * 0.5, self.df2)
        shape = _batch_shape_of(df1, df2)
        super().__init__(self.df1.size() if shape is None else shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(FisherSnedecor, batch_shape, _instance, df1=self.df1.expand(batch_shape),
                              df2=self.df2.expand(batch_shape), _gamma1=self._gamma1.expand(batch_shape),
                              _gamma2=self._gamma2.expand(batch_shape))

    @property
    def mean(self):
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self):
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        x1, x2 = self._gamma1.rsample(sample_shape).view(shape), self._gamma2.rsample(sample_shape).view(shape)
        tiny = float(_finfo(x2.dtype).tiny)
        with autograd.no_grad():
            x2.clamp_(min=tiny)
        y = x1 / x2
        with autograd.no_grad():
            y.clamp_(min=tiny)
        return y

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        ct1, ct2, ct3 = self.df1 * 0.5, self.df2 * 0.5, self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * _functions.log(value)
        return t1 + t2 - (ct1 + ct2) * _functions.log1p(ct3 * value)
