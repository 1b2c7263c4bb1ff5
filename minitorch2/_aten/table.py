"""THE operator table: every aten op minitorch2 knows, one row each.

Runtime layer. A row names the op by its ATen schema and points at its parts (table_row.py says what each means):

    op(schema, tags, (kernel, meta), derivative, decomposition, grad_fn=...)

An in-place row (`inplace(...)`, or an op with the "inplace" tag) also names its functional form, the overload
functionalization puts in its place: `add_.Tensor` -> `add.Tensor` by default, `functional="bernoulli.p"` where the
name says otherwise. A row marked `method=True` is also a Tensor method of its name that calls it with the arguments
as given (`x.addcmul_(a, b, value=2)`): _tensor_methods.py makes those from the rows.

Kernels and meta functions live in the family modules (pointwise, reductions, views, linalg, indexing, memory,
factories, ...); derivative formulas in derivatives_<family>.py; decompositions in decompositions*.py. The nn rows
are in table_nn.py; the families no pipeline stage needs (random sampling, sorting, binary cross entropies, ...) in
table_apart.py and table_nn_apart.py, the rows beyond the core set in table_more.py, table_nn_more.py and
table_extra.py. Nothing registers itself anywhere else: to add an op, add a row here or there.
"""
from . import decompositions as dec, derivatives as d, derivatives_shape as ds
from . import factories, indexing, inplace_fast as fast, linalg, masked_index, memory, pointwise as pw, prims
from . import decompositions_dot, decompositions_factories as dec_factories, inductor_prims, reductions as red
from . import table_apart, table_extra, table_more, table_nn, table_nn_apart, table_nn_more, view_scatters, views
from .._tensor import Tensor
from .derivatives_util import zeros_like_grad
from .overlap import Overlap, checked_in_trace
from .table_row import CORE, CORE_FACTORY, CORE_POINTWISE, CORE_REDUCTION, CORE_VIEW, FACTORY, INPLACE, OPTIONS
from .table_row import POINTWISE, REDUCTION, VIEW, inplace, op


def _scalar_of(self):
    return self._np.reshape(()).item()


def _unbacked_float(self):
    """A fake float tensor's value while tracing (AOT): a symbol of no known value, which tensorify_python_scalars
    (autograd/tensorify.py) turns back into the tensor; a frontend float input's: its symbol (Dynamo's item_memo)."""
    memo = getattr(self, "item_memo", None)
    if memo is not None:  # (a number once the frontend pinned it)
        return memo.node.shape_env.wrap(memo.node.expr, float, memo.node.hint)
    from ..fx.experimental.symbolic_shapes import ShapeEnv  # (sympy: imported when a trace needs it)
    return (getattr(self.fake_mode, "shape_env", None) or ShapeEnv()).create_unbacked_symfloat()


TABLE = [
    # ------------------------------------------------------------ arithmetic
    op("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", CORE_POINTWISE, pw.add, d.add_tensor),
    op("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", CORE_POINTWISE, pw.add, d.add_scalar, grad_fn="AddBackward1"),
    op("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", CORE_POINTWISE, pw.sub, d.sub_tensor),
    op("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", CORE_POINTWISE, pw.sub, d.add_scalar, grad_fn="SubBackward1"),
    op("rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", POINTWISE, pw.rsub, d.rsub_tensor,
       decomposition=dec.rsub),
    op("rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", POINTWISE, pw.rsub, d.rsub_scalar, grad_fn="RsubBackward1",
       decomposition=dec.rsub),
    op("mul.Tensor(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, pw.mul, d.mul_tensor, self_value_for=("other",)),
    op("mul.Scalar(Tensor self, Scalar other) -> Tensor", CORE_POINTWISE, pw.mul, d.mul_scalar, grad_fn="MulBackward1"),
    op("div.Tensor(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, pw.div, d.div_tensor, self_value_for=("other",)),
    op("div.Scalar(Tensor self, Scalar other) -> Tensor", CORE_POINTWISE, pw.div, d.div_scalar, grad_fn="DivBackward1"),
    op("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", CORE_POINTWISE, pw.div_mode,
       lambda grad, self, other: (d.aten.zeros_like.default(self), None), grad_fn="DivBackward2"),
    op("remainder.Tensor(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, pw.remainder, d.remainder_tensor,
       grad_fn="RemainderBackward1"),
    op("remainder.Scalar(Tensor self, Scalar other) -> Tensor", CORE_POINTWISE, pw.remainder, lambda grad: grad, grad_fn="RemainderBackward0"),
    op("neg(Tensor self) -> Tensor", CORE_POINTWISE, pw.neg, d.neg),
    op("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", CORE_POINTWISE, pw.pow_, d.pow_tensor_scalar),
    op("pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", CORE_POINTWISE, pw.pow_, d.pow_tensor_tensor, grad_fn="PowBackward1"),
    op("pow.Scalar(Scalar self, Tensor exponent) -> Tensor", CORE_POINTWISE, pw.pow_scalar, d.pow_scalar, grad_fn="PowBackward2"),
    op("maximum(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, pw.maximum, d.maximum),
    op("minimum(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, pw.minimum, d.minimum),
    op("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", POINTWISE, pw.addcmul, d.addcmul),
    op("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", POINTWISE, pw.addcdiv, d.addcdiv),
    # ------------------------------------------------------------ comparisons and logic (never differentiable)
    *[op(f"{name}.{kind}(Tensor self, {kind} other) -> Tensor", CORE_POINTWISE, getattr(pw, name))
      for kind in ("Tensor", "Scalar") for name in ("eq", "ne", "lt", "le", "gt", "ge")],
    *[op(f"{name}(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, getattr(pw, name)) for name in ("logical_and", "logical_or", "logical_xor")],
    *[op(f"{name}.Tensor(Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, getattr(pw, name)) for name in ("bitwise_and", "bitwise_or", "bitwise_xor")],
    *[op(f"{name}(Tensor self) -> Tensor", CORE_POINTWISE, getattr(pw, name))
      for name in ("logical_not", "bitwise_not", "isnan", "isinf")],
    op("isfinite(Tensor self) -> Tensor", POINTWISE, pw.isfinite),
    # piecewise constant: a zero gradient
    *[op(f"{name}(Tensor self) -> Tensor", CORE_POINTWISE, getattr(pw, name), d.zero_grad)
      for name in ("sign", "floor", "ceil", "trunc", "round")],
    # ------------------------------------------------------------ unary math
    # (kernel and formula of the op's name in pointwise.py and derivatives.py)
    *[op(f"{name}(Tensor self) -> Tensor", CORE_POINTWISE, getattr(pw, name), getattr(d, name)) for name in (
        "abs", "exp", "expm1", "log", "sin", "cos", "sqrt", "rsqrt", "reciprocal", "tanh", "sigmoid", "erf")],
    op("log1p(Tensor self) -> Tensor", CORE_POINTWISE, pw.log1p, d.log1p, grad_fn="Log1PBackward0"),
    # ------------------------------------------------------------ activations and their backward kernels
    op("relu(Tensor self) -> Tensor", CORE_POINTWISE, pw.relu, d.relu),
    op("threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", POINTWISE, pw.threshold, d.threshold),
    op("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor", POINTWISE, pw.threshold_backward, d.threshold_backward,
       decomposition=dec.threshold_backward),
    op("gelu(Tensor self, *, str approximate='none') -> Tensor", CORE_POINTWISE, pw.gelu, d.gelu, decomposition=dec.gelu),
    op("gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor", POINTWISE,
       pw.gelu_backward, d.gelu_backward, decomposition=dec.gelu_backward),
    op("silu(Tensor self) -> Tensor", POINTWISE, pw.silu, d.silu, decomposition=dec.silu),
    op("silu_backward(Tensor grad_output, Tensor self) -> Tensor", POINTWISE, pw.silu_backward,
       decomposition=dec.silu_backward),
    op("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor", POINTWISE, pw.sigmoid_backward,
       d.sigmoid_backward, decomposition=dec.sigmoid_backward),
    op("tanh_backward(Tensor grad_output, Tensor output) -> Tensor", POINTWISE, pw.tanh_backward, d.tanh_backward,
       decomposition=dec.tanh_backward),
    op("leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", CORE_POINTWISE, pw.leaky_relu, d.leaky_relu,
       decomposition=dec.leaky_relu),
    op("leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) -> Tensor", (),
       pw.leaky_relu_backward, d.leaky_relu_backward, decomposition=dec.leaky_relu_backward),
    op("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", CORE_POINTWISE, pw.where, d.where),
    op("clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", CORE_POINTWISE, pw.clamp, d.clamp, grad_fn="ClampBackward1"),
    op("clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", CORE_POINTWISE, pw.clamp, d.clamp_tensor),
    op("clamp_min(Tensor self, Scalar min) -> Tensor", POINTWISE, pw.clamp_min, d.clamp_min),
    op("clamp_max(Tensor self, Scalar max) -> Tensor", POINTWISE, pw.clamp_max, d.clamp_max),
    op("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", POINTWISE, pw.masked_fill,
       d.masked_fill_scalar, decomposition=dec.masked_fill_scalar),
    op("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", POINTWISE, pw.masked_fill, d.masked_fill_tensor, grad_fn="MaskedFillBackward1",
       decomposition=dec.masked_fill_tensor),
    # ------------------------------------------------------------ in-place forms
    inplace("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", pw.add, d.add_tensor,
            "AddBackward0", into_self=fast.add_into_self, method=True),
    inplace("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", pw.add, d.add_scalar,
            "AddBackward1", into_self=fast.add_into_self),
    inplace("sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", pw.sub, d.sub_tensor,
            "SubBackward0", into_self=fast.sub_into_self, method=True),
    # mul_ and div_ copy self before the write only when other needs a gradient, as torch's generated code does
    inplace("mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.mul, d.mul_tensor,
            "MulBackward0", into_self=fast.mul_into_self, self_value_for=("other",), method=True),
    inplace("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", pw.mul, d.mul_scalar,
            "MulBackward1", into_self=fast.mul_into_self),
    inplace("div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.div, d.div_tensor,
            "DivBackward0", into_self=fast.div_into_self, self_value_for=("other",), method=True),
    inplace("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", pw.div, d.div_scalar,
            "DivBackward1", into_self=fast.div_into_self),
    inplace("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", pw.pow_, d.pow_tensor_scalar, "PowBackward0",
            functional="pow.Tensor_Scalar", method=True),
    # formulas reading `result` read the mutated self, as PyTorch's in-place variants save it
    *[inplace(f"{name}_(Tensor(a!) self) -> Tensor(a!)", getattr(pw, name), getattr(d, name), method=True,
              overlap=Overlap.POINTWISE if name == "relu" else None)  # (torch's fake relu_ traces an expanded self)
      for name in ("neg", "relu", "sigmoid", "tanh", "exp", "sqrt")],
    inplace("clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", pw.clamp, d.clamp, "ClampBackward1",
            method=True),
    inplace("leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", pw.leaky_relu,
            d.leaky_relu_inplace, "LeakyReluBackward1", decomposition=dec.inplace_by_copy(dec.leaky_relu)),
    inplace("clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", pw.clamp_min, d.clamp_min, "ClampMinBackward0",
            method=True),
    inplace("masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", pw.masked_fill, d.masked_fill_scalar, "MaskedFillBackward0",
            overlap=Overlap.MASKED, method=True, decomposition=dec.inplace_by_copy(dec.masked_fill_scalar)),
    inplace("addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", pw.addcmul,
            d.addcmul, "AddcmulBackward0", into_self=fast.addcmul_into_self, method=True),
    inplace("addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", pw.addcdiv,
            d.addcdiv, "AddcdivBackward0", into_self=fast.addcdiv_into_self, method=True),
    inplace("maximum_(Tensor(a!) self, Tensor other) -> Tensor(a!)", pw.maximum),
    op("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", INPLACE, checked_in_trace(memory.copy_),
       lambda grad, src_shape: (d.aten.zeros_like.default(grad), d.sum_to(grad, src_shape)), grad_fn="torch::autograd::CopyBackwards",
       overlap=Overlap.COPY),
    op("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", INPLACE, memory.fill_, zeros_like_grad,
       grad_fn="FillBackward2", overlap=Overlap.NONE, decomposition=dec.inplace_by_copy(dec_factories.fill)),
    op("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", INPLACE, memory.fill_,
       lambda grad: (d.aten.zeros_like.default(grad), d.aten.sum.default(grad)), grad_fn="FillBackward3",
       overlap=Overlap.INTERNAL),
    op("zero_(Tensor(a!) self) -> Tensor(a!)", INPLACE, memory.zero_, zeros_like_grad,
       overlap=Overlap.NONE, method=True),
    op("index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)", INPLACE,
       indexing.index_put_, ds.index_put, grad_fn="IndexPutBackward0", overlap=Overlap.INDEXED),
    # ------------------------------------------------------------ functional forms of in-place ops (functionalization)
    op("copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", CORE, memory.copy, ds.copy),
    op("fill.Scalar(Tensor self, Scalar value) -> Tensor", CORE, memory.fill, zeros_like_grad, decomposition=dec_factories.fill),
    op("fill.Tensor(Tensor self, Tensor value) -> Tensor", (), memory.fill_tensor,
       lambda grad: (d.aten.zeros_like.default(grad), d.aten.sum.default(grad)), grad_fn="FillBackward1"),
    op("zero(Tensor self) -> Tensor", (), memory.zero, zeros_like_grad),
    op("slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor",
       CORE, view_scatters.slice_scatter, ds.slice_scatter),
    op("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor", CORE,
       view_scatters.select_scatter, ds.select_scatter),
    op("diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor", (),
       view_scatters.diagonal_scatter, ds.diagonal_scatter),
    # ------------------------------------------------------------ reductions
    op("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", REDUCTION, red.sum_dim, d.sum_default),
    op("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
       CORE_REDUCTION, red.sum_dim, d.sum_dim, grad_fn="SumBackward1"),
    op("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", CORE_REDUCTION, red.mean_default, d.mean_default),
    op("mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", CORE_REDUCTION,
       red.mean_dim, d.mean_dim, grad_fn="MeanBackward1"),
    op("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", CORE_REDUCTION, red.amax, d.amax),
    op("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", CORE_REDUCTION, red.amin, d.amax),
    op("max(Tensor self) -> Tensor", REDUCTION, red.max_default, d.max_default, grad_fn="MaxBackward1"),
    op("min(Tensor self) -> Tensor", REDUCTION, red.min_default, d.max_default, grad_fn="MinBackward1"),
    op("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", CORE_REDUCTION, red.max_dim, d.max_dim),
    op("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", CORE_REDUCTION, red.min_dim, d.max_dim),
    op("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", CORE_REDUCTION, red.argmax),
    op("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", CORE_REDUCTION, red.argmin),
    op("var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
       CORE_REDUCTION, red.var, d.var_correction, grad_fn="VarBackward0"),
    op("std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
       REDUCTION, red.std, d.std_correction, grad_fn="StdBackward0", decomposition=dec.std),
    op("var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)",
       REDUCTION, red.var_mean, d.var_mean, decomposition=dec.var_mean),
    op("any(Tensor self) -> Tensor", CORE_REDUCTION, red.any_default),
    op("any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", CORE_REDUCTION, red.any_dims),
    # ------------------------------------------------------------ matrix products
    op("mm(Tensor self, Tensor mat2) -> Tensor", CORE, linalg.mm, d.mm),
    op("bmm(Tensor self, Tensor mat2) -> Tensor", CORE, linalg.bmm, d.bmm),
    op("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", CORE, linalg.addmm,
       d.addmm, decomposition=dec.addmm),
    op("dot(Tensor self, Tensor tensor) -> Tensor", (), linalg.dot, d.dot, decomposition=decompositions_dot.dot),
    op("mv(Tensor self, Tensor vec) -> Tensor", (), linalg.mv, d.mv, decomposition=dec.mv),
    # ------------------------------------------------------------ sizes (a SymInt's node in a symbolic trace)
    op("sym_size.int(Tensor self, int dim) -> SymInt", CORE, (Tensor.size, Tensor.size), differentiable=False),
    op("sym_stride.int(Tensor self, int dim) -> SymInt", CORE, (Tensor.stride, Tensor.stride), differentiable=False),
    op("sym_storage_offset(Tensor self) -> SymInt", CORE, (Tensor.storage_offset, Tensor.storage_offset), differentiable=False),
    op("_local_scalar_dense(Tensor self) -> Scalar", CORE, (_scalar_of, _unbacked_float), differentiable=False),
    # ------------------------------------------------------------ views
    op("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", CORE_VIEW, views.view, ds.view),
    op("_unsafe_view(Tensor self, SymInt[] size) -> Tensor", (), views.unsafe_view, ds.view,
       decomposition=dec.unsafe_view),
    op("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", CORE_VIEW, views.expand, ds.expand),
    op("permute(Tensor(a) self, int[] dims) -> Tensor(a)", CORE_VIEW, views.permute, ds.permute),
    op("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", VIEW, views.transpose, ds.transpose,
       decomposition=dec.transpose),
    op("t(Tensor(a) self) -> Tensor(a)", VIEW, views.t, ds.t, decomposition=dec.t),
    op("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", CORE_VIEW, views.unsqueeze, ds.unsqueeze),
    op("squeeze(Tensor(a) self) -> Tensor(a)", VIEW, views.squeeze, ds.squeeze_default),
    op("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", CORE_VIEW, views.squeeze_dim, ds.squeeze_dim, grad_fn="SqueezeBackward1"),
    op("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", CORE_VIEW, views.squeeze_dims, ds.squeeze_dims, grad_fn="SqueezeBackward2"),
    op("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)", CORE_VIEW, views.select, ds.select),
    op("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)",
       CORE_VIEW, views.slice_, ds.slice_tensor),
    op("as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
       CORE_VIEW, views.as_strided, ds.as_strided),
    op("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", CORE_VIEW, views.diagonal, ds.diagonal),
    op("alias(Tensor(a) self) -> Tensor(a)", CORE_VIEW, views.alias, ds.alias),
    op("detach(Tensor(a) self) -> Tensor(a)", VIEW, views.detach, differentiable=False, decomposition=dec.detach,
       method=True),
    op("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]", VIEW, views.split, ds.split),
    op("split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]", CORE_VIEW,
       views.split_with_sizes, ds.split_with_sizes),
    op("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", VIEW, views.unbind, ds.unbind),
    # ------------------------------------------------------------ copies and conversions
    op("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", CORE, memory.clone, ds.alias),
    op("_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, "
       "bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor", CORE, memory.to_copy, ds.to_copy,
       decomposition=dec._to_copy),
    op("lift_fresh(Tensor(a) self) -> Tensor(a)", (), factories.lift_fresh),
    op("lift_fresh_copy(Tensor self) -> Tensor", (), indexing.lift_fresh_copy),
    # ------------------------------------------------------------ joining, indexing, scatter/gather
    op("cat(Tensor[] tensors, int dim=0) -> Tensor", CORE, indexing.cat, ds.cat),
    op("stack(Tensor[] tensors, int dim=0) -> Tensor", (), indexing.stack, ds.stack, decomposition=dec.stack),
    op("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", CORE, indexing.index, ds.index),
    op("index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", CORE, indexing.index_put, ds.index_put),
    op("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", CORE, indexing.gather, ds.gather),
    op("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", CORE, indexing.scatter_src, ds.scatter_src),
    op("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", CORE, indexing.scatter_value,
       ds.scatter_value, grad_fn="ScatterBackward1"),
    op("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", CORE, indexing.scatter_add, ds.scatter_add),
    op("index_select(Tensor self, int dim, Tensor index) -> Tensor", CORE, indexing.index_select, ds.index_select),
    op("index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", (), indexing.index_add, ds.index_add),
    op("select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor", (),
       view_scatters.select_backward, ds.select_backward, decomposition=dec.select_backward),
    op("slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step) -> Tensor", (),
       view_scatters.slice_backward, ds.slice_backward, decomposition=dec.slice_backward),
    op("diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2) -> Tensor", (),
       view_scatters.diagonal_backward,
       lambda grad, offset, dim1, dim2: d.aten.diagonal.default(grad, offset, dim1, dim2)),
    op("as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor", (),
       view_scatters.as_strided_scatter, ds.as_strided_scatter),
    # ------------------------------------------------------------ factories
    op(f"empty.memory_format(SymInt[] size, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", CORE_FACTORY,
       factories.empty),
    op(f"zeros(SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, factories.zeros, decomposition=dec_factories.zeros),
    op(f"ones(SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, factories.ones, decomposition=dec_factories.ones),
    op(f"full(SymInt[] size, Scalar fill_value, *, {OPTIONS}) -> Tensor", CORE_FACTORY, factories.full),
    op(f"scalar_tensor(Scalar s, *, {OPTIONS}) -> Tensor", CORE_FACTORY, factories.scalar_tensor),
    op(f"arange.start_step(Scalar start, Scalar end, Scalar step=1, *, {OPTIONS}) -> Tensor", CORE_FACTORY, factories.arange),
    op(f"arange(Scalar end, *, {OPTIONS}) -> Tensor", FACTORY, factories.arange_end,
       decomposition=dec.arange_from_zero),
    op(f"arange.start(Scalar start, Scalar end, *, {OPTIONS}) -> Tensor", FACTORY, factories.arange,
       decomposition=dec.arange_step_one),
    *[op(f"{name}(Tensor self, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY,
         getattr(factories, name), decomposition=decomposition)
      for name, decomposition in (("empty_like", None), ("zeros_like", dec_factories.zeros_like), ("ones_like", dec_factories.ones_like))],
    op(f"full_like(Tensor self, Scalar fill_value, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor",
       CORE_FACTORY, factories.full_like, decomposition=dec_factories.full_like),
    op(f"new_zeros(Tensor self, SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_zeros,
       decomposition=dec_factories.new_zeros),
    op(f"new_empty(Tensor self, SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_empty,
       decomposition=dec_factories.new_empty),
    op(f"new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, {OPTIONS}) -> Tensor", FACTORY,
       indexing.new_empty_strided),
    op(f"new_ones(Tensor self, SymInt[] size, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_ones,
       decomposition=dec_factories.new_ones),
    op(f"new_full(Tensor self, SymInt[] size, Scalar fill_value, *, {OPTIONS}) -> Tensor", FACTORY, indexing.new_full,
       decomposition=dec_factories.new_full),
    # ------------------------------------------------------------ random, sorting, take, index_copy, ... (table_apart.py)
    *table_apart.ROWS,
    # ------------------------------------------------------------ nn ops (table_nn.py)
    *table_nn.ROWS,
    *table_nn_apart.ROWS,
    # ------------------------------------------------------------ prims (prims.py): only traced graphs record them,
    # from the decompositions torch's inductor uses (nll_loss's total weight, scatter-as-where, softmax backward)
    op("prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor", ("pointwise",), prims.convert_element_type,
       grad_fn="ConvertElementTypeBackward0"),
    op("prims::iota(SymInt length, *, SymInt start, SymInt step, ScalarType dtype, Device device, bool requires_grad) "
       "-> Tensor", FACTORY, prims.iota),
    op("prims::fma(Tensor a, Tensor b, Tensor c) -> Tensor", ("pointwise",), prims.fma, prims.fma_formula),
    *inductor_prims.ROWS,  # the inductor backend's random ops (inductor_prims.py)
    # and the scatter-add of the inductor path's embedding backward (masked_index.py)
    op("_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> Tensor", (),
       masked_index.unsafe_masked_index_put_accumulate),
]
TABLE += table_more.rows(op, inplace)  # the commonly used ops beyond the core set (table_more.py)
TABLE += table_nn_more.rows(op, inplace)  # the nn layers beyond the core set (table_nn_more.py)
TABLE += table_extra.rows(op, inplace)  # linalg, special, complex numbers and the rest (table_extra.py)

