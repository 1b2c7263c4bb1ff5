"""Derivative formulas and decompositions of the ops in table_more.py.

Runtime layer, read by the autograd layer through the op table as the
formulas of derivatives*.py and decompositions*.py are (see derivatives.py
for the conventions: parameter names say what the forward keeps; the op calls
follow PyTorch's derivatives.yaml and FunctionsManual formulas, so traced
backward graphs record the same ops). The decompositions are the ones
torch's inductor applies (torch._refs / torch._decomp), so compiled programs
lower these ops to pointwise loops and reductions instead of calling the
eager kernel.
"""
import math

import numpy as np

from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format, preserve_format
from .derivatives_pointwise import _rounded_division_backward, clamp_tensor
from .derivatives_reductions import _value_selecting_backward, _var_backward
from .derivatives_util import _dims, _options, _reshape, _restore_reduced_dims, _scale, _shape, sum_to
from .meta_util import broadcast_shapes

aten = ops.aten


# ---------------------------------------------------------------- norms and reductions
def cumsum(grad, dim, self_shape):
    if grad.numel() <= 1 or grad.shape[dim] == 1:  # ATen's cumsum_backward: nothing to reverse-accumulate
        return grad
    return aten.flip.default(aten.cumsum.default(aten.flip.default(grad, [dim]), dim), [dim])


def linalg_vector_norm(grad, self, result, ord=2, dim=None, keepdim=False):
    """FunctionsManual's norm_backward (the real case)."""
    if ord == 0:
        return aten.zeros_like.default(self)
    dims = _dims(dim, self.dim())
    if dim is not None:  # (a full reduction's 0-d gradient broadcasts as it is)
        grad = _restore_reduced_dims(grad, dims, keepdim, self.dim())
        result = _restore_reduced_dims(result, dims, keepdim, self.dim())
    norm = result
    if ord == 1:
        return aten.mul.Tensor(aten.sgn.default(self), grad)
    if ord == 2:  # (ATen fills the fresh quotient in place)
        scale = aten.masked_fill_.Scalar(aten.div.Tensor(grad, norm), aten.eq.Scalar(norm, 0), 0)
        return aten.mul.Tensor(self, scale)
    if math.isinf(ord):
        magnitude = aten.abs.default(self)
        mask = aten.logical_or.default(aten.eq.Tensor(magnitude, norm), aten.isnan.default(magnitude))
        count = aten.sum.dim_IntList(mask, dims, True)
        share = aten.mul.Tensor(aten.div.Tensor(grad, count), mask)
        return aten.mul.Tensor(aten.sgn.default(self), share)
    magnitude = aten.abs.default(self)
    if ord < 1:  # (|x|^(p-1) is inf at a zero element: ATen masks it, and multiplies by norm^(1-p) instead)
        power = aten.masked_fill_.Scalar(aten.pow.Tensor_Scalar(magnitude, ord - 1), aten.eq.Scalar(self, 0), 0)
        power = aten.mul.Tensor(aten.sgn.default(self), power)
        return aten.mul.Tensor(aten.mul.Tensor(power, grad), aten.pow.Tensor_Scalar(norm, 1 - ord))
    if ord < 2:  # (sgn(x) |x|^(p-1), not x |x|^(p-2): that is 0 * inf at a zero element)
        power = aten.mul.Tensor(aten.sgn.default(self), aten.pow.Tensor_Scalar(magnitude, ord - 1))
    else:
        power = aten.mul.Tensor(self, aten.pow.Tensor_Scalar(magnitude, ord - 2))
    scale = aten.div.Tensor(grad, aten.pow.Tensor_Scalar(norm, ord - 1))
    return aten.mul.Tensor(power, aten.masked_fill_.Scalar(scale, aten.eq.Scalar(norm, 0), 0))


def linalg_vector_norm_decomposition(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    """torch._refs.linalg.vector_norm: amax/amin of |x| for ±inf, a count for 0, else (sum |x|^p)^(1/p)
    (|x| skipped for an even p)."""
    if dtype is not None and dtype is not self.dtype:
        self = aten._to_copy.default(self, dtype=dtype)
    dims = [] if dim is None else list(dim)
    if ord == 0:
        return aten._to_copy.default(aten.sum.dim_IntList(aten.ne.Scalar(self, 0), dims, keepdim), dtype=self.dtype)
    if math.isinf(ord):
        reduce = aten.amax.default if ord > 0 else aten.amin.default
        return reduce(aten.abs.default(self), dims, keepdim)
    if ord % 2 != 0 or self.dtype.is_complex:
        self = aten.abs.default(self)
    total = aten.sum.dim_IntList(aten.pow.Tensor_Scalar(self, ord), dims, keepdim)
    return aten.pow.Tensor_Scalar(total, 1.0 / ord)


def nansum(grad, self, dim=None, keepdim=False):
    dims = _dims(dim, self.dim())
    not_nan = aten.logical_not.default(aten.isnan.default(self))
    grad = aten.expand.default(_restore_reduced_dims(grad, dims, keepdim, self.dim()), list(self.shape))
    return aten.mul.Tensor(grad, not_nan)


def nansum_decomposition(self, dim=None, keepdim=False, *, dtype=None):
    zeroed = aten.where.self(aten.isnan.default(self), aten.scalar_tensor.default(0, dtype=self.dtype), self)
    return aten.sum.dim_IntList(zeroed, [] if dim is None else list(dim), keepdim, dtype=dtype)


def count_nonzero_decomposition(self, dim=None):
    dims = [] if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    return aten.sum.dim_IntList(aten.ne.Scalar(self, 0), dims)


def trace(grad, self_shape):
    """ATen's trace_backward: grad written into the diagonal of a flat zeros, viewed as self."""
    rows, cols = self_shape
    flat = aten.zeros.default([rows * cols], dtype=grad.dtype, layout="torch.strided", device=grad.device)
    diagonal = aten.arange.start_step(0, rows * cols, cols + 1, dtype=_dtype.int64, layout="torch.strided",
                                      device=grad.device)
    return aten.view.default(aten.index_fill.int_Tensor(flat, 0, diagonal, grad), list(self_shape))


def trace_decomposition(self):
    return aten.sum.default(aten.diagonal.default(self))


def std_mean(grads, self, result0, dim=None, correction=None, keepdim=False):
    std_grad, mean_grad = (list(grads) + [None, None])[:2]
    result = None
    if std_grad is not None:
        scaled = aten.div.Tensor(std_grad, aten.mul.Scalar(result0, 2))
        scaled = aten.masked_fill.Scalar(scaled, aten.eq.Scalar(result0, 0), 0)
        result = _var_backward(scaled, self, dim, correction, keepdim, replayed_view=True)
    if mean_grad is not None:
        dims = _dims(dim, self.dim())
        n = 1
        for d in dims:
            n *= self.shape[d]
        restored = _restore_reduced_dims(mean_grad, dims, keepdim, self.dim())
        m = aten.div.Scalar(aten.expand.default(restored, list(self.shape)), n)
        result = m if result is None else aten.add.Tensor(result, m)
    return result


def std_mean_decomposition(self, dim=None, *, correction=None, keepdim=False):
    var, mean = aten.var_mean.correction(self, dim, correction=correction, keepdim=keepdim)
    return aten.sqrt.default(var), mean


def median(grad, self, result):
    """evenly_distribute_backward: the gradient shared among the elements equal to the median (or NaN)."""
    nan_both = aten.logical_and.default(aten.isnan.default(self), aten.isnan.default(result))
    mask = aten.logical_or.default(aten.eq.Tensor(self, result), nan_both)
    count = aten.sum.default(mask)
    return aten.mul.Tensor(mask, aten.div.Tensor(grad, count))


def selected_values(grads, self_shape, dim, result1, keepdim=False):
    """median.dim, kthvalue: value_selecting_reduction_backward."""
    if grads[0] is None:
        return None
    return _value_selecting_backward(grads[0], dim, result1, self_shape, keepdim)


def cummaxmin(grads, self, dim, result1):
    if grads[0] is None or self.numel() == 0:
        return None if grads[0] is None else grads[0]
    zeros = aten.zeros_like.default(self)
    return aten.scatter_add.default(zeros, dim, result1, grads[0])


def cumprod(grad, self, dim, result):
    """FunctionsManual's cumprod_backward, the branch traced graphs take: the gradient reversed-cumsummed
    and divided by the input before the first zero, the product around the first zero computed apart,
    zero after it."""
    if self.numel() <= 1 or self.dim() == 0:
        return grad
    dim = dim % self.dim()
    zeros_so_far = aten.cumsum.default(aten.eq.Scalar(self, 0), dim)
    before_zero = aten.eq.Scalar(zeros_so_far, 0)
    weighted = aten.masked_fill.Scalar(aten.mul.Tensor(grad, result), aten.bitwise_not.default(before_zero), 0.0)
    reversed_sum = aten.flip.default(aten.cumsum.default(aten.flip.default(weighted, [dim]), dim), [dim])
    grad_input = aten.where.self(before_zero, aten.div.Tensor(reversed_sum, self), aten.zeros_like.default(self))
    one_zero = aten.eq.Scalar(zeros_so_far, 1)
    first_zero_at = aten.max.dim(one_zero, dim, True)[1]
    first_zero = aten.logical_and.default(
        aten.scatter.value(aten.zeros_like.default(one_zero), dim, first_zero_at, 1), one_zero)
    after_first = aten.bitwise_and.Tensor(one_zero, aten.bitwise_not.default(first_zero))
    ones_outside = aten.masked_fill.Scalar(self, aten.bitwise_not.default(after_first), 1.0)
    products = aten.cumprod.default(ones_outside, dim)
    grad_between = aten.masked_fill.Scalar(grad, aten.ne.Scalar(zeros_so_far, 1), 0.0)
    before = aten.gather.default(result, dim, aten.relu.default(aten.sub.Scalar(first_zero_at, 1)))
    before = aten.masked_fill.Scalar(before, aten.eq.Scalar(first_zero_at, 0), 1.0)
    at_zero = aten.mul.Tensor(aten.sum.dim_IntList(aten.mul.Tensor(products, grad_between), [dim], True), before)
    return aten.where.self(first_zero, at_zero, grad_input)


# ---------------------------------------------------------------- pointwise
def hardtanh(grad, self, min_val=-1, max_val=1):
    return aten.hardtanh_backward.default(grad, self, min_val, max_val)


def hardtanh_backward(grad, self, min_val, max_val):
    return aten.hardtanh_backward.default(grad, self, min_val, max_val), aten.zeros_like.default(grad)


def hardtanh_inplace(grad, result, min_val=-1, max_val=1):
    """hardtanh_: the clamped output lies strictly inside (min_val, max_val) exactly where the input did."""
    return aten.hardtanh_backward.default(grad, result, min_val, max_val)


def elu(grad, self, alpha=1, scale=1, input_scale=1):
    return aten.elu_backward.default(grad, alpha, scale, input_scale, False, self)


def elu_inplace(grad, result, alpha=1, scale=1, input_scale=1):
    """elu_: self is overwritten, so the slope comes from the output (elu_backward's is_result)."""
    return aten.elu_backward.default(grad, alpha, scale, input_scale, True, result)


def elu_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result):
    """(grad_output's gradient, self_or_result's: torch's elu_double_backward)."""
    grad_output_grad = aten.elu_backward.default(grad, alpha, scale, input_scale, is_result, self_or_result)
    negative = aten._to_copy.default(aten.lt.Scalar(self_or_result, 0), dtype=grad.dtype)
    scaled = aten.mul.Tensor(aten.mul.Tensor(grad, grad_output), input_scale)
    if is_result:
        return grad_output_grad, aten.mul.Tensor(scaled, negative)
    inner = aten.elu_backward.default(scaled, alpha, scale, input_scale, is_result, self_or_result)
    return grad_output_grad, aten.mul.Tensor(inner, negative)


def nan_to_num(grad, self, nan=None, posinf=None, neginf=None):
    not_infinite = aten.ne.Scalar(aten.abs.default(self), math.inf)  # (first, as ATen's isfinite computes it)
    return aten.mul.Tensor(grad, aten.mul.Tensor(aten.eq.Tensor(self, self), not_infinite))


def nan_to_num_decomposition(self, nan=None, posinf=None, neginf=None):
    if not self.dtype.is_floating_point:
        return aten.clone.default(self)
    big = float(np.finfo(self.dtype.np).max)
    def where(test, value, other):
        return aten.where.self(test, aten.scalar_tensor.default(value, dtype=self.dtype), other)
    result = where(aten.isnan.default(self), 0.0 if nan is None else nan, self)  # in torch's order: -inf before +inf
    result = where(aten.eq.Scalar(self, -math.inf), -big if neginf is None else neginf, result)
    return where(aten.eq.Scalar(self, math.inf), big if posinf is None else posinf, result)


def logaddexp(grad, self, other, needs_grad):
    other_grad = aten.div.Tensor(grad, aten.add.Scalar(aten.exp.default(aten.sub.Tensor(self, other)), 1)) \
        if needs_grad[1] else None
    self_grad = aten.div.Tensor(grad, aten.add.Scalar(aten.exp.default(aten.sub.Tensor(other, self)), 1)) \
        if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def hypot(grad, self, other, result, needs_grad):
    other_grad = aten.div.Tensor(aten.mul.Tensor(grad, other), result) if needs_grad[1] else None
    self_grad = aten.div.Tensor(aten.mul.Tensor(grad, self), result) if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def frac(grad):
    return grad


def frac_decomposition(self):
    return aten.sub.Tensor(self, aten.trunc.default(self))


def erfinv(grad, self):
    slope = aten.mul.Scalar(aten.exp.default(aten.pow.Tensor_Scalar(aten.erfinv.default(self), 2)),
                            0.5 * math.sqrt(math.pi))
    return aten.mul.Tensor(grad, slope)


def lgamma(grad, self):
    return aten.mul.Tensor(grad, aten.digamma.default(self))


def digamma(grad, self):
    return aten.mul.Tensor(grad, aten.polygamma.default(1, self))


def polygamma(grad, n, self):
    return aten.mul.Tensor(grad, aten.polygamma.default(n + 1, self))


def logit(grad, self, eps=None):
    return aten.logit_backward.default(grad, self, eps)


def logit_backward(grad, grad_output, self, needs_grad, eps=None):
    grad_output_grad = aten.logit_backward.default(grad, self, eps) if needs_grad[0] else None
    return grad_output_grad, None


def xlogy_tensor(grad, self, other, needs_grad):
    other_grad = aten.div.Tensor(aten.mul.Tensor(grad, self), other) if needs_grad[1] else None
    self_grad = None
    if needs_grad[0]:
        self_grad = aten.xlogy.Tensor(grad, other)
        nonpositive = aten.le.Scalar(other, 0.0)
        at_zero = aten.bitwise_and.Tensor(aten.eq.Scalar(self, 0.0), nonpositive)
        self_grad = aten.masked_fill.Scalar(self_grad, at_zero, 0.0)
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def xlogy_scalar_other(grad, self, other):
    grad = aten.xlogy.Scalar_Other(grad, other)
    return aten.masked_fill.Scalar(grad, aten.eq.Scalar(self, 0.0), 0.0) if other <= 0 else grad


def xlogy_scalar_self(grad, self, other):
    return aten.div.Tensor(aten.mul.Scalar(grad, self), other)


# ---------------------------------------------------------------- shapes and selections
def flip(grad, dims):
    return aten.flip.default(grad, dims)


def repeat(grad, self_shape, repeats):
    """ATen's repeat_backward: sum the leading new dims away one by one, then one reshape that splits each
    repeated dim into (repeat, size) and one sum over the repeats."""
    if any(r == 0 for r in repeats):
        return aten.zeros.default(list(self_shape), **_options(grad))
    for _ in range(grad.dim() - len(self_shape)):
        grad = aten.sum.dim_IntList(grad, [0])
    lead = len(repeats) - len(self_shape)
    grad_size, sum_dims = [], []
    for d, size in enumerate(self_shape):
        if repeats[d + lead] != 1:
            grad_size.append(repeats[d + lead])
            sum_dims.append(len(grad_size) - 1)
        grad_size.append(size)
    if sum_dims:
        grad = aten.sum.dim_IntList(_reshape(grad, grad_size), sum_dims)
    return grad


def constant_pad_nd(grad, pad):
    return aten.constant_pad_nd.default(grad, [-p for p in pad])


def tril(grad, diagonal=0):
    return aten.tril.default(grad, diagonal)


def triu(grad, diagonal=0):
    return aten.triu.default(grad, diagonal)


def unfold(grad, self_shape, dimension, size, step):
    return aten.unfold_backward.default(grad, list(self_shape), dimension, size, step)


def unfold_backward(grad, dim, size, step):
    return aten.unfold.default(grad, dim, size, step)


def rot90(grad, k=1, dims=(0, 1)):
    return aten.rot90.default(grad, -k, list(dims))


def rot90_decomposition(self, k=1, dims=(0, 1)):
    """flip then transpose (as a permute), as torch's reference does; k taken mod 4."""
    d0, d1 = dims[0] % self.dim(), dims[1] % self.dim()
    k %= 4
    if k == 0:
        return aten.clone.default(self)
    if k == 2:
        return aten.flip.default(self, [d0, d1])
    order = list(range(self.dim()))
    order[d0], order[d1] = d1, d0
    return aten.permute.default(aten.flip.default(self, [d1 if k == 1 else d0]), order)


def diagonal_copy(grad, self_shape, offset=0, dim1=0, dim2=1):
    return aten.diagonal_backward.default(grad, list(self_shape), offset, dim1, dim2)


def diagonal_copy_decomposition(self, offset=0, dim1=0, dim2=1):
    return aten.clone.default(aten.diagonal.default(self, offset, dim1, dim2))


def diag_embed(grad, offset=0, dim1=-2, dim2=-1):
    return aten.diagonal.default(grad, offset, dim1, dim2)


def masked_select(grad, self, mask, needs_grad):
    """masked_select_backward: the gradient scattered into zeros of the broadcast shape, then summed back."""
    shape = list(broadcast_shapes(tuple(self.shape), tuple(mask.shape)))
    zeros = aten.zeros_like.default(aten.expand.default(self, shape))
    full = aten.index_put.default(zeros, [aten.expand.default(mask, shape)], grad)
    return sum_to(full, _shape(self)), None


def cdist_forward(grad, x1, x2, p, result, needs_grad):
    if needs_grad[0] and not grad.is_contiguous():  # (ATen's formula: grad.contiguous())
        grad = aten.clone.default(grad, memory_format=contiguous_format)
    x1_grad = aten._cdist_backward.default(grad, x1, x2, p, result) if needs_grad[0] else None
    x2_grad = None
    if needs_grad[1]:
        grad_t = aten.clone.default(aten.transpose.int(grad, -1, -2))
        result_t = aten.clone.default(aten.transpose.int(result, -1, -2))
        x2_grad = aten._cdist_backward.default(grad_t, x2, x1, p, result_t)
    return x1_grad, x2_grad


# ---------------------------------------------------------------- the rarer pointwise math (kernels: more_ops2.py)
def atan2(grad, self, other, needs_grad):
    """ATen's atan2_backward: one reciprocal of self^2 + other^2 (zeroed where it is 0) serves both inputs."""
    other_sq = aten.mul.Tensor(other, other)
    denom = aten.add.Tensor(aten.mul.Tensor(self, self), other_sq)
    recip = aten.masked_fill.Scalar(aten.reciprocal.default(denom), aten.eq.Scalar(denom, 0), 0)
    self_grad = aten.mul.Tensor(aten.mul.Tensor(grad, other), recip) if needs_grad[0] else None
    other_grad = aten.mul.Tensor(aten.mul.Tensor(grad, aten.neg.default(self)), recip) if needs_grad[1] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def lerp_scalar(grad, weight, self_shape, end_shape, needs_grad):
    end_grad = aten.mul.Scalar(grad, weight) if needs_grad[1] else None
    self_grad = aten.mul.Scalar(grad, 1 - weight) if needs_grad[0] else None
    return sum_to(self_grad, self_shape), sum_to(end_grad, end_shape)


def lerp_tensor(grad, self, end, weight, needs_grad):
    end_grad = aten.mul.Tensor(grad, weight) if needs_grad[1] else None
    self_grad = None
    if needs_grad[0]:  # grad * (1 - weight), where C++ writes Scalar - Tensor as empty_like(t).fill_(s).sub_(t)
        ones = aten.fill.Scalar(aten.empty_like.default(weight, memory_format=preserve_format), 1)
        self_grad = aten.mul.Tensor(grad, aten.sub.Tensor(ones, weight))
    weight_grad = aten.mul.Tensor(grad, aten.sub.Tensor(end, self)) if needs_grad[2] else None
    return sum_to(self_grad, _shape(self)), sum_to(end_grad, _shape(end)), sum_to(weight_grad, _shape(weight))


def fmod_tensor(grad, self, other, needs_grad):
    return _rounded_division_backward(grad, self, other, needs_grad, "trunc")


def log2(grad, self):
    return aten.div.Tensor(grad, aten.mul.Scalar(self, math.log(2.0)))


def log10(grad, self):
    return aten.div.Tensor(grad, aten.mul.Scalar(self, math.log(10.0)))


def exp2(grad, result):
    return aten.mul.Tensor(grad, aten.mul.Scalar(result, math.log(2.0)))


def tan(grad, result):
    return aten.mul.Tensor(grad, aten.add.Scalar(aten.pow.Tensor_Scalar(result, 2), 1))


def asin(grad, self):
    return aten.mul.Tensor(grad, aten.rsqrt.default(aten.neg.default(aten.sub.Scalar(aten.mul.Tensor(self, self), 1))))


def acos(grad, self):
    one_less_square = aten.neg.default(aten.sub.Scalar(aten.mul.Tensor(self, self), 1))
    return aten.mul.Tensor(grad, aten.neg.default(aten.rsqrt.default(one_less_square)))


def atan(grad, self):
    return aten.div.Tensor(grad, aten.add.Scalar(aten.mul.Tensor(self, self), 1))


def sinh(grad, self):
    return aten.mul.Tensor(grad, aten.cosh.default(self))


def cosh(grad, self):
    return aten.mul.Tensor(grad, aten.sinh.default(self))


def clamp_min_tensor(grad, self, min, needs_grad):
    """clamp.Tensor's formula with no maximum: (self's gradient, min's)."""
    return clamp_tensor(grad, self, needs_grad, min=min)[:2]


def clamp_min_tensor_decomposition(self, min):
    return aten.clamp.Tensor(self, min)  # (torch._refs.clamp_min)


def softplus(grad, self, beta=1, threshold=20):
    return aten.softplus_backward.default(grad, self, beta, threshold)


def softplus_backward(grad, grad_output, self, beta, threshold):
    """softplus_backward's own derivative; the `self` part is ATen's softplus_double_backward."""
    grad_output_grad = aten.softplus_backward.default(grad, self, beta, threshold)
    x = aten.mul.Scalar(self, beta)
    below = aten._to_copy.default(aten.lt.Scalar(x, threshold), dtype=grad.dtype)
    product = aten.mul.Tensor(grad, grad_output)
    slope = aten.sigmoid_backward.default(product, aten.sigmoid.default(x))
    self_grad = aten.mul.Scalar(aten.mul.Tensor(slope, below), beta)
    return grad_output_grad, self_grad


def softplus_decomposition(self, beta=1, threshold=20):
    """log1p(exp(beta*x))/beta, or x itself where beta*x > threshold (the scaling left out for beta 1)."""
    scaled = self if beta == 1 else aten.mul.Tensor(self, beta)
    smooth = aten.log1p.default(aten.exp.default(scaled))
    if beta != 1:
        smooth = aten.div.Tensor(smooth, beta)
    return aten.where.self(aten.gt.Scalar(scaled, threshold), self, smooth)


def softplus_backward_decomposition(grad_output, self, beta, threshold):
    z = aten.exp.default(aten.mul.Tensor(self, beta))
    linear = aten.gt.Scalar(aten.mul.Tensor(self, beta), threshold)
    smooth = aten.div.Tensor(aten.mul.Tensor(grad_output, z), aten.add.Tensor(z, 1.0))
    return aten.where.self(linear, grad_output, smooth)


def round_decimals_decomposition(self, *, decimals):
    """round(x * 10**d) * (1 / 10**d): inductor's own form (eager divides, so the last bit may differ)."""
    if not self.dtype.is_floating_point:
        return NotImplemented  # the op itself raises torch's error
    ten_pow = 10.0 ** decimals
    return aten.mul.Tensor(aten.round.default(aten.mul.Tensor(self, ten_pow)), 1.0 / ten_pow)


# ---------------------------------------------------------------- prod, logsumexp, baddbmm, roll
def prod_default(grad, self):
    """ATen's prod_backward as traced (prod_safe_zeros_backward): products of everything before and after each
    element, from two exclusive cumprods, so a zero input gives the others' product rather than 0 / 0."""
    if self.dtype != grad.dtype:  # prod_backward(grad, self.to(grad.scalar_type()), result)
        self = aten._to_copy.default(self, dtype=grad.dtype)
    if self.dim() == 0:
        return grad  # (the engine casts it to the input's dtype, as torch's validate_outputs does)
    flat = aten.view.default(aten.clone.default(self, memory_format=contiguous_format)
                             if not self.is_contiguous() else self, [-1])
    grad_input = grad if flat.shape[0] == 1 else _prod_safe_zeros_backward(grad, flat, 0)
    return aten.view.default(grad_input, list(self.shape))


def logsumexp(grad, self, result, dim, keepdim=False):
    dims = _dims(dim, self.dim())
    if not keepdim and self.dim():
        for d in dims:
            grad = aten.unsqueeze.default(grad, d)
            result = aten.unsqueeze.default(result, d)
    share = aten.exp.default(aten.sub.Tensor(self, result))
    return aten.mul.Tensor(grad, aten.conj_physical.default(share) if share.dtype.is_complex else share)


def prod_dim_int(grad, self, dim, keepdim=False):
    """ATen's prod_backward over one dim as traced (the safe-zeros path), in self's dtype cast to grad's."""
    if self.dtype != grad.dtype:
        self = aten._to_copy.default(self, dtype=grad.dtype)
    if self.dim() == 0:
        return grad
    dim = dim + self.dim() if dim < 0 else dim
    if not keepdim:
        grad = aten.unsqueeze.default(grad, dim)
    return _prod_safe_zeros_backward(grad, self, dim)


def _prod_safe_zeros_backward(grad, inp, dim):
    """grad times the product of the elements before and after each one along `dim` (two exclusive
    cumprods, the second over the flipped dim), so a zero element gets the others' product, not 0 / 0."""
    if inp.numel() == 0:
        return aten.expand.default(grad, list(inp.shape))
    n = inp.shape[dim]
    ones_size = list(inp.shape)
    ones_size[dim] = 1
    ones = aten.ones.default(ones_size, **_options(grad))
    before = aten.cumprod.default(aten.cat.default([ones, aten.slice.Tensor(inp, dim, 0, n - 1)], dim), dim)
    rest = aten.flip.default(aten.slice.Tensor(inp, dim, 1, n), [dim])
    after = aten.flip.default(aten.cumprod.default(aten.cat.default([ones, rest], dim), dim), [dim])
    return aten.mul.Tensor(grad, aten.mul.Tensor(before, after))


def logsumexp_decomposition(self, dim, keepdim=False):
    """max + log(sum(exp(x - max))) over dim, an infinite max taken as 0 so that inf - inf is not a NaN.
    Integer and bool inputs compute in the default float dtype, as ATen's logsumexp does."""
    if not self.dtype.is_inexact:
        self = ops.prims.convert_element_type.default(self, _dtype.get_default_dtype())
    if self.numel() == 0:
        return aten.log.default(aten.sum.dim_IntList(aten.exp.default(self), dim, keepdim))
    maxes = aten.amax.default(self.real if self.dtype.is_complex else self, dim, True)
    maxes = aten.masked_fill.Scalar(maxes, aten.eq.Scalar(aten.abs.default(maxes), float("inf")), 0)
    maxes_squeezed = maxes if keepdim else aten.squeeze.dims(maxes, dim)
    summed = aten.sum.dim_IntList(aten.exp.default(aten.sub.Tensor(self, maxes)), dim, keepdim)
    return aten.add.Tensor(aten.log.default(summed), maxes_squeezed)


def baddbmm(grad, self_shape, batch1, batch2, needs_grad, beta=1, alpha=1):
    b1 = _scale(aten.bmm.default(grad, aten.transpose.int(batch2, 1, 2)), alpha) if needs_grad[1] else None
    b2 = _scale(aten.bmm.default(aten.transpose.int(batch1, 1, 2), grad), alpha) if needs_grad[2] else None
    self_grad = _scale(grad, beta) if needs_grad[0] else None
    return sum_to(self_grad, self_shape), b1, b2


def roll(grad, shifts, dims=()):
    return aten.roll.default(grad, [-s for s in shifts], dims)
