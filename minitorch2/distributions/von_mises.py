"""torch.distributions.VonMises: the circular normal on [-pi, pi) with mean direction `loc` and concentration kappa.

Sampled by Best and Fisher's rejection method (1979) in float64 from torch.rand draws of three uniforms a round,
as torch samples it; log I0 and log I1 by the polynomial approximations of Abramowitz and Stegun (9.8.1-9.8.4),
the ones torch evaluates.
"""
import math

from .. import _factories, _functions, autograd
from .._dtype import bool_, float64
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property

_COEF_SMALL = [[1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2],
               [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3]]
_COEF_LARGE = [[0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1, 0.2635537e-1,
                -0.1647633e-1, 0.392377e-2],
               [0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1, -0.2895312e-1,
                0.1787654e-1, -0.420059e-2]]


def _eval_poly(y, coef):
    result = coef[-1]
    for c in reversed(coef[:-1]):
        result = c + y * result
    return result


def _log_modified_bessel_fn(x, order=0):
    """log I_order(x) for order 0 or 1: a series in (x/3.75)^2 below 3.75, an asymptotic one in 3.75/x above."""
    y = (x / 3.75) * (x / 3.75)
    small = _eval_poly(y, _COEF_SMALL[order])
    if order == 1:
        small = x.abs() * small
    large = x - 0.5 * x.log() + _eval_poly(3.75 / x, _COEF_LARGE[order]).log()
    return _functions.where(x < 3.75, small.log(), large)


def _rejection_sample(loc, concentration, proposal_r, x):
    done = _factories.zeros(x.shape, dtype=bool_)
    while not bool(done.all()):
        u1, u2, u3 = _factories.rand((3,) + tuple(x.shape), dtype=loc.dtype).unbind()
        z = _functions.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if bool(accept.any()):
            x = _functions.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, Size(), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (self.concentration * _functions.cos(value - self.loc) - math.log(2 * math.pi)
                - _log_modified_bessel_fn(self.concentration, order=0))

    @lazy_property
    def _loc(self):
        return self.loc.to(float64)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(float64)

    @lazy_property
    def _proposal_r(self):
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa ** 2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        return _functions.where(kappa < 1e-5, 1 / kappa + kappa, (1 + rho ** 2) / (2 * rho))

    def sample(self, sample_shape=Size()):
        with autograd.no_grad():
            x = _factories.empty(self._extended_shape(sample_shape), dtype=float64)
            return _rejection_sample(self._loc, self._concentration, self._proposal_r, x).to(self.loc.dtype)

    def expand(self, batch_shape, _instance=None):
        validate_args = self.__dict__.get("_validate_args")
        return type(self)(self.loc.expand(batch_shape), self.concentration.expand(batch_shape),
                          validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        c = self.concentration
        return 1 - (_log_modified_bessel_fn(c, order=1) - _log_modified_bessel_fn(c, order=0)).exp()
