"""scatter, scatter_, scatter_add, scatter_reduce, gather, index_put, take and index_reduce over every pairing of
operand forms users write, against torch: 0-d, 1-d and 2-d self; 0-d, 1-d, 2-d and empty indices; a src of each of
those ranks or a Python number; reduce= given or not (torch's deprecated form); values and errors' first lines compared.

Found (session 36): SILENT: `x.scatter(0, torch.tensor(1), src)` over a 1-d x wrote every element (a 0-d index was
read as an index of nothing, so the write took the whole array), where torch writes the one element; `x.scatter(dim,
index, value, reduce='add')` ignored reduce and overwrote where torch adds; scatter's check of src's number of dims
was missing, so a 0-d src met the size check (or an IndexError) first; index_put took values with extra leading
1s (torch's x[i] = v drops them, index_put does not), and with a 0-d index wrote two rows (numpy's reading of a 0-d
index array); take of a 0-d index gave a 1-d result; gather of a 0-d or empty index raised; index_reduce ran none of
ATen's checks (a source of the wrong size computed).
"""
import itertools
import warnings

import pytest
import torch

import minitorch2

SELVES = ["L.ones(3)", "L.ones(3, 2)", "L.tensor(1.)"]
INDICES = ["L.tensor(1)", "L.tensor([1])", "L.tensor([[1, 0]])", "L.tensor([[2], [0]])", "L.tensor([], dtype=L.long)",
           "L.tensor([0, 2])"]
SOURCES = ["L.tensor(4.)", "L.tensor([4., 5.])", "L.tensor([[4., 5.], [6., 7.]])", "2.5"]
CALLS = ["x.scatter(0, i, s)", "L.scatter(x, -1, i, s)", "x.clone().scatter_(0, i, s)",
         "x.scatter(0, i, s, reduce='add')", "x.clone().scatter_(-1, i, s, reduce='multiply')", "L.scatter_add(x, 0, i, s)",
         "L.scatter_reduce(x, 0, i, s, 'amax')",
         "L.scatter_reduce(x, 0, i, s, 'sum', include_self=False)", "x.gather(0, i)", "L.scatter(x, 0, i, value=s)",
         "L.gather(x, -1, i)"]
# (errors compared by class only: a method's argument positions and a 0-d self's words differ)
CALLS_BY_ERROR_CLASS = ["x.index_put((i,), s)", "x.index_put((i,), s, accumulate=True)", "x.take(i)"]
SOURCES_OF_DIMS = [source for source in SOURCES if source.startswith("L.tensor([")]  # (index_reduce: see below)


def outcome(L, call, self_text, index_text, source_text):
    env = {"L": L}
    x, i, s = (eval(text, env) for text in (self_text, index_text, source_text))
    with warnings.catch_warnings():  # (torch warns once a process about reduce= with a Tensor src: not compared)
        warnings.simplefilter("ignore")
        try:
            result = eval(call, {"L": L, "x": x, "i": i, "s": s})
        except Exception as error:
            return type(error).__name__, str(error).split("\n")[0]
    return result.shape, result.tolist()


@pytest.mark.parametrize("call", CALLS + CALLS_BY_ERROR_CLASS)
def test_scatter_forms_match_torch(call):
    mismatches = []
    for self_text, index_text, source_text in itertools.product(SELVES, INDICES, SOURCES):
        expected = outcome(torch, call, self_text, index_text, source_text)
        got = outcome(minitorch2, call, self_text, index_text, source_text)
        if got != expected and not (call in CALLS_BY_ERROR_CLASS and isinstance(got[0], str) and got[0] == expected[0]):
            mismatches.append(f"{self_text}, {index_text}, {source_text}: torch {expected} | ours {got}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("call", ["L.index_reduce(x, 0, i, s, 'prod')",
                                  "x.index_reduce(-1, i, s, 'amax', include_self=False)"])
def test_index_reduce_checks_as_torch(call):
    """(Sources of one or more dims: over a 0-d source torch's message for a wrong number of indices raises its own
    IndexError, which is not copied.)"""
    mismatches = []
    for self_text, index_text, source_text in itertools.product(SELVES, INDICES, SOURCES_OF_DIMS):
        expected = outcome(torch, call, self_text, index_text, source_text)
        got = outcome(minitorch2, call, self_text, index_text, source_text)
        if got != expected:
            mismatches.append(f"{self_text}, {index_text}, {source_text}: torch {expected} | ours {got}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("call", ["L.ones(1, 3).masked_fill(L.tensor([[True, False, True], [False, False, True]]), 0.)",
                                  "L.ones(3).masked_fill(L.ones(2, 3).bool(), L.tensor(2.))",
                                  "L.tensor(1.).masked_fill(L.tensor([True, False]), 5.)",
                                  "L.ones(2, 1).masked_fill(L.tensor([True, False, True]), -1.)",
                                  "L.ones(1, 3).masked_fill_(L.ones(2, 3).bool(), 0.)"])
def test_masked_fill_broadcasts_self_with_the_mask(call):
    """Out of place, self and mask broadcast together (ATen's expand_outplace); in place, self's shape must hold the
    result. Found (session 36): a mask larger than self was refused."""
    results = []
    for L in (torch, minitorch2):
        try:
            result = eval(call, {"L": L})
            results.append((tuple(result.shape), result.tolist()))
        except RuntimeError as error:
            results.append(str(error).split("\n")[0])
    assert results[0] == results[1]


def test_masked_fill_with_a_larger_mask_differentiates_as_torchs():
    grads = []
    for L in (torch, minitorch2):
        x, value = L.ones(1, 3, requires_grad=True), L.tensor(2.0, requires_grad=True)
        mask = L.tensor([[True, False, True], [False, False, True]])
        (x.masked_fill(mask, value) * L.arange(6.0).view(2, 3)).sum().backward()
        grads.append((x.grad.tolist(), value.grad.item()))
    assert grads[0] == grads[1]
