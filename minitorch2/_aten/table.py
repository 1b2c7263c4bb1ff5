"""THE operator table: every aten op minitorch2 knows, one row each.

Runtime layer. A row names the op by its ATen schema and points at its parts:

    op(schema, tags, (kernel, meta), derivative, decomposition, grad_fn=...)

An in-place row (`inplace(...)`, or an op with the "inplace" tag) also names its functional form, the overload
functionalization puts in its place: `add_.Tensor` -> `add.Tensor` by default, `functional="bernoulli.p"` where the
name says otherwise. A row marked `method=True` is also a Tensor method of its name that calls it with the arguments
as given (`x.addcmul_(a, b, value=2)`): _tensor_methods.py makes those from the rows.

Kernels and meta functions live in the family modules (pointwise, reductions, views, linalg, indexing,
indexing_reduce, sorting, memory, factories, nn_ops, nn_bce, nn_upsample, random_ops); derivative formulas in
derivatives.py; decompositions in decompositions.py, decompositions_nn.py and decompositions_upsample.py. Nothing
registers itself anywhere else: to add an op, add a row here.
"""
from dataclasses import dataclass

import numpy as np

from ..autograd._record import Derivative
from . import decompositions as dec
from . import decompositions_nn as decnn
from . import derivatives as d
from . import derivatives_shape as ds
from . import factories, indexing, linalg, memory, pointwise as pw, random_ops, reductions as red, views
from . import nn_conv, nn_norm, nn_ops, derivatives_nn as dnn
from . import masked_index, prims
from . import indexing_reduce
from . import decompositions_upsample as decup
from . import nn_bce, nn_upsample, sorting
from . import table_extra, table_more, table_nn_more
from .overlap import Overlap, checked as checked_overlap

POINTWISE = ("pointwise", "core")
REDUCTION = ("reduction", "core")
VIEW = ("view", "core")
INPLACE = ("inplace",)
FACTORY = ("factory", "core")
RANDOM = ("random", "nondeterministic_seeded")
CORE = ("core",)
# A factory's tensor options, after its arguments (native_functions.yaml spells them out in every schema).
LAYOUT = "Layout? layout=None, Device? device=None, bool? pin_memory=None"
OPTIONS = f"ScalarType? dtype=None, {LAYOUT}"


@dataclass
class OpEntry:
    schema: str
    tags: tuple
    kernel: object
    meta: object
    derivative: object = None
    decomposition: object = None
    grad_fn_name: str = ""
    differentiable: bool = True
    output_differentiability: tuple = None
    functional: str = ""  # an in-place op's functional overload, "add.Tensor" ("" for the others)
    method: bool = False  # Tensor.<name> calls this overload with the arguments as given


def op(schema, tags, impl, derivative=None, decomposition=None, grad_fn=None, differentiable=True,
       output_differentiability=None, overlap=None, functional=None, self_value_for=None, method=False):
    """A table row. `differentiable=False` marks ops whose outputs never carry a grad_fn (detach);
    a differentiable op without a derivative gets a grad_fn that raises when the backward reaches it;
    `output_differentiability` (as in derivatives.yaml) lists which outputs get the grad_fn.

    An in-place op checks its memory overlap (overlap.py) by `overlap`, Overlap.POINTWISE unless the row
    says otherwise; `functional` names its functional overload where dropping the trailing underscore
    does not; `self_value_for` lists the arguments for whose gradients alone its formula reads self's
    value (mul_: other's), so self is copied before the write only when one of them needs a gradient.
    `method=True`: Tensor.<name> is this overload, called with the tensor and the arguments as given."""
    name, _, overload = schema.split("(")[0].split("::")[-1].partition(".")
    if "inplace" in tags:
        impl = checked_overlap(impl, overlap or Overlap.POINTWISE)
        functional = functional or f"{name.rstrip('_')}.{overload or 'default'}"
    kernel, meta = impl
    differentiable = differentiable and "factory" not in tags  # fresh tensors never carry history
    deriv = Derivative(derivative, grad_fn, self_value_for) if derivative is not None else None
    return OpEntry(schema, tags, kernel, meta, deriv, decomposition, grad_fn or _grad_fn_name(name), differentiable,
                   output_differentiability, functional or "", method)


def _zeros_like_grad(grad):
    return d.aten.zeros_like.default(grad)


def _grad_fn_name(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) + "Backward0"


def inplace(schema, functional_impl, derivative=None, grad_fn=None, tags=(), ufunc=None, into_self=None, overlap=None,
            decomposition=None, functional=None, self_value_for=None, method=False):
    """An in-place row whose kernel runs `functional_impl` into self (memory.inplace)."""
    return op(schema, INPLACE + tuple(tags), memory.inplace(functional_impl, ufunc, into_self), derivative,
              decomposition, grad_fn=grad_fn, overlap=overlap, functional=functional, self_value_for=self_value_for,
              method=method)


def _shift_ops(name, dunder, kernel):
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
        inplace(f"{inplace_dunder}.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", kernel, functional=f"{dunder}.Tensor"),
        inplace(f"{inplace_dunder}.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", kernel, functional=f"{dunder}.Scalar"),
    ]


TABLE = [
    # ------------------------------------------------------------ arithmetic
    op("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", POINTWISE, pw.add, d.add_tensor),
    op("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", POINTWISE, pw.add, d.add_scalar, grad_fn="AddBackward1"),
    op("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", POINTWISE, pw.sub, d.sub_tensor),
    op("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", POINTWISE, pw.sub, d.add_scalar, grad_fn="SubBackward1"),
    op("rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", POINTWISE, pw.rsub, d.rsub_tensor,
       decomposition=dec.rsub),
    op("rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", POINTWISE, pw.rsub, d.rsub_scalar, grad_fn="RsubBackward1",
       decomposition=dec.rsub),
    op("mul.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.mul, d.mul_tensor, self_value_for=("other",)),
    op("mul.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, pw.mul, d.mul_scalar, grad_fn="MulBackward1"),
    op("div.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.div, d.div_tensor, self_value_for=("other",)),
    op("div.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, pw.div, d.div_scalar, grad_fn="DivBackward1"),
    op("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", POINTWISE, pw.div_mode,
       lambda grad, self, other: (d.aten.zeros_like.default(self), None), grad_fn="DivBackward2"),
    op("remainder.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.remainder, d.remainder_tensor,
       grad_fn="RemainderBackward1"),
    op("remainder.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, pw.remainder, lambda grad: grad, grad_fn="RemainderBackward0"),
    op("fmod.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.fmod, d.fmod_tensor, grad_fn="FmodBackward1"),
    op("fmod.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, pw.fmod, lambda grad: grad),
    op("neg(Tensor self) -> Tensor", POINTWISE, pw.neg, d.neg),
    op("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", POINTWISE, pw.pow_, d.pow_tensor_scalar),
    op("pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", POINTWISE, pw.pow_, d.pow_tensor_tensor, grad_fn="PowBackward1"),
    op("pow.Scalar(Scalar self, Tensor exponent) -> Tensor", POINTWISE, pw.pow_scalar, d.pow_scalar, grad_fn="PowBackward2"),
    op("maximum(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.maximum, d.maximum),
    op("minimum(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.minimum, d.minimum),
    op("atan2(Tensor self, Tensor other) -> Tensor", POINTWISE, pw.atan2, d.atan2),
    op("lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", POINTWISE, pw.lerp, d.lerp_scalar),
    op("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", POINTWISE, pw.addcmul, d.addcmul),
    op("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", POINTWISE, pw.addcdiv, d.addcdiv),
    # ------------------------------------------------------------ comparisons and logic (never differentiable)
    *[op(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, getattr(pw, name)) for name in ("eq", "ne", "lt", "le", "gt", "ge")],
    *[op(f"{name}.Scalar(Tensor self, Scalar other) -> Tensor", POINTWISE, getattr(pw, name)) for name in ("eq", "ne", "lt", "le", "gt", "ge")],
    *[op(f"{name}(Tensor self, Tensor other) -> Tensor", POINTWISE, getattr(pw, name)) for name in ("logical_and", "logical_or", "logical_xor")],
    *[op(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor", POINTWISE, getattr(pw, name)) for name in ("bitwise_and", "bitwise_or", "bitwise_xor")],
    *_shift_ops("bitwise_left_shift", "__lshift__", pw.bitwise_left_shift),
    *_shift_ops("bitwise_right_shift", "__rshift__", pw.bitwise_right_shift),
    op("logical_not(Tensor self) -> Tensor", POINTWISE, pw.logical_not),
    op("bitwise_not(Tensor self) -> Tensor", POINTWISE, pw.bitwise_not),
    op("isnan(Tensor self) -> Tensor", POINTWISE, pw.isnan),
    op("isinf(Tensor self) -> Tensor", POINTWISE, pw.isinf),
    op("isfinite(Tensor self) -> Tensor", POINTWISE, pw.isfinite),
    op("sign(Tensor self) -> Tensor", POINTWISE, pw.sign, d.zero_grad),
    op("sgn(Tensor self) -> Tensor", POINTWISE, pw.sign, d.zero_grad, decomposition=dec.sgn),
    op("floor(Tensor self) -> Tensor", POINTWISE, pw.floor, d.zero_grad),
    op("ceil(Tensor self) -> Tensor", POINTWISE, pw.ceil, d.zero_grad),
    op("trunc(Tensor self) -> Tensor", POINTWISE, pw.trunc, d.zero_grad),
    op("round(Tensor self) -> Tensor", POINTWISE, pw.round, d.zero_grad),
    op("round.decimals(Tensor self, *, int decimals) -> Tensor", POINTWISE, pw.round_decimals, d.zero_grad,
       grad_fn="RoundBackward1", decomposition=dec.round_decimals),
    # ------------------------------------------------------------ unary math
    op("abs(Tensor self) -> Tensor", POINTWISE, pw.abs, d.abs),
    op("exp(Tensor self) -> Tensor", POINTWISE, pw.exp, d.exp),
    op("exp2(Tensor self) -> Tensor", POINTWISE, pw.exp2, d.exp2),
    op("expm1(Tensor self) -> Tensor", POINTWISE, pw.expm1, d.expm1),
    op("log(Tensor self) -> Tensor", POINTWISE, pw.log, d.log),
    op("log2(Tensor self) -> Tensor", POINTWISE, pw.log2, d.log2),
    op("log10(Tensor self) -> Tensor", POINTWISE, pw.log10, d.log10),
    op("log1p(Tensor self) -> Tensor", POINTWISE, pw.log1p, d.log1p, grad_fn="Log1PBackward0"),
    op("sin(Tensor self) -> Tensor", POINTWISE, pw.sin, d.sin),
    op("cos(Tensor self) -> Tensor", POINTWISE, pw.cos, d.cos),
    op("tan(Tensor self) -> Tensor", POINTWISE, pw.tan, d.tan),
    op("asin(Tensor self) -> Tensor", POINTWISE, pw.asin, d.asin),
    op("acos(Tensor self) -> Tensor", POINTWISE, pw.acos, d.acos),
    op("atan(Tensor self) -> Tensor", POINTWISE, pw.atan, d.atan),
    op("sinh(Tensor self) -> Tensor", POINTWISE, pw.sinh, d.sinh),
    op("cosh(Tensor self) -> Tensor", POINTWISE, pw.cosh, d.cosh),
    op("sqrt(Tensor self) -> Tensor", POINTWISE, pw.sqrt, d.sqrt),
    op("rsqrt(Tensor self) -> Tensor", POINTWISE, pw.rsqrt, d.rsqrt),
    op("reciprocal(Tensor self) -> Tensor", POINTWISE, pw.reciprocal, d.reciprocal),
    op("tanh(Tensor self) -> Tensor", POINTWISE, pw.tanh, d.tanh),
    op("sigmoid(Tensor self) -> Tensor", POINTWISE, pw.sigmoid, d.sigmoid),
    op("erf(Tensor self) -> Tensor", POINTWISE, pw.erf, d.erf),
    # ------------------------------------------------------------ activations and their backward kernels
    op("relu(Tensor self) -> Tensor", POINTWISE, pw.relu, d.relu),
    op("threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", POINTWISE, pw.threshold, d.threshold),
    op("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor", POINTWISE, pw.threshold_backward, d.threshold_backward,
       decomposition=dec.threshold_backward),
    op("gelu(Tensor self, *, str approximate='none') -> Tensor", POINTWISE, pw.gelu, d.gelu, decomposition=dec.gelu),
    op("gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor", POINTWISE, pw.gelu_backward,
       d.gelu_backward, decomposition=dec.gelu_backward),
    op("silu(Tensor self) -> Tensor", POINTWISE, pw.silu, d.silu, decomposition=dec.silu),
    op("silu_backward(Tensor grad_output, Tensor self) -> Tensor", POINTWISE, pw.silu_backward,
       decomposition=dec.silu_backward),
    op("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor", POINTWISE, pw.sigmoid_backward, d.sigmoid_backward,
       decomposition=dec.sigmoid_backward),
    op("tanh_backward(Tensor grad_output, Tensor output) -> Tensor", POINTWISE, pw.tanh_backward, d.tanh_backward,
       decomposition=dec.tanh_backward),
    op("leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", POINTWISE, pw.leaky_relu, d.leaky_relu,
       decomposition=dec.leaky_relu),
    op("leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) -> Tensor", CORE,
       pw.leaky_relu_backward, d.leaky_relu_backward, decomposition=dec.leaky_relu_backward),
    op("hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", POINTWISE, pw.hardtanh, d.hardtanh,
       decomposition=dec.hardtanh),
    op("hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor", CORE,
       pw.hardtanh_backward, d.hardtanh_backward, decomposition=dec.hardtanh_backward),
    op("softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", POINTWISE, pw.softplus, d.softplus,
       decomposition=dec.softplus),
    op("softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor", POINTWISE,
       pw.softplus_backward, d.softplus_backward, decomposition=dec.softplus_backward),
    op("elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", POINTWISE, pw.elu, d.elu,
       decomposition=dec.elu),
    op("elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, "
       "Tensor self_or_result) -> Tensor", POINTWISE, pw.elu_backward, d.elu_backward, decomposition=dec.elu_backward),
    op("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", POINTWISE, pw.where, d.where),
    op("clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", POINTWISE, pw.clamp, d.clamp, grad_fn="ClampBackward1"),
    op("clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", POINTWISE, pw.clamp, d.clamp_tensor),
    op("clamp_min(Tensor self, Scalar min) -> Tensor", POINTWISE, pw.clamp_min, d.clamp_min),
    op("clamp_max(Tensor self, Scalar max) -> Tensor", POINTWISE, pw.clamp_max, d.clamp_max),
    op("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", POINTWISE, pw.masked_fill, d.masked_fill_scalar,
       decomposition=dec.masked_fill_scalar),
    op("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", POINTWISE, pw.masked_fill, d.masked_fill_tensor, grad_fn="MaskedFillBackward1",
       decomposition=dec.masked_fill_tensor),
    # ------------------------------------------------------------ in-place forms
    inplace("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", pw.add, d.add_tensor, "AddBackward0", ufunc=np.add,
            method=True),
    inplace("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", pw.add, d.add_scalar, "AddBackward1", ufunc=np.add),
    inplace("sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", pw.sub, d.sub_tensor, "SubBackward0", ufunc=np.subtract,
            method=True),
    # mul_ and div_ copy self before the write only when other needs a gradient, as torch's generated code does
    inplace("mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.mul, d.mul_tensor, "MulBackward0", ufunc=np.multiply,
            self_value_for=("other",), method=True),
    inplace("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", pw.mul, d.mul_scalar, "MulBackward1", ufunc=np.multiply),
    inplace("div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.div, d.div_tensor, "DivBackward0", ufunc=np.true_divide,
            self_value_for=("other",), method=True),
    inplace("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", pw.div, d.div_scalar, "DivBackward1", ufunc=np.true_divide),
    inplace("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", pw.pow_, d.pow_tensor_scalar, "PowBackward0",
            functional="pow.Tensor_Scalar", method=True),
    inplace("neg_(Tensor(a!) self) -> Tensor(a!)", pw.neg, d.neg, "NegBackward0", method=True),
    # formulas reading `result` read the mutated self, as PyTorch's in-place variants save it
    inplace("relu_(Tensor(a!) self) -> Tensor(a!)", pw.relu, d.relu, "ReluBackward0", method=True),
    inplace("sigmoid_(Tensor(a!) self) -> Tensor(a!)", pw.sigmoid, d.sigmoid, "SigmoidBackward0", method=True),
    inplace("tanh_(Tensor(a!) self) -> Tensor(a!)", pw.tanh, d.tanh, "TanhBackward0", method=True),
    inplace("exp_(Tensor(a!) self) -> Tensor(a!)", pw.exp, d.exp, "ExpBackward0", method=True),
    inplace("sqrt_(Tensor(a!) self) -> Tensor(a!)", pw.sqrt, d.sqrt, "SqrtBackward0", method=True),
    inplace("clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", pw.clamp, d.clamp, "ClampBackward1",
            method=True),
    inplace("leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", pw.leaky_relu,
            d.leaky_relu_inplace, "LeakyReluBackward1", decomposition=dec.inplace_by_copy(dec.leaky_relu)),
    inplace("elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)", pw.elu,
            d.elu_inplace, "EluBackward1", decomposition=dec.inplace_by_copy(dec.elu)),
    inplace("hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", pw.hardtanh,
            d.hardtanh_inplace, "HardtanhBackward0", decomposition=dec.inplace_by_copy(dec.hardtanh)),
    inplace("clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", pw.clamp_min, d.clamp_min, "ClampMinBackward0",
            method=True),
    inplace("masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", pw.masked_fill, d.masked_fill_scalar, "MaskedFillBackward0",
            overlap=Overlap.MASKED, method=True),
    inplace("addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", pw.addcmul,
            d.addcmul, "AddcmulBackward0", into_self=pw.addcmul_into_self, method=True),
    inplace("addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", pw.addcdiv,
            d.addcdiv, "AddcdivBackward0", into_self=pw.addcdiv_into_self, method=True),
    inplace("lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", pw.lerp, d.lerp_scalar,
            "LerpBackward0", into_self=pw.lerp_into_self, method=True),
    inplace("logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.logical_and),
    inplace("maximum_(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.maximum),
    op("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", INPLACE, memory.copy_,
       lambda grad, src_shape: (d.aten.zeros_like.default(grad), d.sum_to(grad, src_shape)), grad_fn="torch::autograd::CopyBackwards",
       overlap=Overlap.COPY),
    op("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", INPLACE, memory.fill_, _zeros_like_grad,
       grad_fn="FillBackward2", overlap=Overlap.NONE),
    op("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", INPLACE, memory.fill_,
       lambda grad: (d.aten.zeros_like.default(grad), d.aten.sum.default(grad)), grad_fn="FillBackward3",
       overlap=Overlap.INTERNAL),
    op("zero_(Tensor(a!) self) -> Tensor(a!)", INPLACE, memory.zero_, _zeros_like_grad,
       overlap=Overlap.NONE, method=True),
    op("index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", INPLACE,
       indexing.index_put_, ds.index_put, grad_fn="IndexPutBackward0", overlap=Overlap.INDEXED),
    inplace("index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)",
            indexing_reduce.index_copy, ds.index_copy, "IndexCopyBackward0",
            decomposition=dec.inplace_by_copy(dec.index_copy), method=True),
    inplace("index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
            indexing_reduce.index_fill, ds.index_fill_scalar, "IndexFillBackward0", overlap=Overlap.INDEXED,
            decomposition=dec.inplace_by_copy(dec.index_fill)),
    inplace("index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
            indexing_reduce.index_fill, ds.index_fill_tensor, "IndexFillBackward1", overlap=Overlap.INDEXED,
            decomposition=dec.inplace_by_copy(dec.index_fill)),
    inplace("scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, "
            "bool include_self=True) -> Tensor(a!)", indexing_reduce.scatter_reduce, ds.scatter_reduce,
            "ScatterReduceBackward0", method=True),
    # ------------------------------------------------------------ functional forms of in-place ops (functionalization)
    op("copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", CORE, memory.copy, ds.copy),
    op("fill.Scalar(Tensor self, Scalar value) -> Tensor", CORE, memory.fill, _zeros_like_grad),
    op("fill.Tensor(Tensor self, Tensor value) -> Tensor", CORE, memory.fill_tensor,
       lambda grad: (d.aten.zeros_like.default(grad), d.aten.sum.default(grad)), grad_fn="FillBackward1"),
    op("zero(Tensor self) -> Tensor", CORE, memory.zero, _zeros_like_grad),
    op("slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor",
       CORE, indexing.slice_scatter, ds.slice_scatter),
    op("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor", CORE, indexing.select_scatter,
       ds.select_scatter),
    op("diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor", CORE,
       indexing.diagonal_scatter, ds.diagonal_scatter),
    # ------------------------------------------------------------ reductions
    op("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", REDUCTION, red.sum_default, d.sum_default),
    op("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", REDUCTION,
       red.sum_dim, d.sum_dim, grad_fn="SumBackward1"),
    op("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", REDUCTION, red.mean_default, d.mean_default),
    op("mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", REDUCTION,
       red.mean_dim, d.mean_dim, grad_fn="MeanBackward1"),
    op("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", REDUCTION, red.prod_default, d.prod_default),
    op("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", REDUCTION,
       red.prod_dim, d.prod_dim_int, grad_fn="ProdBackward1"),
    op("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", REDUCTION, red.amax, d.amax),
    op("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", REDUCTION, red.amin, d.amin),
    op("max(Tensor self) -> Tensor", REDUCTION, red.max_default, d.max_default, grad_fn="MaxBackward1"),
    op("min(Tensor self) -> Tensor", REDUCTION, red.min_default, d.max_default, grad_fn="MinBackward1"),
    op("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", REDUCTION, red.max_dim, d.max_dim),
    op("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", REDUCTION, red.min_dim, d.max_dim),
    # sorting (sorting.py); argsort is sort's indices, as torch's composite argsort
    op("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", CORE, sorting.sort,
       d.sort_stable, grad_fn="SortBackward0", output_differentiability=(True, False)),
    op("sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
       CORE, sorting.sort_stable, d.sort_stable, grad_fn="SortBackward1", output_differentiability=(True, False)),
    op("topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
       CORE, sorting.topk, d.sort_stable, grad_fn="TopkBackward0", output_differentiability=(True, False)),
    op("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", REDUCTION, red.argmax),
    op("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", REDUCTION, red.argmin),
    op("var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor", REDUCTION,
       red.var, d.var_correction, grad_fn="VarBackward0"),
    op("std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor", REDUCTION,
       red.std, d.std_correction, grad_fn="StdBackward0", decomposition=dec.std),
    op("var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)",
       REDUCTION, red.var_mean, lambda grads, self, dim=None, correction=None, keepdim=False: _var_mean_backward(grads, self, dim, correction, keepdim),
       decomposition=dec.var_mean),
    op("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", REDUCTION, red.logsumexp, d.logsumexp,
       decomposition=decnn.logsumexp),
    op("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", CORE, red.cumsum, d.cumsum),
    op("any(Tensor self) -> Tensor", REDUCTION, red.any_default),
    op("any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", REDUCTION, red.any_dims),
    op("all(Tensor self) -> Tensor", REDUCTION, red.all_default),
    op("all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", REDUCTION, red.all_dims),
    # ------------------------------------------------------------ matrix products
    op("mm(Tensor self, Tensor mat2) -> Tensor", CORE, linalg.mm, d.mm),
    op("bmm(Tensor self, Tensor mat2) -> Tensor", CORE, linalg.bmm, d.bmm),
    op("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", CORE, linalg.addmm, d.addmm,
       decomposition=dec.addmm),
    op("baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", CORE, linalg.baddbmm, d.baddbmm),
    op("dot(Tensor self, Tensor tensor) -> Tensor", CORE, linalg.dot, d.dot),
    op("mv(Tensor self, Tensor vec) -> Tensor", CORE, linalg.mv, d.mv, decomposition=dec.mv),
    # ------------------------------------------------------------ views
    op("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", VIEW, views.view, ds.view),
    op("_unsafe_view(Tensor self, SymInt[] size) -> Tensor", CORE, views.unsafe_view, ds.unsafe_view,
       decomposition=dec.unsafe_view),
    op("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", VIEW, views.expand, ds.expand),
    op("permute(Tensor(a) self, int[] dims) -> Tensor(a)", VIEW, views.permute, ds.permute),
    op("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", VIEW, views.transpose, ds.transpose,
       decomposition=dec.transpose),
    op("t(Tensor(a) self) -> Tensor(a)", VIEW, views.t, ds.t, decomposition=dec.t),
    op("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", VIEW, views.unsqueeze, ds.unsqueeze),
    op("squeeze(Tensor(a) self) -> Tensor(a)", VIEW, views.squeeze, ds.squeeze_default),
    op("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", VIEW, views.squeeze_dim, ds.squeeze_dim, grad_fn="SqueezeBackward1"),
    op("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", VIEW, views.squeeze_dims, ds.squeeze_dims, grad_fn="SqueezeBackward2"),
    op("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)", VIEW, views.select, ds.select),
    op("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)", VIEW,
       views.slice_, ds.slice_tensor),
    op("as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)", VIEW,
       views.as_strided, ds.as_strided),
    op("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", VIEW, views.diagonal, ds.diagonal),
    op("alias(Tensor(a) self) -> Tensor(a)", VIEW, views.alias, ds.alias),
    op("detach(Tensor(a) self) -> Tensor(a)", VIEW, views.detach, differentiable=False, decomposition=dec.detach,
       method=True),
    op("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]", VIEW, views.split, ds.split),
    op("split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]", VIEW, views.split_with_sizes,
       ds.split_with_sizes),
    op("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", VIEW, views.unbind, ds.unbind),
    # ------------------------------------------------------------ copies and conversions
    op("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", CORE, memory.clone, ds.clone),
    op("_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, "
       "bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor", CORE, memory.to_copy, ds.to_copy,
       decomposition=dec._to_copy),
    op("lift_fresh(Tensor(a) self) -> Tensor(a)", CORE, factories.lift_fresh),
    op("lift_fresh_copy(Tensor self) -> Tensor", CORE, indexing.lift_fresh_copy),
    # ------------------------------------------------------------ joining, indexing, scatter/gather
    op("cat(Tensor[] tensors, int dim=0) -> Tensor", CORE, indexing.cat, ds.cat),
    op("stack(Tensor[] tensors, int dim=0) -> Tensor", CORE, indexing.stack, ds.stack, decomposition=dec.stack),
    op("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", CORE, indexing.index, ds.index),
    op("index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", CORE, indexing.index_put, ds.index_put),
    op("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", CORE, indexing.gather, ds.gather),
    op("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", CORE, indexing.scatter_src, ds.scatter_src),
    op("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", CORE, indexing.scatter_value, ds.scatter_value,
       grad_fn="ScatterBackward1"),
    op("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", CORE, indexing.scatter_add, ds.scatter_add),
    op("index_select(Tensor self, int dim, Tensor index) -> Tensor", CORE, indexing.index_select, ds.index_select),
    op("index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", CORE, indexing.index_add, ds.index_add),
    op("take(Tensor self, Tensor index) -> Tensor", (), indexing_reduce.take, ds.take, decomposition=dec.take),
    op("scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) "
       "-> Tensor", CORE, indexing_reduce.scatter_reduce, ds.scatter_reduce),
    op("index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", (), indexing_reduce.index_copy,
       ds.index_copy, decomposition=dec.index_copy),
    op("index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", (),
       indexing_reduce.index_fill, ds.index_fill_scalar, decomposition=dec.index_fill),
    op("index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", (),
       indexing_reduce.index_fill, ds.index_fill_tensor, grad_fn="IndexFillBackward1", decomposition=dec.index_fill),
    op("tril(Tensor self, int diagonal=0) -> Tensor", CORE, indexing.tril, ds.tril, decomposition=dec.tril),
    op("triu(Tensor self, int diagonal=0) -> Tensor", CORE, indexing.triu, ds.triu, decomposition=dec.triu),
    op("flip(Tensor self, int[] dims) -> Tensor", CORE, indexing.flip, ds.flip),
    op("roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", CORE, indexing.roll, ds.roll),
    op("repeat(Tensor self, SymInt[] repeats) -> Tensor", CORE, indexing.repeat, ds.repeat),
    op("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", CORE, indexing.constant_pad_nd, ds.constant_pad_nd),
    op("nonzero(Tensor self) -> Tensor", CORE, indexing.nonzero),
    op("select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor", CORE,
       indexing.select_backward, ds.select_backward, decomposition=dec.select_backward),
    op("slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step) -> Tensor", CORE,
       indexing.slice_backward, ds.slice_backward, decomposition=dec.slice_backward),
    op("diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2) -> Tensor", CORE,
       indexing.diagonal_backward, lambda grad, offset, dim1, dim2: d.aten.diagonal.default(grad, offset, dim1, dim2)),
    op("as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor", CORE,
       indexing.as_strided_scatter, ds.as_strided_scatter),
    # ------------------------------------------------------------ factories
    op(f"empty.memory_format(SymInt[] size, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY,
       factories.empty),
    op(f"zeros(SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, factories.zeros),
    op(f"ones(SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, factories.ones),
    op(f"full(SymInt[] size, Scalar fill_value, *, {OPTIONS}) -> Tensor", FACTORY, factories.full),
    op(f"scalar_tensor(Scalar s, *, {OPTIONS}) -> Tensor", FACTORY, factories.scalar_tensor),
    op(f"arange.start_step(Scalar start, Scalar end, Scalar step=1, *, {OPTIONS}) -> Tensor", FACTORY, factories.arange),
    op(f"arange(Scalar end, *, {OPTIONS}) -> Tensor", FACTORY, factories.arange_end,
       decomposition=dec.arange_from_zero),
    op(f"arange.start(Scalar start, Scalar end, *, {OPTIONS}) -> Tensor", FACTORY, factories.arange,
       decomposition=dec.arange_step_one),
    op(f"linspace(Scalar start, Scalar end, int steps, *, {OPTIONS}) -> Tensor", FACTORY, factories.linspace),
    op(f"eye.m(SymInt n, SymInt m, *, {OPTIONS}) -> Tensor", FACTORY, factories.eye),
    op(f"eye(SymInt n, *, {OPTIONS}) -> Tensor", FACTORY, factories.eye),
    *[op(f"{name}(Tensor self, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY,
         getattr(factories, name), decomposition=decomposition)
      for name, decomposition in (("empty_like", None), ("zeros_like", dec.zeros_like), ("ones_like", dec.ones_like))],
    op(f"full_like(Tensor self, Scalar fill_value, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY,
       factories.full_like, decomposition=dec.full_like),
    op(f"new_zeros(Tensor self, SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_zeros,
       decomposition=dec.new_zeros),
    op(f"new_empty(Tensor self, SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_empty),
    op(f"new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, {OPTIONS}) -> Tensor", FACTORY,
       indexing.new_empty_strided),
    op(f"new_ones(Tensor self, SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_ones,
       decomposition=dec.new_ones),
    op(f"new_full(Tensor self, SymInt[] size, Scalar fill_value, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_full,
       decomposition=dec.new_full),
    # ------------------------------------------------------------ random
    op("uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.uniform_, _zeros_like_grad),
    op("normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.normal_, _zeros_like_grad, functional="normal_functional.default", method=True),
    op("random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.random_from),
    op("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM, random_ops.random_),
    op("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", RANDOM, random_ops.bernoulli_default,
       _zeros_like_grad, method=True),
    op("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", RANDOM, random_ops.bernoulli_p,
       _zeros_like_grad, grad_fn="BernoulliBackward1"),
    op("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.bernoulli_inplace, _zeros_like_grad, grad_fn="BernoulliBackward1", functional="bernoulli.p",
       method=True),
    op("uniform(Tensor self, float from=0., float to=1., *, Generator? generator=None) -> Tensor", RANDOM,
       random_ops.uniform, _zeros_like_grad),
    op("normal_functional(Tensor self, float mean=0., float std=1., *, Generator? generator=None) -> Tensor", RANDOM,
       random_ops.normal_functional, _zeros_like_grad),
    op("multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor",
       RANDOM, random_ops.multinomial, differentiable=False),
    op(f"randperm(SymInt n, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY + RANDOM, random_ops.randperm),
    op(f"randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, {LAYOUT}) -> Tensor",
       FACTORY + RANDOM, random_ops.randperm),
    op(f"rand(SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY + RANDOM, random_ops.rand),
    op(f"rand.generator(SymInt[] size, *, Generator? generator, {OPTIONS}) -> Tensor", FACTORY + RANDOM, random_ops.rand),
    op(f"randn(SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY + RANDOM, random_ops.randn),
    op(f"randn.generator(SymInt[] size, *, Generator? generator, {OPTIONS}) -> Tensor", FACTORY + RANDOM,
       random_ops.randn),
    op(f"randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY + RANDOM,
       random_ops.randint),
    op(f"randint.generator(SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, {LAYOUT}) "
       "-> Tensor", FACTORY + RANDOM, random_ops.randint),
    op(f"randint.low(SymInt low, SymInt high, SymInt[] size, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor",
       FACTORY + RANDOM, random_ops.randint_low),
    op(f"randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, "
       f"ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY + RANDOM, random_ops.randint_low),
    op(f"normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, {OPTIONS}) -> Tensor",
       FACTORY + RANDOM, random_ops.normal_float_float),
    op(f"rand_like(Tensor self, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY + RANDOM,
       random_ops.rand_like),
    op(f"randn_like(Tensor self, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY + RANDOM,
       random_ops.randn_like),
    op(f"randint_like(Tensor self, SymInt high, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor",
       FACTORY + RANDOM, random_ops.randint_like),
    op(f"randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, {OPTIONS}, "
       "MemoryFormat? memory_format=None) -> Tensor", FACTORY + RANDOM, random_ops.randint_like_low),
    # ------------------------------------------------------------ nn ops (nn_ops.py, derivatives_nn.py): NN-SECTION-START
    # softmax
    op("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", CORE, nn_ops.softmax, dnn.softmax,
       grad_fn="SoftmaxBackward0", decomposition=decnn._softmax),
    op("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", CORE, nn_ops.log_softmax, dnn.log_softmax,
       grad_fn="LogSoftmaxBackward0", decomposition=decnn._log_softmax),
    op("_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor", (),
       nn_ops.softmax_backward_data, dnn.softmax_backward_data, decomposition=decnn._softmax_backward_data),
    op("_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor", (),
       nn_ops.log_softmax_backward_data, dnn.log_softmax_backward_data, decomposition=decnn._log_softmax_backward_data),
    # losses
    op("nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) "
       "-> (Tensor output, Tensor total_weight)", (), nn_ops.nll_loss_forward, dnn.nll_loss_forward, grad_fn="NllLossBackward0",
       output_differentiability=(True, False), decomposition=decnn.nll_loss_forward),
    op("nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index, "
       "Tensor total_weight) -> Tensor", (), nn_ops.nll_loss_backward, dnn.nll_loss_backward,
       decomposition=decnn.nll_loss_backward),
    op("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", (), nn_ops.mse_loss, dnn.mse_loss,
       decomposition=decnn.mse_loss),
    op("mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor", (),
       nn_ops.mse_loss_backward, dnn.mse_loss_backward, decomposition=decnn.mse_loss_backward),
    op("binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, "
       "int reduction=1) -> Tensor", (), nn_ops.binary_cross_entropy_with_logits, dnn.binary_cross_entropy_with_logits,
       decomposition=decnn.binary_cross_entropy_with_logits),
    # normalization
    op("native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) "
       "-> (Tensor, Tensor, Tensor)", CORE, nn_norm.native_layer_norm, dnn.native_layer_norm,
       output_differentiability=(True, False, False), decomposition=decnn.native_layer_norm),
    op("native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, "
       "Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", CORE, nn_norm.native_layer_norm_backward,
       dnn.not_implemented("native_layer_norm_backward"), decomposition=decnn.native_layer_norm_backward),
    op("native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
       "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", (), nn_norm.native_batch_norm,
       dnn.native_batch_norm,
       output_differentiability=(True, False, False)),
    op("_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, "
       "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", CORE, nn_norm.batch_norm_legit,
       dnn.native_batch_norm, grad_fn="NativeBatchNormLegitBackward0",
       output_differentiability=(True, False, False)),
    op("_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, "
       "float eps) -> (Tensor, Tensor, Tensor)", CORE, nn_norm.batch_norm_legit_no_stats, dnn.batch_norm_no_stats,
       grad_fn="NativeBatchNormLegitBackward1",
       output_differentiability=(True, False, False)),
    op("_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
       "Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, "
       "Tensor running_var_out)", (), nn_norm.batch_norm_legit_functional, dnn.native_batch_norm,
       grad_fn="NativeBatchNormLegitBackward0",
       output_differentiability=(True, False, False, False, False)),
    op("_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
       "Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)", CORE,
       nn_norm.batch_norm_legit_no_training, dnn.batch_norm_no_training,
       output_differentiability=(True, False, False)),
    op("native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, "
       "Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) "
       "-> (Tensor, Tensor, Tensor)", (), nn_norm.native_batch_norm_backward, dnn.not_implemented("native_batch_norm_backward")),
    # convolution and pooling
    op("convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, "
       "bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor", CORE, nn_conv.convolution, dnn.convolution),
    op("convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, "
       "SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) "
       "-> (Tensor, Tensor, Tensor)", CORE, nn_conv.convolution_backward, dnn.not_implemented("convolution_backward")),
    op("max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
       "bool ceil_mode=False) -> (Tensor, Tensor)", CORE, nn_conv.max_pool2d_with_indices, dnn.max_pool2d_with_indices,
       grad_fn="MaxPool2DWithIndicesBackward0"),
    op("max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
       "int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor", CORE,
       nn_conv.max_pool2d_with_indices_backward, dnn.max_pool2d_with_indices_backward,
       grad_fn="MaxPool2DWithIndicesBackwardBackward0"),
    op("avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, "
       "bool count_include_pad=True, int? divisor_override=None) -> Tensor", CORE, nn_conv.avg_pool2d, dnn.avg_pool2d,
       grad_fn="AvgPool2DBackward0"),
    op("avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, "
       "bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor", CORE, nn_conv.avg_pool2d_backward,
       dnn.avg_pool2d_backward, grad_fn="AvgPool2DBackwardBackward0"),
    op("_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", CORE, nn_conv.adaptive_avg_pool2d,
       dnn.adaptive_avg_pool2d, grad_fn="AdaptiveAvgPool2DBackward0"),
    op("_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor", CORE,
       nn_conv.adaptive_avg_pool2d_backward, dnn.adaptive_avg_pool2d_backward, grad_fn="AdaptiveAvgPool2DBackwardBackward0"),
    # embedding and dropout
    op("embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) "
       "-> Tensor", CORE, nn_ops.embedding, dnn.embedding),
    op("embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt padding_idx, "
       "bool scale_grad_by_freq) -> Tensor", CORE, nn_ops.embedding_dense_backward, dnn.embedding_dense_backward,
       decomposition=decnn.embedding_dense_backward),
    op("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)", CORE + RANDOM, nn_ops.native_dropout,
       dnn.native_dropout),
    op("native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor", ("pointwise",),
       nn_ops.native_dropout_backward, dnn.native_dropout_backward),
    # log_sigmoid and binary_cross_entropy (nn_bce.py)
    op("log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)", (), nn_bce.log_sigmoid_forward,
       dnn.log_sigmoid_forward, grad_fn="LogSigmoidBackward0", output_differentiability=(True, False),
       decomposition=dec.log_sigmoid_forward),
    op("log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor", (), nn_bce.log_sigmoid_backward,
       dnn.log_sigmoid_backward, decomposition=dec.log_sigmoid_backward),
    op("binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor", (),
       nn_bce.binary_cross_entropy, dnn.binary_cross_entropy, decomposition=dec.binary_cross_entropy),
    op("binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight=None, "
       "int reduction=1) -> Tensor", (), nn_bce.binary_cross_entropy_backward,
       dnn.not_implemented("binary_cross_entropy_backward"), decomposition=dec.binary_cross_entropy_backward),
    # upsampling (nn_upsample.py), what F.interpolate and nn.Upsample reach
    op("upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", CORE,
       nn_upsample.upsample_nearest1d, dnn.upsample_nearest1d, grad_fn="UpsampleNearest1DBackward0",
       decomposition=decup.upsample_nearest1d),
    op("upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
       CORE, nn_upsample.upsample_nearest2d, dnn.upsample_nearest2d, grad_fn="UpsampleNearest2DBackward0",
       decomposition=decup.upsample_nearest2d),
    op("upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor", (),
       nn_upsample.upsample_linear1d, dnn.upsample_linear1d, grad_fn="UpsampleLinear1DBackward0",
       decomposition=decup.upsample_linear1d),
    op("upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, "
       "float? scales_w=None) -> Tensor", CORE, nn_upsample.upsample_bilinear2d, dnn.upsample_bilinear2d,
       grad_fn="UpsampleBilinear2DBackward0", decomposition=decup.upsample_bilinear2d),
    op("upsample_nearest1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, "
       "float? scales=None) -> Tensor", (), nn_upsample.upsample_nearest1d_backward,
       dnn.not_implemented("upsample_nearest1d_backward")),
    op("upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, "
       "float? scales_h=None, float? scales_w=None) -> Tensor", (), nn_upsample.upsample_nearest2d_backward,
       dnn.upsample_nearest2d_backward),
    op("upsample_linear1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, "
       "bool align_corners, float? scales=None) -> Tensor", (), nn_upsample.upsample_linear1d_backward,
       dnn.not_implemented("upsample_linear1d_backward")),
    op("upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, "
       "bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", (),
       nn_upsample.upsample_bilinear2d_backward, dnn.upsample_bilinear2d_backward),
    # NN-SECTION-END
    # ------------------------------------------------------------ prims (prims.py): only traced graphs record them,
    # from the decompositions torch's inductor uses (nll_loss's total weight, scatter-as-where, softmax backward)
    op("prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor", ("pointwise",), prims.convert_element_type,
       grad_fn="ConvertElementTypeBackward0"),
    op("prims::iota(SymInt length, *, SymInt start, SymInt step, ScalarType dtype, Device device, bool requires_grad) "
       "-> Tensor", FACTORY, prims.iota),
    op("prims::fma(Tensor a, Tensor b, Tensor c) -> Tensor", ("pointwise",), prims.fma, grad_fn="FmaBackward0"),
    # and the scatter-add of the inductor path's embedding backward (masked_index.py)
    op("_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> Tensor", CORE,
       masked_index.unsafe_masked_index_put_accumulate),
]
TABLE += table_more.rows(op, inplace)  # the commonly used ops beyond the core set (table_more.py)
TABLE += table_nn_more.rows(op, inplace)  # the nn layers beyond the core set (table_nn_more.py)
TABLE += table_extra.rows(op, inplace)  # linalg, special, fft and the rest (table_extra.py)


def _var_mean_backward(grads, self, dim, correction, keepdim):
    var_grad, mean_grad = d._pad(grads, 2)
    result = None
    if var_grad is not None:
        result = d.var_correction(var_grad, self, dim, correction, keepdim)
    if mean_grad is not None:
        m = d.mean_dim(mean_grad, tuple(self.shape), dim if dim is not None else [], keepdim)
        result = m if result is None else d.aten.add.Tensor(result, m)
    return result
