"""The op table's rows for torch.linalg, torch.special, torch.fft and the other functions beyond table_more.py.

Runtime layer, part of THE operator table: table.py appends these rows to its
own (`rows(op, inplace)` is called with table.py's row makers, so a row here
reads exactly as one there). Kernels and meta functions are in extra_ops.py,
derivative formulas in extra_formulas.py. Only the ops torch has as its own
aten ops with their own derivatives are rows: the linalg factorizations (under
torch's internal names: _linalg_det, _linalg_svd, ...), the special functions
with kernels of their own, the selections; torch.linalg.norm, kron, cov, the
windows and the rest are composites (minitorch2/linalg.py, _functions_extra.py).
The complex numbers' rows (view_as_real, conj, angle, polar, ...) and torch.fft's are table_complex.py's, appended
here.
"""
from . import derivatives as d, derivatives_shape as ds, extra_formulas as f, extra_ops as k, indexing
from . import more_formulas as mf, more_ops, more_ops2, pointwise as pw, random_ops, table_complex, view_dtype
from . import decompositions_upsample as decup, linalg_more, nn_pool3d, special_more
from .overlap import Overlap
from .table_row import CORE

POINTWISE = ("pointwise",)
RANDOM = ("random", "nondeterministic_seeded")
LINALG = ()
SELECTION = ()
FIRST_ONLY = (True, False)


def _random_rows(op, name, arguments, kernel):
    """An in-place random fill and the functional form functionalization puts in its place."""
    return [
        op(f"{name}_(Tensor(a!) self, {arguments}, *, Generator? generator=None) -> Tensor(a!)", ("inplace",) + RANDOM,
           kernel, f.zeros, method=True),
        op(f"{name}(Tensor self, {arguments}, *, Generator? generator=None) -> Tensor", RANDOM,
           random_ops.functional_fill(kernel), f.zeros),
    ]


def _special_in_place_rows(inplace):
    """The in-place method forms of torch.special's functions whose rows table.py and table_more.py hold."""
    unary = [("erf", pw.erf, d.erf, "ErfBackward0"), ("erfinv", more_ops.erfinv, mf.erfinv, "ErfinvBackward0"),
             ("lgamma", more_ops.lgamma, mf.lgamma, "LgammaBackward0"),
             ("digamma", more_ops.digamma, mf.digamma, "DigammaBackward0"),
             ("log1p", pw.log1p, d.log1p, "Log1PBackward0"), ("expm1", pw.expm1, d.expm1, "Expm1Backward0"),
             ("exp2", more_ops2.exp2, mf.exp2, "Exp2Backward0")]
    return [
        *[inplace(f"{name}_(Tensor(a!) self) -> Tensor(a!)", kernel, formula, grad_fn, POINTWISE, method=True)
          for name, kernel, formula, grad_fn in unary],
        inplace("round_(Tensor(a!) self) -> Tensor(a!)", pw.round, d.zero_grad, "RoundBackward0", POINTWISE),
        inplace("round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)", more_ops2.round_decimals,
                d.zero_grad, "RoundBackward1", POINTWISE),
        inplace("logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)", more_ops.logit, mf.logit, "LogitBackward0",
                POINTWISE, method=True),
        inplace("xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", more_ops.xlogy, mf.xlogy_tensor,
                "XlogyBackward0", POINTWISE),
        inplace("xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)", more_ops.xlogy,
                mf.xlogy_scalar_other, "XlogyBackward2", POINTWISE),
    ]


def rows(op, inplace):
    return table_complex.ROWS + nn_pool3d.ROWS + special_more.ROWS + linalg_more.ROWS + [
        # torch.linalg (linalg.py composes the functions from these)
        op("linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)", LINALG,
           k.linalg_inv_ex, f.linalg_inv_ex, output_differentiability=FIRST_ONLY),
        op("_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)", LINALG, k.linalg_det, f.linalg_det,
           output_differentiability=(True, False, False)),
        op("_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)", LINALG,
           k.linalg_slogdet, f.linalg_slogdet, output_differentiability=(True, True, False, False)),
        op("_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) "
           "-> (Tensor result, Tensor LU, Tensor pivots, Tensor info)", LINALG, k.linalg_solve_ex, f.linalg_solve_ex,
           output_differentiability=(True, False, False, False)),
        op("linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)",
           LINALG, k.linalg_cholesky_ex, f.linalg_cholesky_ex, output_differentiability=FIRST_ONLY),
        op("linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", LINALG, k.linalg_qr, f.linalg_qr),
        op("_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) "
           "-> (Tensor U, Tensor S, Tensor Vh)", LINALG, k.linalg_svd, f.linalg_svd),
        op("_linalg_eigh(Tensor A, str UPLO=\"L\", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)",
           LINALG, k.linalg_eigh, f.linalg_eigh),
        op("linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) "
           "-> Tensor", LINALG, k.linalg_pinv, f.linalg_pinv),
        op("linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", LINALG, k.linalg_cross, f.linalg_cross),
        op("_euclidean_dist(Tensor x1, Tensor x2) -> Tensor", (), k.euclidean_dist, f.euclidean_dist,
           decomposition=f.euclidean_dist_decomposition),
        op("linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) "
           "-> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)", LINALG, k.linalg_lstsq,
           f.linalg_lstsq, output_differentiability=(True, True, False, False)),
        # torch.special's functions with kernels of their own
        op("erfc(Tensor self) -> Tensor", POINTWISE, k.erfc, f.erfc, method=True),
        op("i0(Tensor self) -> Tensor", POINTWISE, k.i0, f.i0, method=True),
        op("special_i1(Tensor self) -> Tensor", POINTWISE, k.special_i1, f.special_i1),
        op("sinc(Tensor self) -> Tensor", POINTWISE, k.sinc, f.sinc, method=True),
        op("special_entr(Tensor self) -> Tensor", POINTWISE, k.special_entr, f.special_entr),
        op("special_ndtri(Tensor self) -> Tensor", POINTWISE, k.special_ndtri, f.special_ndtri),
        op("copysign.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, k.copysign, f.copysign_tensor),
        op("copysign.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, k.copysign, f.copysign_scalar,
           grad_fn="CopysignBackward1"),
        inplace("erfc_(Tensor(a!) self) -> Tensor(a!)", k.erfc, f.erfc, "ErfcBackward0", POINTWISE, method=True),
        inplace("i0_(Tensor(a!) self) -> Tensor(a!)", k.i0, f.i0, "I0Backward0", POINTWISE, method=True),
        inplace("sinc_(Tensor(a!) self) -> Tensor(a!)", k.sinc, f.sinc, "SincBackward0", POINTWISE, method=True),
        *_special_in_place_rows(inplace),
        inplace("igamma_(Tensor(a!) self, Tensor other) -> Tensor(a!)", special_more.igamma,
                special_more._igamma_of(1), "IgammaBackward0", POINTWISE, method=True),
        inplace("igammac_(Tensor(a!) self, Tensor other) -> Tensor(a!)", special_more.igammac,
                special_more._igamma_of(-1), "IgammacBackward0", POINTWISE, method=True),
        inplace("mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)", (special_more._mvlgamma_kernel,
                special_more._mvlgamma_meta), special_more._d_mvlgamma, "MvlgammaBackward0", POINTWISE, method=True),
        inplace("copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", k.copysign, f.copysign_tensor,
                "CopysignBackward0", POINTWISE),
        inplace("copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", k.copysign, f.copysign_scalar,
                "CopysignBackward1", POINTWISE),
        # selections and cumulative reductions
        op("nanmedian(Tensor self) -> Tensor", SELECTION, k.nanmedian, mf.median),
        op("nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", SELECTION,
           k.nanmedian_dim, mf.selected_values, grad_fn="NanmedianBackward1", output_differentiability=FIRST_ONLY),
        op("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", SELECTION, k.mode,
           mf.selected_values, output_differentiability=FIRST_ONLY),
        op("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)", ("reduction",),
           k.aminmax, f.aminmax),
        op("logcumsumexp(Tensor self, int dim) -> Tensor", (), k.logcumsumexp, f.logcumsumexp, method=True),
        inplace("clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", pw.clamp,
                d.clamp_tensor, "ClampBackward0", POINTWISE),
        # scatters and block matrices
        op("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", CORE, k.masked_scatter,
           f.masked_scatter, method=True),
        inplace("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", k.masked_scatter,
                f.masked_scatter, "MaskedScatterBackward0", overlap=Overlap.INTERNAL, method=True),
        inplace("scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", indexing.scatter_src,
                ds.scatter_src, "ScatterBackward0", overlap=Overlap.SCATTER),
        inplace("scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
                indexing.scatter_value, ds.scatter_value, "ScatterBackward1", overlap=Overlap.SCATTER),
        inplace("scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", indexing.scatter_add,
                ds.scatter_add, "ScatterAddBackward0", overlap=Overlap.SCATTER, method=True),
        op("block_diag(Tensor[] tensors) -> Tensor", (), k.block_diag, f.block_diag),
        # random in-place fills, PyTorch's generator bit for bit
        *_random_rows(op, "exponential", "float lambd=1", random_ops.exponential_),
        *_random_rows(op, "geometric", "float p", random_ops.geometric_),
        *_random_rows(op, "log_normal", "float mean=1, float std=2", random_ops.log_normal_),
        *_random_rows(op, "cauchy", "float median=0, float sigma=1", random_ops.cauchy_),
        # a torch._check in a graph, as Dynamo's runtime-assert pass leaves it (frontend/variables/dynamo_forms.py)
        op("_assert_scalar(Scalar self, str assert_msg) -> ()", (), (k.assert_scalar, k.assert_scalar),
           differentiable=False),
        op("_assert_async.msg(Tensor self, str assert_msg) -> ()", (), k.assert_async, differentiable=False),
        # the gathers of traced nearest upsampling (decompositions_upsample.nearest_traced), torch's unchecked forms
        op("_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", (),
           tuple(map(k.integer_indices_only, indexing.index)), f.unsafe_index),
        op("_unsafe_index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", (),
           indexing.index_put, ds.index_put, decomposition=decup.unsafe_index_put),
        # Tensor.view(dtype): the bytes read as another dtype (view_dtype.py); never differentiable
        op("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", ("view",), view_dtype.view_dtype,
           differentiable=False),
    ]
