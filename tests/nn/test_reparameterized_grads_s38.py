"""Gradients of Gamma, Beta and Dirichlet samples against torch's: ATen's approximations, not the exact derivative.

Until session 38 ours computed the Gamma's implicit gradient exactly (3e-4 from torch's) and the Dirichlet's through
the normalized gammas, an unbiased estimator but not torch's: a Beta(2, 0.7) rsample's gradient was 7% off. Each
branch of ATen's approximations is reached here (small x, large alpha near and away from the mean, the rational
fits; a Beta near 0, near 1, both parameters large), in float32 and float64, and the gradients of rsample through
whole distributions after the same seed.
"""
import numpy as np
import pytest
import torch

import minitorch2
from minitorch2.distributions._reparameterized_grads import dirichlet_grad, standard_gamma_grad

ALPHAS = [0.05, 0.3, 0.9, 1.0, 2.5, 7.9, 8.5, 20.0, 150.0]
XS = [1e-6, 0.01, 0.5, 0.79, 0.81, 2.0, 7.0, 8.0, 9.0, 18.0, 21.0, 140.0, 160.0, 400.0]
BETA_XS = [1e-5, 0.02, 0.3, 0.49, 0.5, 0.51, 0.7, 0.97, 0.99999]
BETA_PARAMS = [(0.2, 0.5), (1.5, 3.0), (2.0, 0.7), (7.0, 9.0), (40.0, 30.0), (0.5, 60.0), (3.0, 5.0), (6.5, 2.0)]


def _agree(ours, theirs, dtype):
    """Equal but for an ulp or two where C's logf/powf round otherwise than a double rounded to float."""
    np.testing.assert_allclose(ours, theirs, rtol=8 * np.finfo(dtype).eps, atol=0)
    return np.mean(ours == theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_grad_is_atens_in_every_branch(dtype):
    alpha, x = (np.array(v, dtype=dtype) for v in np.meshgrid(ALPHAS, XS))
    theirs = torch._standard_gamma_grad(torch.from_numpy(alpha), torch.from_numpy(x)).numpy()
    assert _agree(standard_gamma_grad(alpha, x), theirs, dtype) > 0.95


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_grad_is_atens_in_every_branch(dtype):
    cases = [(x, a, a + b) for x in BETA_XS for a, b in BETA_PARAMS]
    x, alpha, total = (np.array(v, dtype=dtype) for v in zip(*cases))
    theirs = torch._dirichlet_grad(*(torch.from_numpy(v) for v in (x, alpha, total))).numpy()
    assert _agree(dirichlet_grad(x, alpha, total), theirs, dtype) > 0.95


def _rsample_grads(lib, family, params, seed):
    lib.manual_seed(seed)
    leaves = [lib.tensor(p, requires_grad=True) for p in params]
    dist = {"Gamma": lambda a, r: lib.distributions.Gamma(a, r),
            "Beta": lambda a, b: lib.distributions.Beta(a, b),
            "Dirichlet": lambda c: lib.distributions.Dirichlet(c),
            "Chi2": lambda df: lib.distributions.Chi2(df),
            "StudentT": lambda df: lib.distributions.StudentT(df)}[family](*leaves)
    sample = dist.rsample((4,))
    (sample * lib.arange(1.0, 1.0 + sample.shape[-1])).sum().backward()
    return sample.tolist(), [leaf.grad.tolist() for leaf in leaves]


@pytest.mark.parametrize("family, params", [
    ("Gamma", ([0.4, 3.0, 12.0], [1.0, 2.0, 0.5])),
    ("Beta", ([2.0, 0.3, 9.0], [0.7, 0.4, 8.0])),
    ("Dirichlet", ([[0.5, 1.5, 3.0], [8.0, 7.0, 0.2]],)),
    ("Chi2", ([1.0, 5.0, 30.0],)),
    ("StudentT", ([2.5, 9.0],)),
])
def test_rsample_gradients_are_torchs(family, params):
    for seed in range(3):
        ours, theirs = _rsample_grads(minitorch2, family, params, seed), _rsample_grads(torch, family, params, seed)
        np.testing.assert_array_equal(np.asarray(ours[0]), np.asarray(theirs[0]))
        for a, b in zip(ours[1], theirs[1]):
            np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-7)
