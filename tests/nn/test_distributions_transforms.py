"""torch.distributions' transforms and KL divergences against torch (split from test_distributions_more.py): each
transform's values, inverses and log-det-Jacobians, PositiveDefiniteTransform, a TransformedDistribution flow,
biject_to/transform_to, kl_divergence for every pair torch registers (and broadcast), the names torch exports, and a
flow with a KL term compiled."""
import pytest
import torch

import minitorch2

from .test_distributions_more import LIBS, _outcome, _validation_on, assert_close, both, t  # noqa: F401 (the fixture)


TRANSFORMS = {
    "exp": lambda L: L.distributions.ExpTransform(),
    "sigmoid": lambda L: L.distributions.SigmoidTransform(),
    "tanh": lambda L: L.distributions.TanhTransform(),
    "softplus": lambda L: L.distributions.SoftplusTransform(),
    "affine": lambda L: L.distributions.AffineTransform(t(L, [1.0, -2.0, 0.5]), t(L, [2.0, -0.5, 3.0])),
    "affine_event": lambda L: L.distributions.AffineTransform(1.0, t(L, [2.0, -0.5, 3.0]), event_dim=1),
    "power": lambda L: L.distributions.PowerTransform(t(L, [2.0, 0.5, 3.0])),
    "compose": lambda L: L.distributions.ComposeTransform([L.distributions.AffineTransform(0.5, 2.0),
                                                           L.distributions.TanhTransform()]),
    "stick_breaking": lambda L: L.distributions.StickBreakingTransform(),
    "independent": lambda L: L.distributions.IndependentTransform(L.distributions.SigmoidTransform(), 1),
    "exp_inv": lambda L: L.distributions.ExpTransform().inv,
    "corr_cholesky": lambda L: L.distributions.CorrCholeskyTransform(),
    "cat": lambda L: L.distributions.CatTransform([L.distributions.TanhTransform(),
                                                   L.distributions.AffineTransform(1.0, 2.0)], dim=1, lengths=[1, 2]),
    "stack": lambda L: L.distributions.StackTransform(
        [L.distributions.TanhTransform(), L.distributions.SigmoidTransform(),
         L.distributions.AffineTransform(1.0, -2.0)], dim=-1),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_transforms_match_torch(name):
    results = []
    for L in LIBS:
        transform = TRANSFORMS[name](L)
        x = t(L, [[0.3, -1.2, 0.7], [1.5, 0.2, -0.4]])
        if name in ("power", "exp_inv"):
            x = x.abs() + 0.1
        y = transform(x)
        results.append((y, transform.inv(y), transform.log_abs_det_jacobian(x, y), repr(transform),
                        transform.domain.event_dim, transform.codomain.event_dim,
                        tuple(transform.forward_shape((2, 3))), bool(transform.codomain.check(y).all())))
    ours, theirs = results
    for a, b in zip(ours[:3], theirs[:3]):
        assert_close(a, b, rtol=1e-4, atol=1e-5)
    assert ours[3:] == theirs[3:]


def test_positive_definite_transform_matches_torch():
    results = []
    for L in LIBS:
        transform = L.distributions.PositiveDefiniteTransform()
        x = t(L, [[0.3, -1.2, 0.1], [0.5, 0.9, -2.0], [1.0, 0.2, 0.4]])
        y = transform(x)
        results.append((y, transform.inv(y), bool(L.distributions.constraints.positive_definite.check(y))))
    (y1, x1, ok1), (y2, x2, ok2) = results
    assert_close(y1, y2, rtol=1e-5, atol=1e-6)
    assert_close(x1, x2, rtol=1e-4, atol=1e-5)
    assert ok1 and ok2


def test_transformed_distribution_flow_matches_torch():
    def program(L):
        loc = t(L, [0.1, -0.3]).requires_grad_(True)
        base = L.distributions.Normal(loc, t(L, [1.0, 2.0]))
        flow = L.distributions.TransformedDistribution(base, [L.distributions.AffineTransform(1.0, 3.0),
                                                              L.distributions.TanhTransform(cache_size=1)])
        x = flow.rsample((4,))
        lp = flow.log_prob(x)
        (g,) = L.autograd.grad(lp.sum() + x.sum(), [loc])
        return x, lp, g, flow.cdf(t(L, [0.2, -0.5])), tuple(flow.batch_shape), tuple(flow.event_shape)
    ours, theirs = both(program)
    for a, b in zip(ours[:4], theirs[:4]):
        assert_close(a, b, rtol=1e-4, atol=1e-4)
    assert ours[4:] == theirs[4:]


@pytest.mark.parametrize("constraint", ["real", "positive", "nonnegative", "unit_interval", "simplex",
                                        "greater_than", "less_than", "interval", "real_vector", "lower_cholesky",
                                        "positive_definite", "corr_cholesky", "cat", "stack"])
def test_biject_to_and_transform_to_match_torch(constraint):
    def program(L):
        c = L.distributions.constraints
        chosen = {"greater_than": c.greater_than(2.0), "less_than": c.less_than(-1.0),
                  "interval": c.interval(-2.0, 3.0), "cat": c.cat([c.positive, c.interval(0.0, 2.0)], 1, [2, 1]),
                  "stack": c.stack([c.real, c.positive, c.unit_interval], -1)}.get(constraint) \
            or getattr(c, constraint)
        x = t(L, [[0.3, -1.2, 0.1], [0.5, 0.9, -2.0], [1.0, 0.2, 0.4]])
        out = []
        for registry in (L.distributions.biject_to, L.distributions.transform_to):
            try:
                transform = registry(chosen)
            except NotImplementedError:
                out.append("NotImplementedError")
                continue
            y = transform(x)
            out += [y, repr(transform), bool(chosen.check(y).all())]
        return out
    ours, theirs = both(program)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if isinstance(b, torch.Tensor):
            assert_close(a, b, rtol=1e-5, atol=1e-6)
        else:
            assert a == b


def test_kl_of_transformed_distributions_matches_torch():
    ours, theirs = (L.distributions.kl_divergence(L.distributions.LogNormal(t(L, [0.5, 2.0]), 1.0),
                                                  L.distributions.LogNormal(t(L, [1.5, 1.0]), 2.0)) for L in LIBS)
    assert_close(ours, theirs, rtol=1e-5, atol=1e-6)


# One instance per family for the pairwise KL table: p of batch shape (3,), q (2, 1) where its parameters are
# scalars per batch entry, so that the two broadcast to (2, 3).
KL_FAMILIES = {
    "Bernoulli": lambda L, b: L.distributions.Bernoulli(t(L, b([0.2, 0.5, 0.9]))),
    "Beta": lambda L, b: L.distributions.Beta(t(L, b([0.5, 2.0, 3.0])), t(L, b([1.5, 0.7, 3.0]))),
    "Binomial": lambda L, b: L.distributions.Binomial(t(L, b([5.0, 5.0, 5.0])), t(L, b([0.2, 0.5, 0.9]))),
    "Categorical": lambda L, b: L.distributions.Categorical(t(L, [[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]])),
    "Cauchy": lambda L, b: L.distributions.Cauchy(t(L, b([0.0, 1.0, -1.0])), t(L, b([1.0, 0.5, 2.0]))),
    "ContinuousBernoulli": lambda L, b: L.distributions.ContinuousBernoulli(t(L, b([0.2, 0.5, 0.9]))),
    "Dirichlet": lambda L, b: L.distributions.Dirichlet(t(L, [[0.5, 2.0], [1.0, 1.0], [3.0, 0.2]])),
    "Exponential": lambda L, b: L.distributions.Exponential(t(L, b([0.5, 1.0, 3.0]))),
    "Gamma": lambda L, b: L.distributions.Gamma(t(L, b([0.5, 2.0, 3.0])), t(L, b([1.0, 0.5, 2.0]))),
    "Geometric": lambda L, b: L.distributions.Geometric(t(L, b([0.2, 0.5, 0.9]))),
    "Gumbel": lambda L, b: L.distributions.Gumbel(t(L, b([0.0, 1.0, -1.0])), t(L, b([1.0, 0.5, 2.0]))),
    "HalfNormal": lambda L, b: L.distributions.HalfNormal(t(L, b([1.0, 0.5, 2.0]))),
    "Laplace": lambda L, b: L.distributions.Laplace(t(L, b([0.0, 1.0, -1.0])), t(L, b([1.0, 0.5, 2.0]))),
    "LowRankMultivariateNormal": lambda L, b: L.distributions.LowRankMultivariateNormal(
        t(L, [[0.0, 1.0], [0.5, -0.5], [1.0, 1.0]]), t(L, [[1.0], [0.5]]), t(L, [0.5, 2.0])),
    "MultivariateNormal": lambda L, b: L.distributions.MultivariateNormal(
        t(L, [[0.0, 1.0], [0.5, -0.5], [1.0, 1.0]]), scale_tril=t(L, [[1.0, 0.0], [0.3, 0.8]])),
    "Normal": lambda L, b: L.distributions.Normal(t(L, b([0.0, 1.0, -1.0])), t(L, b([1.0, 0.5, 2.0]))),
    "OneHotCategorical": lambda L, b: L.distributions.OneHotCategorical(t(L, [[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]])),
    "Pareto": lambda L, b: L.distributions.Pareto(t(L, b([1.0, 0.5, 2.0])), t(L, b([0.5, 1.5, 3.0]))),
    "Poisson": lambda L, b: L.distributions.Poisson(t(L, b([0.5, 1.0, 3.0]))),
    "Uniform": lambda L, b: L.distributions.Uniform(t(L, b([0.1, -1.0, 0.2])), t(L, b([0.6, 2.0, 1.0]))),
}
_TORCH_PAIRS = sorted((p.__name__, q.__name__) for p, q in torch.distributions.kl._KL_REGISTRY
                      if p.__name__ in KL_FAMILIES and q.__name__ in KL_FAMILIES)


@pytest.mark.parametrize("broadcast", [False, True], ids=["same_batch", "broadcast"])
@pytest.mark.parametrize("p_name,q_name", _TORCH_PAIRS, ids=[f"{p}-{q}" for p, q in _TORCH_PAIRS])
def test_every_torch_kl_pair_matches(p_name, q_name, broadcast):
    results = []
    for L in LIBS:
        p = KL_FAMILIES[p_name](L, lambda v: v)
        q = KL_FAMILIES[q_name](L, (lambda v: [[v[0]], [v[1]]]) if broadcast else (lambda v: v))
        results.append(_outcome(lambda: L.distributions.kl_divergence(p, q)))
    assert results[0][0] == results[1][0], results
    if results[0][0] == "ok":
        assert_close(results[0][1], results[1][1], rtol=1e-4, atol=1e-5)


def test_every_name_torch_exports_is_exported():
    assert sorted(set(torch.distributions.__all__) - set(minitorch2.distributions.__all__)) == []
    for name in torch.distributions.transforms.__all__:
        assert hasattr(minitorch2.distributions.transforms, name), name
    for name in torch.distributions.constraints.__all__:
        assert hasattr(minitorch2.distributions.constraints, name), name


def _flow_step(lib, backend=None):
    a = lib.tensor([0.5, 2.0, 4.0], requires_grad=True)

    def step(a):
        flow = lib.distributions.TransformedDistribution(lib.distributions.Normal(a, 1.0),
                                                         [lib.distributions.TanhTransform()])
        y = flow.rsample()
        kl = lib.distributions.kl_divergence(lib.distributions.Beta(a, 2.0), lib.distributions.Beta(1.0, a))
        dirichlet = lib.distributions.Dirichlet(a).log_prob(lib.tensor([0.2, 0.3, 0.5]))
        return flow.log_prob(y).sum() + kl.sum() + dirichlet

    fn = step if backend is None else lib.compile(step, backend=backend)
    lib.manual_seed(3)
    loss = fn(a)
    loss.backward()
    return loss, a.grad


def test_flow_and_kl_compiled_match_torch():
    for a, b in zip(_flow_step(minitorch2, "aot_eager"), _flow_step(torch)):
        assert_close(a, b, rtol=1e-4, atol=1e-5)
