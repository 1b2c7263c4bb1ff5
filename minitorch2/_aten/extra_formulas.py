"""Derivative formulas of the ops in table_extra.py: torch.linalg's factorizations, torch.special's extras and the rest.

Runtime layer, coverage surface, read by the autograd layer through the op table as the formulas of derivatives*.py
are (parameter names say what the forward keeps; see derivatives.py). Each is the gradient torch's derivatives.yaml
and FunctionsManual give, written with registered ops: inverse, determinants, solve, Cholesky, QR, SVD, eigh and pinv
by their standard matrix-calculus formulas, lstsq through pinv (and its residuals). Their backward graphs record the
ops written here, not torch's internal ones (torch solves triangular systems where these multiply by an inverse):
values agree, traced graphs do not.
"""
import math

import numpy as np

from .._ops import ops
from .._tensor import contiguous_format
from .derivatives_reductions import amax as _amax_amin_backward
from .derivatives_util import _pad, _reshape, sum_to
from .extra_ops import is_vector_rhs
from .meta_util import broadcast_shapes

aten = ops.aten


# ---------------------------------------------------------------- matrix helpers
def _mT(x):  # noqa: N802
    return aten.transpose.int(x, -2, -1)


def _matmul(a, b):
    """a @ b over broadcast batches, as at::matmul computes the products these formulas make."""
    if a.dim() == 2 and b.dim() == 2:
        return aten.mm.default(a, b)
    batch = list(broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2])))
    flat = math.prod(batch)
    a3 = _reshape(aten.expand.default(a, batch + list(a.shape[-2:])), [flat] + list(a.shape[-2:]))
    b3 = _reshape(aten.expand.default(b, batch + list(b.shape[-2:])), [flat] + list(b.shape[-2:]))
    return aten._unsafe_view.default(aten.bmm.default(a3, b3), batch + [a.shape[-2], b.shape[-1]])  # (as at::matmul)


def euclidean_dist(grad, x1, x2, result, needs_grad):
    """ATen's _euclidean_dist_backward: grad / result (0 where the distance is 0) weighs each pair."""
    ratio = aten.masked_fill_.Scalar(aten.div.Tensor(grad, result), aten.eq.Scalar(result, 0), 0)
    x1_grad = x2_grad = None
    if needs_grad[0]:
        pulled = _matmul(ratio, x2)
        x1_grad = aten.sub.Tensor(aten.mul.Tensor(x1, aten.sum.dim_IntList(ratio, [-1], True)), pulled)
    if needs_grad[1]:
        pulled = _matmul(_mT(ratio), x1)
        x2_grad = aten.sub.Tensor(aten.mul.Tensor(x2, aten.unsqueeze.default(
            aten.sum.dim_IntList(ratio, [-2], False), -1)), pulled)
    return x1_grad, x2_grad


def euclidean_dist_decomposition(x1, x2):
    """torch._decomp's _euclidean_dist: squared distances as one product, [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T."""
    x1_norm = aten.sum.dim_IntList(aten.pow.Tensor_Scalar(x1, 2), [-1], True)
    x1_pad = aten.ones_like.default(x1_norm, memory_format=contiguous_format)
    x2_norm = aten.sum.dim_IntList(aten.pow.Tensor_Scalar(x2, 2), [-1], True)
    x2_pad = aten.ones_like.default(x2_norm, memory_format=contiguous_format)
    left = aten.cat.default([aten.mul.Tensor(x1, -2), x1_norm, x1_pad], -1)
    right = aten.cat.default([x2, x2_pad, x2_norm], -1)
    return aten.sqrt.default(aten.clamp_min.default(_matmul(left, _mT(right)), 0))


def _chain(*matrices):
    result = matrices[0]
    for m in matrices[1:]:
        result = _matmul(result, m)
    return result


def _narrow(x, dim, start, length):
    return aten.slice.Tensor(x, dim, start, start + length)


def _inverse(a):
    return aten.linalg_inv_ex.default(a)[0]


def _eye_like(a, n):
    return aten.eye.default(n, dtype=a.dtype, layout="torch.strided", device=a.device)


def _diag_embed(v):
    return aten.diag_embed.default(v, 0, -2, -1)


def _diagonal(m):
    return aten.diagonal.default(m, 0, -2, -1)


def _unsqueeze_last2(v):
    return aten.unsqueeze.default(aten.unsqueeze.default(v, -1), -1)


def _zeros_or(grad, like):
    return grad if grad is not None else aten.zeros_like.default(like)


# ---------------------------------------------------------------- inverse, determinants, solve
def linalg_inv_ex(grads, result0):
    """-A⁻ᵀ grad A⁻ᵀ."""
    inverse_t = _mT(result0)
    return aten.neg.default(_matmul(inverse_t, _matmul(grads[0], inverse_t)))


def linalg_det(grads, A, result0):
    """grad·det·A⁻ᵀ. A singular A (a zero pivot: det exactly 0) gets zeros, as torch's formula, which solves with
    the zero pivots nudged to eps, gives them (the cofactors would be the true gradient there)."""
    scale = _unsqueeze_last2(aten.mul.Tensor(grads[0], result0))
    grad = aten.mul.Tensor(_mT(_inverse(A)), scale)
    return aten.where.self(_unsqueeze_last2(aten.eq.Scalar(result0, 0)), aten.zeros_like.default(grad), grad)


def linalg_slogdet(grads, A):
    """log|det A|'s gradient is A⁻ᵀ (the sign has none)."""
    grad = _pad(grads, 2)[1]
    return None if grad is None else aten.mul.Tensor(_mT(_inverse(A)), _unsqueeze_last2(grad))


def linalg_solve_ex(grads, A, B, result0, needs_grad, left=True):
    """AX = B: gB = A⁻ᵀ gX (a solve with Aᵀ), gA = -gB Xᵀ; XA = B: gB = gX A⁻ᵀ, gA = -Xᵀ gB."""
    grad, x = grads[0], result0
    vector = is_vector_rhs(A, B)
    grad_b = aten._linalg_solve_ex.default(_mT(A), grad, left=left)[0]
    if vector:
        grad_b_m, x_m = aten.unsqueeze.default(grad_b, -1), aten.unsqueeze.default(x, -1)
    else:
        grad_b_m, x_m = grad_b, x
    grad_a = None
    if needs_grad[0]:
        grad_a = aten.neg.default(_matmul(grad_b_m, _mT(x_m)) if left else _matmul(_mT(x_m), grad_b_m))
    return sum_to(grad_a, A.shape), sum_to(grad_b, B.shape) if needs_grad[1] else None


# ---------------------------------------------------------------- factorizations
def linalg_cholesky_ex(grads, result0, upper=False):
    """A = LLᵀ: Φ = tril(LᵀgL) with its diagonal halved, gA = L⁻ᵀΦL⁻¹, symmetrized."""
    L, grad = (_mT(result0), _mT(grads[0])) if upper else (result0, grads[0])
    phi = aten.tril.default(_matmul(_mT(L), grad))
    phi = aten.sub.Tensor(phi, aten.mul.Scalar(_diag_embed(_diagonal(phi)), 0.5))
    L_inverse = _inverse(L)
    grad_a = _chain(_mT(L_inverse), phi, L_inverse)
    return aten.mul.Scalar(aten.add.Tensor(grad_a, _mT(grad_a)), 0.5)


def _qr_tall(grad_q, grad_r, Q, R):
    """A = QR with R square: M = R gRᵀ - gQᵀQ, gA = (gQ + Q·copyltu(M))·R⁻ᵀ, copyltu(M) the symmetric matrix
    with M's lower triangle."""
    M = aten.sub.Tensor(_matmul(R, _mT(grad_r)), _matmul(_mT(grad_q), Q))
    lower = aten.tril.default(M)
    symmetric = aten.add.Tensor(lower, _mT(aten.tril.default(M, -1)))
    return _matmul(aten.add.Tensor(grad_q, _matmul(Q, symmetric)), _mT(_inverse(R)))


def linalg_qr(grads, A, result0, result1, mode="reduced"):
    """Tall or square A: _qr_tall. Wide A = [X | Y], R = [U | V]: X = QU, Y = QV, so gY = Q gV and X takes
    _qr_tall's gradient with gQ + Y gVᵀ."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                           "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    m, n = A.shape[-2:]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    Q, R = result0, result1
    grad_q, grad_r = (_zeros_or(g, like) for g, like in zip(_pad(grads, 2), (Q, R)))
    if m >= n:
        return _qr_tall(grad_q, grad_r, Q, R)
    Y = _narrow(A, -1, m, n - m)
    U, grad_u = _narrow(R, -1, 0, m), _narrow(grad_r, -1, 0, m)
    grad_v = _narrow(grad_r, -1, m, n - m)
    grad_x = _qr_tall(aten.add.Tensor(grad_q, _matmul(Y, _mT(grad_v))), grad_u, Q, U)
    return aten.cat.default([grad_x, _matmul(Q, grad_v)], -1)


def linalg_svd(grads, A, result0, result1, result2, full_matrices=False):
    """A = U diag(S) Vᴴ (k = min(m, n) columns of U and rows of Vᴴ; a full factorization's extra vectors get no
    gradient): with E_ij = s_j² - s_i² (1 on the diagonal) and skew(X) = X - Xᵀ, the core
    (skew(UᵀgU)·S_j + S_i·skew(VᵀgV)) / E + diag(gS), mapped back by U and Vᴴ, plus the parts of gU (gV) outside U's
    (V's) span when A is tall (wide)."""
    grad_u, grad_s, grad_vh = _pad(grads, 3)
    U, S, Vh = result0, result1, result2
    m, n, k = A.shape[-2], A.shape[-1], S.shape[-1]
    if full_matrices:
        U, Vh = _narrow(U, -1, 0, k), _narrow(Vh, -2, 0, k)
        grad_u = None if grad_u is None else _narrow(grad_u, -1, 0, k)
        grad_vh = None if grad_vh is None else _narrow(grad_vh, -2, 0, k)
    if grad_u is None and grad_vh is None:
        return _matmul(aten.mul.Tensor(U, aten.unsqueeze.default(_zeros_or(grad_s, S), -2)), Vh)
    s_row, s_col = aten.unsqueeze.default(S, -2), aten.unsqueeze.default(S, -1)
    squares = aten.mul.Tensor(S, S)
    E = aten.sub.Tensor(aten.unsqueeze.default(squares, -2), aten.unsqueeze.default(squares, -1))
    E = aten.add.Tensor(E, _eye_like(S, k))
    core = None
    if grad_u is not None:
        UtgU = _matmul(_mT(U), grad_u)
        core = aten.mul.Tensor(aten.sub.Tensor(UtgU, _mT(UtgU)), s_row)
    if grad_vh is not None:
        VtgV = _matmul(Vh, _mT(grad_vh))
        term = aten.mul.Tensor(s_col, aten.sub.Tensor(VtgV, _mT(VtgV)))
        core = term if core is None else aten.add.Tensor(core, term)
    core = aten.div.Tensor(core, E)
    if grad_s is not None:
        core = aten.add.Tensor(core, _diag_embed(grad_s))
    if m > k and grad_u is not None:  # gA = [U·core + (I - UUᵀ) gU S⁻¹] Vᴴ
        scaled = aten.div.Tensor(grad_u, s_row)
        outside = aten.sub.Tensor(scaled, _matmul(U, _matmul(_mT(U), scaled)))
        return _matmul(aten.add.Tensor(_matmul(U, core), outside), Vh)
    if n > k and grad_vh is not None:  # gA = U [core·Vᴴ + S⁻¹ gVᴴ (I - VVᴴ)]
        scaled = aten.div.Tensor(grad_vh, s_col)
        outside = aten.sub.Tensor(scaled, _matmul(_matmul(scaled, _mT(Vh)), Vh))
        return _matmul(U, aten.add.Tensor(_matmul(core, Vh), outside))
    return _chain(U, core, Vh)


def linalg_eigh(grads, result0, result1):
    """A = V diag(L) Vᵀ: gA = V (skew(VᵀgV)/2 / E + diag(gL)) Vᵀ, E_ij = L_j - L_i (1 on the diagonal)."""
    grad_l, grad_v = _pad(grads, 2)
    L, V = result0, result1
    if grad_v is None:
        return _matmul(aten.mul.Tensor(V, aten.unsqueeze.default(grad_l, -2)), _mT(V))
    VtgV = _matmul(_mT(V), grad_v)
    skew = aten.mul.Scalar(aten.sub.Tensor(VtgV, _mT(VtgV)), 0.5)
    E = aten.sub.Tensor(aten.unsqueeze.default(L, -2), aten.unsqueeze.default(L, -1))
    core = aten.div.Tensor(skew, aten.add.Tensor(E, _eye_like(L, L.shape[-1])))
    if grad_l is not None:
        core = aten.add.Tensor(core, _diag_embed(grad_l))
    return _chain(V, core, _mT(V))


def pinv_backward(grad, pinv, A):
    """P = A⁺, G its gradient: gA = -PᵀGPᵀ + (I - AP)GᵀPPᵀ + PᵀPGᵀ(I - PA)."""
    P, Pt, Gt = pinv, _mT(pinv), _mT(grad)
    m, n = A.shape[-2], A.shape[-1]
    first = aten.neg.default(_chain(Pt, grad, Pt))
    left_of_a = aten.sub.Tensor(_eye_like(A, m), _matmul(A, P))
    right_of_a = aten.sub.Tensor(_eye_like(A, n), _matmul(P, A))
    second = _chain(left_of_a, Gt, P, Pt)
    third = _chain(Pt, P, Gt, right_of_a)
    return aten.add.Tensor(aten.add.Tensor(first, second), third)


def linalg_pinv(grad, self, result):
    return pinv_backward(grad, result, self), None, None


def linalg_lstsq(grads, self, b, result0, needs_grad):
    """X = A⁺B: A's gradient is pinv's with G = gX Bᵀ, B's is A⁺ᵀ gX (columns for a vector b). The residuals
    |AX - B|² at their minimum move with A and B only through AX - B =: R: gA += 2 R diag(g) Xᵀ, gB -= 2 R diag(g)."""
    grad, grad_residuals = _pad(grads, 2)
    vector = self.dim() == b.dim() + 1
    column = (lambda t: aten.unsqueeze.default(t, -1)) if vector else (lambda t: t)
    grad_a = grad_b = None
    if grad is not None:
        pinv = aten.linalg_pinv.atol_rtol_tensor(self)
        grad_a = pinv_backward(_matmul(column(grad), _mT(column(b))), pinv, self) if needs_grad[0] else None
        grad_b = _matmul(_mT(pinv), column(grad)) if needs_grad[1] else None
    if grad_residuals is not None and grad_residuals.numel():
        x = column(result0)
        residual = aten.sub.Tensor(_matmul(self, x), column(b))
        scaled = aten.mul.Tensor(residual, aten.unsqueeze.default(grad_residuals, -2))
        from_a, from_b = aten.mul.Scalar(_matmul(scaled, _mT(x)), 2), aten.mul.Scalar(scaled, -2)
        grad_a = from_a if grad_a is None else aten.add.Tensor(grad_a, from_a)
        grad_b = from_b if grad_b is None else aten.add.Tensor(grad_b, from_b)
    if vector and grad_b is not None:
        grad_b = aten.squeeze.dim(grad_b, -1)
    return sum_to(grad_a, self.shape) if needs_grad[0] else None, sum_to(grad_b, b.shape) if needs_grad[1] else None


def linalg_cross(grad, self, other, needs_grad, dim=-1):
    grad_other = aten.linalg_cross.default(grad, self, dim=dim) if needs_grad[1] else None
    grad_self = aten.linalg_cross.default(other, grad, dim=dim) if needs_grad[0] else None
    return sum_to(grad_self, self.shape), sum_to(grad_other, other.shape)


# ---------------------------------------------------------------- pointwise special functions
def erfc(grad, self):
    """-2/√π e^(-x²)."""
    gaussian = aten.exp.default(aten.neg.default(aten.pow.Tensor_Scalar(self, 2)))
    slope = aten.mul.Scalar(gaussian, -2 / math.sqrt(math.pi))
    return aten.mul.Tensor(slope, grad)


def i0(grad, self):
    return aten.mul.Tensor(grad, aten.special_i1.default(self))


def special_i1(grad, self, result):
    """I₀(x) - I₁(x)/x; ½ (its limit at 0) wherever |x| is not above eps, NaN included, as torch's formula."""
    slope = aten.sub.Tensor(aten.i0.default(self), aten.div.Tensor(result, self))
    tiny = aten.logical_not.default(aten.gt.Scalar(aten.abs.default(self), float(np.finfo(self.dtype.np).eps)))
    return aten.mul.Tensor(aten.masked_fill.Scalar(slope, tiny, 0.5), grad)


def sinc(grad, self):
    """(πx cos πx - sin πx) / (πx²), 0 at x = 0."""
    pi_x = aten.mul.Scalar(self, math.pi)
    numerator = aten.sub.Tensor(aten.mul.Tensor(pi_x, aten.cos.default(pi_x)), aten.sin.default(pi_x))
    slope = aten.div.Tensor(numerator, aten.mul.Tensor(pi_x, self))
    return aten.mul.Tensor(aten.masked_fill.Scalar(slope, aten.eq.Scalar(self, 0), 0), grad)


def special_entr(grad, self):
    return aten.mul.Tensor(grad, aten.neg.default(aten.add.Scalar(aten.log.default(self), 1)))


def special_ndtri(grad, result):
    """√(2π) e^(y²/2)."""
    slope = aten.exp.default(aten.div.Scalar(aten.pow.Tensor_Scalar(result, 2), 2))
    return aten.mul.Tensor(aten.mul.Scalar(grad, math.sqrt(2 * math.pi)), slope)


def _copysign_self(grad, self, result):
    ratio = aten.masked_fill.Scalar(aten.div.Tensor(result, self), aten.eq.Scalar(self, 0), 0)
    return sum_to(aten.mul.Tensor(grad, ratio), self.shape)


def copysign_tensor(grad, self, other, result):
    return _copysign_self(grad, self, result), aten.zeros_like.default(other)


def copysign_scalar(grad, self, result):
    return _copysign_self(grad, self, result)


# ---------------------------------------------------------------- selections, cumulative, scatters
def aminmax(grads, self, result0, result1, dim=None, keepdim=False):
    """Each output's gradient shared among the elements equal to it, as amin's and amax's."""
    total = None
    for grad, result in zip(_pad(grads, 2), (result0, result1)):
        if grad is not None:
            part = _amax_amin_backward(grad, self, result, [] if dim is None else [dim], keepdim)
            total = part if total is None else aten.add.Tensor(total, part)
    return total


def logcumsumexp(grad, self, result, dim):
    """Σ_{j≥i} g_j e^(x_i - out_j), split by the sign of g so each part is a reversed logcumsumexp of
    log|g| - out."""
    if self.numel() == 0 or self.dim() == 0:
        return grad
    lowest = aten.scalar_tensor.default(-math.inf if grad.dtype.itemsize > 2 else -65504.0, dtype=grad.dtype)
    log_abs = aten.log.default(aten.abs.default(grad))

    def part(select):
        logs = aten.sub.Tensor(aten.where.self(select, log_abs, lowest), result)
        reversed_sum = aten.flip.default(aten.logcumsumexp.default(aten.flip.default(logs, [dim]), dim), [dim])
        return aten.exp.default(aten.add.Tensor(reversed_sum, self))

    return aten.sub.Tensor(part(aten.gt.Scalar(grad, 0)), part(aten.lt.Scalar(grad, 0)))


def masked_scatter(grad, self_shape, mask, source_shape, needs_grad):
    """self: grad where mask is off; source: the masked gradient in order, zero-padded to source's size."""
    grad_self = sum_to(aten.masked_fill.Scalar(grad, mask, 0), self_shape) if needs_grad[0] else None
    grad_source = None
    if needs_grad[2]:
        chosen = aten.masked_select.default(grad, mask)
        padded = aten.constant_pad_nd.default(chosen, [0, math.prod(source_shape) - chosen.numel()])
        grad_source = aten.view.default(padded, list(source_shape))
    return grad_self, None, grad_source


def block_diag(grad, tensors_shapes):
    """Each block's rows and columns of grad, in that block's shape."""
    grads, row, col = [], 0, 0
    for shape in tensors_shapes:
        rows, cols = (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else shape
        block = _narrow(_narrow(grad, 0, row, rows), 1, col, cols)
        grads.append(block if len(shape) == 2 else _reshape(block, list(shape)))
        row, col = row + rows, col + cols
    return grads


def zeros(grad):
    return aten.zeros_like.default(grad)


def unsafe_index(grad, self, indices):
    """_unsafe_index's derivative as ATen's: the gradient put back, accumulated, into zeros of self's size."""
    zeros = aten.new_zeros.default(grad, list(self.shape))
    return aten._unsafe_index_put.default(zeros, indices, grad, True), None
