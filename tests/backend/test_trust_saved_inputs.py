"""An input the compiled forward returns (most often saved for the backward) is the caller's tensor, or
shares its version counter: a later in-place change of it is then refused by the backward, as torch's.

Found by the frontend's aliasing fuzzer (seed 24): `x[:].add_(x.tanh())` on a view of a non-leaf, compiled
with inductor. The min-cut saves x to recompute tanh in the backward; the mutated input's new value is
copied into x after the forward; the wrapper had returned x as a new tensor with a fresh version counter,
so the backward recomputed tanh of the new value and gave a wrong gradient without a word. torch.compile
raises autograd's version-counter error there, and so do we now."""
import numpy as np
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2 as mt

pytestmark = pytest.mark.backend


def f(x, y):
    x[:].add_(x.tanh())
    return (x,)


def run(lib, fn):
    leaf = lib.tensor(np.array([[0.3, -1.2], [0.7, 2.0]], dtype=np.float32), requires_grad=True)
    base = leaf * 1
    out = fn(base[:-1, :-1], base[1:, 1:])
    (out[0].sum() * 3 + base.sum()).backward()
    return leaf.grad.numpy()


def test_a_saved_input_changed_in_place_fails_the_backward_as_torch_compile():
    torch._dynamo.reset()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        run(torch, torch.compile(f))
    frontend.reset()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        run(mt, mt.compile(f, backend="inductor"))

