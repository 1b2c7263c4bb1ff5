"""Decompositions of the nn ops: softmax, losses, layer norm, embedding backward (the op table's fifth column).

Runtime layer, beside decompositions.py (pointwise and activation ops). Each function computes its op from simpler
registered ops as the decomposition PyTorch's inductor uses does, op for op and in the same order, so that a graph
traced with `backend.compile_fx.select_decomp_table()` reads as the graph `torch.compile` hands to inductor
(tests/backend/test_inductor_aot_graphs.py compares the two). The products and sums are written with Python numbers as
`mul.Tensor(x, 0.5)`, the way torch records `x * 0.5`.

Two shapes of formula come out of the joint-graph passes rather than from here (backend/joint_graph.py): the `full`
constants (a `where(cond, x, 0)` records a scalar_tensor, folded into `full`), and nll_loss_backward's one-hot
scatter, rewritten as `where(target == iota)`.
"""
import math

from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format
from .nn_ops import _nll_check, _nll_dtypes

aten, prims = ops.aten, ops.prims
MEAN, SUM = 1, 2  # at::Reduction


# ---- softmax ----------------------------------------------------------------------------


def _softmax(self, dim, half_to_float, log=False):
    # softmax: exp(x - max) over its sum; log_softmax (`log`): x - max less the log of that sum
    self = self.contiguous()  # eager softmax returns a contiguous tensor, so must this
    if self.numel() == 0:  # nothing to shift (and amax of an empty dim raises), as torch's decomposition
        return aten.exp.default(self)
    shifted = aten.sub.Tensor(self, aten.amax.default(self, [dim], True))
    unnormalized = aten.exp.default(shifted)
    total = aten.sum.dim_IntList(unnormalized, [dim], True)
    return aten.sub.Tensor(shifted, aten.log.default(total)) if log else aten.div.Tensor(unnormalized, total)


def _log_softmax(self, dim, half_to_float):
    return _softmax(self, dim, half_to_float, log=True)


def _softmax_backward_data(grad_output, output, dim, input_dtype):
    """grad*y - y * sum(grad*y)."""
    product = aten.mul.Tensor(grad_output, output)
    return aten.sub.Tensor(product, aten.mul.Tensor(output, aten.sum.dim_IntList(product, [dim], True)))


def _softmax_backward_data_fma(grad_output, output, dim, input_dtype):
    """The same as one fma(-y, sum(grad*y), grad*y): inductor's own form (backend/compile_fx.py)."""
    product = aten.mul.Tensor(grad_output, output)
    summed = aten.sum.dim_IntList(product, [dim], True)
    return prims.fma.default(aten.neg.default(output), summed, product)


def _log_softmax_backward_data(grad_output, output, dim, input_dtype):
    probabilities = aten.exp.default(output)
    summed = aten.sum.dim_IntList(grad_output, [dim], True)
    return aten.sub.Tensor(grad_output, aten.mul.Tensor(probabilities, summed))


# ---- losses -----------------------------------------------------------------------------


def _where_zero(condition, value):
    """where(condition, value, 0), the 0 a scalar_tensor of value's dtype (torch.where with a Python 0)."""
    return aten.where.self(condition, value, aten.scalar_tensor.default(0, dtype=value.dtype))


def _checked_targets(self, target, weight, check):
    """The op's meta checks (`check`: shapes, nll_loss2d's for its 4-d form; dtypes), then the targets as gather
    and scatter index with them: uint8 targets, which nll_loss takes, become int64."""
    check(self, target, weight)
    _nll_dtypes(self, target, weight, "nll_loss_out_frame")
    return prims.convert_element_type.default(target, _dtype.int64) if target.dtype is _dtype.uint8 else target


def nll_loss_forward(self, target, weight, reduction, ignore_index, check=_nll_check):
    """-self[i, target[i]] per row, 0 where target is ignore_index; summed, or averaged over the rows kept
    (weighted by weight[target] when given)."""
    target = _checked_targets(self, target, weight, check)
    channel_dim = 0 if self.dim() < 2 else 1
    if weight is not None:
        weight_view = aten.view.default(weight, [1, weight.shape[0]] + [1] * (self.dim() - 2)) if self.dim() > 1 else weight
        self = aten.mul.Tensor(self, weight_view)
    safe_target = aten.unsqueeze.default(_where_zero(aten.ne.Scalar(target, ignore_index), target), channel_dim)
    negated = aten.neg.default(aten.squeeze.dim(aten.gather.default(self, channel_dim, safe_target), channel_dim))
    result = _where_zero(aten.ne.Scalar(target, ignore_index), negated)  # (neg before ne, in torch's order)
    if reduction not in (MEAN, SUM) and self.dim() > 1:
        return result, aten.full.default([], 0.0, dtype=self.dtype, layout=self.layout, device=self.device,
                                         pin_memory=False)
    if weight is not None:
        expanded = aten.expand.default(weight_view, list(self.shape))
        picked_weight = aten.squeeze.dim(aten.gather.default(expanded, channel_dim, safe_target), channel_dim)
        total_weight = aten.sum.default(_where_zero(aten.ne.Scalar(target, ignore_index), picked_weight))
    else:
        kept = aten.sum.default(aten.ne.Scalar(target, ignore_index))
        total_weight = prims.convert_element_type.default(kept, self.dtype)
    if reduction == SUM:
        result = aten.sum.default(result)
    elif reduction == MEAN:
        result = aten.div.Tensor(aten.sum.default(result), total_weight)
    return result, total_weight


def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight, check=_nll_check):
    """-grad at each row's target class (scaled by weight, / total_weight for mean), a one-hot scatter."""
    target = _checked_targets(self, target, weight, check)
    channel_dim = 0 if self.dim() < 2 else 1
    if reduction == MEAN:
        grad_output = aten.div.Tensor(grad_output, total_weight)
    if self.dim() == 1 and target.dim() > 0:
        target = aten.select.int(target, 0, 0)
    target = aten.unsqueeze.default(target, channel_dim)
    safe_target = _where_zero(aten.ne.Scalar(target, ignore_index), target)
    one_hot = aten.scatter.value(aten.zeros_like.default(self), channel_dim, safe_target, -1.0)
    if one_hot.dim() > grad_output.dim() > 0:
        grad_output = aten.unsqueeze.default(grad_output, channel_dim)
    if weight is not None:
        shape = [1] * self.dim()
        shape[channel_dim] = weight.shape[0]
        grad_output = aten.mul.Tensor(grad_output, aten.view.default(weight, shape))
    grad_output = _where_zero(aten.ne.Scalar(target, ignore_index), grad_output)
    return aten.mul.Tensor(one_hot, grad_output)


# ---- layer norm -------------------------------------------------------------------------


def _to(t, dtype, copy=False):
    # torch's _maybe_convert_to_dtype: a convert where the dtype differs; `copy`: Tensor.to(dtype,
    # memory_format=torch.contiguous_format)'s, whose _to_copy decomposes as the convert then a clone
    if t is None or t.dtype is dtype:
        return t
    t = prims.convert_element_type.default(t, dtype)
    return aten.clone.default(t, memory_format=contiguous_format) if copy else t


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    # torch's reference: contiguous operands, the input in its computation dtype (float32 for the halves, whatever
    # the weight's: autocast's bfloat16 input with float32 parameters), out, mean and rstd in the input's
    input, weight, bias = (None if t is None else t.contiguous() for t in (input, weight, bias))
    dims = list(range(input.dim() - len(normalized_shape), input.dim()))
    x = _to(input, _dtype.opmath(input.dtype))
    var, mean = aten.var_mean.correction(x, dims, correction=0, keepdim=True)
    rstd = aten.rsqrt.default(aten.add.Tensor(var, eps))
    out = aten.mul.Tensor(aten.sub.Tensor(x, mean), rstd)
    if weight is not None:
        out = aten.mul.Tensor(out, weight)
    if bias is not None:
        out = aten.add.Tensor(out, bias)
    return tuple(_to(t, input.dtype) for t in (out, mean, rstd))


def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    """With x_hat = (x - mean) * rstd and g = grad * weight over the N normalized elements:
    dx = rstd / N * (N g - sum(g) - x_hat sum(g x_hat)); dweight = sum(grad x_hat), dbias = sum(grad)
    over the outer dims."""
    axis = input.dim() - len(normalized_shape)
    inner_dims, outer_dims = list(range(axis, input.dim())), list(range(axis))
    n_inner = math.prod(input.shape[axis:])
    if n_inner == 0 or input.numel() == 0:  # nothing to normalize: zero gradients
        return tuple(aten.new_zeros.default(input, list(shape)) if wanted else None
                     for wanted, shape in zip(output_mask, (input.shape, *[input.shape[axis:]] * 2)))
    dtypes = [None if t is None else t.dtype for t in (input, weight, bias)]  # (computed in input's opmath dtype)
    grad_out, input, weight, bias = (_to(t, _dtype.opmath(input.dtype), True) for t in (grad_out, input, weight, bias))
    for _ in range(input.dim() - mean.dim()):  # (torch's _unsqueeze_to_dim: a mean given over the outer dims only)
        mean = aten.unsqueeze.default(mean, -1)
    for _ in range(input.dim() - rstd.dim()):
        rstd = aten.unsqueeze.default(rstd, -1)
    x_hat = aten.mul.Tensor(aten.sub.Tensor(input, mean), rstd)
    grad_x_hat = aten.mul.Tensor(grad_out, weight) if weight is not None else grad_out
    scaled = aten.mul.Tensor(grad_x_hat, n_inner)
    grad_sum = aten.sum.dim_IntList(grad_x_hat, inner_dims, True)
    projection = aten.sum.dim_IntList(aten.mul.Tensor(grad_x_hat, x_hat), inner_dims, True)
    along_x_hat = aten.mul.Tensor(x_hat, projection)
    inner = aten.sub.Tensor(aten.sub.Tensor(scaled, grad_sum), along_x_hat)
    d_input = aten.mul.Tensor(aten.div.Tensor(rstd, n_inner), inner) if output_mask[0] else None
    d_weight = d_bias = None
    if output_mask[1] and weight is not None:
        d_weight = aten.mul.Tensor(grad_out, x_hat)
        if outer_dims:
            d_weight = aten.sum.dim_IntList(d_weight, outer_dims, False)
    if output_mask[2] and bias is not None:
        d_bias = aten.sum.dim_IntList(grad_out, outer_dims, False) if outer_dims else aten.clone.default(grad_out)
    return tuple(_to(t, dtype) for t, dtype in zip((d_input, d_weight, d_bias), dtypes))


# ---- embedding --------------------------------------------------------------------------


def embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    """grad_weight[indices[i]] += grad_output[i] for the valid indices that are not padding_idx: a masked
    scatter-add into zeros."""
    if scale_grad_by_freq or indices.dtype.is_floating_point:
        return NotImplemented
    valid = aten.bitwise_and.Tensor(aten.ge.Scalar(indices, 0), aten.lt.Scalar(indices, num_weights))
    mask = aten.bitwise_and.Tensor(valid, aten.ne.Scalar(indices, padding_idx))
    while mask.dim() < grad_output.dim():
        mask = aten.unsqueeze.default(mask, -1)
    grad_weight = aten.new_zeros.default(grad_output, [num_weights] + list(grad_output.shape[indices.dim():]))
    return aten._unsafe_masked_index_put_accumulate.default(grad_weight, mask, [indices], grad_output)
