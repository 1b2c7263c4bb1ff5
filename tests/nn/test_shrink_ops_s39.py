"""F.softshrink and F.hardshrink in eager against torch: ATen's ops with their own backward ops.

They were composites of where(): the grad_fn was WhereBackward0 (torch's SoftshrinkBackward0), a double backward
raised "element 0 of tensors does not require grad" where torch's backward op is itself differentiable (zero in
the input), and float16/bfloat16 softshrink rounded its threshold to the input's dtype where ATen's kernel computes
in float (softshrink(0.30005, 0.3) is 4.88e-05 in torch, 0 in ours). The small tensors here stay on ATen's scalar
loop; its vectorised loop treats nan and -0. differently (not modelled)."""
import numpy as np
import pytest
import torch

import minitorch2

DTYPES = ["float16", "bfloat16", "float32", "float64"]
LAMBDAS = [0.3, 0.1, 1 / 3, 0.5, 0.0, 2.0]


def _run(T, name, dtype_name, lambd, values):
    x = T.tensor(values, dtype=getattr(T, dtype_name), requires_grad=True)
    y = getattr(T.nn.functional, name)(x, lambd)
    (g,) = T.autograd.grad(y, x, T.linspace(-1, 1, len(values), dtype=x.dtype), create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return (type(y.grad_fn).__name__, type(g.grad_fn).__name__,
            *(t.detach().double().numpy() for t in (y, g, gg)))


@pytest.mark.parametrize("dtype_name", DTYPES)
@pytest.mark.parametrize("name", ["softshrink", "hardshrink"])
def test_values_gradients_and_double_backward_are_torchs(name, dtype_name):
    for lambd in LAMBDAS:
        for start in range(0, 4 * len(LAMBDAS), 7):
            values = [v for lam in LAMBDAS for v in (lam, -lam, float(np.float16(lam)), 0.7)][start:start + 7]
            ours, theirs = (_run(T, name, dtype_name, lambd, values) for T in (minitorch2, torch))
            assert ours[:2] == theirs[:2]
            for a, b, what in zip(ours[2:], theirs[2:], ("value", "gradient", "double backward")):
                np.testing.assert_array_equal(a, b, err_msg=f"{what} of {name}({values}, {lambd})")
                assert (np.signbit(a) == np.signbit(b)).all(), f"signs of the {what}"


@pytest.mark.parametrize("name", ["softshrink", "hardshrink"])
def test_integer_inputs_are_refused_as_torch(name):
    messages = []
    for T in (minitorch2, torch):
        with pytest.raises(NotImplementedError) as caught:
            getattr(T.nn.functional, name)(T.ones(3, dtype=T.int32))
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
