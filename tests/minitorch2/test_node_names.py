"""The backward graph as torch prints it (issue 20): the names of the nodes met walking next_functions from a
result's grad_fn, for the expressions real scripts print (an MLP with cross_entropy, matmuls of vectors,
binary_cross_entropy_with_logits, a custom autograd.Function), and the reprs of the nodes.

torch's grad_fn has an edge only for the arguments derivatives.yaml gives a formula: no edge for an index, a mask,
a class target or a loss's weight (and an error when such an argument requires grad)."""
import re

import numpy as np
import pytest
import torch

import minitorch2

X = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
W = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)


def _walk(node, depth=0):
    if node is None:
        return ["  " * depth + "None"]
    lines = ["  " * depth + f"{type(node).__name__} {node.name()}"]
    for next_node, _ in node.next_functions:
        lines += _walk(next_node, depth + 1)
    return lines


def _custom_function(lib):
    class Triple(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * 3

        @staticmethod
        def backward(ctx, grad):
            return grad * 3, None

    return Triple


def _mlp_loss(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 3))
    return lib.nn.functional.cross_entropy(model(lib.tensor(X)), lib.tensor([0, 2]))


EXPRESSIONS = {
    "mlp and cross_entropy": _mlp_loss,
    "cross_entropy with weights": lambda lib: lib.nn.functional.cross_entropy(
        lib.tensor(X, requires_grad=True), lib.tensor([0, 2]), weight=lib.ones(3)),
    "matmul matrix vector": lambda lib: lib.matmul(lib.tensor(W.T, requires_grad=True), lib.ones(3)),
    "matmul vector vector": lambda lib: lib.matmul(lib.ones(3, requires_grad=True), lib.ones(3)),
    "bce with logits": lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.tensor(W[0], requires_grad=True), lib.full((4,), 0.25)),
    "bce with logits, weights": lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.tensor(W[0], requires_grad=True), lib.full((4,), 0.25), weight=lib.ones(4), pos_weight=lib.ones(4) * 2),
    "bce": lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.sigmoid(lib.tensor(W[0], requires_grad=True)), lib.full((4,), 0.25), weight=lib.ones(4)),
    "custom Function": lambda lib: _custom_function(lib).apply(lib.tensor(W, requires_grad=True), 3.0).sum(),
    "gather": lambda lib: lib.gather(lib.tensor(W, requires_grad=True), 0, lib.tensor([[0, 1, 2, 0]])),
    "indexing": lambda lib: lib.tensor(W, requires_grad=True)[lib.tensor([0, 2])],
    "index_put": lambda lib: lib.tensor(W, requires_grad=True).index_put(
        (lib.tensor([0]),), lib.ones(4, requires_grad=True)),
    "masked_fill": lambda lib: lib.tensor(W, requires_grad=True).masked_fill(lib.tensor(W) > 0, 1.0),
    "where": lambda lib: lib.where(lib.tensor(W) > 0, lib.tensor(W, requires_grad=True), lib.zeros(4)),
    "embedding": lambda lib: lib.nn.functional.embedding(lib.tensor([0, 1]), lib.tensor(W, requires_grad=True)),
    "batch_norm": lambda lib: lib.nn.functional.batch_norm(
        lib.tensor(X), lib.zeros(3), lib.ones(3), lib.ones(3, requires_grad=True), lib.zeros(3, requires_grad=True),
        training=True),
    "add of an integer tensor": lambda lib: lib.tensor(W, requires_grad=True) + lib.arange(4),
    "multilabel_soft_margin_loss": lambda lib: lib.nn.functional.multilabel_soft_margin_loss(
        lib.tensor(X, requires_grad=True), lib.ones(2, 3)),
    "gaussian_nll_loss": lambda lib: lib.nn.functional.gaussian_nll_loss(
        lib.tensor(W[0], requires_grad=True), lib.zeros(4), lib.ones(4), full=True),
}


@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_backward_graph_names_match_torch(name):
    assert _walk(EXPRESSIONS[name](minitorch2).grad_fn) == _walk(EXPRESSIONS[name](torch).grad_fn)


def test_gradients_still_flow_past_the_arguments_without_edges():
    grads = []
    for lib in (torch, minitorch2):
        weight = lib.tensor(W, requires_grad=True)
        values = lib.ones(4, requires_grad=True)
        out = weight.index_put((lib.tensor([0, 2]),), values).masked_fill(lib.tensor(W) > 1, 0.0)
        (out * lib.arange(12.).reshape(3, 4)).sum().backward()
        grads.append((weight.grad.numpy(), values.grad.numpy()))
    for ours, theirs in zip(grads[1], grads[0]):
        np.testing.assert_allclose(ours, theirs)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.zeros(4, requires_grad=True), lib.ones(4), weight=lib.ones(4, requires_grad=True)),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(2, 3, requires_grad=True), lib.tensor([0, 2]),
                                                weight=lib.ones(3, requires_grad=True)),
], ids=["bce_with_logits weight", "nll_loss weight"])
def test_an_argument_without_a_formula_that_requires_grad_is_refused_as_torch(call):
    with pytest.raises(RuntimeError) as theirs:
        call(torch)
    with pytest.raises(RuntimeError) as ours:
        call(minitorch2)
    assert str(ours.value) == str(theirs.value)


def test_node_reprs_match_torch():
    def reprs(lib):
        x = lib.ones(3, requires_grad=True)
        custom = _custom_function(lib).apply(x, 3.0)
        texts = (repr(custom.grad_fn), repr(x.sum().grad_fn), repr(x.sum().grad_fn.next_functions[0][0]))
        return [re.sub(r" at 0x[0-9a-f]+>$", " at 0x...>", text) for text in texts]

    assert reprs(minitorch2) == reprs(torch)
    assert reprs(minitorch2)[0] == "<torch.autograd.function.TripleBackward object at 0x...>"


def test_matmul_vector_matrix_names_match_torch():  # eager matmul squeezes the mm in place (SqueezeBackward4)
    def names(lib):
        return _walk(lib.matmul(lib.ones(3, requires_grad=True), lib.tensor(W, requires_grad=True)).grad_fn)

    assert names(minitorch2) == names(torch)


def test_ctc_loss_has_an_edge_for_the_log_probabilities_only_as_torch():
    def names(lib):
        log_probs = lib.tensor(np.random.default_rng(2).standard_normal((5, 2, 4)).astype(np.float32))
        log_probs = log_probs.log_softmax(2).requires_grad_()
        targets = lib.tensor([[1, 2], [1, 1]])
        return [_walk(lib.nn.functional.ctc_loss(log_probs, targets, lengths, target_lengths).grad_fn)
                for lengths, target_lengths in (([5, 5], [2, 2]), (lib.tensor([5, 5]), lib.tensor([2, 2])))]

    assert names(minitorch2) == names(torch)
