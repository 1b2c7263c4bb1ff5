"""Kernels and meta functions of the ops in table_extra.py: torch.linalg's factorizations, torch.special's extras,
nanmedian/mode/aminmax, logcumsumexp, masked_scatter and block_diag (the random in-place fills: random_ops.py).

Runtime layer, coverage surface. The linalg kernels call LAPACK through numpy and scipy, return the extra outputs
torch's ops return (LU, pivots, info), lay matrices out column-major as LAPACK leaves them in torch, and raise
LinAlgError with torch's words. Singular and eigen vectors are LAPACK's: their signs may differ from those of torch's
(MKL) build, as between any two builds of torch.
"""
import math

import numpy as np
import scipy.special
from scipy.linalg import lapack

from .. import _dtype
from .._sym import SymBool, SymInt
from .._tensor import Tensor, contiguous_strides
from .memory import _dtype_title
from .more_ops2 import real_only
from .meta_util import broadcast_shapes, fake_empty, reduced_shape, reduction_dims, with_strides, wrap_dim
from .selection_ops import _check_selection, _rows, _selection_meta, _unrows, median_value, nan_as, refuse_bool_median
from .tie_order import mode_of, nth_element
from .pointwise_factories import _not_implemented, binary, unary_float


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a factorization failed on the matrix's values (singular, not positive-definite)."""


def _op(geometry, compute):
    """A (kernel, meta) pair from `geometry(*args)`, which checks the arguments and lists the outputs as
    (shape, dtype, lead) (lead None: contiguous; "F" or a leading dimension: column-major), and `compute(*args)`,
    the numpy values, which the kernel lays out as the geometry says."""
    def kernel(*args, **kwargs):
        specs = geometry(*args, **kwargs)
        return _laid_out_as(compute(*args, **kwargs), specs)

    def meta(*args, **kwargs):
        out = tuple(fake_empty(shape, dtype, _strides(shape, lead)) for shape, dtype, lead in geometry(*args, **kwargs))
        return out if len(out) > 1 else out[0]

    return kernel, meta


def _laid_out_as(values, specs):
    values = values if len(specs) > 1 else (values,)
    out = tuple(with_strides(np.asarray(v, dtype.np).reshape(shape), _strides(shape, lead))
                for v, (shape, dtype, lead) in zip(values, specs))
    return out if len(out) > 1 else out[0]


def _strides(shape, lead):
    """LAPACK's layout in torch: each matrix column-major (leading dimension `lead`), batches one after another."""
    if lead is None or len(shape) < 2:
        return contiguous_strides(shape)
    rows = max(shape[-2] if lead == "F" else lead, 1)  # (LAPACK's leading dimension is at least 1)
    return contiguous_strides(tuple(shape[:-2]) + (rows * shape[-1],))[:-1] + (1, rows)


# ---------------------------------------------------------------- checks and LAPACK calls
def _check_matrix(A, api, square=True):
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor A must have at least 2 dimensions.")
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")


def _check_linalg(A, api, square=True, half=None):
    """torch's order: dtype, dims, squareness; then half, refused as 'low precision' or by its kernel's name."""
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"{api}: Expected a floating point or complex tensor as input. Got {_dtype_title(A.dtype)}")
    _check_matrix(A, api, square)
    if A.dtype in _dtype.HALVES:
        if half is None:
            raise RuntimeError(f"{api}: Low precision dtypes not supported. Got {_dtype_title(A.dtype)}")
        raise _not_implemented(half, A.dtype)


def _each(array):  # the matrices as one stack, whatever the batch shape
    return array.reshape((math.prod(array.shape[:-2]),) + array.shape[-2:])


_SINGULAR = ("The diagonal element {} is zero, the inversion could not be completed because the input matrix is "
             "singular.")
_NOT_PD = ("The factorization could not be completed because the input is not positive-definite (the leading minor "
           "of order {} is not positive-definite).")


def _check_errors(info, api, is_matrix, words):
    """ATen's _linalg_check_errors: the first failed matrix, named by its batch index unless A is one matrix."""
    for b, code in enumerate(np.asarray(info).reshape(-1)):
        if code > 0:
            raise LinAlgError(f"{api}: {'' if is_matrix else f'(Batch element {b}): '}{words.format(code)}")


def _lu_each(mats):
    """getrf on each matrix: LU, 1-based int32 pivots and info, as torch returns them."""
    mats = np.ascontiguousarray(mats)
    lus, pivots, info = np.empty_like(mats), np.zeros(mats.shape[:2], np.int32), np.zeros(len(mats), np.int32)
    for i, a in enumerate(mats):
        if a.size:
            lus[i], piv, info[i] = lapack.get_lapack_funcs("getrf", (a,))(a)
            pivots[i] = piv + 1
    return lus, pivots, info


def _lu_solve_each(lus, pivots, rhs, trans=0):
    solved = [lapack.get_lapack_funcs("getrs", (lu,))(lu, piv - 1, b, trans=trans)[0] if lu.size else b
              for lu, piv, b in zip(lus, pivots, rhs)]
    return np.array(solved, lus.dtype).reshape(rhs.shape)


def _lu_specs(shape, dtype):
    return [(shape, dtype, "F"), (shape[:-1], _dtype.int32, None)]


# ---------------------------------------------------------------- inverse, determinants, solve
def _inv_ex_geometry(A, *, check_errors=False):
    _check_linalg(A, "linalg.inv")
    return [(A.shape, A.dtype, "F"), (A.shape[:-2], _dtype.int32, None)]


def _inv_ex(A, *, check_errors=False):
    lus, pivots, info = _lu_each(_each(A._np))
    eye = np.broadcast_to(np.eye(A.shape[-1], dtype=lus.dtype), lus.shape)
    if check_errors:
        _check_errors(info, "linalg.inv", A.dim() == 2, _SINGULAR)
    return _lu_solve_each(lus, pivots, eye), info


linalg_inv_ex = _op(_inv_ex_geometry, _inv_ex)


def _lu_sign_and_diagonal(A):
    """torch factors a contiguous A's transpose (det Aᵀ = det A; it is column-major already), so LU is Aᵀ's."""
    mats = _each(A._np)
    lus, pivots, _ = _lu_each(np.swapaxes(mats, -1, -2) if A.is_contiguous() else mats)
    swaps = np.sum(pivots != np.arange(1, A.shape[-1] + 1, dtype=np.int32), -1)
    return lus, pivots, np.where(swaps % 2, -1, 1), np.diagonal(lus, axis1=-2, axis2=-1)


def _det_geometry(A):
    _check_linalg(A, "linalg.det", half="lu_cpu")
    return [(A.shape[:-2], A.dtype, None)] + _lu_specs(A.shape, A.dtype)


def _det(A):
    lus, pivots, sign, diagonal = _lu_sign_and_diagonal(A)
    return sign * np.prod(diagonal, -1), lus, pivots


def _slogdet_geometry(A):
    _check_linalg(A, "linalg.slogdet")
    return [(A.shape[:-2], A.dtype, None)] * 2 + _lu_specs(A.shape, A.dtype)


def _slogdet(A):
    lus, pivots, sign, diagonal = _lu_sign_and_diagonal(A)
    with np.errstate(divide="ignore"):
        return sign * np.prod(np.sign(diagonal), -1), np.sum(np.log(np.abs(diagonal)), -1), lus, pivots


linalg_det = _op(_det_geometry, _det)
linalg_slogdet = _op(_slogdet_geometry, _slogdet)


def is_vector_rhs(A, B):
    """torch.linalg.solve's rule: B is a batch of vectors when it is 1-D or has exactly A's batch shape and rows."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _solve_batch(A, B, left):
    _check_linalg(A, "linalg.solve")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{_dtype_title(A.dtype)} and B of type {_dtype_title(B.dtype)} instead")
    vector = is_vector_rhs(A, B)
    rows, cols = (B.shape[-1], 1) if vector else (B.shape[-2], B.shape[-1])
    if (rows if left else cols) != A.shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({A.shape[-2]}x{A.shape[-1]} and {rows}x{cols})")
    b_batch = tuple(B.shape[:-1] if vector else B.shape[:-2])
    return broadcast_shapes(tuple(A.shape[:-2]), b_batch), vector


def _solve_ex_geometry(A, B, *, left=True, check_errors=False):
    batch, vector = _solve_batch(A, B, left)
    a_shape = batch + tuple(A.shape[-2:])
    return [(batch + tuple(B.shape[-1 if vector else -2:]), A.dtype, "F" if left else None),
            *_lu_specs(a_shape, A.dtype), (batch, _dtype.int32, None)]


def _solve_ex(A, B, *, left=True, check_errors=False):
    batch, vector = _solve_batch(A, B, left)
    a = np.broadcast_to(A._np, batch + tuple(A.shape[-2:]))
    b = np.broadcast_to(B._np[..., None] if vector else B._np, batch + ((A.shape[-1], 1) if vector else B.shape[-2:]))
    b = b if left else np.swapaxes(b, -1, -2)  # XA = B is AᵀXᵀ = Bᵀ, solved with A's LU (as torch's)
    lus, pivots, info = _lu_each(_each(a))
    if check_errors:
        _check_errors(info, "torch.linalg.solve", A.dim() == 2, "The solver failed because the input matrix is "
                      "singular.")
    x = _lu_solve_each(lus, pivots, _each(b), trans=0 if left else 1).reshape(b.shape)
    return (x[..., 0] if vector else x if left else np.swapaxes(x, -1, -2)), lus, pivots, info


linalg_solve_ex = _op(_solve_ex_geometry, _solve_ex)


# ---------------------------------------------------------------- factorizations
def _cholesky_ex_geometry(A, *, upper=False, check_errors=False):
    _check_linalg(A, "linalg.cholesky", half="cholesky_cpu")
    return [(A.shape, A.dtype, "F"), (A.shape[:-2], _dtype.int32, None)]


def _first_nan_pivot(factor):
    """LAPACK's reference potrf fails at a NaN pivot (torch's MKL does); the optimized one here runs through it."""
    nan = np.flatnonzero(np.isnan(np.diagonal(factor)))
    return nan[0] + 1 if nan.size else 0


def _cholesky_ex(A, *, upper=False, check_errors=False):
    mats = _each(A._np)
    factors, info = np.zeros_like(mats), np.zeros(len(mats), np.int32)
    for i, a in enumerate(mats):
        if a.size:  # potrf reads the lower (upper) triangle only, as torch's does
            factors[i], info[i] = lapack.get_lapack_funcs("potrf", (a,))(a, lower=not upper, clean=True)
            info[i] = info[i] or _first_nan_pivot(factors[i])
    if check_errors:
        _check_errors(info, "linalg.cholesky", A.dim() == 2, _NOT_PD)
    return factors, info


linalg_cholesky_ex = _op(_cholesky_ex_geometry, _cholesky_ex)


def _qr_geometry(A, mode="reduced"):
    _check_linalg(A, "linalg.qr", square=False, half="geqrf_cpu")
    if mode not in ("reduced", "r", "complete"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    *batch, m, n = A.shape
    k = m if mode == "complete" else min(m, n)
    return [((0,) if mode == "r" else (*batch, m, k), A.dtype, "F"), ((*batch, k, n), A.dtype, "F")]


def _qr(A, mode="reduced"):
    return (np.zeros(0), np.linalg.qr(A._np, "r")) if mode == "r" else np.linalg.qr(A._np, mode)


linalg_qr = _op(_qr_geometry, _qr)


def _svd_geometry(A, full_matrices=False, compute_uv=True, *, driver=None):
    _check_linalg(A, "linalg.svd", square=False, half="linalg_svd_cpu")
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    *batch, m, n = A.shape
    k = min(m, n)
    u, vh = ((*batch, m, m), (*batch, n, n)) if full_matrices else ((*batch, m, k), (*batch, k, n))
    return [(u if compute_uv else (0,), A.dtype, "F"), ((*batch, k), A.dtype, None),
            (vh if compute_uv else (0,), A.dtype, "F")]


def _svd(A, full_matrices=False, compute_uv=True, *, driver=None):
    if not compute_uv:
        return np.zeros(0), np.linalg.svd(A._np, compute_uv=False), np.zeros(0)
    return np.linalg.svd(A._np, full_matrices=full_matrices)


linalg_svd = _op(_svd_geometry, _svd)


def _eigh_geometry(A, UPLO="L", compute_v=True):
    if not A.dtype.is_floating_point or A.dtype in _dtype.HALVES:
        raise _not_implemented("linalg_eigh_cpu", A.dtype)
    _check_matrix(A, "linalg.eigh")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return [(A.shape[:-1], A.dtype, None), (A.shape if compute_v else (0,), A.dtype, "F")]


def _eigh(A, UPLO="L", compute_v=True):
    return np.linalg.eigh(A._np, UPLO) if compute_v else (np.linalg.eigvalsh(A._np, UPLO), np.zeros(0))


linalg_eigh = _op(_eigh_geometry, _eigh)


def _pinv_geometry(self, *, atol=None, rtol=None, hermitian=False):
    if self.dim() < 2 or self.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError(f"linalg.pinv({_dtype_title(self.dtype)}{{[{', '.join(map(str, self.shape))}]}}): expected "
                           "a tensor with 2 or more dimensions of float, double, cfloat or cdouble types")
    tolerances = [tuple(t.shape) for t in (atol, rtol) if isinstance(t, Tensor)]  # their shapes broadcast the batch
    batch = broadcast_shapes(tuple(self.shape[:-2]), *tolerances)
    return [(batch + (self.shape[-1], self.shape[-2]), self.dtype, None)]


def default_tolerances(shape, dtype, atol, rtol):
    """atol and rtol as torch fills them in: rtol defaults to eps * max(m, n), or to 0 where atol > 0 is given."""
    atol, rtol = (None if t is None else np.asarray(t._np if isinstance(t, Tensor) else t) for t in (atol, rtol))
    if rtol is None:
        default = np.finfo(dtype.np).eps * max(shape[-2], shape[-1])
        rtol = np.asarray(default) if atol is None else np.where(atol > 0, 0.0, default)
    return np.zeros(()) if atol is None else atol, rtol


def _pinv(self, *, atol=None, rtol=None, hermitian=False):
    """V diag(1/s) Uᵀ over the singular values above max(atol, rtol * the largest) (eigenvalues by magnitude
    for a symmetric self)."""
    atol, rtol = default_tolerances(self.shape, self.dtype, atol, rtol)
    if hermitian:
        s, u = np.linalg.eigh(self._np)
        vh = np.swapaxes(u, -1, -2)
    else:
        u, s, vh = np.linalg.svd(self._np, full_matrices=False)
    largest = np.abs(s).max(-1, keepdims=True, initial=0)
    with np.errstate(divide="ignore"):
        s_inv = np.where(np.abs(s) > np.maximum(atol[..., None], rtol[..., None] * largest), 1 / s, 0)
    return (np.swapaxes(vh, -1, -2) * s_inv[..., None, :].astype(s.dtype)) @ np.swapaxes(u, -1, -2)


linalg_pinv = _op(_pinv_geometry, _pinv)


def _cross_geometry(self, other, *, dim=-1):
    if self.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if self.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {self.shape[dim]} and "
                           f"{other.shape[dim]}")
    if self.dtype is not other.dtype:
        raise RuntimeError(f"expected scalar type {_dtype_title(self.dtype)} but found {_dtype_title(other.dtype)}")
    return [(broadcast_shapes(tuple(self.shape), tuple(other.shape)), self.dtype, None)]


def _cross(self, other, *, dim=-1):
    a, b = np.broadcast_arrays(self._np, other._np)
    return np.cross(a, b, axis=wrap_dim(dim, a.ndim))


linalg_cross = _op(_cross_geometry, _cross)


def _euclidean_dist(x1, x2):
    """ATen's form, in one product: [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T, clamped at 0, square-rooted."""
    a, b = x1._np, x2._np
    a_norm, b_norm = (a * a).sum(-1, keepdims=True), (b * b).sum(-1, keepdims=True)
    left = np.concatenate([a * -2, a_norm, np.ones_like(a_norm)], -1)
    right = np.concatenate([b, np.ones_like(b_norm), b_norm], -1)
    return np.sqrt(np.maximum(left @ np.swapaxes(right, -1, -2), 0))


def _euclidean_dist_geometry(x1, x2):
    shape = list(broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))) + [x1.shape[-2], x2.shape[-2]]
    return [(shape, x1.dtype, None)]


euclidean_dist = _op(_euclidean_dist_geometry, _euclidean_dist)


def _lstsq_sizes(self, b, driver):
    if self.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if driver is not None and driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    vector = self.dim() == b.dim() + 1
    if self.dim() < 2 or b.dim() < 1 or not 0 <= self.dim() - b.dim() <= 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                           "(input.dim() - other.dim()) <= 1")
    if self.shape[-2] != b.shape[-1 if vector else -2]:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size({-1 if vector else -2})")
    *a_batch, m, n = self.shape
    batch = broadcast_shapes(tuple(a_batch), tuple(b.shape[:-1] if vector else b.shape[:-2]))
    return batch, vector, m, n, 1 if vector else b.shape[-1], driver or "gelsy"


def _lstsq_geometry(self, b, rcond=None, *, driver=None):
    """gelsy (the default) gives no residuals, gels no rank; gelsd, gelss the singular values (residuals: m > n)."""
    batch, vector, m, n, k, driver = _lstsq_sizes(self, b, driver)
    return [(batch + ((n,) if vector else (n, k)), self.dtype, None if vector else max(m, n)),
            (batch + (k,) if m > n and driver != "gelsy" else (0,), self.dtype, None),
            (batch if driver != "gels" else (0,), _dtype.int64, None),
            (batch + (min(m, n),) if driver in ("gelsd", "gelss") else (0,), self.dtype, None)]


def _lstsq_kernel(self, b, rcond=None, *, driver=None):
    specs = _lstsq_geometry(self, b, rcond, driver=driver)
    batch, vector, m, n, k, driver = _lstsq_sizes(self, b, driver)
    a = _each(np.broadcast_to(self._np, batch + (m, n)))
    rhs = _each(np.broadcast_to(b._np[..., None] if vector else b._np, batch + (m, k)))
    cond = np.finfo(a.dtype).eps * max(m, n) if rcond is None else rcond
    solved = [scipy.linalg.lstsq(a[i], rhs[i], cond, lapack_driver="gelsd" if driver == "gels" else driver)
              for i in range(len(a))]
    x = np.array([s[0] for s in solved], a.dtype).reshape(batch + (n, k))
    ranks = np.array([s[2] for s in solved], np.int64)
    residuals = np.zeros(0)
    if specs[1][0] != (0,) and (driver == "gels" or (ranks == n).all()):
        residuals = np.sum((a.reshape(batch + (m, n)) @ x - rhs.reshape(batch + (m, k))) ** 2, -2)
    specs[1] = (residuals.shape, self.dtype, None)
    singular = np.array([s[3] for s in solved]) if driver in ("gelsd", "gelss") else np.zeros(0)
    return _laid_out_as((x[..., 0] if vector else x, residuals, ranks if driver != "gels" else np.zeros(0), singular),
                        specs)


linalg_lstsq = (_lstsq_kernel, _op(_lstsq_geometry, None)[1])


# ---------------------------------------------------------------- pointwise special functions
def _entr(x):
    with np.errstate(all="ignore"):
        return np.where(x > 0, -x * np.log(x), np.where(x == 0, 0, np.where(np.isnan(x), x, -np.inf))).astype(x.dtype)


def _special(fn, half=True):
    """A special function, computed in float32 for half inputs as ATen's kernels compute (unary_float), or with
    `half=False` refusing them (ATen has no half kernel)."""
    kernel, meta = unary_float(fn)

    def refusing_half(self):
        if self.dtype in _dtype.HALVES and not half:
            raise _not_implemented(f"{fn.__name__}_cpu", self.dtype)
        return kernel(self)
    return refusing_half, meta


erfc, i0, special_i1, sinc, special_entr = (_special(fn) for fn in (scipy.special.erfc, scipy.special.i0,
                                                                    scipy.special.i1, np.sinc, _entr))
special_ndtri = _special(scipy.special.ndtri, half=False)
copysign = binary(real_only("copysign", np.copysign), out="float")


# ---------------------------------------------------------------- selections and reductions
def _nanmedian_rows(rows):
    """The lower median of each row's non-NaN values and its index (ATen's nth_element orders equal values by
    index, so a stable sort's pick); a row of NaNs only gives the element that nth_element leaves first."""
    order = np.argsort(rows, axis=-1, kind="stable")  # NaNs sort last
    counts = (~np.isnan(rows)).sum(-1) if rows.dtype in _dtype.NP_FLOATS else np.full(rows.shape[:-1], rows.shape[-1])
    index = np.take_along_axis(order, np.maximum((counts - 1) // 2, 0)[..., None], -1)[..., 0]
    if (counts == 0).any():
        a = list(range(rows.shape[-1]))
        nth_element(a, 0, 0, len(a), lambda i, j: False)  # (NaNs are all equal under its comparator)
        index = np.where(counts == 0, a[0], index)
    return np.take_along_axis(rows, index[..., None], -1)[..., 0], index


def _mode_rows(rows):
    """The most frequent value of each row and its index, as ATen's sort-and-count picks them (tie_order.py)."""
    values, indices = np.empty(rows.shape[:-1], rows.dtype), np.zeros(rows.shape[:-1], np.int64)
    for r in np.ndindex(rows.shape[:-1]):
        values[r], indices[r] = mode_of(rows[r])
    return values, indices


def _selection(name, select):
    def kernel(self, dim=-1, keepdim=False):
        rows, d = _rows(self, dim)
        _check_selection(self, d, name)
        return _unrows(*select(rows), self, d, keepdim)

    def meta(self, dim=-1, keepdim=False):  # (mode's dim has a default; median's meta has none)
        return _selection_meta(name)(self, dim, keepdim)

    return kernel, meta


def _nanmedian(self):
    refuse_bool_median(self)
    if not self.numel():
        return nan_as(self.dtype)
    x = self._np.ravel(order="K")  # (a clone's memory order, as median's)
    nans = int(np.isnan(x).sum()) if x.dtype in _dtype.NP_FLOATS else 0
    return np.asarray(median_value(x, max(x.size - nans - 1, 0) // 2), x.dtype)


nanmedian = _op(lambda self: refuse_bool_median(self) or [((), self.dtype, None)], _nanmedian)
nanmedian_dim = _selection("median()", _nanmedian_rows)  # (torch's words)
mode = _selection("mode()", _mode_rows)


def _aminmax_geometry(self, *, dim=None, keepdim=False):
    if dim is None and self.numel() == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity.")
    if dim is not None and self.dim() and self.shape[wrap_dim(dim, self.dim())] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {wrap_dim(dim, self.dim())} to have non-zero size.")
    shape = reduced_shape(self.shape, reduction_dims(dim, self.dim()), keepdim)
    return [(shape, self.dtype, None)] * 2


def _aminmax(self, *, dim=None, keepdim=False):
    dims = reduction_dims(dim, self.dim())
    return np.min(self._np, axis=dims), np.max(self._np, axis=dims)


aminmax = _op(_aminmax_geometry, _aminmax)


def _logcumsumexp_geometry(self, dim):
    wrap_dim(dim, self.dim())
    if not self.dtype.is_floating_point:
        raise _not_implemented("logcumsumexp_out_cpu", self.dtype)
    return [(self.shape, self.dtype, None)]


def _logcumsumexp(self, dim):
    if not self.dim() or not self.numel():
        return self._np.copy()
    with np.errstate(all="ignore"):
        return np.logaddexp.accumulate(self._np.astype(_dtype.opmath(self.dtype).np),
                                       axis=wrap_dim(dim, self.dim()))


logcumsumexp = _op(_logcumsumexp_geometry, _logcumsumexp)


# ---------------------------------------------------------------- masked_scatter, block_diag
def _masked_scatter_geometry(self, mask, source):
    if mask.dtype is not _dtype.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype.name}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_dtype_title(self.dtype)} and {_dtype_title(source.dtype)}")
    return [(broadcast_shapes(tuple(self.shape), tuple(mask.shape)), self.dtype, None)]


def _masked_scatter(self, mask, source):
    out = np.array(np.broadcast_arrays(self._np, mask._np)[0])
    chosen = np.broadcast_to(mask._np, out.shape)
    if chosen.sum() > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out[chosen] = source._np.reshape(-1)[:int(chosen.sum())]
    return out


masked_scatter = _op(_masked_scatter_geometry, _masked_scatter)


def _block_shapes(tensors):
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    return [(1, 1) if t.dim() == 0 else (1, t.shape[0]) if t.dim() == 1 else tuple(t.shape) for t in tensors]


def _block_diag_geometry(tensors):
    dtype = _dtype.result_type(*tensors) if tensors else _dtype.get_default_dtype()
    shapes = _block_shapes(tensors)
    return [((sum(s[0] for s in shapes), sum(s[1] for s in shapes)), dtype, None)]


def _block_diag(tensors):
    shapes = _block_shapes(tensors)
    out = np.zeros((sum(s[0] for s in shapes), sum(s[1] for s in shapes)), _block_diag_geometry(tensors)[0][1].np)
    row = col = 0
    for t, (rows, cols) in zip(tensors, shapes):
        out[row:row + rows, col:col + cols] = t._np.reshape(rows, cols)
        row, col = row + rows, col + cols
    return out


block_diag = _op(_block_diag_geometry, _block_diag)


def _assert_async(self, assert_msg):
    """A tensor's truth asserted where the graph runs (one_hot's checks in a traced graph, as torch's)."""
    if not self._np.item():
        raise RuntimeError(assert_msg)


assert_async = (_assert_async, lambda self, assert_msg: None)


def assert_scalar(cond, assert_msg):
    """A runtime assertion: raise unless cond holds. A symbolic cond (tracing) is not decided: the ShapeEnv holds
    it as a fact already."""
    if not isinstance(cond, (SymBool, SymInt)) and not cond:
        raise RuntimeError(assert_msg)


def integer_indices_only(fn):
    """_unsafe_index takes integer indices only: a mask is ATen's RuntimeError (index.Tensor's converts it)."""
    def checked(self, indices):
        for index in indices:
            if index is not None and index.dtype.name in ("bool", "uint8"):
                raise RuntimeError(f"_unsafe_index found unexpected index type {_dtype_title(index.dtype)}")
        return fn(self, indices)
    return checked

