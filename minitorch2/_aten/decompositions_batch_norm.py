"""Decompositions of the batch norms and their backward, as torch's inductor applies them (the op table's fifth
column for those rows; backend/compile_fx.py's table, not the core one: minitorch2/export/decompositions.py).

Runtime layer, beside decompositions_nn.py. Op for op and in torch's order (torch/_decomp's native_batch_norm_helper
and native_batch_norm_backward), so a conv + batch norm trained under the inductor traces the graphs torch's does:
var_mean over all dims but the channel one, the running statistics updated as momentum * batch + (1 - momentum) *
running (the variance's batch term unbiased by n / (n - 1)), and per-channel tensors unsqueezed to broadcast. float16
inputs compute in float32 and round once (half_opmath.py wraps these rows).
"""
import math

from .._ops import ops

aten, prims = ops.aten, ops.prims


def _unsqueeze_to_dim(t, ndim):
    """A [C] tensor as [C, 1, ...] with ndim dims, broadcasting against (N, C, ...) from dim 1."""
    for _ in range(ndim - t.dim()):
        t = aten.unsqueeze.default(t, -1)
    return t


def native_batch_norm_legit_functional(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """(output, save_mean, save_rstd, new_running_mean, new_running_var): the batch norm the others call."""
    dims = [0, *range(2, input.dim())]
    if training:
        biased_var, mean = aten.var_mean.correction(input, dims, correction=0, keepdim=True)
        rstd = aten.rsqrt.default(aten.add.Tensor(biased_var, eps))
        output = aten.mul.Tensor(aten.sub.Tensor(input, mean), rstd)
        save_mean, save_rstd = aten.squeeze.dims(mean, dims), aten.squeeze.dims(rstd, dims)
        if running_mean is not None:
            running_mean = aten.add.Tensor(aten.mul.Tensor(save_mean, momentum),
                                           aten.mul.Tensor(running_mean, 1 - momentum))
        if running_var is not None:
            n = input.numel() / input.shape[1]
            unbiased = aten.mul.Tensor(aten.squeeze.dims(biased_var, dims), n / (n - 1))
            running_var = aten.add.Tensor(aten.mul.Tensor(unbiased, momentum),
                                          aten.mul.Tensor(running_var, 1 - momentum))
    else:
        running_mean = prims.convert_element_type.default(running_mean, input.dtype)  # (torch's copy: .to(copy=True))
        running_var = prims.convert_element_type.default(running_var, input.dtype)
        invstd = aten.mul.Tensor(aten.reciprocal.default(aten.sqrt.default(aten.add.Tensor(running_var, eps))), 1)
        save_mean = save_rstd = aten.new_zeros.default(input, [0])  # (the CPU's: no statistics saved)
        mean, invstd = _unsqueeze_to_dim(running_mean, input.dim() - 1), _unsqueeze_to_dim(invstd, input.dim() - 1)
        output = aten.mul.Tensor(aten.sub.Tensor(input, mean), invstd)
    if weight is not None:
        output = aten.mul.Tensor(output, _unsqueeze_to_dim(weight, input.dim() - 1))
    if bias is not None:
        output = aten.add.Tensor(output, _unsqueeze_to_dim(bias, input.dim() - 1))
    return output, save_mean, save_rstd, running_mean, running_var


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """F.batch_norm's op (and _native_batch_norm_legit): the running statistics copy_'d into (then functionalized)."""
    output, save_mean, save_rstd, new_mean, new_var = native_batch_norm_legit_functional(
        input, weight, bias, running_mean, running_var, training, momentum, eps)
    for stat, new in ((running_mean, new_mean), (running_var, new_var)) if training and running_mean is not None else ():
        version = stat._version  # (ATen's kernel writes them unannounced, no `!` in the schema: no version bump)
        aten.copy_.default(stat, new)
        stat._version_counter.value = version
    return output, save_mean, save_rstd


def native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var, momentum, eps):
    return native_batch_norm_legit_functional(input, weight, bias, running_mean, running_var, False, momentum, eps)[:3]


def _broadcast_to_channels(t, mask):
    """Unsqueeze a [C] tensor where `mask` (1 but at the channel dim) has a dim it lacks."""
    for axis, size in enumerate(mask):
        if size == 1 and not (axis < t.dim() and t.shape[axis] == size):
            t = aten.unsqueeze.default(t, axis)
    return t


def native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps,
                               output_mask):
    mean, invstd = (save_mean, save_invstd) if train else (
        running_mean, aten.rsqrt.default(aten.add.Tensor(running_var, eps)))
    mask = [1, input.shape[1], *[1] * (input.dim() - 2)]  # (the channel dim's size, 1 elsewhere)
    axes = [i for i in range(input.dim()) if i != 1]
    mean = _broadcast_to_channels(mean, mask)
    norm = 1.0 / (math.prod(input.shape) / input.shape[1]) if input.numel() else math.inf  # (C's 1. / 0: inf)
    grad_output_sum = aten.sum.dim_IntList(grad_out, axes)
    dot_p = aten.sum.dim_IntList(aten.mul.Tensor(grad_out, aten.sub.Tensor(input, mean)), axes)
    grad_mean = _broadcast_to_channels(aten.mul.Tensor(grad_output_sum, norm), mask)
    proj_scale = _broadcast_to_channels(
        aten.mul.Tensor(aten.mul.Tensor(dot_p, norm), aten.mul.Tensor(invstd, invstd)), mask)
    grad_scale = aten.mul.Tensor(_broadcast_to_channels(invstd, mask), 1.0) if weight is None else \
        _broadcast_to_channels(aten.mul.Tensor(invstd, weight), mask)
    if train:
        projection = aten.mul.Tensor(aten.sub.Tensor(input, mean), proj_scale)
        grad_input = aten.mul.Tensor(aten.sub.Tensor(aten.sub.Tensor(grad_out, projection), grad_mean), grad_scale)
    else:
        grad_input = aten.mul.Tensor(grad_out, grad_scale)
    grad_weight = aten.mul.Tensor(dot_p, invstd) if output_mask[1] else None
    grad_bias = grad_output_sum if output_mask[2] else None
    return grad_input, grad_weight, grad_bias
