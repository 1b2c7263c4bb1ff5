"""torch.linalg's LU family, triangular and Cholesky solves, eig, Householder products and the matrix exponential:
kernels, meta functions, derivative formulas and table rows of linalg_lu_factor_ex, linalg_lu, lu_unpack,
linalg_lu_solve, linalg_solve_triangular, triangular_solve, cholesky_solve, cholesky_inverse, linalg_eig,
linalg_householder_product, linalg_matrix_exp and _linalg_check_errors.

Runtime layer, coverage surface: table_extra.py appends ROWS; minitorch2/linalg.py (and _functions_extra.py, for the
torch-level names) composes torch's functions from them as torch's do (lu_factor is linalg_lu_factor_ex then
_linalg_check_errors). The kernels are numpy only:
LU is getrf's algorithm (partial pivoting on the first largest |a| of each column, info = the first zero pivot), a
triangular solve is substitution row by row, eig is numpy's (LAPACK's geev, as torch's); results are laid out
column-major as LAPACK leaves them in torch. The derivatives are torch's formulas (linalg_lu_backward for square, wide
and tall matrices, the solves' and cholesky_inverse's); eig and householder_product have none here yet.
"""
import math

import numpy as np

from .. import _dtype
from .._ops import ops
from .derivatives_util import sum_to
from .extra_formulas import _matmul
from .extra_ops import _check_errors, _check_linalg, _check_matrix, _each, _op
from .memory import _dtype_title
from .meta_util import broadcast_shapes
from .table_row import op

aten = ops.aten


# ---------------------------------------------------------------- numpy kernels
def _lu(a):
    """(B, m, n) -> LU packed, 1-based int32 pivots (B, min(m, n)), int32 info (B,)."""
    a = np.array(a, dtype=a.dtype)
    batch, m, n = a.shape
    pivots, info, rows = np.zeros((batch, min(m, n)), np.int32), np.zeros(batch, np.int32), np.arange(batch)
    for j in range(min(m, n)):
        p = j + np.argmax(np.abs(a[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        a[rows, j], a[rows, p] = a[rows, p], a[rows, j].copy()
        pivot = a[:, j, j]
        info = np.where((info == 0) & (pivot == 0), j + 1, info)
        with np.errstate(all="ignore"):
            a[:, j + 1:, j] = np.where((pivot == 0)[:, None], a[:, j + 1:, j], a[:, j + 1:, j] / pivot[:, None])
        a[:, j + 1:, j + 1:] -= a[:, j + 1:, j:j + 1] * a[:, j:j + 1, j + 1:]
    return a, pivots, info


def _permutation(pivots, m, dtype):
    """P (B, m, m) with A = P L U, from LAPACK's sequence of row swaps."""
    perm = np.broadcast_to(np.arange(m), pivots.shape[:-1] + (m,)).copy()
    flat, swaps = perm.reshape(-1, m), pivots.reshape(-1, pivots.shape[-1]) - 1
    rows = np.arange(len(flat))
    for j in range(swaps.shape[-1]):
        flat[rows, j], flat[rows, swaps[:, j]] = flat[rows, swaps[:, j]], flat[rows, j].copy()
    P = np.zeros(perm.shape + (m,), dtype)
    np.put_along_axis(P, perm[..., None, :], 1, axis=-2)
    return P


def _unpack(lu, pivots):
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    return _permutation(pivots, m, lu.dtype), L, np.triu(lu[..., :k, :])


def _substitute(a, b, upper, unit):
    """Solve a x = b for triangular a (..., n, n), b (..., n, k), row by row."""
    x = np.array(np.broadcast_to(b, np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]),
                 dtype=np.result_type(a, b))
    n = a.shape[-1]
    with np.errstate(all="ignore"):
        for i in (reversed(range(n)) if upper else range(n)):
            done = slice(i + 1, n) if upper else slice(0, i)
            row = x[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, done], x[..., done, :])
            x[..., i, :] = row if unit else row / a[..., i, i, None]
    return x


def _solve_triangular_np(a, b, upper, left, unit):
    if left:
        return _substitute(a, b, upper, unit)
    return np.swapaxes(_substitute(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper, unit), -1, -2)


# ---------------------------------------------------------------- _linalg_check_errors
_WORDS = {
    "inv": "The diagonal element {} is zero, the inversion could not be completed because the input matrix is "
           "singular.",
    "solve": "The solver failed because the input matrix is singular.",
    "cholesky": "The factorization could not be completed because the input is not positive-definite (the leading "
                "minor of order {} is not positive-definite).",
    "lu_factor": "U[{0},{0}] is zero and using it on lu_solve would result in a division by zero. If you still want "
                 "to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
}


def _linalg_check_errors(info, api_name, *, is_matrix):
    """ATen's: a LinAlgError naming the first failed matrix; lu_factor's is a plain RuntimeError, as torch's."""
    words = next((w for key, w in _WORDS.items() if key in api_name), "failed with error code {}.")
    try:
        _check_errors(info._np, api_name, is_matrix, words)
    except RuntimeError as error:
        if "lu_factor" in api_name:
            raise RuntimeError(str(error)) from None
        raise


# ---------------------------------------------------------------- LU
def _lu_factor_geometry(A, *, pivot=True, check_errors=False):
    _check_linalg(A, "torch.linalg.lu_factor_ex", square=False)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    k = min(A.shape[-2:])
    return [(A.shape, A.dtype, "F"), (tuple(A.shape[:-2]) + (k,), _dtype.int32, None),
            (tuple(A.shape[:-2]), _dtype.int32, None)]


def _lu_factor(A, *, pivot=True, check_errors=False):
    lu, pivots, info = _lu(_each(A._np))
    if check_errors:
        _check_errors(info, "torch.linalg.lu_factor_ex", A.dim() == 2, "U[{0},{0}] is zero and using it on lu_solve "
                      "would result in a division by zero.")
    batch = tuple(A.shape[:-2])
    return lu, pivots.reshape(batch + pivots.shape[-1:]), info.reshape(batch)


def _lu_geometry(A, *, pivot=True):
    _check_linalg(A, "linalg.lu", square=False)
    m, n = A.shape[-2:]
    k, batch = min(m, n), tuple(A.shape[:-2])
    return [(batch + (m, m), A.dtype, None), (batch + (m, k), A.dtype, None), (batch + (k, n), A.dtype, None)]


def _linalg_lu(A, *, pivot=True):
    lu, pivots, _ = _lu(_each(A._np))
    P, L, U = _unpack(lu, pivots)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    return P, L, U


def _unpack_geometry(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    m, n = LU_data.shape[-2:]
    k, batch = min(m, n), tuple(LU_data.shape[:-2])
    return [(batch + (m, m) if unpack_pivots else (0,), LU_data.dtype, None),
            (batch + (m, k) if unpack_data else (0,), LU_data.dtype, None),
            (batch + (k, n) if unpack_data else (0,), LU_data.dtype, None)]


def _lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    P, L, U = _unpack(LU_data._np, LU_pivots._np)
    empty = np.zeros(0, LU_data._np.dtype)
    return P if unpack_pivots else empty, L if unpack_data else empty, U if unpack_data else empty


def _lu_solve_geometry(LU, pivots, B, *, left=True, adjoint=False):
    _check_linalg(LU, "linalg.lu_solve")
    if B.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({LU.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    batch = broadcast_shapes(tuple(LU.shape[:-2]), tuple(B.shape[:-2]))
    return [(tuple(batch) + tuple(B.shape[-2:]), B.dtype, "F")]


def _lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    P, L, U = _unpack(LU._np, pivots._np)
    b = B._np if left else np.swapaxes(B._np, -1, -2)
    adjoint = adjoint != (not left)  # X A = B is Aᵀ Xᵀ = Bᵀ
    if adjoint:  # Uᵀ Lᵀ Pᵀ X = B
        y = _substitute(np.swapaxes(U, -1, -2), b, False, False)
        x = P @ _substitute(np.swapaxes(L, -1, -2), y, True, True)
    else:
        x = _substitute(U, _substitute(L, np.swapaxes(P, -1, -2) @ b, False, True), True, False)
    return x if left else np.swapaxes(x, -1, -2)


def _solve_triangular_geometry(self, B, *, upper, left=True, unitriangular=False):
    _check_linalg(self, "linalg.solve_triangular")
    if B.dim() < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    n = self.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({self.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    batch = broadcast_shapes(tuple(self.shape[:-2]), tuple(B.shape[:-2]))
    return [(tuple(batch) + tuple(B.shape[-2:]), self.dtype, "F")]  # B is read in A's dtype, as ATen's kernel does


def _solve_triangular(self, B, *, upper, left=True, unitriangular=False):
    batch = broadcast_shapes(tuple(self.shape[:-2]), tuple(B.shape[:-2]))
    a = np.broadcast_to(self._np, tuple(batch) + tuple(self.shape[-2:]))
    return _solve_triangular_np(a, B._np.astype(a.dtype, copy=False), upper, left, unitriangular)


def _batched(*tensors):
    """The arrays broadcast over their batch dims (the last two dims kept)."""
    batch = broadcast_shapes(*(tuple(t.shape[:-2]) for t in tensors))
    return [np.broadcast_to(t._np, tuple(batch) + tuple(t.shape[-2:])) for t in tensors]


def _rhs_geometry(api, b, A):
    if b.dim() < 2 or A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor {'B' if b.dim() < 2 else 'A'} must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"{api}: Incompatible shapes of A and B for the equation AX = B ({A.shape[-2]}x"
                           f"{A.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})")
    batch = tuple(broadcast_shapes(tuple(b.shape[:-2]), tuple(A.shape[:-2])))
    return batch + tuple(b.shape[-2:]), batch + tuple(A.shape[-2:])


def _cholesky_solve(self, input2, upper=False):
    """(L Lᴴ)⁻¹ B (Uᴴ U with upper): two triangular solves."""
    b, factor = _batched(self, input2)
    lower = np.swapaxes(factor, -1, -2) if upper else factor
    return _substitute(np.swapaxes(lower, -1, -2), _substitute(lower, b, False, False), True, False)


def _cholesky_inverse(self, upper=False):
    eye = np.broadcast_to(np.eye(self.shape[-1], dtype=self._np.dtype), self._np.shape)
    lower = np.swapaxes(self._np, -1, -2) if upper else self._np
    return _substitute(np.swapaxes(lower, -1, -2), _substitute(lower, eye, False, False), True, False)


def _triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    b, a = _batched(self, A)
    if transpose:
        a, upper = np.swapaxes(a, -1, -2), not upper
    return _substitute(a, b, upper, unitriangular), np.array(A._np)


def _eig_geometry(self):
    _check_linalg(self, "linalg.eig")
    complex_dtype = _dtype.COMPLEX_OF[self.dtype]
    return [(tuple(self.shape[:-1]), complex_dtype, None), (tuple(self.shape), complex_dtype, "F")]


def _eig(self):
    if not np.isfinite(self._np).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    complex_dtype = _dtype.COMPLEX_OF[self.dtype].np
    values, vectors = np.linalg.eig(self._np)
    return values.astype(complex_dtype), vectors.astype(complex_dtype)


def _householder_geometry(input, tau):
    if input.dim() < 2:
        raise RuntimeError("torch.linalg.householder_product: input must have at least 2 dimensions.")
    m, n = input.shape[-2:]
    if m < n:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if tau.shape[-1] > n:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    return [(tuple(input.shape), input.dtype, "F")]


def _householder_product(input, tau):
    """The first n columns of H₁ H₂ ... H_k, H_i = I - τ_i v_i v_iᴴ, v_i = (0, ..., 1, input[i+1:, i])."""
    a, t = _each(input._np), tau._np.reshape(-1, tau.shape[-1])
    m, n = a.shape[-2:]
    q = np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape).copy()
    for i in reversed(range(t.shape[-1])):
        v = np.concatenate([np.zeros((len(a), i), a.dtype), np.ones((len(a), 1), a.dtype), a[:, i + 1:, i]], -1)
        q -= t[:, i, None, None] * v[:, :, None] * (v[:, None, :] @ q)
    return q


# ---------------------------------------------------------------- derivative formulas (square matrices)
def _mH(t):
    return aten.transpose.int(t, -2, -1)


def _columns(t, start, end):
    return aten.slice.Tensor(t, -1, start, end)


def _rows(t, start, end):
    return aten.slice.Tensor(t, -2, start, end)


def _zeros_or(grad, like):
    return aten.zeros_like.default(like) if grad is None else grad


def _lu_backward(gL, gU, P, L, U):
    """torch's linalg_lu_backward. With A = P L U, k = min(m, n), L₁ and U₁ the k x k blocks, L₂ (U₂) the rest:
    Φ = tril₋₁(L₁ᴴ gL₁ - gU₂ U₂ᴴ) + triu(gU₁ U₁ᴴ - L₂ᴴ gL₂) (the terms of the blocks that exist), then
    gA = P [L₁⁻ᴴ Φ U₁⁻ᴴ, L₁⁻ᴴ gU₂] for a wide A, P [L₁⁻ᴴ Φ U₁⁻ᴴ; gL₂ U₁⁻ᴴ] for a tall one."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    gL, gU = _zeros_or(gL, L), _zeros_or(gU, U)
    L1, U1, gL1, gU1 = _rows(L, 0, k), _columns(U, 0, k), _rows(gL, 0, k), _columns(gU, 0, k)
    lower, upper = _matmul(_mH(L1), gL1), _matmul(gU1, _mH(U1))
    if n > k:
        lower = aten.sub.Tensor(lower, _matmul(_columns(gU, k, n), _mH(_columns(U, k, n))))
    if m > k:
        upper = aten.sub.Tensor(upper, _matmul(_mH(_rows(L, k, m)), _rows(gL, k, m)))
    phi = aten.add.Tensor(aten.tril.default(lower, -1), aten.triu.default(upper))
    grad = aten.linalg_solve_triangular.default(_mH(U1), phi, upper=False, left=False)
    grad = aten.linalg_solve_triangular.default(_mH(L1), grad, upper=True, unitriangular=True)
    if n > k:
        rest = aten.linalg_solve_triangular.default(_mH(L1), _columns(gU, k, n), upper=True, unitriangular=True)
        grad = aten.cat.default([grad, rest], -1)
    if m > k:
        rest = aten.linalg_solve_triangular.default(_mH(U1), _rows(gL, k, m), upper=False, left=False)
        grad = aten.cat.default([grad, rest], -2)
    return _matmul(P, grad)


def _d_linalg_lu(grads, result0, result1, result2):
    grads = tuple(grads) + (None,) * (3 - len(grads))
    return _lu_backward(grads[1], grads[2], result0, result1, result2)


def _d_lu_factor_ex(grads, result0, result1):
    P, L, U = aten.lu_unpack.default(result0, result1)
    k = min(result0.shape[-2:])
    return _lu_backward(_columns(aten.tril.default(grads[0], -1), 0, k), _rows(aten.triu.default(grads[0]), 0, k), P,
                        L, U)


def _d_solve_triangular(grad, self, B, result, needs_grad, upper, left=True, unitriangular=False):
    gB = aten.linalg_solve_triangular.default(_mH(self), grad, upper=not upper, left=left,
                                              unitriangular=unitriangular)
    gA = None
    if needs_grad[0]:
        gA = aten.neg.default(_matmul(gB, _mH(result)) if left else
                              _matmul(_mH(result), gB))
        gA = aten.triu.default(gA, int(unitriangular)) if upper else aten.tril.default(gA, -int(unitriangular))
        gA = _sum_to(gA, self.shape)
    return gA, _sum_to(gB, B.shape) if needs_grad[1] else None


def _d_lu_solve(grad, LU, pivots, B, result, needs_grad, left=True, adjoint=False):
    gB = aten.linalg_lu_solve.default(LU, pivots, grad, left=left, adjoint=not adjoint)
    gLU = None
    if needs_grad[0]:
        X = result
        gA = _matmul(gB, _mH(X)) if left and not adjoint else \
            _matmul(X, _mH(gB)) if left else \
            _matmul(_mH(X), gB) if not adjoint else _matmul(_mH(gB), X)
        gA = aten.neg.default(gA)
        P, L, U = aten.lu_unpack.default(LU, pivots)
        gA = _matmul(_mH(P), gA)  # dA = P (dL U + L dU)
        gL = aten.tril.default(_matmul(gA, _mH(U)), -1)
        gLU = _sum_to(aten.add.Tensor(gL, aten.triu.default(_matmul(_mH(L), gA))), LU.shape)
    return gLU, None, _sum_to(gB, B.shape) if needs_grad[2] else None


def _d_lu_unpack(grads, LU_data):
    """L's strict lower part and U's upper part, back in LU's (m, n) place (padded where m ≠ n)."""
    grads = tuple(grads) + (None,) * (3 - len(grads))
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    grad = aten.zeros_like.default(LU_data)
    if grads[1] is not None:
        grad = aten.add.Tensor(grad, aten.constant_pad_nd.default(aten.tril.default(grads[1], -1), [0, n - k]))
    if grads[2] is not None:
        grad = aten.add.Tensor(grad, aten.constant_pad_nd.default(aten.triu.default(grads[2]), [0, 0, 0, m - k]))
    return grad, None


def _d_cholesky_solve(grad, self, input2, result, needs_grad, upper=False):
    """torch's cholesky_solve_backward: gB = cholesky_solve(gX); gL = -(C + Cᴴ) L (L (C + Cᴴ) with upper),
    C = gB Xᴴ."""
    gB = aten.cholesky_solve.default(grad, input2, upper)
    gL = None
    if needs_grad[1]:
        common = _matmul(gB, _mH(result))
        common = aten.add.Tensor(common, _mH(common))
        gL = _sum_to(aten.neg.default(_matmul(input2, common) if upper else _matmul(common, input2)), input2.shape)
    return _sum_to(gB, self.shape) if needs_grad[0] else None, gL


def _d_cholesky_inverse(grad, self, result, upper=False):
    common = _matmul(result, _matmul(aten.add.Tensor(grad, _mH(grad)), result))
    return aten.neg.default(_matmul(self, common) if upper else _matmul(common, self))


def _d_triangular_solve(grads, self, A, result0, needs_grad, upper=True, transpose=False, unitriangular=False):
    grads = tuple(grads) + (None,) * (2 - len(grads))
    gX, gM = grads
    gB = gA = None
    if gX is not None:
        gB = aten.triangular_solve.default(gX, A, upper, not transpose, unitriangular)[0]
        if needs_grad[1]:
            gA = aten.neg.default(_matmul(result0, _mH(gB)) if transpose else _matmul(gB, _mH(result0)))
            gA = aten.triu.default(gA, int(unitriangular)) if upper else aten.tril.default(gA, -int(unitriangular))
    if gM is not None and needs_grad[1]:
        gA = gM if gA is None else aten.add.Tensor(gA, gM)
    return (_sum_to(gB, self.shape) if gB is not None and needs_grad[0] else None,
            _sum_to(gA, A.shape) if gA is not None else None)


def _sum_to(grad, shape):
    return sum_to(grad, tuple(shape))


# ---------------------------------------------------------------- the matrix exponential
def _matrix_exp_geometry(A):
    _check_matrix_exp(A)
    return [(tuple(A.shape), A.dtype, None)]


def _check_matrix_exp(A):
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError("linalg.matrix_exp: Expected a floating point or complex tensor as input. Got "
                           f"{_dtype_title(A.dtype)}")
    _check_matrix(A, "linalg.matrix_exp")


def _matrix_exp(A):
    """Each matrix's exponential: the degree-18 Taylor polynomial (Horner's rule) of the matrix scaled by 2^-s until
    its 1-norm is at most 1/2, then squared s times, in double and rounded once. (ATen picks a degree by the norm and
    evaluates it in fewer products; the values agree to rounding.)"""
    wide = np.complex128 if A.dtype.is_complex else np.float64
    out = []
    for a in _each(A._np.astype(wide)):
        norm = np.abs(a).sum(0).max(initial=0.0)
        squarings = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
        scaled, eye = a / 2.0 ** squarings, np.eye(a.shape[-1], dtype=wide)
        result = eye
        for k in range(18, 0, -1):
            result = eye + scaled @ result / k
        for _ in range(squarings):
            result = result @ result
        out.append(result)
    return np.asarray(out, dtype=wide).reshape(A.shape)


def _d_matrix_exp(grad, self, result):
    """As ATen's differential of an analytic function: exp of the block matrix [[Aᴴ, G], [0, Aᴴ]], its upper right
    block."""
    n = self.shape[-1]
    adjoint = aten.transpose.int(self, -2, -1)
    if self.dtype.is_complex:
        adjoint = aten.conj_physical.default(adjoint)
    top = aten.cat.default([adjoint, grad], -1)
    bottom = aten.cat.default([aten.zeros_like.default(grad), adjoint], -1)
    block = aten.linalg_matrix_exp.default(aten.cat.default([top, bottom], -2))
    return aten.slice.Tensor(aten.slice.Tensor(block, -2, 0, n), -1, n, 2 * n)


ROWS = [
    op("_linalg_check_errors(Tensor info, str api_name, *, bool is_matrix) -> ()", (),
       (_linalg_check_errors, lambda info, api_name, *, is_matrix: None), differentiable=False),
    op("linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, "
       "Tensor info)", (), _op(_lu_factor_geometry, _lu_factor), _d_lu_factor_ex,
       output_differentiability=(True, False, False)),
    op("linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", (), _op(_lu_geometry, _linalg_lu),
       _d_linalg_lu, output_differentiability=(False, True, True)),
    op("lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (Tensor P, "
       "Tensor L, Tensor U)", (), _op(_unpack_geometry, _lu_unpack), _d_lu_unpack,
       output_differentiability=(False, True, True)),
    op("linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor", (),
       _op(_lu_solve_geometry, _lu_solve), _d_lu_solve),
    op("linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) "
       "-> Tensor", (), _op(_solve_triangular_geometry, _solve_triangular), _d_solve_triangular),
    op("cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", (),
       _op(lambda self, input2, upper=False: [(_rhs_geometry("linalg.cholesky_solve", self, input2)[0], self.dtype,
                                               "F")], _cholesky_solve), _d_cholesky_solve),
    op("cholesky_inverse(Tensor self, bool upper=False) -> Tensor", (),
       _op(lambda self, upper=False: [(tuple(self.shape), self.dtype, "F")], _cholesky_inverse), _d_cholesky_inverse),
    op("triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> "
       "(Tensor solution, Tensor cloned_coefficient)", (),
       _op(lambda self, A, *flags: [(shape, self.dtype, "F") for shape in _rhs_geometry("triangular_solve", self, A)],
           _triangular_solve), _d_triangular_solve),
    op("linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)", (), _op(_eig_geometry, _eig),
       differentiable=False),
    op("linalg_householder_product(Tensor input, Tensor tau) -> Tensor", (),
       _op(_householder_geometry, _householder_product), differentiable=False),
    op("linalg_matrix_exp(Tensor self) -> Tensor", (), _op(_matrix_exp_geometry, _matrix_exp), _d_matrix_exp),
]
