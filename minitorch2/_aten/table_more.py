"""The op table's rows for the commonly used ops beyond the pipeline's core set.

Runtime layer, part of THE operator table: table.py appends these rows to its
own (`rows(op, inplace)` is called with table.py's row makers, so a row here
reads exactly as one there). Kernels and meta functions are in more_ops.py,
more_index_ops.py and more_ops2.py, derivative formulas and decompositions in more_formulas.py (tril's and triu's
decompositions: decompositions.py).
"""
import functools

from . import decompositions as dec, decompositions_all as all_dec, decompositions_xlogy as xlogy_dec
from . import derivatives as d, derivatives_shape as ds, indexing, inplace_fast as fast, memory, more_formulas as f
from . import more_index_ops as ki, more_ops as k, more_ops2 as k2, pointwise as pw, reductions as red
from . import selection_ops as sel
from .overlap import Overlap
# (the CORE_ tags: the rows torch counts in its core ATen opset, though minitorch2's pipeline needs none of them)
from .table_row import CORE, CORE_POINTWISE, CORE_REDUCTION, FACTORY, OPTIONS, POINTWISE, REDUCTION

SELECTION = ()
DYNAMIC = ("dynamic_output_shape",)
LAYOUT = "Layout? layout=None, Device? device=None, bool? pin_memory=None"


def _more_in_place_rows(op, inplace):
    """The in-place forms scripts call (x.sin_(), x.eq_(0), x.tril_()) of functional rows table.py and the rows
    below hold: each runs its functional kernel into self, with that op's derivative and grad_fn name."""
    unary = [(name, getattr(k2, name), getattr(f, name)) for name in (
        "acos", "asin", "atan", "cosh", "sinh", "tan", "log10", "log2")]
    unary += [(name, getattr(pw, name), getattr(d, name)) for name in ("cos", "sin", "rsqrt", "reciprocal")]
    unary += [(name, getattr(pw, name), d.zero_grad) for name in ("ceil", "floor", "trunc", "sign")]
    unary += [("sgn", pw.sign, d.zero_grad), ("frac", k.frac, f.frac)]
    unary += [(name, getattr(k2, name), getattr(k2, f"{name}_formula"))
              for name in ("acosh", "asinh", "atanh", "deg2rad", "rad2deg")]
    # (torch names a comparison's grad_fn EqBackward0 for the Scalar overload, EqBackward1 for the Tensor one)
    never_differentiable = [(f"{name}_.{overload}(Tensor(a!) self, {overload} other)", getattr(pw, name),
                             f"{name.capitalize()}Backward{number}")
                            for name in ("eq", "ne", "lt", "le", "gt", "ge")
                            for overload, number in (("Tensor", 1), ("Scalar", 0))]
    never_differentiable += [(f"{name}_.{overload}(Tensor(a!) self, {overload} other)", getattr(pw, name), None)
                             for name in ("bitwise_and", "bitwise_or", "bitwise_xor")
                             for overload in ("Tensor", "Scalar")]
    never_differentiable += [("bitwise_not_(Tensor(a!) self)", pw.bitwise_not, None),
                             ("heaviside_(Tensor(a!) self, Tensor values)", k.heaviside, None),
                             ("gcd_(Tensor(a!) self, Tensor other)", k2.gcd, None),
                             ("lcm_(Tensor(a!) self, Tensor other)", k2.lcm, None)]
    # x.div_(y, rounding_mode=...) (Tensor.div_ picks it when a rounding mode is given: _tensor_methods_more.py)
    never_differentiable += [("div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode)", pw.div_mode,
                              "DivBackward2")]
    return [
        *[inplace(f"{name}_(Tensor(a!) self) -> Tensor(a!)", kernel, _in_place_formula(name, formula),
                  d_name(name, NO_INPLACE_DERIVATIVE), POINTWISE, method=True) for name, kernel, formula in unary],
        *[inplace(f"{schema} -> Tensor(a!)", kernel, _zero_grads(schema) if grad_fn else None, grad_fn, POINTWISE)
          for schema, kernel, grad_fn in never_differentiable],
        # (torch leaves self's history as it was: x.logical_or_(y) on a float x keeps x's grad_fn)
        *[op(f"{name}_(Tensor(a!) self, Tensor other) -> Tensor(a!)", ("inplace",) + POINTWISE,
             memory.inplace(getattr(pw, name)), output_differentiability=(False,))
          for name in ("logical_and", "logical_or", "logical_xor")],
        inplace("nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)",
                k.nan_to_num, f.nan_to_num, "NanToNumBackward0", POINTWISE, method=True),
        inplace("atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", k2.atan2, f.atan2, "Atan2Backward0", POINTWISE,
                method=True),
        inplace("nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)", k2.nextafter,
                k2.nextafter_formula, "NextafterBackward0", POINTWISE, method=True),
        inplace("hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)", k.hypot, f.hypot, "HypotBackward0", POINTWISE,
                method=True),
        inplace("fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", k2.fmod, f.fmod_tensor,
                "FmodBackward1", POINTWISE),
        inplace("fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", k2.fmod, _same_grad, "FmodBackward0",
                POINTWISE),
        inplace("remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.remainder, d.remainder_tensor,
                "RemainderBackward1", POINTWISE),
        inplace("remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", pw.remainder, _same_grad,
                "RemainderBackward0", POINTWISE),
        inplace("clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", pw.clamp_max, d.clamp_max,
                "ClampMaxBackward0", POINTWISE, method=True),
        # a tensor bound (cosine_similarity's composite clamps its norms by a scalar_tensor eps)
        op("clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", POINTWISE, pw.clamp, f.clamp_min_tensor,
           grad_fn="ClampMinBackward1", decomposition=f.clamp_min_tensor_decomposition),
        inplace("clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)", pw.clamp, f.clamp_min_tensor,
                "ClampMinBackward1", POINTWISE, decomposition=dec.inplace_by_copy(f.clamp_min_tensor_decomposition)),
        inplace("cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
                k2.same_dtype_in_place(k2.cumsum), f.cumsum,
                "CumsumBackward0", method=True),
        inplace("cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
                k2.same_dtype_in_place(k2.cumprod), f.cumprod,
                "CumprodBackward0", method=True),
        inplace("index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)",
                indexing.index_add, ds.index_add, "IndexAddBackward0", overlap=Overlap.SCATTER, method=True),
        inplace("tril_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", ki.tril, f.tril, "TrilBackward0",
                method=True),
        inplace("triu_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", ki.triu, f.triu, "TriuBackward0",
                method=True),
    ]


# torch's in-place acosh_/asinh_/atanh_ have a grad_fn of their own (Backward1) whose backward is not implemented
NO_INPLACE_DERIVATIVE = ("acosh", "asinh", "atanh")


def _in_place_formula(name, formula):
    return k2.not_implemented_formula(f"inplace version of {name}") if name in NO_INPLACE_DERIVATIVE else formula


def d_name(name, second_formula=()):
    """A unary op's grad_fn name as torch spells it (Log10Backward0, Deg2RadBackward0, AcoshBackward1 for acosh_)."""
    stem = {"deg2rad": "Deg2Rad", "rad2deg": "Rad2Deg"}.get(name, name[:1].upper() + name[1:])
    return f"{stem}Backward{1 if name in second_formula else 0}"


def _same_grad(grad):
    return grad


def _zero_grads(schema):
    """A comparison's in-place form: zero gradients for self (and for other when it is a tensor), as torch's."""
    if "Tensor other" in schema:
        return lambda grad, other: (d.aten.zeros_like.default(grad), d.aten.zeros_like.default(other))
    return lambda grad: d.aten.zeros_like.default(grad)


def _rarer_math_rows(op, inplace):
    """The rarer pointwise math, hardtanh, elu, round(decimals=), the bit shifts, prod, logsumexp, baddbmm, roll,
    linspace and eye. Those torch counts in its core ATen opset are tagged so (fmod, atan2, the trigonometry, log2,
    log10, prod, hardtanh, elu); torch's export decomposes the others."""

    def shift_rows(name, dunder, kernel):
        """A bit shift's rows: torch's named overloads, Python's operator overloads (x << y records
        __lshift__) and their in-place forms. Integers only, so no derivatives."""
        inplace_dunder = dunder.replace("__", "__i", 1)
        return [
            op(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, kernel),
            op(f"{name}.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, kernel),
            op(f"{name}.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", POINTWISE, kernel),
            op(f"{dunder}.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, kernel),
            op(f"{dunder}.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, kernel),
            inplace(f"{name}_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", kernel),
            inplace(f"{name}_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", kernel),
            inplace(f"{inplace_dunder}.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", kernel,
                    functional=f"{dunder}.Tensor"),
            inplace(f"{inplace_dunder}.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", kernel,
                    functional=f"{dunder}.Scalar"),
        ]

    return [
        op("fmod.Tensor(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, k2.fmod, f.fmod_tensor,
           grad_fn="FmodBackward1"),
        op("fmod.Scalar(Tensor self, Scalar other) -> Tensor", CORE_POINTWISE, k2.fmod, _same_grad),
        op("remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", POINTWISE, pw.remainder,  # `3 % x`
           k2.no_derivative_formula("aten::remainder"), grad_fn="torch::autograd::NotImplemented"),
        # `x // y`: its own op in torch's graphs, div with the floor rounding mode in its decomposition tables; not
        # tagged pointwise in ATen, so the min-cut saves its result where it would recompute a div
        op("floor_divide(Tensor self, Tensor other) -> Tensor", ("wraps_numbers",), _floor_divide_kernel,
           k2.no_derivative_formula("aten::floor_divide"), grad_fn="torch::autograd::NotImplemented",
           decomposition=_floor_division),
        # (composite in torch: div.Tensor under autograd; tensorify_python_scalars records it whole)
        op("true_divide.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.div, d.div_tensor,
           lambda self, other: d.aten.div.Tensor(self, other), "DivBackward0", self_value_for=("other",)),
        op("atan2(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, k2.atan2, f.atan2),
        op("lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", POINTWISE, k2.lerp, f.lerp_scalar),
        op("lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", POINTWISE, k2.lerp, f.lerp_tensor,
           grad_fn="LerpBackward1"),
        # x & True, 3 | x: a Python number is a Scalar argument (table.py holds the .Tensor overloads)
        *[op(f"{name}.Scalar(Tensor self, Scalar other) -> Tensor", CORE_POINTWISE, getattr(pw, name))
          for name in ("bitwise_and", "bitwise_or", "bitwise_xor")],
        *[op(f"{name}.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", POINTWISE, getattr(pw, name))
          for name in ("bitwise_and", "bitwise_or", "bitwise_xor")],
        *shift_rows("bitwise_left_shift", "__lshift__", k2.bitwise_left_shift),
        *shift_rows("bitwise_right_shift", "__rshift__", k2.bitwise_right_shift),
        *[op(f"{name}(Tensor self) -> Tensor", CORE_POINTWISE, getattr(k2, name), getattr(f, name))
          for name in ("log2", "log10", "tan", "asin", "acos", "atan", "sinh", "cosh")],
        op("exp2(Tensor self) -> Tensor", POINTWISE, k2.exp2, f.exp2),
        op("hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", CORE_POINTWISE, k2.hardtanh,
           f.hardtanh, decomposition=dec.hardtanh),
        op("hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor", (),
           k2.hardtanh_backward, f.hardtanh_backward, decomposition=dec.hardtanh_backward),
        inplace("hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", k2.hardtanh,
                f.hardtanh_inplace, "HardtanhBackward0", decomposition=dec.inplace_by_copy(dec.hardtanh)),
        op("elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", CORE_POINTWISE, k2.elu,
           f.elu, decomposition=dec.elu),
        op("elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, "
           "Tensor self_or_result) -> Tensor", POINTWISE, k2.elu_backward, f.elu_backward,
           decomposition=dec.elu_backward),
        inplace("elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)", k2.elu,
                f.elu_inplace, "EluBackward1", decomposition=dec.inplace_by_copy(dec.elu)),
        op("round.decimals(Tensor self, *, int decimals) -> Tensor", POINTWISE, k2.round_decimals, d.zero_grad,
           grad_fn="RoundBackward1", decomposition=f.round_decimals_decomposition),
        op("softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", POINTWISE, k2.softplus,
           f.softplus, decomposition=f.softplus_decomposition),
        op("softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor",
           POINTWISE, k2.softplus_backward, f.softplus_backward,
           decomposition=f.softplus_backward_decomposition),
        inplace("lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", k2.lerp, f.lerp_scalar,
                "LerpBackward0", into_self=fast.lerp_into_self),
        inplace("lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", k2.lerp, f.lerp_tensor,
                "LerpBackward1"),
        op("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", CORE_REDUCTION, k.prod_default, f.prod_default),
        op("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
           CORE_REDUCTION, k.prod_dim, f.prod_dim_int, grad_fn="ProdBackward1"),
        op("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", REDUCTION, k.logsumexp,
           f.logsumexp, decomposition=f.logsumexp_decomposition),
        op("baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", (),
           k.baddbmm, f.baddbmm),
        op("roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", (), k.roll, f.roll),
        op(f"linspace(Scalar start, Scalar end, int steps, *, {OPTIONS}) -> Tensor", FACTORY, k.linspace),
        op(f"eye.m(SymInt n, SymInt m, *, {OPTIONS}) -> Tensor", FACTORY, k.eye),
        op(f"eye(SymInt n, *, {OPTIONS}) -> Tensor", FACTORY, k.eye),
    ]


_floor_divide_kernel = tuple(functools.partial(f, rounding_mode="floor") for f in pw.div_mode)  # (kernel, meta)


def _floor_division(self, other):
    return d.aten.div.Tensor_mode(self, other, rounding_mode="floor")


def rows(op, inplace):
    return [
        *_rarer_math_rows(op, inplace),
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
        op("xlogy.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, k.xlogy, f.xlogy_tensor,
           decomposition=xlogy_dec.xlogy),
        op("xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor", POINTWISE, k.xlogy, f.xlogy_scalar_other,
           grad_fn="XlogyBackward1"),
        op("xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", POINTWISE, k.xlogy, f.xlogy_scalar_self,
           grad_fn="XlogyBackward2"),
        op("heaviside(Tensor self, Tensor values) -> Tensor", POINTWISE, k.heaviside, method=True),
        *[op(f"{name}(Tensor self) -> Tensor", tags, getattr(k2, name), getattr(k2, f"{name}_formula"),
             grad_fn=d_name(name), method=True)
          for name, tags in (("acosh", CORE_POINTWISE), ("asinh", CORE_POINTWISE), ("atanh", CORE_POINTWISE),
                             ("deg2rad", POINTWISE), ("rad2deg", POINTWISE))],
        *[op(f"{name}(Tensor self, Tensor other) -> Tensor", POINTWISE, getattr(k2, name),
             getattr(k2, f"{name}_formula"), method=True) for name in ("fmax", "fmin", "logaddexp2")],
        op("nextafter(Tensor self, Tensor other) -> Tensor", POINTWISE, k2.nextafter, k2.nextafter_formula,
           method=True),
        *[op(f"{name}(Tensor self, Tensor other) -> Tensor", POINTWISE, getattr(k2, name), differentiable=False,
             method=True) for name in ("gcd", "lcm")],
        # in-place forms
        inplace("abs_(Tensor(a!) self) -> Tensor(a!)", pw.abs, d.abs, "AbsBackward0", method=True),
        inplace("log_(Tensor(a!) self) -> Tensor(a!)", pw.log, d.log, "LogBackward0", tags=("pointwise",),
                method=True),
        inplace("logical_not_(Tensor(a!) self) -> Tensor(a!)", pw.logical_not, tags=("pointwise",), method=True),
        inplace("addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
                k.addmm_checked, d.addmm, "AddmmBackward0", method=True),
        *_more_in_place_rows(op, inplace),
        # reductions (all is not core ATen: it decomposes into not-any-not, as torch's tables write it)
        op("any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", CORE_REDUCTION, red.any_dims),
        op("all(Tensor self) -> Tensor", REDUCTION, red.all_default, decomposition=all_dec.all_default),
        op("all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", REDUCTION, red.all_dims,
           decomposition=all_dec.all_dims),
        op("all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", REDUCTION, red.all_dims,
           decomposition=all_dec.all_dim),
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
        op("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", CORE, k2.cumsum, f.cumsum),
        op("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", (), k2.cumprod, f.cumprod,
           method=True),
        op("median(Tensor self) -> Tensor", SELECTION, sel.median, f.median),
        op("median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", SELECTION,
           sel.median_dim, f.selected_values, grad_fn="MedianBackward1", output_differentiability=(True, False)),
        op("kthvalue(Tensor self, SymInt k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
           SELECTION, sel.kthvalue, f.selected_values, output_differentiability=(True, False)),
        op("cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", SELECTION, sel.cummax, f.cummaxmin,
           output_differentiability=(True, False)),
        op("cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", SELECTION, sel.cummin, f.cummaxmin,
           output_differentiability=(True, False)),
        # shapes and copies
        op("tril(Tensor self, SymInt diagonal=0) -> Tensor", (), ki.tril, f.tril, decomposition=dec.tril),
        op("triu(Tensor self, SymInt diagonal=0) -> Tensor", (), ki.triu, f.triu, decomposition=dec.triu),
        op("flip(Tensor self, int[] dims) -> Tensor", CORE, ki.flip, f.flip),
        op("repeat(Tensor self, SymInt[] repeats) -> Tensor", CORE, ki.repeat, f.repeat),
        op("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", CORE, ki.constant_pad_nd,
           f.constant_pad_nd),
        op("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", ("view",), ki.unfold, f.unfold,
           method=True),
        op("unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> Tensor", (),
           ki.unfold_backward, f.unfold_backward),
        op("rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", (), ki.rot90, f.rot90,
           decomposition=f.rot90_decomposition, method=True),
        op("diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", ("view_copy",),
           ki.diagonal_copy, f.diagonal_copy, grad_fn="DiagonalBackward0_copy", decomposition=f.diagonal_copy_decomposition),
        op("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", (), ki.diag_embed,
           f.diag_embed, method=True),
        op("_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor", CORE, k.cdist_forward,
           f.cdist_forward, grad_fn="CdistBackward0"),
        op("_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor", (),
           k.cdist_backward),
        # data-dependent output sizes
        op("nonzero(Tensor self) -> Tensor", CORE, ki.nonzero),
        op("masked_select(Tensor self, Tensor mask) -> Tensor", DYNAMIC, ki.masked_select, f.masked_select,
           method=True),
        op("_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) "
           "-> (Tensor, Tensor, Tensor)", DYNAMIC, ki.unique2, differentiable=False),
        op("unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) "
           "-> (Tensor, Tensor, Tensor)", DYNAMIC, ki.unique_dim, differentiable=False),
        op("unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) "
           "-> (Tensor, Tensor, Tensor)", DYNAMIC, ki.unique_consecutive, differentiable=False),
        op("bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor", DYNAMIC, ki.bincount,
           differentiable=False, method=True),
        op("repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor", DYNAMIC,
           ki.repeat_interleave, differentiable=False),
        # lookups (integer or bool results)
        op("isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) "
           "-> Tensor", (), ki.isin),
        op("isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) "
           "-> Tensor", (), ki.isin),
        op("isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) "
           "-> Tensor", (), ki.isin),
        op("searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, "
           "str? side=None, Tensor? sorter=None) -> Tensor", (), ki.searchsorted),
        op("searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, "
           "str? side=None, Tensor? sorter=None) -> Tensor", (), ki.searchsorted),
        op("bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", (),
           ki.bucketize),
        op("bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor", (),
           ki.bucketize),
        op(f"tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY,
           ki.tril_indices),
        op(f"triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY,
           ki.triu_indices),
    ]
