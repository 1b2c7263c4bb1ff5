"""Derivative formulas of the matrix products: mm, addmm, bmm, dot, mv.

Runtime layer, read by the autograd layer through the op table (via derivatives.py, whose docstring gives the rules
for the order of the op calls inside a formula). Each input's gradient is a product of the output gradient with the
other input transposed; for mm, ATen picks the operand order that keeps a column-major input's gradient
column-major, and so do we.
"""
from .._ops import ops
from .derivatives_util import _reshape, _scale, conj_of, sum_to

aten = ops.aten


# ---------------------------------------------------------------- matrix products
def mm(grad, self, mat2, needs_grad):
    mat2_grad = _mm_mat2_backward(grad, self, mat2.shape, mat2.stride()) if needs_grad[1] else None
    self_grad = _mm_mat1_backward(grad, mat2, self.shape, self.stride()) if needs_grad[0] else None
    return self_grad, mat2_grad


def _is_column_major(shape, stride):
    # ATen's test, size-1 dims included: a (1, 1) matrix with strides (1, 1) counts as column-major
    return stride[0] == 1 and stride[1] == shape[0]


def _mm_mat1_backward(grad, mat2, mat1_shape, mat1_stride):
    if _is_column_major(mat1_shape, mat1_stride):
        return aten.t.default(aten.mm.default(conj_of(mat2), aten.t.default(grad)))
    return aten.mm.default(grad, conj_of(aten.t.default(mat2)))


def _mm_mat2_backward(grad, mat1, mat2_shape, mat2_stride):
    if _is_column_major(mat2_shape, mat2_stride):
        return aten.t.default(aten.mm.default(aten.t.default(grad), conj_of(mat1)))
    return aten.mm.default(conj_of(aten.t.default(mat1)), grad)


def addmm(grad, self_shape, mat1, mat2, needs_grad, beta=1, alpha=1):
    mat1_grad = _scale(_mm_mat1_backward(grad, mat2, mat1.shape, mat1.stride()), alpha) if needs_grad[1] else None
    mat2_grad = _scale(_mm_mat2_backward(grad, mat1, mat2.shape, mat2.stride()), alpha) if needs_grad[2] else None
    self_grad = _scale(grad, beta) if needs_grad[0] else None
    return sum_to(self_grad, self_shape), mat1_grad, mat2_grad


def bmm(grad, self, mat2, needs_grad):
    mat2_grad = aten.bmm.default(conj_of(aten.transpose.int(self, 1, 2)), grad) if needs_grad[1] else None
    self_grad = aten.bmm.default(grad, conj_of(aten.transpose.int(mat2, 1, 2))) if needs_grad[0] else None
    return self_grad, mat2_grad


def dot(grad, self, tensor, needs_grad):
    self_grad = aten.mul.Tensor(grad, conj_of(tensor)) if needs_grad[0] else None
    tensor_grad = aten.mul.Tensor(grad, conj_of(self)) if needs_grad[1] else None
    return self_grad, tensor_grad


def mv(grad, self, vec, needs_grad):
    # self: grad.ger(vec), where ger/outer is grad.reshape({n, 1}) * vec
    self_grad = aten.mul.Tensor(_reshape(grad, [grad.shape[0], 1]), conj_of(vec)) if needs_grad[0] else None
    vec_grad = aten.mv.default(conj_of(aten.t.default(self)), grad) if needs_grad[1] else None
    return self_grad, vec_grad
