"""Names real scripts call that stopped them: torch-level nn functions at ATen's argument order (torch.conv2d,
torch.batch_norm, torch.embedding, torch.dropout, the losses' int reductions, torch.vmap), nn.functional's rarer
functions (hardshrink, softshrink, alpha_dropout, gumbel_softmax, pdist, the deprecated upsample_*), and the
modules over them (BCEWithLogitsLoss, Hardshrink, Softshrink, AlphaDropout, UpsamplingNearest2d/Bilinear2d);
torch.unique along a dim and unique_consecutive.
Each against torch: values, gradients, random streams, warnings."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)
RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 5, 5)).astype(np.float32)
W = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
V = RNG.standard_normal((6, 4)).astype(np.float32)
T = (RNG.random((6, 4)) > 0.5).astype(np.float32)
S = np.sign(RNG.standard_normal(6)).astype(np.float32)
IDX = np.array([[0, 2], [5, 1]])
ROWS = np.array([[1, 2, 2], [1, 2, 2], [0, 5, 1], [1, 2, 2], [-3, 0, 0], [-3, 0, 0]])

CALLS = {
    "conv2d": lambda L, t: L.conv2d(t(X), t(W), None, 1, 1),
    "conv_transpose2d": lambda L, t: L.conv_transpose2d(t(X), t(W).transpose(0, 1), None, 2),
    "conv1d": lambda L, t: L.conv1d(t(X[:, :, 0]), t(W[:, :, 0])),
    "layer_norm": lambda L, t: L.layer_norm(t(X), [5], t(X[0, 0, 0]), None, 1e-3),
    "group_norm": lambda L, t: L.group_norm(t(X), 3, t(V[:3, 0]), t(V[:3, 1])),
    "batch_norm": lambda L, t: L.batch_norm(t(X), t(V[:3, 0]), t(V[:3, 1]), L.zeros(3), L.ones(3), True, 0.1,
                                            1e-5, False),
    "instance_norm": lambda L, t: L.instance_norm(t(X), None, None, None, None, True, 0.1, 1e-5, False),
    "embedding": lambda L, t: L.embedding(t(V), L.tensor(IDX), 2),
    "embedding without padding": lambda L, t: L.embedding(t(V), L.tensor(IDX)),
    "pixel_shuffle": lambda L, t: L.pixel_shuffle(t(W[:, :1].reshape(1, 4, 3, 3)), 2),
    "cosine_similarity": lambda L, t: L.cosine_similarity(t(V), t(T)),  # (T has a row of zeros: the gradient is
    # torch's, the clamped norm's 1/eps, not nan)
    "pairwise_distance": lambda L, t: L.pairwise_distance(t(V), t(T), 1.5),
    "pdist": lambda L, t: L.pdist(t(V), 3),
    "selu": lambda L, t: L.selu(t(V)),
    "celu": lambda L, t: L.celu(t(V), 0.5),
    "threshold": lambda L, t: L.threshold(t(V), 0.1, 20.0),
    "hardshrink": lambda L, t: L.hardshrink(t(V), 0.7),
    "softshrink": lambda L, t: L.nn.functional.softshrink(t(V), 0.7),
    "max_pool2d": lambda L, t: L.max_pool2d(t(X), 2),
    "max_pool2d_with_indices": lambda L, t: L.nn.functional.max_pool2d_with_indices(t(X), 3, 2, 1)[1],
    "max_pool1d": lambda L, t: L.max_pool1d(t(X[0]), 2, 1),
    "avg_pool1d": lambda L, t: L.avg_pool1d(t(X[0]), 3, 2, 1),
    "adaptive_max_pool1d": lambda L, t: L.adaptive_max_pool1d(t(X[0]), 2)[1],
    "kl_div": lambda L, t: L.kl_div(t(V).log_softmax(1), t(T).softmax(1), 2),
    "bce with logits": lambda L, t: L.binary_cross_entropy_with_logits(t(V), L.tensor(T), None,
                                                                       L.tensor(np.abs(V[0])), 0),
    "cosine_embedding_loss": lambda L, t: L.cosine_embedding_loss(t(V), t(T), L.tensor(S), 0.1, 2),
    "margin_ranking_loss": lambda L, t: L.margin_ranking_loss(t(V[:, 0]), t(V[:, 1]), L.tensor(S)),
    "hinge_embedding_loss": lambda L, t: L.hinge_embedding_loss(t(V), t(T) * 2 - 1, 0.5, 0),
    "triplet_margin_loss": lambda L, t: L.triplet_margin_loss(t(V), t(T), t(V[::-1].copy())),
    "poisson_nll_loss": lambda L, t: L.poisson_nll_loss(t(V), t(T), True, False, 1e-8, 1),
    "vmap": lambda L, t: L.vmap(lambda row: (row * row).sum())(t(V)),
    "upsample_bilinear": lambda L, t: L.nn.functional.upsample_bilinear(t(X), scale_factor=2),
    "upsample_nearest": lambda L, t: L.nn.functional.upsample_nearest(t(X), size=7),
    "UpsamplingBilinear2d": lambda L, t: L.nn.UpsamplingBilinear2d(size=(4, 6))(t(X)),
    "UpsamplingNearest2d": lambda L, t: L.nn.UpsamplingNearest2d(scale_factor=3)(t(X)),
    "Hardshrink": lambda L, t: L.nn.Hardshrink(0.3)(t(V)),
    "Softshrink": lambda L, t: L.nn.Softshrink()(t(V)),
    "BCEWithLogitsLoss": lambda L, t: L.nn.BCEWithLogitsLoss(weight=L.tensor(np.abs(V[0])),
                                                            pos_weight=L.tensor(np.abs(V[1])))(t(V), L.tensor(T)),
    "BCEWithLogitsLoss sum": lambda L, t: L.nn.BCEWithLogitsLoss(reduction="sum")(t(V), t(T)),
    "unique dim 0": lambda L, t: L.cat([r.reshape(-1).double() for r in L.unique(
        L.tensor(ROWS), dim=0, return_inverse=True, return_counts=True)]),
    "unique dim 1, floats": lambda L, t: L.unique(L.tensor(ROWS.T * 0.5), dim=1, sorted=True),
    "unique_consecutive": lambda L, t: L.cat([r.reshape(-1) for r in L.unique_consecutive(
        L.tensor(ROWS), return_inverse=True, return_counts=True)]),
    "unique_consecutive dim": lambda L, t: L.cat([r.reshape(-1) for r in L.tensor(ROWS).unique_consecutive(
        return_counts=True, dim=0)]),
    "threshold_": lambda L, t: L.threshold_(t(V) * 1, 0.0, -1.0),
    "hardtanh_": lambda L, t: L.nn.functional.hardtanh_(t(V) * 1, -0.5, 0.5),
    "selu_": lambda L, t: L.selu_(t(V) * 1),
    "celu_": lambda L, t: L.celu_(t(V) * 1, 2.0),
}


def _run(lib, name):
    lib.manual_seed(0)
    leaves = []

    def tensor(array):
        leaf = lib.tensor(array, requires_grad=True)
        leaves.append(leaf)
        return leaf

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = CALLS[name](lib, tensor)
    if out.requires_grad:
        (out.float() * out.detach().float().sin()).sum().backward()
    grads = [leaf.grad.numpy() if leaf.grad is not None else None for leaf in leaves]
    return out.detach().numpy(), grads, sorted({str(w.message) for w in caught})


@pytest.mark.parametrize("name", list(CALLS))
def test_name_matches_torch(name):
    (expected, expected_grads, expected_warnings), (ours, grads, our_warnings) = (_run(lib, name) for lib in LIBS)
    assert ours.shape == expected.shape and ours.dtype == expected.dtype
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)
    for g, e in zip(grads, expected_grads):
        assert (g is None) == (e is None)
        if e is not None:
            np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
    assert our_warnings == expected_warnings


RANDOM = {
    "dropout": lambda L, x: L.dropout(x, 0.3, True),
    "alpha_dropout": lambda L, x: L.alpha_dropout(x, 0.3, True),
    "AlphaDropout": lambda L, x: L.nn.AlphaDropout(0.2)(x),
    "AlphaDropout eval": lambda L, x: L.nn.AlphaDropout(0.2).eval()(x),
    "gumbel_softmax": lambda L, x: L.nn.functional.gumbel_softmax(x, tau=0.5),
    "gumbel_softmax hard": lambda L, x: L.nn.functional.gumbel_softmax(x, hard=True, dim=0),
}


@pytest.mark.parametrize("name", list(RANDOM))
def test_random_functions_draw_torchs_stream(name):
    results = []
    for lib in LIBS:
        lib.manual_seed(3)
        x = lib.tensor(V, requires_grad=True)
        out = RANDOM[name](lib, x)
        (out * lib.tensor(T)).sum().backward()
        results.append((out.detach().numpy(), x.grad.numpy(), lib.rand(2).numpy()))
    for ours, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)
