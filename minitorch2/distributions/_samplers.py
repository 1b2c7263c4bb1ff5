"""The samplers torch.distributions reaches through private ops torch exposes: `_standard_gamma` (with its
reparameterized gradient), `_sample_dirichlet`, `poisson`, `binomial`.

The gamma sampler is ATen's: Marsaglia and Tsang's method with ATen's constants and its order of draws (a double
normal from the generator's Box-Muller pair, then a double uniform; a boosting uniform first below alpha 1), one
element at a time, so Gamma, Chi2, Beta, Dirichlet and StudentT samples match torch bit for bit after the same
manual_seed. The Poisson and binomial samplers are textbook algorithms drawing from our generator (ATen's are not
reproduced): they agree with torch in distribution only. The gamma's gradient is torch's implicit one,
dx/dalpha = -(dF/dalpha) / f(x) with F the gamma CDF, evaluated in float64 (scipy), so it agrees with
torch._standard_gamma_grad at the same sample to float32 rounding; the Dirichlet's flows through the normalized
gammas (an unbiased reparameterization, not torch's per-sample _dirichlet_grad).
"""
import numpy as np
import scipy.special

import math

from .. import _factories, _functions, autograd
from .._dtype import float64
from .._random import default_generator


def _draw(kind, n):
    """n float64 uniforms or standard normals from the default generator."""
    if n == 0:
        return np.zeros(0)
    make = _factories.rand if kind == "uniform" else _factories.randn
    return make(n, dtype=float64).numpy()


def _gamma_numpy(alpha):
    """Marsaglia and Tsang's squeeze method, vectorized: a Gamma(alpha, 1) draw per entry of alpha (float64)."""
    alpha = np.asarray(alpha, dtype=np.float64)
    flat = alpha.reshape(-1)
    boost = flat < 1
    a = np.where(boost, flat + 1, flat)
    d = a - 1.0 / 3
    c = 1 / np.sqrt(9 * d)
    out = np.empty_like(a)
    todo = np.arange(a.size)
    while todo.size:
        x, u = _draw("normal", todo.size), _draw("uniform", todo.size)
        v = (1 + c[todo] * x) ** 3
        with np.errstate(invalid="ignore", divide="ignore"):
            log_v = np.log(np.where(v > 0, v, 1))
            ok = (v > 0) & (np.log(np.maximum(u, 1e-300)) < 0.5 * x * x + d[todo] * (1 - v + log_v))
        out[todo[ok]] = (d[todo] * v)[ok]
        todo = todo[~ok]
    if boost.any():
        u = _draw("uniform", int(boost.sum()))
        out[boost] *= u ** (1 / flat[boost])
    return out.reshape(alpha.shape)


def _gamma_cdf_grad_alpha(alpha, x):
    """dx/dalpha of a Gamma(alpha, 1) sample x held at fixed CDF level: -(dP(alpha, x)/dalpha) / pdf(x)."""
    h = 1e-5 * np.maximum(alpha, 1e-3)
    dP = (scipy.special.gammainc(alpha + h, x) - scipy.special.gammainc(alpha - h, x)) / (2 * h)
    log_pdf = (alpha - 1) * np.log(x) - x - scipy.special.gammaln(alpha)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        grad = -dP / np.exp(log_pdf)
    return np.where(np.isfinite(grad), grad, 0.0)


def _standard_gamma_grad(alpha, sample):
    grad = _gamma_cdf_grad_alpha(alpha.detach().numpy().astype(np.float64), sample.detach().numpy().astype(np.float64))
    return _factories.tensor(grad.astype(alpha.detach().numpy().dtype))


_ONE_THIRD_F32 = float(np.float32(1.0 / 3.0))  # ATen writes 1.0f / 3.0f
_SQUEEZE_F32 = float(np.float32(0.0331))


def _aten_gamma(alpha, single):
    """One Gamma(alpha, 1) draw as ATen's sample_gamma makes it; `single`: alpha held in float32 (its boost and d
    computed in float, as for a float tensor)."""
    if alpha == 0:
        return 0.0
    scale = 1.0
    if alpha < 1:
        exponent = float(np.float32(1.0) / np.float32(alpha)) if single else 1.0 / alpha
        scale *= (1 - default_generator._uniform_f64(1)[0]) ** exponent
        alpha = float(np.float32(alpha) + np.float32(1.0)) if single else alpha + 1.0
    d = float(np.float32(alpha) - np.float32(_ONE_THIRD_F32)) if single else alpha - _ONE_THIRD_F32
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = default_generator._normal_scalar(1, 0.0, 1.0)[0]
        y = 1.0 + c * x
        if y <= 0:
            continue
        v = y * y * y
        u = 1 - default_generator._uniform_f64(1)[0]
        xx = x * x
        if u < 1.0 - _SQUEEZE_F32 * xx * xx or math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _gamma_draws(alpha_np, single):
    flat = alpha_np.reshape(-1).tolist()
    return np.array([_aten_gamma(a, single) for a in flat], dtype=np.float64).reshape(alpha_np.shape)


class _StandardGamma(autograd.Function):
    @staticmethod
    def forward(ctx, alpha):
        alpha_np = alpha.detach().numpy()
        values = _gamma_draws(alpha_np, alpha_np.dtype == np.float32).astype(alpha_np.dtype)
        sample = _factories.tensor(np.maximum(values, np.finfo(alpha_np.dtype).tiny))
        ctx.save_for_backward(alpha, sample)
        return sample

    @staticmethod
    def backward(ctx, grad):
        alpha, sample = ctx.saved_tensors
        return grad * _standard_gamma_grad(alpha, sample)


def standard_gamma(alpha):
    """torch._standard_gamma: a Gamma(alpha, 1) draw per entry, differentiable in alpha."""
    return _StandardGamma.apply(alpha.contiguous())


class _SampleDirichlet(autograd.Function):
    """ATen's _sample_dirichlet: double gamma draws, normalized in double, cast and kept inside (0, 1)."""

    @staticmethod
    def forward(ctx, concentration):
        conc_np = concentration.detach().numpy()
        gammas = np.maximum(_gamma_draws(conc_np.astype(np.float64), False), np.finfo(np.float64).tiny)
        total = gammas.sum(-1, keepdims=True)
        top = np.nextafter(conc_np.dtype.type(1), conc_np.dtype.type(0))
        values = np.minimum(top, np.maximum(np.finfo(conc_np.dtype).tiny, (gammas / total).astype(conc_np.dtype)))
        ctx.save_for_backward(concentration)
        ctx.gammas, ctx.total = gammas, total
        return _factories.tensor(values)

    @staticmethod
    def backward(ctx, grad):
        (concentration,) = ctx.saved_tensors
        dtype = concentration.detach().numpy().dtype
        gammas, total = ctx.gammas, ctx.total
        dgamma = _gamma_cdf_grad_alpha(concentration.detach().numpy().astype(np.float64), gammas)
        g = grad.detach().numpy().astype(np.float64)
        x = gammas / total
        result = dgamma * (g - (g * x).sum(-1, keepdims=True)) / total
        return _factories.tensor(result.astype(dtype))


def sample_dirichlet(concentration):
    """torch._sample_dirichlet: normalized gamma draws (gradients reach concentration through the gammas)."""
    return _SampleDirichlet.apply(concentration.contiguous())


def _poisson_numpy(rate):
    """A Poisson count per rate: inversion by multiplying uniforms below rate 10, else the gamma-Poisson split."""
    rate = np.asarray(rate, dtype=np.float64)
    out = np.zeros(rate.shape)
    big = rate >= 10
    if big.any():  # a Gamma(m) draw decides whether the count is below m (binomial then) or m plus a Poisson
        r = rate[big]
        m = np.floor(0.875 * r)
        g = _gamma_numpy(m)
        below = g > r
        counts = np.empty(r.shape)
        counts[below] = _binomial_numpy(m[below] - 1, r[below] / g[below])
        counts[~below] = m[~below] + _poisson_numpy(r[~below] - g[~below])
        out[big] = counts
    small = ~big & (rate > 0)
    if small.any():
        limit = np.exp(-rate[small])
        product, count = np.ones(limit.shape), np.zeros(limit.shape)
        active = np.ones(limit.shape, dtype=bool)
        while active.any():
            product[active] *= _draw("uniform", int(active.sum()))
            active &= product > limit
            count[active] += 1
        out[small] = count
    return out


def _binomial_numpy(n, p):
    """A Binomial(n, p) count per entry, by the beta-binomial split for large n and summed Bernoullis below."""
    n, p = np.asarray(n, dtype=np.float64), np.asarray(p, dtype=np.float64)
    out = np.zeros(np.broadcast(n, p).shape)
    n, p = np.broadcast_to(n, out.shape).copy(), np.broadcast_to(p, out.shape).copy()
    while True:
        big = n > 32
        if not big.any():
            break
        k = np.floor((n[big] + 1) / 2)
        a, b = _gamma_numpy(k), _gamma_numpy(n[big] + 1 - k)
        beta = a / (a + b)
        left = beta >= p[big]
        new_n = np.where(left, k - 1, n[big] - k)
        new_p = np.where(left, p[big] / beta, (p[big] - beta) / (1 - beta))
        out_big = out[big] + np.where(left, 0, k)
        out[big], n[big], p[big] = out_big, new_n, np.clip(new_p, 0, 1)
    top = int(n.max()) if n.size else 0
    for i in range(top):
        live = n > i
        hits = np.zeros(out.shape, dtype=bool)
        hits[live] = _draw("uniform", int(live.sum())) < p[live]
        out += hits
    return out


def poisson(rate):
    """torch.poisson: a count per rate, in rate's dtype (no gradient)."""
    dtype = rate.detach().numpy().dtype
    return _factories.tensor(_poisson_numpy(rate.detach().numpy()).astype(dtype))


def binomial(count, prob):
    """torch.binomial: a Binomial(count, prob) draw per entry, in prob's dtype (no gradient)."""
    dtype = prob.detach().numpy().dtype
    values = _binomial_numpy(count.detach().numpy(), prob.detach().numpy())
    return _factories.tensor(values.astype(dtype))



class _IncompleteGamma(autograd.Function):
    """P(a, x) or Q(a, x) by scipy in float64; the gradient in x is the gamma density (torch gives none in a)."""

    @staticmethod
    def forward(ctx, a, x, upper):
        a_np, x_np = a.detach().numpy(), x.detach().numpy()
        fn = scipy.special.gammaincc if upper else scipy.special.gammainc
        ctx.save_for_backward(a, x)
        ctx.upper = upper
        return _factories.tensor(fn(a_np, x_np).astype(np.result_type(a_np, x_np)))

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        density = (_functions.xlogy(a - 1, x) - x - _functions.lgamma(a)).exp()
        grad_x = grad * (-density if ctx.upper else density)
        return None, _sum_to(grad_x, x.shape), None


def _sum_to(value, shape):
    """value summed over the dimensions broadcasting added to shape."""
    extra = value.dim() - len(shape)
    if extra:
        value = value.sum(tuple(range(extra)))
    dims = tuple(i for i, n in enumerate(shape) if n == 1 and value.shape[i] != 1)
    return value.sum(dims, keepdim=True) if dims else value


def gammainc(a, x, upper=False):
    """torch.special.gammainc (or gammaincc with upper=True) over broadcast a and x: Gamma.cdf's."""
    return _IncompleteGamma.apply(a, x, upper)
