"""torch.distributions.Categorical and Bernoulli: discrete distributions given by `probs` or `logits`.

Either parameter may be given; the other is computed on first use (a lazy_property). Categorical
normalises what it is given (probs to sum 1, logits by their logsumexp) over the last dimension.
"""
import math

from .. import _factories, _functions, autograd
from .._dtype import int64
from .._tensor import Size
from ..nn import functional as F
from . import constraints
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .utils import _NUMBER, _finfo, broadcast_all, lazy_property, logits_to_probs, probs_to_logits


def _one_parameter(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    return ("probs", probs) if probs is not None else ("logits", logits)


def _expand_given(distribution, cls, batch_shape, param_shape, _instance, **extra):
    """expand() of a probs-or-logits distribution: whichever of the two it holds, expanded (logits is
    _param when it holds both, as torch leaves it)."""
    given = {name: distribution.__dict__[name].expand(param_shape)
             for name in ("probs", "logits") if name in distribution.__dict__}
    new = distribution._expanded(cls, batch_shape, _instance, **extra, **given)
    new._param = given["logits" if "logits" in given else "probs"]
    return new


class Categorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        name, param = _one_parameter(probs, logits)
        if param.dim() < 1:
            raise ValueError(f"`{name}` parameter must be at least one-dimensional.")
        if name == "probs":
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.__dict__[name]
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return _expand_given(self, Categorical, batch_shape, Size(batch_shape) + Size((self._num_events,)), _instance,
                             _num_events=self._num_events)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return _factories.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    variance = mean

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=Size()):
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = _functions.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, log_pmf = _functions.broadcast_tensors(value.long().unsqueeze(-1), self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = _functions.clamp(self.logits, min=float(_finfo(self.logits.dtype).min))
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = _factories.arange(self._num_events, dtype=int64).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values


class _BinaryParameters:
    """probs or logits of a yes/no trial, the other computed on first read (a mixin of Bernoulli, the counts of
    trials and LogitRelaxedBernoulli)."""

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    def _set_parameter(self, probs, logits):
        """Keep the one of probs and logits given, broadcast to a tensor; returns the batch shape."""
        name, given = _one_parameter(probs, logits)
        (value,) = broadcast_all(given)
        setattr(self, name, value)
        self._param = value
        return Size() if isinstance(given, _NUMBER) else value.size()

    def _expand_parameters(self, cls, batch_shape, _instance, **extra):
        given = {n: self.__dict__[n].expand(batch_shape) for n in ("probs", "logits") if n in self.__dict__}
        new = self._expanded(cls, batch_shape, _instance, **extra, **given)
        new._param = given["logits" if "logits" in given else "probs"]
        return new


class Bernoulli(_BinaryParameters, ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (_functions.logit(self.probs),))

    def _log_normalizer(self, x):
        return _functions.log1p(_functions.exp(x))

    def __init__(self, probs=None, logits=None, validate_args=None):
        super().__init__(self._set_parameter(probs, logits), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return _expand_given(self, Bernoulli, batch_shape, batch_shape, _instance)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=Size()):
        with autograd.no_grad():
            return _factories.bernoulli(self.probs.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        values = _factories.arange(2, dtype=self._param.dtype).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
