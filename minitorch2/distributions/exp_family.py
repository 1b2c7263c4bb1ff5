"""torch.distributions.ExponentialFamily: densities p(x) = h(x) exp(<theta, t(x)> - F(theta)).

A member names its natural parameters theta (`_natural_params`) and log normalizer F (`_log_normalizer`); the
entropy and the KL divergence between two members of one family then follow from F and its gradient (a Bregman
divergence), taken by autograd, for the families without a closed form of their own.
"""
from .. import autograd
from .distribution import Distribution


class ExponentialFamily(Distribution):
    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """-E[log h(x)] + F(theta) - <theta, grad F(theta)>."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for param, gradient in zip(nparams, gradients):
            result = result - (param * gradient).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
