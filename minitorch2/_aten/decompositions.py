"""Decompositions: ops written in terms of simpler registered ops (as torch._decomp).

Runtime layer, the fifth column of the op table. Each function computes its op from more primitive aten ops, as
PyTorch's decomposition of the same op does; the AOT layer (`autograd/`) applies them while tracing to reduce a
graph to a smaller core op set, and tests check each against the op it replaces. An op whose row has no
decomposition is itself part of the core set.

The formulas follow PyTorch's reference decompositions op for op, in the same order and with Python numbers where
torch's write them (`x * 0.5` is recorded as `mul.Tensor(x, 0.5)`), so that the inductor path's graphs read as
torch's (tests/backend/test_inductor_aot_graphs.py). The nn ops (softmax, losses, layer norm) are in
decompositions_nn.py; `silu_inductor` and `clamp_as_min_max` are inductor's own, added by backend/compile_fx.py's
select_decomp_table rather than by the table here.
"""
from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format, strided
from . import factories
from .meta_util import wrap_dim
from .overlap import has_internal_overlap

aten = ops.aten


def t(self):
    """transpose.int of dims 0 and 1 (0 and 0 for fewer dims), as PyTorch's: traced on, a permute or an alias."""
    return aten.transpose.int(self, 0, 1 if self.dim() == 2 else 0)


def transpose(self, dim0, dim1):
    dim0, dim1 = wrap_dim(dim0, self.dim()), wrap_dim(dim1, self.dim())
    if dim0 == dim1 or self.dim() <= 1:
        return aten.alias.default(self)
    dims = list(range(self.dim()))
    dims[dim0], dims[dim1] = dim1, dim0
    return aten.permute.default(self, dims)


def detach(self):
    """An alias that, as detach's own output, is no differentiable view: an in-place op on it (under a trace
    of the joint graph, where autograd still runs above) leaves self's history alone."""
    out = aten.alias.default(self)
    out._base = None
    return out


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    out = aten.mm.default(mat1, mat2)
    if alpha != 1:
        out = aten.mul.Scalar(out, alpha)
    if beta == 0:
        return out
    bias = self if beta == 1 else aten.mul.Scalar(self, beta)
    return aten.add.Tensor(out, bias)


def rsub(self, other, alpha=1):
    """rsub.Tensor and rsub.Scalar: other - alpha * self, recorded as sub.Tensor with other first (a Python
    number too), as torch's reference."""
    return aten.sub.Tensor(other, self) if alpha == 1 else aten.sub.Tensor(other, self, alpha=alpha)


def silu(self):
    return aten.mul.Tensor(self, aten.sigmoid.default(self))


def silu_inductor(self):
    """x / (1 + exp(-x)): inductor's own form (backend/compile_fx.py), closer to the eager kernel's rounding."""
    return aten.div.Tensor(self, aten.add.Tensor(aten.exp.default(aten.neg.default(self)), 1))


def silu_backward(grad_output, self):
    sigmoid = aten.sigmoid.default(self)
    left = aten.mul.Tensor(grad_output, sigmoid)
    return aten.mul.Tensor(left, aten.add.Tensor(aten.mul.Tensor(self, aten.sub.Tensor(1, sigmoid)), 1))


def sigmoid_backward(grad_output, output):
    return aten.mul.Tensor(grad_output, aten.mul.Tensor(output, aten.sub.Tensor(1, output)))


def tanh_backward(grad_output, output):
    return aten.mul.Tensor(grad_output, aten.sub.Tensor(1, aten.mul.Tensor(output, output)))


def threshold_backward(grad_output, self, threshold):
    return aten.where.self(aten.le.Scalar(self, threshold), aten.scalar_tensor.default(
        0, dtype=grad_output.dtype, layout=strided, device=grad_output.device), grad_output)


# The constants of ATen's gelu kernels (and of torch's reference decompositions), to the last digit.
M_SQRT2 = 1.41421356237309504880
M_SQRT1_2 = 0.70710678118654752440
M_2_SQRTPI = 1.12837916709551257390
GELU_TANH_BETA = M_SQRT2 * M_2_SQRTPI * 0.5
GELU_TANH_KAPPA = 0.044715


def gelu(self, *, approximate="none"):
    """x/2 * (1 + erf(x/sqrt 2)), or the tanh approximation. Each product is a mul.Tensor with a Python
    number, in the order the reference formula multiplies, so the graph reads as torch's does."""
    if approximate == "tanh":
        cube = aten.mul.Tensor(aten.mul.Tensor(self, self), self)
        inner = aten.mul.Tensor(aten.add.Tensor(self, aten.mul.Tensor(cube, GELU_TANH_KAPPA)), GELU_TANH_BETA)
        half_x = aten.mul.Tensor(self, 0.5)
        return aten.mul.Tensor(half_x, aten.add.Tensor(aten.tanh.default(inner), 1))
    half_x = aten.mul.Tensor(self, 0.5)
    erf = aten.erf.default(aten.mul.Tensor(self, M_SQRT1_2))
    return aten.mul.Tensor(half_x, aten.add.Tensor(erf, 1))


def gelu_backward(grad, self, *, approximate="none"):
    if approximate == "tanh":
        return _gelu_tanh_backward(grad, self)
    cdf = aten.mul.Tensor(aten.add.Tensor(aten.erf.default(aten.mul.Tensor(self, M_SQRT1_2)), 1), 0.5)
    gaussian = aten.exp.default(aten.mul.Tensor(aten.mul.Tensor(self, self), -0.5))
    pdf = aten.mul.Tensor(gaussian, M_2_SQRTPI * M_SQRT1_2 * 0.5)
    return aten.mul.Tensor(grad, aten.add.Tensor(cdf, aten.mul.Tensor(self, pdf)))


def _gelu_tanh_backward(grad, self):
    x_sq = aten.mul.Tensor(self, self)
    x_cube = aten.mul.Tensor(x_sq, self)
    inner = aten.mul.Tensor(aten.add.Tensor(self, aten.mul.Tensor(x_cube, GELU_TANH_KAPPA)), GELU_TANH_BETA)
    tanh_inner = aten.tanh.default(inner)
    left = aten.mul.Tensor(self, 0.5)
    right = aten.add.Tensor(tanh_inner, 1)
    left_derivative = aten.mul.Tensor(right, 0.5)
    tanh_derivative = aten.sub.Tensor(1, aten.mul.Tensor(tanh_inner, tanh_inner))
    inner_derivative = aten.mul.Tensor(aten.add.Tensor(aten.mul.Tensor(x_sq, 3 * GELU_TANH_KAPPA), 1), GELU_TANH_BETA)
    right_derivative = aten.mul.Tensor(aten.mul.Tensor(left, tanh_derivative), inner_derivative)
    return aten.mul.Tensor(grad, aten.add.Tensor(left_derivative, right_derivative))


def clamp_as_min_max(self, min=None, max=None):
    """clamp as clamp_min then clamp_max: inductor's own decomposition (backend/compile_fx.py adds it to its
    table; the core table leaves clamp whole)."""
    if min is not None:
        self = aten.clamp_min.default(self, min)
    if max is not None:
        self = aten.clamp_max.default(self, max)
    return self


def unsafe_view(self, size):
    """_unsafe_view differs from view only in autograd's view tracking, gone once traced."""
    return aten.view.default(self, size)


def leaky_relu(self, negative_slope=0.01):
    return aten.where.self(aten.gt.Scalar(self, 0), self, aten.mul.Tensor(self, negative_slope))


def hardtanh(self, min_val=-1, max_val=1):
    return aten.clamp.default(self, min_val, max_val)


def mv(self, vec):
    """A matrix-vector product as a broadcast multiply and a row sum (BLAS buys nothing for one vector), in
    the dtype's math type as torch's (float16 in float32; an integer sum, int64, cast back)."""
    if self.dim() != 2 or vec.dim() != 1 or self.shape[1] != vec.shape[0]:
        return NotImplemented  # the op itself raises torch's error
    dtype = _dtype.promote_types(self.dtype, vec.dtype)
    opmath = _dtype.opmath(dtype)
    if opmath is not dtype:
        self, vec = aten._to_copy.default(self, dtype=opmath), aten._to_copy.default(vec, dtype=opmath)
    result = aten.sum.dim_IntList(aten.mul.Tensor(self, vec), [1])
    return result if result.dtype is dtype else aten._to_copy.default(result, dtype=dtype)


def _triangle(keep_below):
    """tril / triu: a mask from the column index less the row index (two iotas), where the mask holds."""
    def decomposition(self, diagonal=0):
        if self.dim() < 2:
            return NotImplemented  # the op itself raises torch's error
        height, width = self.shape[-2:]
        columns = aten.unsqueeze.default(_positions(width, self.device), -2)
        offset = aten.sub.Tensor(columns, aten.unsqueeze.default(_positions(height, self.device), -1))
        mask = (aten.le.Scalar if keep_below else aten.ge.Scalar)(offset, diagonal)
        if self.dtype is _dtype.bool_:
            return aten.logical_and.default(mask, self)
        return aten.where.self(mask, self, aten.scalar_tensor.default(0, dtype=self.dtype))
    return decomposition


def _positions(length, device):
    return ops.prims.iota.default(length, start=0, step=1, dtype=_dtype.int64, device=device, requires_grad=False)


tril, triu = _triangle(keep_below=True), _triangle(keep_below=False)


def leaky_relu_backward(grad_output, self, negative_slope, self_is_result):
    return aten.where.self(aten.gt.Scalar(self, 0), grad_output, aten.mul.Tensor(grad_output, negative_slope))


def hardtanh_backward(grad_output, self, min_val, max_val):
    outside = aten.bitwise_or.Tensor(aten.le.Scalar(self, min_val), aten.ge.Scalar(self, max_val))
    return aten.where.self(outside, aten.scalar_tensor.default(0.0, dtype=grad_output.dtype), grad_output)


def var_mean(self, dim=None, *, correction=None, keepdim=False):
    """In the core table only: torch's inductor keeps var_mean whole (one reduction computes both)."""
    return (aten.var.correction(self, dim, correction=correction, keepdim=keepdim),
            aten.mean.dim(self, dim if dim is not None else [], keepdim))


def _to_copy(self, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False, memory_format=None):
    """A change of dtype alone is prims.convert_element_type; anything else stays a _to_copy."""
    if dtype is None or memory_format is not None or (pin_memory or non_blocking):
        return NotImplemented
    return ops.prims.convert_element_type.default(self, dtype)


def masked_fill_scalar(self, mask, value):
    """where(mask, value, self), the number a scalar_tensor of self's dtype (folded into a `full` later);
    made contiguous, as masked_fill's result always is (a transposed self gives a transposed where)."""
    python_type = float if self.dtype.is_floating_point else bool if self.dtype is _dtype.bool_ else int
    fill_value = aten.scalar_tensor.default(python_type(value), dtype=self.dtype, layout=strided, device=self.device)
    return _contiguous(aten.where.self(mask, fill_value, self))


def masked_fill_tensor(self, mask, value):
    if value.dim() != 0:
        return NotImplemented
    if value.dtype is not self.dtype:
        value = ops.prims.convert_element_type.default(value, self.dtype)
    return _contiguous(aten.where.self(mask, value, self))


def _contiguous(t):
    """t.contiguous() in a traced graph: a clone only when t is laid out otherwise."""
    return t if t.is_contiguous() else aten.clone.default(t, memory_format=contiguous_format)


def std(self, dim=None, *, correction=None, keepdim=False):
    """sqrt(var), the correction passed on as a float (1.0 by default), as torch's reference does."""
    correction = 1.0 if correction is None else float(correction)
    return aten.sqrt.default(aten.var.correction(self, dim, correction=correction, keepdim=keepdim))


def select_backward(grad_output, input_sizes, dim, index):
    """The gradient of a select: zeros of the input's size with grad_output scattered into the selected slice."""
    zeros = aten.new_zeros.default(grad_output, list(input_sizes))
    return aten.select_scatter.default(zeros, grad_output, dim, index)


def slice_backward(grad_output, input_sizes, dim, start, end, step):
    zeros = aten.new_zeros.default(grad_output, list(input_sizes))
    return aten.slice_scatter.default(zeros, grad_output, dim, start, end, step)


def stack(tensors, dim=0):
    """cat then view when the new dim is not the last, else cat of unsqueezed tensors."""
    if not tensors or any(tuple(t.shape) != tuple(tensors[0].shape) for t in tensors):
        return NotImplemented
    ndim = tensors[0].dim()
    dim = wrap_dim(dim, ndim + 1)
    if dim < ndim:
        sizes = list(tensors[0].shape)
        sizes.insert(dim, len(tensors))
        return aten.view.default(aten.cat.default(list(tensors), dim), sizes)
    return aten.cat.default([aten.unsqueeze.default(t, dim) for t in tensors], dim)


# ---------------------------------------------------------------- elu, take, index_copy, index_fill
def elu(self, alpha=1, scale=1, input_scale=1):
    """where(x > 0, scale * x, alpha * scale * expm1(x * input_scale)), as torch's reference."""
    if not self.dtype.is_floating_point:
        return NotImplemented  # the op itself raises torch's error
    positive = aten.gt.Scalar(self, 0)
    scaled = aten.mul.Tensor(self, scale)
    negative = aten.mul.Tensor(aten.expm1.default(aten.mul.Tensor(self, input_scale)), alpha * scale)
    return aten.where.self(positive, scaled, negative)


def elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    if is_result and alpha * scale < 0:
        return NotImplemented  # the op itself raises torch's error
    below = aten.le.Scalar(self_or_result, 0)
    if is_result:
        negative = aten.mul.Tensor(aten.mul.Tensor(grad_output, input_scale),
                                   aten.add.Tensor(self_or_result, alpha * scale))
    else:
        scaled = aten.mul.Tensor(aten.mul.Tensor(grad_output, input_scale), alpha * scale)
        negative = aten.mul.Tensor(scaled, aten.exp.default(aten.mul.Tensor(self_or_result, input_scale)))
    return aten.where.self(below, negative, aten.mul.Tensor(grad_output, scale))


def inplace_by_copy(functional):
    """The in-place form of a decomposition: the functional result copied into self (torch's _inplace_wrapper)."""
    def decomposition(self, *args, **kwargs):
        # (a trace's copy_ refuses an expanded self: the op stays whole)
        result = NotImplemented if has_internal_overlap(self) else functional(self, *args, **kwargs)
        return result if result is NotImplemented else aten.copy_.default(self, result)

    return decomposition


# ---------------------------------------------------------------- arange
def arange_from_zero(end, **options):
    return ops.aten.arange.start_step(0, end, 1, **options)


def arange_step_one(start, end, **options):
    return ops.aten.arange.start_step(start, end, 1, **options)


def arange_as_iota(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
    """As torch's refs (the inductor's table): positions from iota, scaled and shifted in the accumulate type
    (float32 in double on the CPU) unless every argument is an int and the dtype integral, then cast."""
    inferred = factories._arange_dtype((start, end, step), None)  # int64 for ints and SymInts
    integer_args, dtype = inferred is _dtype.int64, dtype or inferred
    if not (integer_args or dtype.is_floating_point):
        return NotImplemented  # truncating float arguments to an integral dtype: the op itself
    length = factories._arange_length(start, end, step, dtype)
    if integer_args and not dtype.is_floating_point:
        return ops.prims.iota.default(length, start=start, step=step, dtype=dtype, device=device, requires_grad=False)
    computation = _dtype.int64 if integer_args else (_dtype.float64 if dtype.itemsize >= 4 else _dtype.float32)
    index = _positions(length, device)
    if computation is not _dtype.int64:
        index = ops.prims.convert_element_type.default(index, computation)
    values = ops.aten.add.Tensor(ops.aten.mul.Tensor(index, step), start)
    return ops.prims.convert_element_type.default(values, dtype)
