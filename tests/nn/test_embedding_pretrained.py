"""nn.Embedding.from_pretrained and nn.EmbeddingBag.from_pretrained, and the max_norm renormalisation both layers do
in place before the lookup (torch's embedding_renorm_), against torch 2.13 (issue 20)."""
import inspect

import numpy as np
import pytest
import torch

import minitorch2

WEIGHTS = np.array([[1, 2.3, 3], [4, 5.1, 6.3], [0.1, 0.2, 0.3], [-2, 0.5, 1]], dtype=np.float32)


@pytest.mark.parametrize("layer", ["Embedding", "EmbeddingBag"])
def test_signature_matches_torch(layer):
    ours = inspect.signature(getattr(minitorch2.nn, layer).from_pretrained)
    theirs = inspect.signature(getattr(torch.nn, layer).from_pretrained)
    assert [(p.name, p.default) for p in ours.parameters.values()] == \
           [(p.name, p.default) for p in theirs.parameters.values()]


def _pretrained(lib, **options):
    weights = lib.tensor(WEIGHTS)
    layer = lib.nn.Embedding.from_pretrained(weights, **options)
    return weights, layer


@pytest.mark.parametrize("options", [{}, {"freeze": False}, {"padding_idx": -1, "freeze": False},
                                     {"max_norm": 1.0, "norm_type": 1.0, "freeze": False}, {"max_norm": 2.5}],
                         ids=["frozen", "trained", "padding", "max_norm 1-norm", "max_norm frozen"])
def test_embedding_from_pretrained_matches_torch(options):
    results = []
    for lib in (torch, minitorch2):
        weights, layer = _pretrained(lib, **options)
        out = layer(lib.tensor([[1, 3], [3, 0]]))
        if layer.weight.requires_grad:
            (out * lib.arange(12.).reshape(2, 2, 3)).sum().backward()
        grad = None if layer.weight.grad is None else layer.weight.grad.numpy()
        results.append((repr(layer), layer.weight.requires_grad, layer.padding_idx, out.detach().numpy(),
                        layer.weight.detach().numpy(), grad, type(out.grad_fn).__name__))
    theirs, ours = results
    assert ours[:3] == theirs[:3]
    for a, b in zip(ours[3:6], theirs[3:6]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-6)
    assert ours[6] == theirs[6]


def test_embedding_from_pretrained_shares_the_tensors_memory():
    for lib in (torch, minitorch2):
        weights, layer = _pretrained(lib)
        weights[0, 0] = 7.0
        assert layer.weight[0, 0].item() == 7.0


def test_embedding_bag_from_pretrained_with_max_norm_matches_torch():
    results = []
    for lib in (torch, minitorch2):
        bag = lib.nn.EmbeddingBag.from_pretrained(lib.tensor(WEIGHTS), mode="sum", max_norm=2.0)
        out = bag(lib.tensor([[1, 0], [2, 2]]))
        results.append((repr(bag), bag.weight.requires_grad, out.numpy(), bag.weight.detach().numpy()))
    (repr_t, grad_t, out_t, weight_t), (repr_o, grad_o, out_o, weight_o) = results
    assert (repr_o, grad_o) == (repr_t, grad_t)
    np.testing.assert_allclose(out_o, out_t, rtol=1e-6)
    np.testing.assert_allclose(weight_o, weight_t, rtol=1e-6)


def test_functional_embedding_max_norm_renormalises_in_place_as_torch():
    weights = {}
    for lib in (torch, minitorch2):
        weight = lib.tensor(WEIGHTS, requires_grad=True)
        out = lib.nn.functional.embedding(lib.tensor([3, 1, 1]), weight, max_norm=3.0)
        out.sum().backward()
        weights[lib.__name__] = (weight.detach().numpy(), out.detach().numpy(), weight.grad.numpy())
    for a, b in zip(weights["minitorch2"], weights["torch"]):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("layer", ["Embedding", "EmbeddingBag"])
def test_from_pretrained_refuses_a_vector_as_torch_does(layer):
    with pytest.raises(AssertionError, match="Embeddings parameter is expected to be 2-dimensional"):
        getattr(torch.nn, layer).from_pretrained(torch.zeros(3))
    with pytest.raises(AssertionError, match="Embeddings parameter is expected to be 2-dimensional"):
        getattr(minitorch2.nn, layer).from_pretrained(minitorch2.zeros(3))
