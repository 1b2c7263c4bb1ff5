"""torch.distributions: probability distributions to sample from and score, for VAEs, RL agents and samplers.

Built on the runtime's torch-level functions, so samples draw from the same generator calls as torch's
(torch.normal, normal_, multinomial, bernoulli, rand, exponential_, cauchy_, and ATen's gamma, Poisson and binomial
samplers, reproduced in _samplers.py) and match it bit for bit after the same manual_seed. rsample keeps the graph
so gradients reach the parameters. Not part of the compiler pipeline: compiled programs trace through these classes
like any user code.
"""
import sys

from . import constraints, kl, kl_pairs, transforms, utils  # noqa: F401
from .categorical import Bernoulli, Categorical
from .cauchy import Cauchy, StudentT
from .constraint_registry import biject_to, transform_to
from .continuous_bernoulli import ContinuousBernoulli
from .counts import Binomial, Geometric, Multinomial, NegativeBinomial
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .gamma import Beta, Chi2, Dirichlet, Exponential, FisherSnedecor, Gamma, Poisson
from .generalized_pareto import GeneralizedPareto
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .matrices import LKJCholesky, Wishart
from .mixture import MixtureSameFamily
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .relaxed import RelaxedBernoulli, RelaxedOneHotCategorical
from .transformed import (Gumbel, HalfCauchy, HalfNormal, InverseGamma, Kumaraswamy, LogisticNormal, LogNormal, Pareto,
                          TransformedDistribution, Weibull)
from .transforms import *  # noqa: F401,F403
from .uniform import Uniform
from .von_mises import VonMises

__all__ = ["Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli", "Dirichlet",
           "Distribution", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma", "GeneralizedPareto",
           "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent", "InverseGamma", "Kumaraswamy",
           "LKJCholesky", "Laplace", "LogNormal", "LogisticNormal", "LowRankMultivariateNormal", "MixtureSameFamily",
           "Multinomial", "MultivariateNormal", "NegativeBinomial", "Normal", "OneHotCategorical",
           "OneHotCategoricalStraightThrough", "Pareto", "Poisson", "RelaxedBernoulli", "RelaxedOneHotCategorical",
           "StudentT", "TransformedDistribution", "Uniform", "VonMises", "Weibull", "Wishart", "biject_to",
           "constraints", "kl_divergence", "register_kl", "transform_to"] + transforms.__all__

# torch.distributions keeps one module per distribution (`from torch.distributions.beta import Beta`); here several
# share a module, so each of torch's module names is filed as an alias of the module holding its class.
_TORCH_MODULE_NAMES = {
    "bernoulli": "categorical", "beta": "gamma", "binomial": "counts", "chi2": "gamma", "dirichlet": "gamma",
    "exponential": "gamma", "fishersnedecor": "gamma", "geometric": "counts", "gumbel": "transformed",
    "half_cauchy": "transformed", "half_normal": "transformed", "inverse_gamma": "transformed",
    "kumaraswamy": "transformed", "lkj_cholesky": "matrices", "log_normal": "transformed",
    "logistic_normal": "transformed", "mixture_same_family": "mixture", "multinomial": "counts",
    "negative_binomial": "counts", "pareto": "transformed", "poisson": "gamma", "relaxed_bernoulli": "relaxed",
    "relaxed_categorical": "relaxed", "studentT": "cauchy", "transformed_distribution": "transformed",
    "weibull": "transformed", "wishart": "matrices"}
for _alias, _module in _TORCH_MODULE_NAMES.items():
    globals()[_alias] = sys.modules.setdefault(f"{__name__}.{_alias}", sys.modules[f"{__name__}.{_module}"])
