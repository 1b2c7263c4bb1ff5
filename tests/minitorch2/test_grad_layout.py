"""Where a leaf's .grad lives: ATen's gradient layout contract (a dense leaf's gradient has its
strides, any other leaf's is contiguous) and no aliasing of a gradient the caller passed to
backward, against torch. The rules are in minitorch2/autograd/graph.py (AccumulateGrad) and
minitorch2/autograd/engine.py.
"""
import numpy as np
import pytest
import torch

import minitorch2 as mt

pytestmark = pytest.mark.runtime


LAYOUT_CASES = [  # (leaf from an array, loss): .grad follows ATen's gradient layout contract
    (lambda lib, a: lib.tensor(a), lambda x: x.sum()),  # the gradient is an expanded scalar: copied out
    (lambda lib, a: lib.tensor(a).t(), lambda x: (x * 2).sum()),  # a transposed leaf: a transposed .grad
    (lambda lib, a: lib.tensor(a).expand(2, 2, 3), lambda x: (x * 2).sum()),  # overlapping: contiguous .grad
    (lambda lib, a: lib.tensor(a)[:, ::2], lambda x: (x * x).sum()),  # not dense: contiguous .grad
]


@pytest.mark.parametrize("case", range(len(LAYOUT_CASES)))
def test_leaf_gradients_follow_the_layout_contract(case):
    make, loss = LAYOUT_CASES[case]
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    ours, theirs = make(mt, a).requires_grad_(), make(torch, a).requires_grad_()
    loss(ours).backward()
    loss(theirs).backward()
    assert ours.grad.stride() == theirs.grad.stride()
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


def test_a_leaf_grad_never_aliases_the_gradient_passed_to_backward():
    for lib in (mt, torch):
        x, g = lib.ones(2, 3).requires_grad_(), lib.full((2, 3), 2.0)
        x.backward(g)
        assert x.grad.data_ptr() != g.data_ptr()
        x.grad.zero_()
        assert g.tolist() == [[2.0] * 3] * 2
        (captured,) = lib.autograd.grad(x, x, g)  # autograd.grad hands the tensor back as it is
        assert captured.data_ptr() == g.data_ptr()
