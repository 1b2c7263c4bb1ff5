"""torch.distributions' count distributions: Geometric, Binomial, Multinomial and NegativeBinomial.

Geometric inverts a uniform and Multinomial counts Categorical draws; Binomial and NegativeBinomial draw through
_samplers.py (ATen's binomial, and its Poisson at a gamma rate). All match torch bit for bit after the same seed.
"""
import math

from .. import _factories, _functions, autograd
from .._tensor import Size
from ..nn import functional as F
from . import constraints
from ._samplers import binomial, poisson
from .categorical import Categorical, _BinaryParameters, _one_parameter
from .distribution import Distribution
from .gamma import Gamma
from .utils import _finfo, broadcast_all, lazy_property


def _trials(self, total_count, probs, logits):
    """Binomial's and NegativeBinomial's parameters set: total_count broadcast with probs or logits, in their dtype;
    returns the batch shape."""
    name, given = _one_parameter(probs, logits)
    self.total_count, value = broadcast_all(total_count, given)
    self.total_count = self.total_count.type_as(value)
    setattr(self, name, value)
    self._param = value
    return value.size()


class Geometric(_BinaryParameters, Distribution):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        super().__init__(self._set_parameter(probs, logits), validate_args=validate_args)
        if self._validate_args and probs is not None:
            valid = self.probs > 0
            if not bool(valid.all()):
                raise ValueError(f"Expected parameter probs ({type(self.probs).__name__} of shape "
                                 f"{tuple(self.probs.shape)}) of distribution {self!r} to be positive but found "
                                 "invalid values:\n"
                                 f"{self.probs.detach()[~valid]}")

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(Geometric, batch_shape, _instance)

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return _factories.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=Size()):
        tiny = float(_finfo(self.probs.dtype).tiny)
        with autograd.no_grad():
            u = self.probs.new_empty(self._extended_shape(sample_shape)).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs


def _clamp_by_zero(x):
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


def _single_count(total_count, what):
    count = int(total_count.max())
    if not count == total_count.min():
        raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
    return count


class Binomial(_BinaryParameters, Distribution):
    arg_constraints = {"total_count": constraints.nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        super().__init__(_trials(self, total_count, probs, logits), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(Binomial, batch_shape, _instance,
                                       total_count=self.total_count.expand(batch_shape))

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with autograd.no_grad():
            return binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        log_factorial_rest = _functions.lgamma(n - value + 1)  # first, as torch: a shape error names n, then value
        normalize = n * _clamp_by_zero(logits) + n * _functions.log1p(_functions.exp(-logits.abs())) \
            - _functions.lgamma(n + 1)
        return value * logits - _functions.lgamma(value + 1) - log_factorial_rest - normalize

    def entropy(self):
        _single_count(self.total_count, "entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(_functions.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        count = _single_count(self.total_count, "enumerate_support")
        values = _factories.arange(1 + count, dtype=self._param.dtype).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values


class Multinomial(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Multinomial, _instance)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, Size(batch_shape), self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    logits = property(lambda self: self._categorical.logits)
    probs = property(lambda self: self._categorical.probs)
    param_shape = property(lambda self: self._categorical.param_shape)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=Size()):
        shape = Size(sample_shape)
        samples = self._categorical.sample(Size((self.total_count,)) + shape)
        order = list(range(samples.dim()))
        order.append(order.pop(0))
        samples = samples.permute(*order)
        counts = samples.new_zeros(self._extended_shape(shape))
        counts.scatter_add_(-1, samples, _factories.ones_like(samples))
        return counts.type_as(self.probs)

    def entropy(self):
        n = _factories.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - _functions.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = _functions.exp(self._binomial.log_prob(support))
        return term1 + (binomial_probs * _functions.lgamma(support + 1)).sum([0, -1])

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = _functions.lgamma(value.sum(-1) + 1)
        log_factorial_xs = _functions.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)


class NegativeBinomial(_BinaryParameters, Distribution):
    arg_constraints = {"total_count": constraints.greater_than_eq(0), "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        super().__init__(_trials(self, total_count, probs, logits), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_parameters(NegativeBinomial, batch_shape, _instance,
                                       total_count=self.total_count.expand(batch_shape))

    @property
    def mean(self):
        return self.total_count * _functions.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / _functions.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=_functions.exp(-self.logits), validate_args=False)

    def sample(self, sample_shape=Size()):
        with autograd.no_grad():
            return poisson(self._gamma.sample(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        unnormalized = n * F.logsigmoid(-self.logits) + value * F.logsigmoid(self.logits)
        normalization = (-_functions.lgamma(n + value) + _functions.lgamma(1.0 + value) + _functions.lgamma(n))
        return unnormalized - normalization.masked_fill(n + value == 0.0, 0.0)
