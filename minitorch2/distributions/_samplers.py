"""The samplers torch.distributions reaches through private ops torch exposes: `_standard_gamma` (with its
reparameterized gradient), `_sample_dirichlet`, `poisson`, `binomial`.

Each is ATen's algorithm with ATen's constants and order of draws, one element at a time from the default
generator, so every sample matches torch's bit for bit after the same manual_seed: Marsaglia and Tsang's gamma (a
double normal from the generator's Box-Muller pair, then a double uniform; a boosting uniform first below alpha 1),
Hoermann's PTRS for Poisson counts from rate 10 (multiplied uniforms below), his BTRS for binomial counts where the
rarer outcome's mean reaches 10 (inversion below). The gradients of Gamma and Dirichlet samples are ATen's
approximations of the implicit reparameterization (_reparameterized_grads.py).
"""
import contextlib
import math

import numpy as np

from .. import _factories, autograd
from .._random import default_generator
from ._reparameterized_grads import dirichlet_grad, standard_gamma_grad


def _standard_gamma_grad(alpha, sample):
    return _factories.tensor(standard_gamma_grad(alpha.detach().numpy(), sample.detach().numpy()))


_SOURCE = [default_generator]  # the generator drawn from: the default one, or a call's generator= while it runs


@contextlib.contextmanager
def _drawing_from(generator):
    _SOURCE.append(default_generator if generator is None else generator)
    try:
        yield
    finally:
        _SOURCE.pop()


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
        scale *= (1 - _SOURCE[-1]._uniform_f64(1)[0]) ** exponent
        alpha = float(np.float32(alpha) + np.float32(1.0)) if single else alpha + 1.0
    d = float(np.float32(alpha) - np.float32(_ONE_THIRD_F32)) if single else alpha - _ONE_THIRD_F32
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = _SOURCE[-1]._normal_scalar(1, 0.0, 1.0)[0]
        y = 1.0 + c * x
        if y <= 0:
            continue
        v = y * y * y
        u = 1 - _SOURCE[-1]._uniform_f64(1)[0]
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
    """ATen's _sample_dirichlet: double gamma draws, normalized in double, cast and kept inside (0, 1); its gradient
    torch.distributions' _Dirichlet_backward, over ATen's _dirichlet_grad."""

    @staticmethod
    def forward(ctx, concentration):
        conc_np = concentration.detach().numpy()
        gammas = np.maximum(_gamma_draws(conc_np.astype(np.float64), False), np.finfo(np.float64).tiny)
        total = gammas.sum(-1, keepdims=True)
        top = np.nextafter(conc_np.dtype.type(1), conc_np.dtype.type(0))
        values = np.minimum(top, np.maximum(np.finfo(conc_np.dtype).tiny, (gammas / total).astype(conc_np.dtype)))
        sample = _factories.tensor(values)
        ctx.save_for_backward(sample, concentration)
        return sample

    @staticmethod
    def backward(ctx, grad):
        x, concentration = (t.detach() for t in ctx.saved_tensors)
        total = concentration.sum(-1, True).expand_as(concentration)
        slope = _factories.tensor(dirichlet_grad(x.numpy(), concentration.numpy(), total.numpy()))
        return slope * (grad - (x * grad).sum(-1, True))


def sample_dirichlet(concentration):
    """torch._sample_dirichlet: normalized gamma draws (gradients reach concentration through the gammas)."""
    return _SampleDirichlet.apply(concentration.contiguous())


def _uniform():
    return _SOURCE[-1]._uniform_f64(1)[0]


def _aten_poisson(lam):
    """One Poisson(lam) count as ATen's sample_poisson: Hoermann's transformed rejection (PTRS) from rate 10,
    multiplied uniforms below."""
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha, vr = 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2)
        while True:
            U, V = _uniform() - 0.5, _uniform()
            us = 0.5 - abs(U)
            k = math.floor((2 * a / us + b) * U + lam + 0.43)
            if us >= 0.07 and V <= vr:
                return k
            if k < 0 or (us < 0.013 and V > us):
                continue
            if math.log(V) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - math.lgamma(k + 1):
                return k
    if lam == 0:
        return 0
    threshold, count, product = math.exp(-lam), 0, 1.0
    while True:
        product *= _uniform()
        if product <= threshold:
            return count
        count += 1


# Stirling's series tail, log k! - (k + 1/2) log(k + 1) + (k + 1) - log(2 pi)/2, tabulated below 10 as ATen does
_STIRLING_TAIL = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287]


def _stirling_tail(k):
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(count, prob):
    """The number of geometric waiting times (uniform inversions) that fit in count trials."""
    geom_sum, successes = 0.0, 0
    logprob = float(np.log1p(-prob))  # in the parameters' precision, as ATen's compat_log1p
    while True:
        geom_sum += math.ceil(math.log(_uniform()) / logprob)
        if geom_sum > count:
            return successes
        successes += 1


def _binomial_btrs(count, prob):
    """Hoermann's transformed rejection with squeeze (BTRS), with ATen's constants; count and prob are numpy scalars
    of the tensor's dtype, so that the products ATen takes in float stay in float."""
    one = prob.dtype.type(1)
    stddev = float(np.sqrt(count * prob * (one - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r, r = 0.92 - 4.2 / b, float(prob / (one - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor((count + one) * prob))
    n = float(count)
    while True:
        U, V = _uniform() - 0.5, _uniform()
        us = 0.5 - abs(U)
        k = float(prob.dtype.type(math.floor((2 * a / us + b) * U + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and V <= v_r:
            return k
        V = math.log(V * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1))) + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1)) + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if V <= bound:
            return k


def _aten_binomial(count, prob):
    """One Binomial(count, prob) draw as ATen's sample_binomial: BTRS where the mean of the rarer outcome reaches
    10, inversion below, counting the rarer outcome."""
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return float(count)
    rare = prob if prob <= 0.5 else prob.dtype.type(1) - prob
    draw = _binomial_btrs(count, rare) if count * rare >= 10 else _binomial_inversion(count, rare)
    return draw if prob <= 0.5 else float(count) - draw


def poisson(rate, generator=None):
    """torch.poisson: a count per rate, in rate's dtype, drawn as ATen draws it (no gradient)."""
    rates = rate.detach().numpy()
    with _drawing_from(generator):
        counts = [_aten_poisson(float(r)) for r in rates.reshape(-1).tolist()]
    return _factories.tensor(np.array(counts, dtype=rates.dtype).reshape(rates.shape))


def binomial(count, prob, generator=None):
    """torch.binomial: a Binomial(count, prob) draw per entry, in prob's dtype, drawn as ATen draws it."""
    counts, probs = np.broadcast_arrays(count.detach().numpy(), prob.detach().numpy())
    dtype = probs.dtype
    with _drawing_from(generator):
        draws = [_aten_binomial(c, p) for c, p in zip(counts.astype(dtype).reshape(-1), probs.reshape(-1))]
    return _factories.tensor(np.array(draws, dtype=dtype).reshape(probs.shape))
