"""torch.linalg: norms, inverse, determinants, solves, factorizations, pseudo-inverse, rank, cross, lstsq, multi_dot.

Runtime layer, coverage surface (`import torch.linalg` gives this module under `python -m minitorch2 run`).
The factorizations call the aten ops torch's functions call (linalg_inv_ex, _linalg_det, _linalg_svd,
_linalg_eigh, ... in table_extra.py, with LAPACK kernels and their derivative formulas) and wrap the results in
torch's named tuples; the LU family, triangular solves, eig and Householder products are _aten/linalg_more.py's
rows; the rest are composites of those, as torch composes them (cond, vander, tensorinv, tensorsolve below):
vector_norm is linalg_vector_norm, matrix_norm a sum, max or min of |A| or of the singular values, norm picks one
of the two, svdvals and eigvalsh ask for vectors only when a gradient may need them, matrix_rank counts singular
values over the tolerance, multi_dot multiplies in the cheapest order.
"""
import math
import warnings

import numpy as np

from . import _dtype, return_types
from ._aten.extra_ops import LinAlgError
from ._aten.memory import _dtype_title
from ._aten.meta_util import wrap_dim
from ._functions_common import matrix_exp, matrix_power  # noqa: F401  (torch.linalg's are torch's own)
from ._functions_linalg import matmul  # noqa: F401  (torch.linalg.matmul is torch.matmul)
from ._ops import ops
from ._sym import SymInt
from ._out import _CPP_TYPE, EXACT, out_variant
from ._tensor import Tensor
from .autograd.grad_mode import is_grad_enabled

aten = ops.aten

__all__ = ["norm", "vector_norm", "matrix_norm", "inv", "inv_ex", "det", "slogdet", "solve", "cholesky", "cholesky_ex",
           "qr", "svd", "svdvals", "eigh", "eigvalsh", "pinv", "matrix_rank", "cross", "lstsq", "multi_dot",
           "LinAlgError", "matrix_exp", "matmul", "matrix_power", "diagonal", "vecdot", "lu_factor", "lu_factor_ex",
           "lu", "lu_solve", "solve_ex", "solve_triangular", "eig", "eigvals", "householder_product", "cond", "vander",
           "tensorinv", "tensorsolve"]


def _may_need_grad(A):
    return A.requires_grad and is_grad_enabled()


# ---------------------------------------------------------------- norms
@out_variant(EXACT, name="linalg_vector_norm")
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    dims = [dim] if isinstance(dim, (int, SymInt)) else (None if dim is None else list(dim))
    return aten.linalg_vector_norm.default(x, ord, dims, keepdim, dtype=dtype)


_MATRIX_ORDERS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """'fro': the 2-norm of the entries; 'nuc', ±2: the sum, largest or smallest singular value; ±1 (±inf): the
    largest or smallest column (row) sum of |A|."""
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if not A.dtype.is_inexact:
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_dtype_title(A.dtype)}")
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    dims = [wrap_dim(d, A.dim()) for d in dim]
    if dims[0] == dims[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, {dims[1]})")
    if ord not in _MATRIX_ORDERS:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if dtype is not None:
        A = A.to(dtype)
    if ord == "fro":
        return aten.linalg_vector_norm.default(A, 2, dims, keepdim)
    if ord in ("nuc", 2, -2):  # over the singular values of A with the two dims moved last
        order = [d for d in range(A.dim()) if d not in dims] + dims
        singular = svdvals(aten.permute.default(A, order))
        result = aten.sum.dim_IntList(singular, [-1]) if ord == "nuc" or not singular.shape[-1] else \
            (aten.amax if ord == 2 else aten.amin).default(singular, [-1])
        if keepdim:
            result = aten.unsqueeze.default(aten.unsqueeze.default(result, -1), -1)
            result = aten.permute.default(result, [order.index(d) for d in range(A.dim())])
        return result
    summed, across = (dims[0], dims[1]) if abs(ord) == 1 else (dims[1], dims[0])
    across -= 1 if not keepdim and summed < across else 0
    sums = aten.linalg_vector_norm.default(A, 1, [summed], keepdim)
    return (aten.amax if ord > 0 else aten.amin).default(sums, [across], keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm over one dim (or all, for ord=None), a matrix norm over two."""
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else list(dim)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dims}")
    elif ord is not None:
        if A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                               f"{A.dim()}D.")
        dims = list(range(A.dim()))
    else:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    if len(dims) == 2 or isinstance(ord, str):
        return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)


# ---------------------------------------------------------------- inverse, determinants, solve
def inv_ex(A, *, check_errors=False):
    return return_types.linalg_inv_ex(*aten.linalg_inv_ex.default(A, check_errors=check_errors))


def inv(A):
    return aten.linalg_inv_ex.default(A, check_errors=True)[0]


def det(A):
    return aten._linalg_det.default(A)[0]


def slogdet(A):
    return return_types.linalg_slogdet(*aten._linalg_slogdet.default(A)[:2])


def solve(A, B, *, left=True):
    return aten._linalg_solve_ex.default(A, B, left=left, check_errors=True)[0]


# ---------------------------------------------------------------- factorizations
def cholesky_ex(A, *, upper=False, check_errors=False):
    return return_types.linalg_cholesky_ex(*aten.linalg_cholesky_ex.default(A, upper=upper,
                                                                              check_errors=check_errors))


def cholesky(A, *, upper=False):
    return aten.linalg_cholesky_ex.default(A, upper=upper, check_errors=True)[0]


def qr(A, mode="reduced"):
    return return_types.linalg_qr(*aten.linalg_qr.default(A, mode))


def svd(A, full_matrices=True, *, driver=None):
    return return_types.linalg_svd(*aten._linalg_svd.default(A, full_matrices, True, driver=driver))


def svdvals(A, *, driver=None):
    """The singular vectors are computed too when a gradient may be asked for: the backward needs them."""
    return aten._linalg_svd.default(A, False, _may_need_grad(A), driver=driver)[1]


def eigh(A, UPLO="L"):
    return return_types.linalg_eigh(*aten._linalg_eigh.default(A, UPLO, True))


def eigvalsh(A, UPLO="L"):
    return aten._linalg_eigh.default(A, UPLO, _may_need_grad(A))[0]


def _tolerance(value, A):
    if value is None or isinstance(value, Tensor):
        return value
    return aten.scalar_tensor.default(value, dtype=A.dtype if A.dtype.is_floating_point else _dtype.float64)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """The pseudo-inverse; `rcond` is the older name of rtol."""
    rtol = rcond if rtol is None else rtol
    return aten.linalg_pinv.atol_rtol_tensor(A, atol=_tolerance(atol, A), rtol=_tolerance(rtol, A),
                                             hermitian=hermitian)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """How many singular values (eigenvalue magnitudes, hermitian) exceed max(atol, rtol * the largest); `tol`
    is the older name of atol (rtol then 0)."""
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if A.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    singular = aten.abs.default(eigvalsh(A)) if hermitian else svdvals(A)
    if singular.numel() == 0:
        return aten.sum.dim_IntList(aten.gt.Scalar(singular, 0), [-1])
    threshold = _scaled(aten.amax.default(singular, [-1], True), _default_rtol(A, atol) if rtol is None else rtol)
    if atol is not None:
        atol = aten.unsqueeze.default(atol, -1) if isinstance(atol, Tensor) else atol
        threshold = aten.maximum.default(threshold, atol) if isinstance(atol, Tensor) else \
            aten.clamp_min.default(threshold, atol)
    return aten.sum.dim_IntList(aten.gt.Tensor(singular, threshold), [-1])


def _default_rtol(A, atol):
    """eps * max(m, n), or 0 where a positive atol is given."""
    default = float(np.finfo(A.dtype.np).eps) * max(A.shape[-2], A.shape[-1])
    if isinstance(atol, Tensor):
        return aten.where.self(aten.gt.Scalar(atol, 0), aten.scalar_tensor.default(0.0, dtype=A.dtype),
                               aten.scalar_tensor.default(default, dtype=A.dtype))
    return 0.0 if atol is not None and atol > 0 else default


def _scaled(largest, rtol):
    if isinstance(rtol, Tensor):
        return aten.mul.Tensor(largest, aten.unsqueeze.default(rtol, -1) if rtol.dim() else rtol)
    return aten.mul.Scalar(largest, rtol)


# ---------------------------------------------------------------- products
def cross(input, other, *, dim=-1):
    return aten.linalg_cross.default(input, other, dim=dim)


def lstsq(A, B, rcond=None, *, driver=None):
    return return_types.linalg_lstsq(*aten.linalg_lstsq.default(A, B, rcond, driver=driver))


def multi_dot(tensors):
    """The product of a chain of matrices (the first may be a row vector, the last a column vector) in the order
    that needs the fewest multiplications (torch's dynamic programme over the chain)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0].dim(), tensors[-1].dim()
    if first not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first}D")
    if last not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    for i, t in enumerate(tensors):
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{_CPP_TYPE[tensors[0].dtype.name]} and tensor {i} {_CPP_TYPE[t.dtype.name]}")
    matrices = list(tensors)
    if first == 1:
        matrices[0] = aten.unsqueeze.default(matrices[0], 0)
    if last == 1:
        matrices[-1] = aten.unsqueeze.default(matrices[-1], -1)
    for i in range(n - 1):
        if matrices[i].shape[1] != matrices[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and "
                               f"{list(tensors[i + 1].shape)} cannot be multiplied")
    result = _chain_product(matrices, _cheapest_order(matrices))
    shape = ([result.shape[0]] if first == 2 else []) + ([result.shape[1]] if last == 2 else [])
    return aten.view.default(result, shape)


def _cheapest_order(matrices):
    """split[i][j]: where the cheapest product of matrices i..j splits (the classic matrix-chain programme)."""
    sizes = [m.shape[0] for m in matrices] + [matrices[-1].shape[1]]
    n = len(matrices)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                candidate = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if candidate < cost[i][j]:
                    cost[i][j], split[i][j] = candidate, k
    return split


def _chain_product(matrices, split, i=0, j=None):
    j = len(matrices) - 1 if j is None else j
    if i == j:
        return matrices[i]
    k = split[i][j]
    return aten.mm.default(_chain_product(matrices, split, i, k), _chain_product(matrices, split, k + 1, j))


# ---------------------------------------------------------------- the older torch-level forms (torch.svd, ...)
def torch_slogdet(input):
    return return_types.slogdet(*slogdet(input))


def torch_logdet(input):
    """log det: NaN for a negative determinant, -inf for a singular matrix."""
    sign, logabsdet = aten._linalg_slogdet.default(input)[:2]
    return aten.where.self(aten.eq.Scalar(sign, -1), aten.scalar_tensor.default(math.nan, dtype=input.dtype),
                           logabsdet)


def torch_cholesky(input, upper=False):
    warnings.warn("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                  "PyTorch release.", UserWarning, stacklevel=2)
    return cholesky(input, upper=upper)


def torch_qr(input, some=True):
    return return_types.qr(*aten.linalg_qr.default(input, "reduced" if some else "complete"))


def torch_svd(input, some=True, compute_uv=True):
    """U, S and V (not Vᴴ); without compute_uv, U and V are zeros of the full shapes."""
    U, S, Vh = aten._linalg_svd.default(input, not some and compute_uv, compute_uv or input.requires_grad)
    if not compute_uv:  # (V is Vᴴ's transpose, zeros too)
        m, n = input.shape[-2:]
        U = aten.zeros.default(list(input.shape[:-2]) + [m, m], dtype=input.dtype)
        Vh = aten.zeros.default(list(input.shape[:-2]) + [n, n], dtype=input.dtype)
        return return_types.svd(U, S, aten.transpose.int(Vh, -2, -1))
    return return_types.svd(U, S, aten.transpose.int(Vh, -2, -1))


def torch_pinverse(input, rcond=1e-15):
    return pinv(input, rtol=rcond)


def torch_cross(input, other, dim=None):
    """Over `dim`, or the first dim of size 3 (torch's deprecated default)."""
    if dim is None:
        dim = next((d for d, size in enumerate(input.shape) if size == 3), -1)
    return aten.linalg_cross.default(input, other, dim=dim)


# ---------------------------------------------------------------- adjoints: Tensor.H, Tensor.mH, torch.adjoint
def adjoint(input, name="adjoint()"):
    """The conjugate transpose of the last two dims: their transpose, minitorch2's dtypes all being real; a 0-d
    tensor is itself, with torch's deprecation warning. `name` words the errors of Tensor.H and Tensor.mH."""
    if input.dim() == 0:
        warnings.warn(f"{'Tensor.' if name != 'adjoint()' else ''}{name} is deprecated on 0-D tensors. Consider "
                      "using x.conj().", UserWarning, stacklevel=2)
        return input
    if name == "H" and input.dim() != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {input.dim()}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if input.dim() > 2 else ""))
    if input.dim() < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got "
                           f"{input.dim()}-D tensor.")
    return aten.transpose.int(input, -2, -1)


def adjoint_property(name):
    """Tensor.H (matrices only) or Tensor.mH (batches of matrices too)."""
    return property(lambda self: adjoint(self, name))


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """torch.diagonal with keyword-only arguments and the last two dimensions by default."""
    return aten.diagonal.default(A, offset, dim1, dim2)


def vecdot(x, y, *, dim=-1):
    """The dot product along `dim` (the first argument conjugated), recorded as mul then sum, as torch's."""
    if x.is_complex():
        x = aten.conj.default(x)
    return aten.sum.dim_IntList(aten.mul.Tensor(x, y), [dim])



# ---------------------------------------------------------------- LU, triangular solves, eig (_aten/linalg_more.py)
for _spec in ("linalg_lu_factor:LU,pivots linalg_lu_factor_ex:LU,pivots,info linalg_lu:P,L,U "
              "linalg_solve_ex:result,info linalg_eig:eigenvalues,eigenvectors").split():
    _name, _, _fields = _spec.partition(":")
    setattr(return_types, _name, return_types.structseq(_name, _fields.split(",")))


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    return return_types.linalg_lu_factor_ex(*aten.linalg_lu_factor_ex.default(A, pivot=pivot,
                                                                              check_errors=check_errors))


def lu_factor(A, *, pivot=True):
    """linalg_lu_factor_ex, then its errors checked by _linalg_check_errors, as torch records it."""
    LU, pivots, info = aten.linalg_lu_factor_ex.default(A, pivot=pivot)
    aten._linalg_check_errors.default(info, "torch.linalg.lu_factor", is_matrix=A.dim() == 2)
    return return_types.linalg_lu_factor(LU, pivots)


def lu(A, *, pivot=True):
    return return_types.linalg_lu(*aten.linalg_lu.default(A, pivot=pivot))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    return aten.linalg_lu_solve.default(LU, pivots, B, left=left, adjoint=adjoint)


def solve_ex(A, B, *, left=True, check_errors=False):
    result, _, _, info = aten._linalg_solve_ex.default(A, B, left=left, check_errors=check_errors)
    return return_types.linalg_solve_ex(result, info)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    return aten.linalg_solve_triangular.default(A, B, upper=upper, left=left, unitriangular=unitriangular)


def eig(A):
    return return_types.linalg_eig(*aten.linalg_eig.default(A))


def eigvals(A):
    return aten.linalg_eig.default(A)[0]


def householder_product(A, tau):
    return aten.linalg_householder_product.default(A, tau)


def cond(A, p=None):
    """σ_max / σ_min for p = None or 2 (the reverse for -2); otherwise ‖A‖_p ‖A⁻¹‖_p, inf for a singular A."""
    if p in (None, 2, -2):
        singular = aten._linalg_svd.default(A)[1]
        k = singular.shape[-1]
        first, last = aten.slice.Tensor(singular, -1, 0, 1), aten.slice.Tensor(singular, -1, k - 1, k)
        ratio = aten.div.Tensor(last, first) if p == -2 else aten.div.Tensor(first, last)
        return aten.squeeze.dim(ratio, -1)
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.cond(ord={p}): A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    inverse, info = aten.linalg_inv_ex.default(A)
    singular = aten.gt.Scalar(aten.unsqueeze.default(aten.unsqueeze.default(info, -1), -1), 0)
    inverse = aten.masked_fill.Scalar(inverse, singular, math.inf)
    product = aten.mul.Tensor(matrix_norm(A, p), matrix_norm(inverse, p))
    return aten.nan_to_num.default(product, math.inf, math.inf, -math.inf)


def vander(x, N=None):
    """Columns x⁰, x¹, ..., x^(N-1): ones beside the cumulative products of x repeated N - 1 times."""
    n = (x.shape[-1] if x.dim() else 1) if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = aten.cumprod.default(aten.expand.default(aten.unsqueeze.default(x, -1), list(x.shape) + [n - 1]), -1)
    return aten.cat.default([aten.new_ones.default(powers, list(x.shape) + [1]), powers], -1)


def tensorinv(A, ind=2):
    """The inverse of A read as a (prod(shape[:ind]), prod(shape[ind:])) matrix, shaped shape[ind:] + shape[:ind]."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = math.prod(A.shape[:ind]), math.prod(A.shape[ind:])
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]),"
                           f" but got {cols} != {rows}")
    inverse, info = aten.linalg_inv_ex.default(aten.view.default(A, [cols, cols]))
    aten._linalg_check_errors.default(info, "inv", is_matrix=True)
    return aten.view.default(inverse, list(A.shape[ind:]) + list(A.shape[:ind]))


def tensorsolve(A, B, dims=None):
    """X with tensordot(A, X, X.dim()) = B: one solve of A read as a (B.numel(), rest) matrix."""
    if dims is not None:
        A = aten.permute.default(A, [d for d in range(A.dim()) if d not in [d % A.dim() for d in dims]] +
                                 [d % A.dim() for d in dims])
    result_shape = list(A.shape[B.dim():])
    rows, cols = math.prod(A.shape[:B.dim()]), math.prod(result_shape)
    if B.numel() != rows or rows != cols:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {cols} != {rows}")
    matrix = aten.view.default(A, [rows, cols]) if list(A.shape) != [rows, cols] else A
    vector = aten.view.default(B, [rows]) if list(B.shape) != [rows] else B
    result, _, _, info = aten._linalg_solve_ex.default(matrix, vector)
    aten._linalg_check_errors.default(info, "torch.linalg.solve", is_matrix=True)
    return aten.view.default(result, result_shape)
