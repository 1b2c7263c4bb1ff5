"""prims.fma(a, b, c) = a * b + c against torch's (torch._inductor.inductor_prims): b a tensor or a Python number
(Dynamo's rewrite of addcmul_(value=) passes the number), its result dtype and its gradients."""
import numpy as np
import pytest
import torch
import torch._inductor.inductor_prims  # noqa: F401  (registers torch.ops.prims.fma)

import minitorch2

A = np.arange(6.0, dtype="float32").reshape(2, 3) - 2
B = np.array([1.0, -2.0, 3.0], dtype="float32")
C = np.array([[0.5], [2.0]], dtype="float32")


@pytest.mark.parametrize("b", ["tensor", 0.3, 2])
def test_fma_values_and_gradients_match_torch(b):
    results = []
    for lib in (torch, minitorch2):
        a, c, tb = (lib.tensor(x, requires_grad=True) for x in (A, C, B))
        out = lib.ops.prims.fma.default(a, tb if b == "tensor" else b, c)
        (out * out).sum().backward()
        results.append([out.detach().numpy(), a.grad.numpy(), c.grad.numpy(), tb.grad is None])
    for ours, theirs in zip(results[1], results[0]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("a_dtype, b, c_dtype", [("int64", 0.5, "int64"), ("int64", 2, "int32"),
                                                 ("float16", 2.5, "float32"), ("float32", 3, "float64")])
def test_fma_promotes_a_number_as_torch(a_dtype, b, c_dtype):
    results = []
    for lib in (torch, minitorch2):
        out = lib.ops.prims.fma.default(lib.ones(3, dtype=getattr(lib, a_dtype)), b,
                                        lib.full((2, 1), 3, dtype=getattr(lib, c_dtype)))
        results.append((str(out.dtype), out.shape, out.numpy()))
    assert results[1][:2] == results[0][:2]
    np.testing.assert_array_equal(results[1][2], results[0][2])
