"""torch.distributions.GeneralizedPareto: the limit law of exceedances over a threshold (loc, scale, shape xi =
`concentration`), with the xi = 0 case (an exponential tail) handled as a branch. Samples invert its CDF at torch.rand
draws, as torch's do."""
import math

from .. import _factories, _functions
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .utils import _NUMBER, broadcast_all


class GeneralizedPareto(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        scalar = all(isinstance(v, _NUMBER) for v in (loc, scale, concentration))
        super().__init__(Size() if scalar else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(GeneralizedPareto, batch_shape, _instance, loc=self.loc.expand(batch_shape),
                              scale=self.scale.expand(batch_shape),
                              concentration=self.concentration.expand(batch_shape))

    def rsample(self, sample_shape=Size()):
        return self.icdf(_factories.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype))

    def _safe_concentration(self, zero=None):
        """(concentration == 0 up to isclose, concentration with those entries replaced by 1). torch's log_prob and
        log_survival_function compare with a float32 zero, so a float64 concentration raises there, as in torch."""
        zero = _factories.zeros_like(self.concentration) if zero is None else zero
        eq_zero = _functions.isclose(self.concentration, zero)
        return eq_zero, _functions.where(eq_zero, _factories.ones_like(self.concentration), self.concentration)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        eq_zero, safe = self._safe_concentration(_factories.tensor(0.0))
        y = 1 / safe + _factories.ones_like(z)
        where_nonzero = _functions.where(y == 0, y, y * _functions.log1p(safe * z))
        return -self.scale.log() - _functions.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        eq_zero, safe = self._safe_concentration(_factories.tensor(0.0))
        return _functions.where(eq_zero, -z, -_functions.log1p(safe * z) / safe)

    def log_cdf(self, value):
        return _functions.log1p(-_functions.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return _functions.exp(self.log_cdf(value))

    def icdf(self, value):
        eq_zero, safe = self._safe_concentration()
        logu = _functions.log1p(-value)
        where_nonzero = self.loc + self.scale / safe * _functions.expm1(-safe * logu)
        return _functions.where(eq_zero, self.loc - self.scale * logu, where_nonzero)

    @property
    def mean(self):
        valid = self.concentration < 1
        safe = _functions.where(valid, self.concentration, 0.5)
        return _functions.where(valid, self.loc + self.scale / (1 - safe), math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe = _functions.where(valid, self.concentration, 0.25)
        return _functions.where(valid, self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe)), math.nan)

    def entropy(self):
        return _functions.broadcast_to(_functions.log(self.scale) + self.concentration + 1, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = _functions.where(self.concentration < 0, lower - self.scale / self.concentration, math.inf)
        return constraints.interval(lower, upper)
