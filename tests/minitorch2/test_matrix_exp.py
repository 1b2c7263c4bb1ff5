"""torch.matrix_exp / torch.linalg.matrix_exp (minitorch2/_functions_common.py) against torch: values and gradients
for small and large norms (no squaring, several squarings), batches, float64, the zero and empty matrices, and the
error for a non-square input."""
import numpy as np
import pytest
import torch

import minitorch2


@pytest.mark.parametrize("shape,scale,dtype", [((3, 3), 0.1, "float32"), ((4, 4), 3.0, "float32"),
                                               ((2, 3, 3), 1.0, "float64"), ((5, 5), 10.0, "float64"),
                                               ((1, 1), 2.0, "float32")])
def test_values_and_gradients_match_torch(shape, scale, dtype):
    a = (np.random.default_rng(0).standard_normal(shape) * scale).astype(dtype)
    g = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    results = []
    for lib, fn in ((torch, torch.linalg.matrix_exp), (minitorch2, minitorch2.matrix_exp)):
        x = lib.tensor(a, requires_grad=True)
        out = fn(x)
        out.backward(lib.tensor(g))
        results.append((out.detach().numpy(), x.grad.numpy()))
    tolerance = 1e-5 if dtype == "float32" else 1e-10
    for ours, theirs in zip(results[1], results[0]):
        np.testing.assert_allclose(ours, theirs, rtol=tolerance * 10, atol=tolerance * np.abs(theirs).max())


def test_zero_empty_and_non_square():
    assert minitorch2.equal(minitorch2.linalg.matrix_exp(minitorch2.zeros(2, 2)), minitorch2.eye(2))
    assert minitorch2.matrix_exp(minitorch2.zeros(0, 3, 3)).shape == (0, 3, 3)
    messages = []
    for lib in (torch, minitorch2):
        with pytest.raises(RuntimeError) as caught:
            lib.matrix_exp(lib.zeros(2, 3))
        messages.append(str(caught.value))
    assert messages[1] == messages[0]
