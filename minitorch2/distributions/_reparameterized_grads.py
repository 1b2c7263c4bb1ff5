"""The reparameterized gradients of Gamma, Beta and Dirichlet samples as ATen computes them, one element at a time.

Library surface under torch.distributions (_samplers.py's backward passes call it). A Gamma(alpha) sample x moves
with alpha by dx/dalpha = -(dF/dalpha) / f(x), F the gamma CDF; ATen does not evaluate that exactly but
approximates it: a short Taylor series for small x, a saddle-point expansion for large alpha, a fitted rational
function between (ATen's _standard_gamma_grad). A Dirichlet sample's component is a Beta(alpha, total - alpha)
sample, whose gradient ATen approximates the same way (_dirichlet_grad: series near 0 and near 1, a saddle point
when both parameters are large, a rational correction to an analytic guess otherwise). Those approximations are
what torch's gradients are, so they are what ours must be: the exact derivative differs from them by up to several
percent. The constants below are ATen's fitted coefficients; arithmetic is done in the types ATen's template does
it in (double for the accumulate type, the tensor's own type where the template says scalar_t).
"""
import math

import numpy as np

_DIGAMMA_ASYMPTOTIC = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                       -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                       8.33333333333333333333E-2)
_DIGAMMA_AT_10 = 2.25175258906672110764
_GAMMA_RATIONAL = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
                   (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
                    -0.00058392623),
                   (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
                    0.00085092367, -1.5247877e-07))
# _dirichlet_grad's rational correction: [numerator or denominator][power of u][power of a][power of b]
_BETA_RATIONAL = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))
_F = np.float32  # C++'s float literals (0.8f) are these values, widened where they meet a double


def _log(x):
    """C's log of a double (or of a float, rounded back to float by the caller): -inf at 0, nan below."""
    x = float(x)
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _pow(x, y):
    """C's pow of doubles: 0 to a negative power is inf, a negative base to a fractional power nan."""
    try:
        return math.pow(float(x), float(y))
    except (ValueError, OverflowError, ZeroDivisionError):
        return math.inf if float(x) == 0 or abs(float(x)) > 1 else math.nan


def _digamma(x, T):
    """ATen's digamma_one<T, double>: x read as T, 1/x and x + 1 in T, the asymptotic series in double."""
    x = T(x)
    if x == 0:
        return T(math.inf)
    reflected = 0.0
    if x < 0:
        if x == math.floor(x):
            return T(math.inf)
        reflected = float(-T(math.pi) / T(math.tan(float(T(math.pi) * x))))
        x = T(1) - x
    result = 0.0
    while x < 10:
        result -= float(T(1) / x)
        x = T(x + T(1))
    if x == 10:
        return T(result + _DIGAMMA_AT_10 + reflected)
    series = 0.0
    if x < 1.0e17:
        z = 1.0 / float(x * x)
        poly = 0.0
        for a in _DIGAMMA_ASYMPTOTIC:
            poly = poly * z + a
        series = z * poly
    return T(result + float(T(_log(x))) - float(T(0.5) / x) - series + reflected)


def _standard_gamma_grad_one(alpha, x, T):
    x, alpha = float(x), float(alpha)
    if x < float(_F(0.8)):  # Taylor series for small x
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _pow(x, alpha)
        pdf = _pow(x, alpha - 1) * math.exp(-x)
        cdf = pow_x_alpha * series1
        cdf_alpha = (_log(x) - float(_digamma(alpha, np.float64))) * cdf - pow_x_alpha * series2
        result = -cdf_alpha / pdf if pdf else math.copysign(math.inf, -cdf_alpha) if cdf_alpha else math.nan
        return T(0) if math.isnan(result) else T(result)
    if alpha > 8:  # Rice's saddle-point expansion for large alpha
        if float(_F(0.9)) * alpha <= x <= float(_F(1.1)) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x)
            return T(numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha)))
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = _log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return T(-stirling * (x * term1) / denom)
    u, v = _log(x / alpha), _log(alpha)  # a bivariate rational fit between
    coef = [c0 + u * (c1 + u * c2) for c0, c1, c2 in zip(*_GAMMA_RATIONAL)]
    p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]))
    q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]))
    return T(math.exp(p / q))


def _beta_grad_alpha_small(x, alpha, beta, T):
    """Near x = 0: a Taylor series, all in T."""
    factor = _digamma(alpha, T) - _digamma(T(alpha + beta), T) - T(_log(x))
    numer = T(1)
    series = numer / alpha * (factor + T(1) / alpha)
    for i in range(1, 11):
        numer = numer * ((T(i) - beta) * x / T(i))
        denom = alpha + T(i)
        series = series + numer / denom * (factor + T(1) / denom)
    result = x * T(_pow(T(1) - x, -beta)) * series
    return T(0) if np.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta, T):
    """The gradient in beta near x = 0, all in T (used mirrored, for x near 1)."""
    factor = _digamma(T(alpha + beta), T) - _digamma(beta, T)
    numer, betas, dbetas, series = T(1), T(1), T(0), factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / T(i))
        dbetas = dbetas * (beta - T(i)) + betas
        betas = betas * (beta - T(i))
        series = series + numer / (alpha + T(i)) * (dbetas + factor * betas)
    result = -T(_pow(T(1) - x, T(1) - beta)) * series
    return T(0) if np.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta, T):
    """Both parameters large: Rice's saddle-point expansion, in double."""
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # (away from the singularity at the mean)
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return T(prefactor_num / (1 - x) * poly / prefactor_den)
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) \
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (math.sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx)
    term2 = 0.5 * _log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = _pow(beta * _log(beta / (total * (1 - x))) + alpha * _log(alpha / (total * x)), -1.5)
    return T(stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4))))


def _dirichlet_grad_one(x, alpha, total, T):
    x, alpha, total = T(x), T(alpha), T(total)
    beta, beta_wide = T(total - alpha), float(total) - float(alpha)
    boundary = total * x * (T(1) - x)
    if x <= 0.5 and boundary < 2.5:
        return _beta_grad_alpha_small(x, alpha, beta, T)
    if x >= 0.5 and boundary < 0.75:
        return -_beta_grad_beta_small(T(1) - x, beta, alpha, T)
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(float(x), float(alpha), beta_wide, T)
    u = _log(x)  # a rational correction to an analytic approximation
    a = _log(alpha) - u
    b = _log(total) - a
    p = q = 0.0
    for i, pow_u in enumerate((1.0, u, u * u)):
        for j, pow_a in enumerate((1.0, a, a * a)):
            ua = pow_u * pow_a
            c, d = _BETA_RATIONAL[0][i][j], _BETA_RATIONAL[1][i][j]
            p += ua * (c[0] + b * (c[1] + b * (c[2] + b * c[3])))
            q += ua * (d[0] + b * (d[1] + b * (d[2] + b * d[3])))
    approx = float(x) * float(_digamma(total, T) - _digamma(alpha, T)) / beta_wide
    return T(p / q * approx)


def _elementwise(fn, dtype, *arrays):
    T = np.dtype(dtype).type
    flat = [np.broadcast_to(a, np.broadcast_shapes(*(b.shape for b in arrays))).reshape(-1) for a in arrays]
    with np.errstate(all="ignore"):
        out = np.array([fn(*values, T) for values in zip(*flat)], dtype=dtype)
    return out.reshape(np.broadcast_shapes(*(a.shape for a in arrays)))


def standard_gamma_grad(alpha, sample):
    """torch._standard_gamma_grad: d sample / d alpha for Gamma(alpha, 1) samples (numpy arrays of one dtype)."""
    return _elementwise(_standard_gamma_grad_one, alpha.dtype, alpha, sample)


def dirichlet_grad(x, alpha, total):
    """torch._dirichlet_grad: a Dirichlet sample's component x against its concentration alpha, total their sum."""
    return _elementwise(_dirichlet_grad_one, x.dtype, x, alpha, total)
