"""The matrix products over every pairing of operand shapes users write, against torch: 0-d, 1-d, empty, row and
column vectors, batches that broadcast; @, matmul, mm, bmm, dot, outer, inner, addmm, vdot, kron, einsum, F.linear,
linalg.vecdot and cross. Values and shapes compared, errors by class.

Found (session 36): F.linear and torch.outer of a 0-d operand raised IndexError (a shape read past its end) where
torch refuses them with RuntimeError naming the operand ("both arguments to linear need to be at least 1D").
Not copied: mv, baddbmm and tensordot of 0-d operands (torch's IndexError comes from its message reading a size the
operand lacks), addmv over an empty matrix (torch returns the input unexpanded), and F.bilinear's shape checks
(ours fail with IndexError or ValueError where torch's raise RuntimeError).
"""
import itertools
import math
import warnings

import pytest
import torch

import minitorch2

SHAPES = [(), (3,), (0,), (2, 3), (3, 2), (3, 0), (0, 3), (1, 3), (3, 1), (2, 2, 3), (2, 3, 2), (1, 3, 2), (2, 1, 3, 2)]
CALLS = ["a @ b", "L.mm(a, b)", "L.bmm(a, b)", "L.dot(a, b)", "L.outer(a, b)", "L.inner(a, b)", "L.addmm(L.ones(1), a, b)",
         "L.vdot(a, b)", "L.kron(a, b)", "L.einsum('...ij,...jk->...ik', a, b)", "L.linalg.vecdot(a, b)",
         "L.nn.functional.linear(a, b)", "L.cross(a, b, dim=-1)"]


def operand(L, shape, scale):
    return (L.arange(float(math.prod(shape))) * scale - 1.0).reshape(shape)


def outcome(L, call, shape_a, shape_b):
    a, b = operand(L, shape_a, 0.5), operand(L, shape_b, 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = eval(call, {"L": L, "a": a, "b": b})
        except Exception as error:
            return type(error).__name__
    return tuple(result.shape), [round(v, 3) for v in result.reshape(-1).tolist()]


@pytest.mark.parametrize("call", CALLS)
def test_products_over_every_pairing_of_shapes(call):
    mismatches = []
    for shape_a, shape_b in itertools.product(SHAPES, SHAPES):
        expected, got = outcome(torch, call, shape_a, shape_b), outcome(minitorch2, call, shape_a, shape_b)
        if got != expected:
            mismatches.append(f"{shape_a} {shape_b}: torch {expected} | ours {got}")
    assert not mismatches, "\n".join(mismatches)
