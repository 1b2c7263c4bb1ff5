"""torch.einsum (minitorch2/_functions_einsum.py) against torch: values and gradients for the equation forms
tutorials use (matrix and batched products, traces, diagonals, outer products, ellipses, implicit outputs,
broadcast size-1 dims, three operands, the sublist form, integer operands), the ops its traced forward and backward
record (torch's permutes, diagonals, sums, views and bmms, in torch's order), and its errors."""
import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import make_fx

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 3, 5), (2, 5, 4)]), ("ii", [(4, 4)]),
    ("ii->i", [(3, 3)]), ("i,j->ij", [(3,), (2,)]), ("...ij->...ji", [(2, 3, 5)]), ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]), ("bn,anm,bm->ba", [(2, 5), (3, 5, 4), (2, 4)]), ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]), ("ba,ab", [(2, 3), (3, 2)]), ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("i,i", [(3,), (3,)]), ("ij,kj->ik", [(1, 3), (4, 3)]), ("...i,...i->...", [(2, 1, 3), (4, 3)]),
    ("iij->j", [(2, 2, 3)]), ("ab,cd->", [(2, 3), (4, 5)]), ("Ab,bC->AC", [(2, 3), (3, 2)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 1)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
]


def _inputs(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


@pytest.mark.parametrize("equation,shapes", CASES, ids=[c[0] for c in CASES])
def test_values_and_gradients_match_torch(equation, shapes):
    arrays = _inputs(shapes)
    results = []
    for lib in (torch, minitorch2):
        operands = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = lib.einsum(equation, *operands)
        (out * out).sum().backward()
        results.append((out.detach().numpy(), [o.grad.numpy() for o in operands], tuple(out.shape)))
    (theirs, their_grads, their_shape), (ours, our_grads, our_shape) = results
    assert our_shape == their_shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)
    for g_ours, g_theirs in zip(our_grads, their_grads):
        np.testing.assert_allclose(g_ours, g_theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("equation,shapes", CASES, ids=[c[0] for c in CASES])
def test_traced_forward_and_backward_record_torchs_ops(equation, shapes):
    def f(lib):
        def fn(*operands):
            out = lib.einsum(equation, *operands)
            return out, lib.autograd.grad(out.sum(), operands)
        return fn

    arrays = _inputs(shapes)
    theirs = torch_make_fx(f(torch))(*(torch.tensor(a, requires_grad=True) for a in arrays))
    ours = make_fx(f(minitorch2))(*(minitorch2.tensor(a, requires_grad=True) for a in arrays))
    assert ours.code == theirs.code


def test_the_sublist_form_a_list_of_operands_and_integer_operands():
    a, b = _inputs([(2, 3), (3, 4)])
    for lib in (torch, minitorch2):
        x, y = lib.tensor(a), lib.tensor(b)
        assert np.allclose(lib.einsum(x, [0, 1], y, [1, 2], [0, 2]).numpy(), a @ b, atol=1e-5)
        assert np.allclose(lib.einsum("ij,jk", [x, y]).numpy(), a @ b, atol=1e-5)
    assert minitorch2.einsum("i,i", minitorch2.tensor([1, 2, 3]), minitorch2.tensor([4, 5, 6])).item() == 32
    assert minitorch2.einsum("i,i", minitorch2.tensor([1, 2, 3]), minitorch2.tensor([4, 5, 6])).dtype == \
        minitorch2.int64


@pytest.mark.parametrize("equation,shapes", [("ij,jk->ik", [(2, 3), (3, 4), (1,)]), ("ij,jk,k->i", [(2, 3), (3, 4)]),
                                             ("ij->ij", [(2, 3, 4)]), ("ij->ix", [(2, 3)]), ("ij->ii", [(2, 3)]),
                                             ("i1->i", [(2, 3)]), ("ij,jk->ik", [(2, 3), (4, 4)]),
                                             ("iij->j", [(2, 3, 3)]), ("...i,...i", [(2, 3), (4, 3)])])
def test_errors_match_torchs(equation, shapes):
    arrays = _inputs(shapes)
    messages = []
    for lib in (torch, minitorch2):
        with pytest.raises(RuntimeError) as caught:
            lib.einsum(equation, *(lib.tensor(a) for a in arrays))
        messages.append(str(caught.value).split("\n")[0])
    assert messages[1] == messages[0]


def test_compiled_einsum_matches_eager():
    c, d = (minitorch2.tensor(a) for a in _inputs([(2, 3, 5), (2, 5, 4)]))
    f = minitorch2.compile(lambda p, q: minitorch2.einsum("bij,bjk->bik", p, q).relu().sum(-1))
    assert minitorch2.allclose(f(c, d), minitorch2.einsum("bij,bjk->bik", c, d).relu().sum(-1), atol=1e-6)
