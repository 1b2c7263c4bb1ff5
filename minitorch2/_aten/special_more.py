"""torch.special's functions with aten ops of their own beyond table_extra.py's: scaled and modified Bessel functions,
Bessel functions of the first and second kind, erfcx, log_ndtr, xlog1py, Hurwitz zeta, the regularized incomplete
gamma functions (igamma, igammac), mvlgamma and the orthogonal polynomials; kernels, derivative formulas, rows.

Runtime layer, coverage surface: table_extra.py appends ROWS; minitorch2/special.py calls the ops. The kernels are
numpy (and Python's math) only, computed in float64 and rounded once:
  - I₀, I₁ (and e^-|x| I): the periodic trapezoid rule over (1/π)∫₀^π e^(x cos θ) cos nθ dθ, which converges
    geometrically; Hankel's asymptotic series beyond |x| = 100.
  - K₀, K₁ (and eˣ K): the trapezoid rule over ∫₀^∞ e^(-x cosh t) cosh nt dt, whose even, analytic integrand makes
    it converge geometrically too; the step follows the integrand's width.
  - J₀, J₁: the trapezoid rule over (1/π)∫₀^π cos(nθ - x sin θ) dθ up to |x| = 25; Y₀, Y₁: their power series up
    to x = 12; both Hankel's asymptotic expansions beyond.
  - zeta: Cephes's Euler-Maclaurin sum (the tail's Bernoulli numbers from their fractions); igamma/igammac: the
    series below x = a + 1, Lentz's continued fraction above; the polynomials: their three-term recurrences.
Which ops have derivatives is torch's (derivatives.yaml): the Bessel functions and polynomials have none.
"""
import math
from fractions import Fraction

import numpy as np

from .. import _dtype
from .._ops import ops
from .._tensor import strided
from .derivatives_util import sum_to, _shape
from .pointwise_factories import binary, unary_float
from .table_row import op

aten = ops.aten
POINTWISE = ("pointwise",)
_EULER = 0.5772156649015329


# ---------------------------------------------------------------- Bessel functions
def _hankel_terms(n, x, count):
    """a_k(n) / x^k for k < count: the coefficients of Hankel's expansions."""
    terms, term = [], np.ones_like(x)
    for k in range(count):
        terms.append(term)
        term = term * (4 * n * n - (2 * k + 1) ** 2) / ((k + 1) * 8 * x)
    return terms


def _bessel_i_scaled(n, x):
    """e^-|x| I_n(x)."""
    ax = np.abs(x)
    small = ax <= 100
    theta = np.linspace(0, np.pi, 193)
    weights = np.full(193, 1 / 192)
    weights[[0, -1]] /= 2
    xs = np.where(small, x, 0)[..., None]
    near = (np.exp(xs * np.cos(theta) - np.abs(xs)) * np.cos(n * theta)) @ weights
    big = np.where(small, 200.0, ax)
    far = sum(t * (-1) ** k for k, t in enumerate(_hankel_terms(n, big, 30))) / np.sqrt(2 * np.pi * big)
    return np.where(small, near, np.sign(x) ** n * far)


def _bessel_k_scaled(n, x):
    """eˣ K_n(x) for x > 0 (inf at 0, NaN below)."""
    safe = np.where((x > 0) & (x < np.inf), x, 1.0)[..., None]
    span = np.arccosh(1 + 45 / safe)
    t = span * np.linspace(0, 1, 801)
    values = np.exp(-safe * (np.cosh(t) - 1)) * np.cosh(n * t)
    result = (span / 800)[..., 0] * (values.sum(-1) - values[..., 0] / 2 - values[..., -1] / 2)
    return np.where(x == np.inf, 0.0, np.where(x > 0, result, np.where(x == 0, np.inf, np.nan)))


def _hankel(n, x):
    """J_n and Y_n for large x > 0: √(2/πx) (P cos χ - Q sin χ) and √(2/πx) (P sin χ + Q cos χ)."""
    terms = _hankel_terms(n, x, 40)
    p = sum(t * (-1) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 0)
    q = sum(t * (-1) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 1)
    chi = x - (n / 2 + 0.25) * np.pi
    scale = np.sqrt(2 / (np.pi * x))
    return scale * (p * np.cos(chi) - q * np.sin(chi)), scale * (p * np.sin(chi) + q * np.cos(chi))


def _bessel_j(n, x):
    ax = np.abs(x)
    small = ax <= 25
    theta = np.linspace(0, np.pi, 129)
    weights = np.full(129, 1 / 128)
    weights[[0, -1]] /= 2
    near = np.cos(n * theta - np.where(small, x, 0)[..., None] * np.sin(theta)) @ weights
    far = _hankel(n, np.where(small, 50.0, ax))[0] * np.sign(x) ** n
    return np.where(small, near, far)


def _bessel_y(n, x):
    """Y_n(x) for x > 0: the series (ln(x/2) terms and harmonic numbers) up to 12, Hankel's beyond; -inf at 0."""
    small = np.where((x > 0) & (x <= 12), x, 1.0)
    quarter, total, harmonic, term = small * small / 4, np.zeros_like(small), 0.0, np.ones_like(small)
    if n == 0:
        for k in range(1, 60):
            term, harmonic = term * -quarter / (k * k), harmonic + 1 / k
            total = total - term * harmonic
        near = 2 / np.pi * ((np.log(small / 2) + _EULER) * _bessel_j(0, small) + total)
    else:
        term = small / 2
        for k in range(60):
            total = total + term * (2 * harmonic - 2 * _EULER + 1 / (k + 1))
            harmonic += 1 / (k + 1)
            term = term * -quarter / ((k + 1) * (k + 2))
        near = 2 / np.pi * np.log(small / 2) * _bessel_j(1, small) - 2 / (np.pi * small) - total / np.pi
    far = _hankel(n, np.where(x > 12, x, 50.0))[1]
    return np.where(x > 12, far, np.where(x > 0, near, np.where(x == 0, -np.inf, np.nan)))


_AI0, _AI1 = 0.355028053887817239, 0.258819403792806798  # Ai(0) and -Ai'(0)


def _airy_ai(x):
    """Ai(x): its Maclaurin series on [-7, 1], (1/π)√(x/3) K_⅓(⅔x^(3/2)) above, the oscillating asymptotic
    expansion below -7; NaN at ±inf, as torch's."""
    near = np.clip(x, -7, 1)
    cube, f, g = near ** 3, np.ones_like(near), near.copy()
    f_term, g_term = np.ones_like(near), near.copy()
    for k in range(1, 80):
        f_term = f_term * cube / ((3 * k - 1) * (3 * k))
        g_term = g_term * cube / ((3 * k) * (3 * k + 1))
        f, g = f + f_term, g + g_term
    series = _AI0 * f - _AI1 * g
    above = np.where(x > 1, x, 2.0)
    zeta = 2 / 3 * above ** 1.5
    from_k = np.sqrt(above / 3) / np.pi * _bessel_k_scaled(1 / 3, zeta) * np.exp(-zeta)
    below = np.where(x < -7, -x, 8.0)
    zeta = 2 / 3 * below ** 1.5
    even, odd, term = np.zeros_like(zeta), np.zeros_like(zeta), np.ones_like(zeta)
    for k in range(30):
        if k % 2 == 0:
            even = even + (-1) ** (k // 2) * term
        else:
            odd = odd + (-1) ** (k // 2) * term
        term = term * (6 * k + 1) * (6 * k + 3) * (6 * k + 5) / (216 * (k + 1) * (2 * k + 1) * zeta)
    waves = (np.cos(zeta - np.pi / 4) * even + np.sin(zeta - np.pi / 4) * odd) / (np.sqrt(np.pi) * below ** 0.25)
    return np.where(np.isinf(x), np.nan, np.where(x > 1, from_k, np.where(x < -7, waves, series)))


def _bessel_op(compute):
    return unary_float(lambda x: compute(x.astype(np.float64)).astype(x.dtype))


special_i0e = _bessel_op(lambda x: _bessel_i_scaled(0, x))
special_i1e = _bessel_op(lambda x: _bessel_i_scaled(1, x))
special_i1 = _bessel_op(lambda x: _bessel_i_scaled(1, x) * np.exp(np.abs(x)))
special_modified_bessel_i0 = _bessel_op(lambda x: _bessel_i_scaled(0, x) * np.exp(np.abs(x)))
special_modified_bessel_i1 = special_i1
special_modified_bessel_k0 = _bessel_op(lambda x: _bessel_k_scaled(0, x) * np.exp(-x))
special_modified_bessel_k1 = _bessel_op(lambda x: _bessel_k_scaled(1, x) * np.exp(-x))
special_scaled_modified_bessel_k0 = _bessel_op(lambda x: _bessel_k_scaled(0, x))
special_scaled_modified_bessel_k1 = _bessel_op(lambda x: _bessel_k_scaled(1, x))
special_bessel_j0 = _bessel_op(lambda x: _bessel_j(0, x))
special_bessel_j1 = _bessel_op(lambda x: _bessel_j(1, x))
special_bessel_y0 = _bessel_op(lambda x: _bessel_y(0, x))
special_bessel_y1 = _bessel_op(lambda x: _bessel_y(1, x))
special_airy_ai = _bessel_op(_airy_ai)
special_spherical_bessel_j0 = _bessel_op(lambda x: np.where(
    x == 0, 1.0, np.where(np.isinf(x), 0.0, np.sin(x) / np.where(x == 0, 1, x))))


# ---------------------------------------------------------------- the error function's relatives
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _erfcx(x):
    """e^(x²) erfc(x): directly while erfc(x) does not underflow, then its asymptotic series."""
    direct = np.exp(np.minimum(x, 26) ** 2) * _erfc(np.minimum(x, 26)).astype(np.float64)
    big = np.maximum(x, 26)
    series = (1 - 1 / (2 * big ** 2) + 3 / (4 * big ** 4) - 15 / (8 * big ** 6) + 105 / (16 * big ** 8))
    return np.where(x < 26, direct, series / (big * np.sqrt(np.pi)))


def _log_ndtr(x):
    """log Φ(x): log1p(-Φ(-x)) above 0, log(erfcx(-x/√2) / 2) - x²/2 below."""
    upper = np.log1p(-0.5 * _erfc(np.maximum(x, 0) / np.sqrt(2)).astype(np.float64))
    lower = np.log(_erfcx(-np.minimum(x, 0) / np.sqrt(2)) / 2) - np.minimum(x, 0) ** 2 / 2
    return np.where(x > 0, upper, lower)


special_erfcx = _bessel_op(_erfcx)
special_log_ndtr = _bessel_op(_log_ndtr)


def _xlog1py(x, y, dtype):
    with np.errstate(over="ignore"):  # (a Python number rounded to the result's type first, as ATen's operands are)
        x, y = np.asarray(x, dtype.np), np.asarray(y, dtype.np)
    return np.where(np.isnan(y), np.nan, np.where(x == 0, 0, x * np.log1p(y)))


special_xlog1py = binary(_xlog1py, out="float")


# ---------------------------------------------------------------- zeta and the incomplete gamma functions
def _bernoulli(count):
    """B₂, B₄, ... B_2count, from the recurrence Σ C(m+1, j) B_j = 0."""
    b = [Fraction(1)]
    for m in range(1, 2 * count + 1):
        b.append(-sum(math.comb(m + 1, j) * b[j] for j in range(m)) / (m + 1))
    return b[2::2]


_TAIL = [float(math.factorial(2 * k + 2) / b) for k, b in enumerate(_bernoulli(12))]  # (2k)!/B_2k: 12, -720, ...


def _zeta(x, q):
    """Hurwitz's ζ(x, q) = Σ (k + q)^-x, as Cephes sums it: nine terms or more, then Euler-Maclaurin's tail."""
    if x == 1:
        return math.inf
    if x < 1 or math.isnan(x) or math.isnan(q):
        return math.nan
    if q <= 0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    s, a, i = q ** -x, q, 0
    while i < 9 or a <= 9:
        i, a = i + 1, a + 1
        b = a ** -x
        s += b
        if abs(b / s) < 1.11e-16:
            return s
    w, s, a, k = a, s + b * a / (x - 1) - 0.5 * b, 1.0, 0.0
    for divisor in _TAIL:
        a *= x + k
        b /= w
        t = a * b / divisor
        s += t
        if abs(t / s) < 1.11e-16:
            break
        k += 1
        a *= x + k
        b /= w
        k += 1
    return s


def _igamma_series(a, x):
    term = total = 1 / a
    n = a
    for _ in range(100000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-17:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _igammac_fraction(a, x):
    """Lentz's evaluation of Q(a, x)'s continued fraction."""
    tiny = 1e-300
    b, c, d = x + 1 - a, 1 / tiny, 1 / (x + 1 - a)
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _igamma(a, x, upper):
    """P(a, x) (or Q = 1 - P), with ATen's answers at the edges."""
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0:
        return math.nan
    if a == 0:
        return (0.0 if upper else 1.0) if x > 0 else math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else (1.0 if upper else 0.0)
    if math.isinf(x):
        return 0.0 if upper else 1.0
    if x < a + 1:
        lower = _igamma_series(a, x)
        return 1 - lower if upper else lower
    tail = _igammac_fraction(a, x)
    return tail if upper else 1 - tail


def _elementwise(scalar_fn):
    vectorized = np.frompyfunc(scalar_fn, 2, 1)
    # frompyfunc hands back a bare float for 0-d inputs, hence the asarray around it
    return lambda a, b, dtype: np.asarray(vectorized(np.asarray(a, np.float64), np.asarray(b, np.float64)), np.float64)


special_zeta = binary(_elementwise(_zeta), out="float")
igamma = binary(_elementwise(lambda a, x: _igamma(a, x, False)), out="float")
igammac = binary(_elementwise(lambda a, x: _igamma(a, x, True)), out="float")


def _mvlgamma_check(self, p):
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


def _mvlgamma_kernel(self, p):
    _mvlgamma_check(self, p)
    x = self._np.astype(np.float64)  # (no domain check: torch's sums lgamma wherever it is finite)
    lgamma = np.frompyfunc(math.lgamma, 1, 1)
    total = sum(np.asarray(lgamma(x - j / 2), np.float64) for j in range(p)) + p * (p - 1) / 4 * math.log(math.pi)
    return unary_float(lambda values: total.astype(values.dtype))[0](self)  # (its layout and rounding)


def _mvlgamma_meta(self, p):
    _mvlgamma_check(self, p)
    return unary_float(np.negative)[1](self)


# ---------------------------------------------------------------- orthogonal polynomials
def _recurrence(first, second, step):
    """p_n(x) by p_{k+1} = step(k, x, p_k, p_{k-1}) from p_0 = first(x), p_1 = second(x); 0 for n < 0."""
    def compute(x, n, dtype):
        x, n = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(n).astype(np.int64))
        previous, current = np.ones_like(x) * first(x), second(x)
        result = np.where(n == 0, previous, np.where(n == 1, current, 0.0))
        for k in range(1, int(n.max(initial=0))):
            previous, current = current, step(k, x, current, previous)
            result = np.where(n == k + 1, current, result)
        return result
    return binary(compute, out="float")


def _one(x):
    return np.ones_like(x)


POLYNOMIALS = {
    "chebyshev_polynomial_t": _recurrence(_one, lambda x: x, lambda k, x, p, q: 2 * x * p - q),
    "chebyshev_polynomial_u": _recurrence(_one, lambda x: 2 * x, lambda k, x, p, q: 2 * x * p - q),
    "chebyshev_polynomial_v": _recurrence(_one, lambda x: 2 * x - 1, lambda k, x, p, q: 2 * x * p - q),
    "chebyshev_polynomial_w": _recurrence(_one, lambda x: 2 * x + 1, lambda k, x, p, q: 2 * x * p - q),
    "shifted_chebyshev_polynomial_t": _recurrence(_one, lambda x: 2 * x - 1,
                                                  lambda k, x, p, q: (4 * x - 2) * p - q),
    "shifted_chebyshev_polynomial_u": _recurrence(_one, lambda x: 4 * x - 2,
                                                  lambda k, x, p, q: (4 * x - 2) * p - q),
    "shifted_chebyshev_polynomial_v": _recurrence(_one, lambda x: 4 * x - 3,
                                                  lambda k, x, p, q: (4 * x - 2) * p - q),
    "shifted_chebyshev_polynomial_w": _recurrence(_one, lambda x: 4 * x - 1,
                                                  lambda k, x, p, q: (4 * x - 2) * p - q),
    "hermite_polynomial_h": _recurrence(_one, lambda x: 2 * x, lambda k, x, p, q: 2 * x * p - 2 * k * q),
    "hermite_polynomial_he": _recurrence(_one, lambda x: x, lambda k, x, p, q: x * p - k * q),
    "laguerre_polynomial_l": _recurrence(_one, lambda x: 1 - x,
                                         lambda k, x, p, q: ((2 * k + 1 - x) * p - k * q) / (k + 1)),
    "legendre_polynomial_p": _recurrence(_one, lambda x: x, lambda k, x, p, q: ((2 * k + 1) * x * p - k * q) / (k + 1)),
}


# ---------------------------------------------------------------- derivative formulas (derivatives.yaml's), _d_<op>
def _d_i0e(grad, self, result):
    return aten.mul.Tensor(grad, aten.sub.Tensor(aten.special_i1e.default(self),
                                                 aten.mul.Tensor(aten.sgn.default(self), result)))


def _small(self):
    return aten.logical_not.default(aten.gt.Scalar(aten.abs.default(self), float(np.finfo(self.dtype.np).eps)))


def _d_i1e(grad, self, result):
    """I₀e(x) - I₁e(x) (sgn x + 1/x); ½ near 0."""
    slope = aten.sub.Tensor(aten.special_i0e.default(self), aten.mul.Tensor(
        result, aten.add.Tensor(aten.sgn.default(self), aten.reciprocal.default(self))))
    return aten.mul.Tensor(grad, aten.masked_fill.Scalar(slope, _small(self), 0.5))


def _d_erfcx(grad, self, result):
    slope = aten.sub.Scalar(aten.mul.Tensor(aten.mul.Scalar(self, 2), result), 2 / math.sqrt(math.pi))
    return aten.mul.Tensor(slope, grad)


def _d_log_ndtr(grad, self, result):
    exponent = aten.sub.Tensor(aten.div.Scalar(aten.neg.default(aten.pow.Tensor_Scalar(self, 2)), 2), result)
    return aten.mul.Tensor(aten.div.Scalar(grad, math.sqrt(2 * math.pi)), aten.exp.default(exponent))


def _d_xlog1py(grad, self, other, needs_grad):
    self_grad = other_grad = None
    if needs_grad[0]:
        self_grad = aten.masked_fill.Scalar(aten.mul.Tensor(grad, aten.log1p.default(other)), aten.logical_and.default(
            aten.eq.Scalar(self, 0), aten.logical_not.default(aten.isnan.default(other))), 0)
    if needs_grad[1]:
        other_grad = aten.div.Tensor(aten.mul.Tensor(grad, self), aten.add.Scalar(other, 1))
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def _d_xlog1py_self_scalar(grad, self, other):
    return aten.div.Tensor(aten.mul.Scalar(grad, self), aten.add.Scalar(other, 1))


def _d_xlog1py_other_scalar(grad, self, other):
    slope = aten.mul.Scalar(grad, math.log1p(other))
    return aten.masked_fill.Scalar(slope, aten.eq.Scalar(self, 0), 0) if not math.isnan(other) else slope


def _d_zeta_other(grad, self, other, needs_grad):
    if needs_grad[0]:
        raise NotImplementedError("the derivative for 'zeta' is not implemented.")
    slope = aten.mul.Tensor(aten.neg.default(self), aten.special_zeta.default(aten.add.Scalar(self, 1.0), other))
    return None, sum_to(aten.mul.Tensor(grad, slope), _shape(other))


def _d_zeta_not_implemented(grad, self):
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


def _d_zeta_self_scalar(grad, self, other):
    slope = aten.mul.Scalar(aten.special_zeta.self_scalar(self + 1.0, other), -self)
    return aten.mul.Tensor(grad, slope)


def _igamma_of(sign):
    def formula(grad, self, other, needs_grad):
        if needs_grad[0]:
            raise NotImplementedError(f"the derivative for '{'igammac' if sign < 0 else 'igamma'}: input' is not "
                                      "implemented.")
        density = aten.exp.default(aten.sub.Tensor(aten.sub.Tensor(aten.mul.Tensor(
            aten.sub.Scalar(self, 1), aten.log.default(other)), other), aten.lgamma.default(self)))
        return None, sum_to(aten.mul.Tensor(grad, density if sign > 0 else aten.neg.default(density)), _shape(other))
    return formula


def _d_mvlgamma(grad, self, p):
    total = aten.digamma.default(self)
    for j in range(1, p):
        total = aten.add.Tensor(total, aten.digamma.default(aten.sub.Scalar(self, j / 2)))
    return aten.mul.Tensor(grad, total)


# ---------------------------------------------------------------- decompositions (torch's core table's)
def _xlog1py_decomposition(self, other):
    """self * log1p(other), 0 where self is 0, NaN where other is NaN."""
    if self.dtype is not other.dtype or not self.dtype.is_floating_point or self.dtype in _dtype.HALVES:
        return NotImplemented
    is_zero = aten.eq.Scalar(self, 0)
    product = aten.mul.Tensor(self, aten.log1p.default(other))
    rhs = aten.where.self(is_zero, _scalar(0, self), product)
    return aten.where.self(aten.isnan.default(other), _scalar(float("nan"), self), rhs)


def _scalar(value, like):
    return aten.scalar_tensor.default(value, dtype=like.dtype, layout=strided, device=like.device)


def _log_ndtr_decomposition(self):
    """t = x/√2: log(erfcx(-t) / 2) - t² below 1, log1p(-erfc(t) / 2) above."""
    if not self.dtype.is_floating_point or self.dtype in _dtype.HALVES:
        return NotImplemented
    t = aten.mul.Tensor(self, math.sqrt(0.5))
    lower = aten.lt.Scalar(self, 1.0)
    below = aten.sub.Tensor(aten.log.default(aten.div.Tensor(aten.special_erfcx.default(aten.neg.default(t)), 2)),
                            aten.mul.Tensor(t, t))
    above = aten.log1p.default(aten.div.Tensor(aten.neg.default(aten.erfc.default(t)), 2))
    return aten.where.self(lower, below, above)


def _mvlgamma_decomposition(self, p):
    """Σ_j lgamma(x - j/2) + p(p-1)/4 log π, the p terms along a new last dim."""
    if not self.dtype.is_floating_point or self.dtype in _dtype.HALVES:
        return NotImplemented
    halves = aten.mul.Tensor(aten.arange.start_step(1 - p, 1, dtype=self.dtype, device=self.device,
                                                             pin_memory=False), 0.5)
    terms = aten.lgamma.default(aten.add.Tensor(aten.unsqueeze.default(self, -1), halves))
    return aten.add.Tensor(aten.sum.dim_IntList(terms, [-1]), 0.25 * p * (p - 1) * math.log(math.pi))


def _binary_rows(name, kernel, formulas=(None, None, None), grad_fn="", decomposition=None):
    """name(Tensor, Tensor) and its two overloads with a Scalar first or second argument (self_scalar and
    other_scalar; x_scalar and n_scalar for the polynomials); grad_fn names end in 0, 1, 2."""
    first, second = ("x", "n") if "polynomial" in name else ("self", "other")
    overloads = ((f"Tensor {first}, Tensor {second}", ""), (f"Scalar {first}, Tensor {second}", f".{first}_scalar"),
                 (f"Tensor {first}, Scalar {second}", f".{second}_scalar"))
    return [op(f"{name}{overload}({arguments}) -> Tensor", POINTWISE, kernel, formula,
               grad_fn=f"{grad_fn}{i}" if grad_fn else None, differentiable=formula is not None,
               decomposition=decomposition if i == 0 else None)
            for i, ((arguments, overload), formula) in enumerate(zip(overloads, formulas))]


_UNARY = [
    ("special_i0e", special_i0e, _d_i0e), ("special_i1e", special_i1e, _d_i1e),
    ("special_erfcx", special_erfcx, _d_erfcx), ("special_log_ndtr", special_log_ndtr, _d_log_ndtr),
    *[(f"special_{name}", globals()[f"special_{name}"], None) for name in (
        "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
        "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
        "spherical_bessel_j0", "airy_ai")],
]

ROWS = [
    *[op(f"{name}(Tensor {'x' if name.startswith(('special_spherical', 'special_airy')) else 'self'}) -> Tensor",
         POINTWISE, kernel, formula, differentiable=formula is not None,
         decomposition=_log_ndtr_decomposition if name == "special_log_ndtr" else None)
      for name, kernel, formula in _UNARY],
    *_binary_rows("special_xlog1py", special_xlog1py, (_d_xlog1py, _d_xlog1py_self_scalar, _d_xlog1py_other_scalar),
                  "SpecialXlog1PyBackward", _xlog1py_decomposition),
    *_binary_rows("special_zeta", special_zeta, (_d_zeta_other, _d_zeta_self_scalar, _d_zeta_not_implemented),
                  "SpecialZetaBackward"),
    *[row for name, kernel in POLYNOMIALS.items() for row in _binary_rows(f"special_{name}", kernel)],
    op("igamma(Tensor self, Tensor other) -> Tensor", POINTWISE, igamma, _igamma_of(1)),
    op("igammac(Tensor self, Tensor other) -> Tensor", POINTWISE, igammac, _igamma_of(-1)),
    op("mvlgamma(Tensor self, int p) -> Tensor", POINTWISE, (_mvlgamma_kernel, _mvlgamma_meta), _d_mvlgamma,
       decomposition=_mvlgamma_decomposition),
]
