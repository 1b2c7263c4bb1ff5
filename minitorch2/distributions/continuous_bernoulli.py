"""torch.distributions.ContinuousBernoulli: the density on [0, 1] proportional to p^x (1-p)^(1-x) (Loaiza-Ganem and
Cunningham, 2019), for VAEs over pixel intensities. Near p = 1/2, where the closed forms divide zero by zero,
torch switches to Taylor expansions inside `lims`; so does this. Samples invert the CDF of torch.rand draws (bit
for bit with torch, to the rounding of log1p)."""
import math

from .. import _factories, _functions, autograd
from .._tensor import Size
from ..nn import functional as F
from . import constraints
from .categorical import _one_parameter
from .exp_family import ExponentialFamily
from .utils import _NUMBER, broadcast_all, clamp_probs, lazy_property, logits_to_probs, probs_to_logits


class ContinuousBernoulli(ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True
    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (self.logits,))

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        name, given = _one_parameter(probs, logits)
        (value,) = broadcast_all(given)
        if name == "probs":
            if validate_args is not None and not bool(self.arg_constraints["probs"].check(value).all()):
                raise ValueError("The parameter probs has invalid values")
            value = clamp_probs(value)
        setattr(self, name, value)
        self._param, self._lims = value, lims
        super().__init__(Size() if isinstance(given, _NUMBER) else value.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        given = {n: self.__dict__[n].expand(batch_shape) for n in ("probs", "logits") if n in self.__dict__}
        new = self._expanded(ContinuousBernoulli, batch_shape, _instance, _lims=self._lims, **given)
        new._param = given["logits" if "logits" in given else "probs"]
        return new

    def _outside_unstable_region(self):
        return _functions.maximum(self.probs.le(self._lims[0]), self.probs.gt(self._lims[1]))

    def _cut_probs(self):
        return _functions.where(self._outside_unstable_region(), self.probs,
                                self._lims[0] * _factories.ones_like(self.probs))

    def _cont_bern_log_norm(self):
        cut = self._cut_probs()
        below = _functions.where(cut.le(0.5), cut, _factories.zeros_like(cut))
        above = _functions.where(cut.ge(0.5), cut, _factories.ones_like(cut))
        log_norm = (_functions.log((_functions.log1p(-cut) - _functions.log(cut)).abs())
                    - _functions.where(cut.le(0.5), _functions.log1p(-2.0 * below), _functions.log(2.0 * above - 1.0)))
        x = (self.probs - 0.5).pow(2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return _functions.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (_functions.log1p(-cut) - _functions.log(cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x.pow(2)) * x
        return _functions.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return self.variance.sqrt()

    @property
    def variance(self):
        cut = self._cut_probs()
        variances = (cut * (cut - 1.0) / (1.0 - 2.0 * cut).pow(2)
                     + 1.0 / (_functions.log1p(-cut) - _functions.log(cut)).pow(2))
        x = (self.probs - 0.5).pow(2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return _functions.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=Size()):
        u = _factories.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        with autograd.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=Size()):
        return self.icdf(_factories.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut = self._cut_probs()
        cdfs = (cut.pow(value) * (1.0 - cut).pow(1.0 - value) + cut - 1.0) / (2.0 * cut - 1.0)
        unbounded = _functions.where(self._outside_unstable_region(), cdfs, value)
        return _functions.where(value.le(0.0), _factories.zeros_like(value),
                                _functions.where(value.ge(1.0), _factories.ones_like(value), unbounded))

    def icdf(self, value):
        cut = self._cut_probs()
        inverted = ((_functions.log1p(-cut + value * (2.0 * cut - 1.0)) - _functions.log1p(-cut))
                    / (_functions.log(cut) - _functions.log1p(-cut)))
        return _functions.where(self._outside_unstable_region(), inverted, value)

    def entropy(self):
        log_probs0, log_probs1 = _functions.log1p(-self.probs), _functions.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    def _log_normalizer(self, x):
        """log of the normalizing constant as a function of the natural parameter, Taylor-expanded near 0."""
        unstable = _functions.maximum(x.le(self._lims[0] - 0.5), x.gt(self._lims[1] - 0.5))
        cut = _functions.where(unstable, x, (self._lims[0] - 0.5) * _factories.ones_like(x))
        log_norm = _functions.log(_functions.expm1(cut).abs()) - _functions.log(cut.abs())
        taylor = 0.5 * x + x.pow(2) / 24.0 - x.pow(4) / 2880.0
        return _functions.where(unstable, log_norm, taylor)
