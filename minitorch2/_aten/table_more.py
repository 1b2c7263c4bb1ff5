"""The op table's rows for the commonly used ops beyond the pipeline's core set.

Runtime layer, part of THE operator table: table.py appends these rows to its
own (`rows(op, inplace)` is called with table.py's row makers, so a row here
reads exactly as one there). Kernels and meta functions are in more_ops.py,
derivative formulas and decompositions in more_formulas.py.
"""
from . import derivatives as d, more_formulas as f, more_ops as k, pointwise as pw, reductions as red

POINTWISE = ("pointwise",)
REDUCTION = ("reduction",)
SELECTION = ()
FACTORY = ("factory",)
DYNAMIC = ("dynamic_output_shape",)
LAYOUT = "Layout? layout=None, Device? device=None, bool? pin_memory=None"


def rows(op, inplace):
    return [
        # pointwise
        op("frac(Tensor self) -> Tensor", POINTWISE, k.frac, f.frac, decomposition=f.frac_decomposition, method=True),
        op("erfinv(Tensor self) -> Tensor", POINTWISE, k.erfinv, f.erfinv, method=True),
        op("lgamma(Tensor self) -> Tensor", POINTWISE, k.lgamma, f.lgamma, method=True),
        op("digamma(Tensor self) -> Tensor", POINTWISE, k.digamma, f.digamma, method=True),
        op("polygamma(int n, Tensor self) -> Tensor", POINTWISE, k.polygamma, f.polygamma),
        op("signbit(Tensor self) -> Tensor", POINTWISE, k.signbit, method=True),
        op("logit(Tensor self, float? eps=None) -> Tensor", POINTWISE, k.logit, f.logit, method=True),
        op("logit_backward(Tensor grad_output, Tensor self, float? eps=None) -> Tensor", POINTWISE, k.logit_backward,
           f.logit_backward),
        op("nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor", POINTWISE,
           k.nan_to_num, f.nan_to_num, decomposition=f.nan_to_num_decomposition, method=True),
        op("logaddexp(Tensor self, Tensor other) -> Tensor", POINTWISE, k.logaddexp, f.logaddexp, method=True),
        op("hypot(Tensor self, Tensor other) -> Tensor", POINTWISE, k.hypot, f.hypot, method=True),
        op("xlogy.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, k.xlogy, f.xlogy_tensor),
        op("xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor", POINTWISE, k.xlogy, f.xlogy_scalar_other,
           grad_fn="XlogyBackward1"),
        op("xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", POINTWISE, k.xlogy, f.xlogy_scalar_self,
           grad_fn="XlogyBackward2"),
        op("heaviside(Tensor self, Tensor values) -> Tensor", POINTWISE, k.heaviside, method=True),
        # in-place forms
        inplace("abs_(Tensor(a!) self) -> Tensor(a!)", pw.abs, d.abs, "AbsBackward0", method=True),
        inplace("log_(Tensor(a!) self) -> Tensor(a!)", pw.log, d.log, "LogBackward0", tags=("pointwise",),
                method=True),
        inplace("logical_not_(Tensor(a!) self) -> Tensor(a!)", pw.logical_not, tags=("pointwise",), method=True),
        inplace("addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
                k.addmm_checked, d.addmm, "AddmmBackward0", method=True),
        # reductions
        op("linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
           "ScalarType? dtype=None) -> Tensor", REDUCTION, k.linalg_vector_norm, f.linalg_vector_norm,
           decomposition=f.linalg_vector_norm_decomposition),
        op("nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", REDUCTION,
           k.nansum, f.nansum, decomposition=f.nansum_decomposition, method=True),
        op("count_nonzero(Tensor self, int? dim=None) -> Tensor", REDUCTION, k.count_nonzero,
           decomposition=f.count_nonzero_decomposition),
        op("count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", REDUCTION, k.count_nonzero,
           decomposition=f.count_nonzero_decomposition),
        op("trace(Tensor self) -> Tensor", SELECTION, k.trace, f.trace, decomposition=f.trace_decomposition,
           method=True),
        op("std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) "
           "-> (Tensor, Tensor)", REDUCTION, k.std_mean, f.std_mean, decomposition=f.std_mean_decomposition),
        op("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", ("core",), red.cumprod, f.cumprod,
           method=True),
        op("median(Tensor self) -> Tensor", SELECTION, k.median, f.median),
        op("median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", SELECTION,
           k.median_dim, f.selected_values, grad_fn="MedianBackward1", output_differentiability=(True, False)),
        op("kthvalue(Tensor self, SymInt k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
           SELECTION, k.kthvalue, f.selected_values, output_differentiability=(True, False)),
        op("cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", SELECTION, k.cummax, f.cummaxmin,
           output_differentiability=(True, False)),
        op("cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", SELECTION, k.cummin, f.cummaxmin,
           output_differentiability=(True, False)),
        # shapes and copies
        op("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", ("view",), k.unfold, f.unfold,
           method=True),
        op("unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> Tensor", (),
           k.unfold_backward, f.unfold_backward),
        op("rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", (), k.rot90, f.rot90,
           decomposition=f.rot90_decomposition, method=True),
        op("diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", ("view_copy",),
           k.diagonal_copy, f.diagonal_copy, grad_fn="DiagonalBackward0_copy", decomposition=f.diagonal_copy_decomposition),
        op("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", (), k.diag_embed,
           f.diag_embed, method=True),
        op("_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor", ("core",), k.cdist_forward,
           f.cdist_forward, grad_fn="CdistBackward0"),
        op("_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor", (),
           k.cdist_backward),
        # data-dependent output sizes
        op("masked_select(Tensor self, Tensor mask) -> Tensor", DYNAMIC, k.masked_select, f.masked_select,
           method=True),
        op("_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) "
           "-> (Tensor, Tensor, Tensor)", DYNAMIC, k.unique2, differentiable=False),
        op("bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor", DYNAMIC, k.bincount,
           differentiable=False, method=True),
        op("repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor", DYNAMIC,
           k.repeat_interleave, differentiable=False),
        # lookups (integer or bool results)
        op("isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) "
           "-> Tensor", (), k.isin),
        op("isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) "
           "-> Tensor", (), k.isin),
        op("isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) "
           "-> Tensor", (), k.isin),
        op("searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, "
           "str? side=None, Tensor? sorter=None) -> Tensor", (), k.searchsorted),
        op("searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, "
           "str? side=None, Tensor? sorter=None) -> Tensor", (), k.searchsorted),
        op("bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", (),
           k.bucketize),
        op("bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", (),
           k.bucketize),
        op(f"tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY,
           k.tril_indices),
        op(f"triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY,
           k.triu_indices),
    ]
