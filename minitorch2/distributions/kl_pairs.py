"""The rest of torch's closed-form KL(p || q) pairs, filed in kl.py's registry on import: mixed families (Beta to
Normal, Exponential to Gumbel, Uniform to Gamma, ...), the (low-rank) multivariate normals, and every pair whose q
does not cover p's support, which is infinite."""
import math

from .. import _factories, _functions, autograd, linalg
from .categorical import Bernoulli
from .continuous_bernoulli import ContinuousBernoulli
from .counts import Binomial
from .exp_family import ExponentialFamily
from .gamma import Beta, Exponential, Gamma, Poisson
from .kl import _kl_categorical_categorical, _kl_normal_normal, register_kl
from .laplace import Laplace
from .lowrank_multivariate_normal import LowRankMultivariateNormal, _lowrank_logdet, _mahalanobis
from .multivariate_normal import MultivariateNormal, _batch_mv
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .transformed import Gumbel, HalfNormal, Pareto
from .uniform import Uniform
from .utils import _sum_rightmost, euler_constant


def _infinite_like(tensor):
    return _factories.full_like(tensor, math.inf)


def _x_log_x(tensor):
    return _functions.xlogy(tensor, tensor)


def _batch_trace_XXT(bmat):
    n, m = bmat.size(-1), bmat.size(-2)
    return bmat.reshape(-1, m * n).pow(2).sum(-1).reshape(bmat.shape[:-2])


def _register_infinite(p_type, q_types, parameter):
    for q_type in q_types:
        register_kl(p_type, q_type)(lambda p, q: _infinite_like(getattr(p, parameter)))


_register_infinite(Beta, [Pareto], "concentration1")
_register_infinite(ContinuousBernoulli, [Pareto], "probs")
_register_infinite(Exponential, [Beta, ContinuousBernoulli, Pareto, Uniform], "rate")
_register_infinite(Gamma, [Beta, ContinuousBernoulli, Pareto, Uniform], "concentration")
_register_infinite(Gumbel, [Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform], "loc")
_register_infinite(Laplace, [Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform], "loc")
_register_infinite(Normal, [Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform], "loc")
_register_infinite(Pareto, [Beta, ContinuousBernoulli, Uniform], "scale")
_register_infinite(Poisson, [Bernoulli, Binomial], "rate")


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    inf_idxs = p.total_count > q.total_count
    kl[inf_idxs] = _infinite_like(kl[inf_idxs])
    return kl


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    t1 = p.mean * (p.logits - q.logits)
    return (t1 + p._cont_bern_log_norm() + _functions.log1p(-p.probs) - q._cont_bern_log_norm()
            - _functions.log1p(-q.probs))


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ct1, ct2, ct3 = p.scale / q.scale, q.loc / q.scale, p.loc / q.scale
    t3 = _functions.exp(ct2 + (1 + ct1).lgamma() - ct3)
    return -ct1.log() - ct2 + ct3 + ct1 * euler_constant + t3 - (1 + euler_constant)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    scale_ratio, alpha_ratio = p.scale / q.scale, q.alpha / p.alpha
    result = q.alpha * scale_ratio.log() - alpha_ratio.log() + alpha_ratio - 1
    result[p.support.lower_bound < q.support.lower_bound] = math.inf
    return result


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return -p.entropy() - p.mean * q.logits - _functions.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    total = p.concentration1 + p.concentration0
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (p.concentration1.digamma() - total.digamma())
    return -p.entropy() + t2 - t3 + q.rate * p.concentration1 / total


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    e_beta = p.concentration1 / (p.concentration1 + p.concentration0)
    var_normal = q.scale.pow(2)
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    t3 = (e_beta * (1 - e_beta) / (p.concentration1 + p.concentration0 + 1) + e_beta.pow(2)) * 0.5
    return -p.entropy() + (t2 + (t3 - q.loc * e_beta + q.loc.pow(2) * 0.5) / var_normal)  # torch's grouping


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    result[(q.low > p.support.lower_bound) | (q.high < p.support.upper_bound)] = math.inf
    return result


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - _functions.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    t2 = 0.5 * (math.log(2.0 * math.pi) + _functions.square(q.loc / q.scale)) + _functions.log(q.scale)
    t3 = (p.variance + _functions.square(p.mean) - 2.0 * q.loc * p.mean) / (2.0 * _functions.square(q.scale))
    return -p.entropy() + t2 + t3


def _outside(result, low_outside, high_outside):
    return _functions.where(_functions.maximum(low_outside, high_outside),
                            _factories.ones_like(result) * math.inf, result)


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    return _outside(result, q.low.ge(p.support.lower_bound), q.high.le(p.support.upper_bound))


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    ratio = q.rate / p.rate
    c = q.concentration
    return -c * _functions.log(ratio) + ratio + c.lgamma() + c * euler_constant - (1 + euler_constant)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    scale_rate_prod, loc_scale_ratio = p.rate * q.scale, q.loc / q.scale
    t2 = _functions.exp(loc_scale_ratio) * scale_rate_prod / (scale_rate_prod + 1)
    return scale_rate_prod.log() - 1 - loc_scale_ratio + t2 + scale_rate_prod.reciprocal()


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var_normal, rate_sqr = q.scale.pow(2), p.rate.pow(2)
    t1 = 0.5 * _functions.log(rate_sqr * var_normal * 2 * math.pi)
    return t1 - 1 + (rate_sqr.reciprocal() - q.loc / p.rate + q.loc.pow(2) * 0.5) / var_normal


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    beta_scale_prod, loc_scale_ratio = p.rate * q.scale, q.loc / q.scale
    c = p.concentration
    t1 = (c - 1) * c.digamma() - c.lgamma() - c
    t2 = beta_scale_prod.log() + c / beta_scale_prod
    t3 = _functions.exp(loc_scale_ratio) * (1 + beta_scale_prod.reciprocal()).pow(-c) - loc_scale_ratio
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    var_normal, beta_sqr, c = q.scale.pow(2), p.rate.pow(2), p.concentration
    t1 = 0.5 * _functions.log(beta_sqr * var_normal * 2 * math.pi) - c - c.lgamma()
    t2 = 0.5 * (c.pow(2) + c) / beta_sqr
    return t1 + (c - 1) * c.digamma() + (t2 - q.loc * c / p.rate + 0.5 * q.loc.pow(2)) / var_normal


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    param_ratio = p.scale / q.scale
    t1 = (param_ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * param_ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * euler_constant - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (euler_constant + 1)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var_normal = q.scale.pow(2)
    ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * _functions.log(2 * ratio / math.pi)
    return -t1 + ratio + (0.5 * p.loc.pow(2) - p.loc * q.loc + 0.5 * q.loc.pow(2)) / var_normal - 1


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_scale_ratio, var_scale_sqr_ratio = p.loc / q.scale, (p.scale / q.scale).pow(2)
    loc_scale_ratio = q.loc / q.scale
    t3 = _functions.exp(-mean_scale_ratio + 0.5 * var_scale_sqr_ratio + loc_scale_ratio)
    return (-var_scale_sqr_ratio.log() * 0.5 + mean_scale_ratio - loc_scale_ratio + t3
            - (0.5 * (1 + math.log(2 * math.pi))))


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    scale_rate_prod = p.scale * q.rate
    result = ((p.alpha / scale_rate_prod).log() - p.alpha.reciprocal() + p.alpha * scale_rate_prod / (p.alpha - 1)
              - 1)
    result[p.alpha <= 1] = math.inf
    return result


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    common_term = p.scale.log() + p.alpha.reciprocal()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    result = p.alpha.log() - common_term + t2 + (1 - q.concentration) * common_term + t4 - 1
    result[p.alpha <= 1] = math.inf
    return result


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    var_normal, common_term = 2 * q.scale.pow(2), p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t3 = p.alpha * common_term.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common_term - q.loc).pow(2)
    result = t1 - p.alpha.reciprocal() + (t3 + t4) / var_normal - 1
    result[p.alpha <= 2] = math.inf
    return result


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    width = p.high - p.low
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = q.concentration1.lgamma() + q.concentration0.lgamma() - (q.concentration1 + q.concentration0).lgamma()
    result = t3 + t4 - _functions.log(width) - t2
    result[(p.high > q.support.upper_bound) | (p.low < q.support.lower_bound)] = math.inf
    return result


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    result = -p.entropy() - p.mean * q.logits - _functions.log1p(-q.probs) - q._cont_bern_log_norm()
    return _outside(result, p.high.ge(q.support.upper_bound), p.low.le(q.support.lower_bound))


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    result[p.low < q.support.lower_bound] = math.inf
    return result


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    width = p.high - p.low
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = -width.log() + t2 + t3 + q.rate * (p.high + p.low) / 2
    result[p.low < q.support.lower_bound] = math.inf
    return result


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    common_term = q.scale / (p.high - p.low)
    high_loc_diff, low_loc_diff = (p.high - q.loc) / q.scale, (p.low - q.loc) / q.scale
    t1 = common_term.log() + 0.5 * (high_loc_diff + low_loc_diff)
    return t1 - common_term * (_functions.exp(-high_loc_diff) - _functions.exp(-low_loc_diff))


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    return t1 + 0.5 * (width.pow(2) / 12 + ((p.high + p.low - 2 * q.loc) / 2).pow(2)) / q.scale.pow(2)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    result = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width * (q.alpha + 1) - t1
    result[p.low < q.support.lower_bound] = math.inf
    return result


def _solve_tril(tril, b):
    return linalg.solve_triangular(tril, b, upper=False)


def _check_event_shapes(p, q, names):
    if p.event_shape != q.event_shape:
        raise ValueError(f"KL-divergence between two {names} with                          different event shapes "
                         "cannot be computed")


def _half_log_det(tril):
    return tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)


def _combined(shape_a, shape_b):
    return tuple(_functions.broadcast_shapes(tuple(shape_a), tuple(shape_b)))


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    _check_event_shapes(p, q, "Multivariate Normals")
    q_tril, p_tril = q._unbroadcasted_scale_tril, p._unbroadcasted_scale_tril
    batch, n = _combined(q_tril.shape[:-2], p_tril.shape[:-2]), p.event_shape[0]
    term2 = _batch_trace_XXT(_solve_tril(q_tril.expand(batch + (n, n)), p_tril.expand(batch + (n, n))))
    term3 = _mahalanobis(q_tril, q.loc - p.loc)
    return _half_log_det(q_tril) - _half_log_det(p_tril) + 0.5 * (term2 + term3 - n)


def _lowrank_pieces(q, diff):
    """q's log-det, the Mahalanobis term of diff under q, and A = L_C^-1 W^T D^-1 of q (C its capacitance)."""
    W, D, cap = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag, q._capacitance_tril
    Wt_Dinv = W.mT / D.unsqueeze(-2)
    mahalanobis = (diff.pow(2) / D).sum(-1) - _mahalanobis(cap, _batch_mv(Wt_Dinv, diff))
    return _lowrank_logdet(D, cap), mahalanobis, _solve_tril(cap, Wt_Dinv)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrankmultivariatenormal_lowrankmultivariatenormal(p, q):
    _check_event_shapes(p, q, "Low Rank Multivariate Normals")
    q_logdet, term3, A = _lowrank_pieces(q, q.loc - p.loc)
    term1 = q_logdet - _lowrank_logdet(p._unbroadcasted_cov_diag, p._capacitance_tril)
    pW, pD, qD = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, q._unbroadcasted_cov_diag
    term2 = ((pD / qD).sum(-1) + _batch_trace_XXT(pW * qD.rsqrt().unsqueeze(-1))
             - _batch_trace_XXT(A * pD.sqrt().unsqueeze(-2)) - _batch_trace_XXT(A.matmul(pW)))
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_multivariatenormal_lowrankmultivariatenormal(p, q):
    _check_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    q_logdet, term3, A = _lowrank_pieces(q, q.loc - p.loc)
    p_tril = p._unbroadcasted_scale_tril
    term1 = q_logdet - 2 * _half_log_det(p_tril)
    term2 = (_batch_trace_XXT(p_tril * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
             - _batch_trace_XXT(A.matmul(p_tril)))
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrankmultivariatenormal_multivariatenormal(p, q):
    _check_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    q_tril = q._unbroadcasted_scale_tril
    term1 = 2 * _half_log_det(q_tril) - _lowrank_logdet(p._unbroadcasted_cov_diag, p._capacitance_tril)
    term3 = _mahalanobis(q_tril, q.loc - p.loc)
    batch, n = _combined(q_tril.shape[:-2], p._unbroadcasted_cov_factor.shape[:-2]), p.event_shape[0]
    q_tril = q_tril.expand(batch + (n, n))
    p_cov_factor = p._unbroadcasted_cov_factor.expand(batch + (n, p.cov_factor.size(-1)))
    p_cov_diag = _functions.diag_embed(p._unbroadcasted_cov_diag.sqrt()).expand(batch + (n, n))
    term2 = _batch_trace_XXT(_solve_tril(q_tril, p_cov_factor)) + _batch_trace_XXT(_solve_tril(q_tril, p_cov_diag))
    return 0.5 * (term1 + term2 + term3 - p.event_shape[0])


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """The Bregman divergence of the log normalizer F: F(theta_q) - F(theta_p) - <theta_q - theta_p, grad F(theta_p)>
    (defined only between two members of one family)."""
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential families cannot "
                                  "                            be computed using Bregman divergences")
    p_nparams = [param.detach().requires_grad_() for param in p._natural_params]
    lg_normal = p._log_normalizer(*p_nparams)
    gradients = autograd.grad(lg_normal.sum(), p_nparams, create_graph=True)
    result = q._log_normalizer(*q._natural_params) - lg_normal
    for pnp, qnp, g in zip(p_nparams, q._natural_params, gradients):
        result = result - _sum_rightmost((qnp - pnp) * g, len(q.event_shape))
    return result
