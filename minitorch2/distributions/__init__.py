"""torch.distributions: probability distributions to sample from and score, for VAEs, RL agents and samplers.

Built on the runtime's torch-level functions only, so every sample draws from the same generator
calls as torch's (torch.normal, normal_, multinomial, bernoulli, rand) and matches it bit for bit
after the same manual_seed; rsample keeps the graph so gradients reach the parameters. Not part of
the compiler pipeline: compiled programs trace through these classes like any user code.
"""
from . import constraints, kl, utils  # noqa: F401
from .categorical import Bernoulli, Categorical
from .distribution import Distribution
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Independent", "Laplace", "MultivariateNormal", "Normal",
           "OneHotCategorical", "Uniform", "constraints", "kl_divergence", "register_kl"]
