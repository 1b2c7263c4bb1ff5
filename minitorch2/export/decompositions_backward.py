"""Export's decompositions of backward ops, which an exported joint graph holds: each records the ops torch's
export records for it, in the same order (decompositions.py, whose EXPORT_ONLY table takes these in).

torch.export layer (coverage surface).
"""
import math

from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format, strided

aten = ops.aten


def scalar(value, like, dtype=None):
    """A Python number as torch.where makes it: a 0-d tensor of `like`'s dtype (or `dtype`), layout and device."""
    return aten.scalar_tensor.default(value, dtype=dtype or like.dtype, layout=strided, device=like.device)


def logit_backward(grad_output, self, eps=None):
    """grad / (x (1 - x)) inside the clamp range; outside it nan without eps, else 0."""
    low, high = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
    inside = aten.logical_and.default(aten.ge.Scalar(self, low), aten.le.Scalar(self, high))
    gradient = aten.div.Tensor(grad_output, aten.mul.Tensor(self, aten.sub.Tensor(1.0, self)))
    if eps is None:
        outside = aten.full.default([], math.nan, dtype=self.dtype, layout=strided, device=self.device,
                                    pin_memory=False)
    else:
        outside = scalar(0.0, self)
    return aten.where.self(inside, gradient, outside)


def native_dropout_backward(grad_output, mask, scale):
    kept = aten._to_copy.default(mask, dtype=grad_output.dtype, layout=strided, device=grad_output.device)
    gradient = aten.mul.Tensor(grad_output, aten.mul.Tensor(kept, scale))
    return aten.clone.default(gradient, memory_format=contiguous_format)


def unsafe_masked_index_put_accumulate(self, mask, indices, values):
    """index_put(accumulate) at the indices clamped into range, the masked-off values zeroed."""
    if len(indices) != 1 or indices[0] is None:
        return NotImplemented
    size = self.shape[0]
    index = aten.clamp.default(indices[0], -size, size - 1)
    values = aten.where.self(aten.bitwise_not.default(mask), scalar(0.0, values), values)
    return aten.index_put.default(self, [index], values, True)


def native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd,
                               train, eps, output_mask):
    """A training batch norm's gradients from the saved mean and inverse deviation (the eval form stays whole):
    grad_input = (grad - (x - mean) * invstd**2 * mean(grad * (x - mean)) - mean(grad)) * invstd * weight."""
    if not train or save_mean is None or list(output_mask) != [True, True, True]:
        return NotImplemented
    axes = [0] + list(range(2, input.dim()))
    per_channel = 1 / (input.numel() // input.shape[1])

    def spread(t):  # [C] -> [1, C, 1, ...]
        for axis in axes:
            t = aten.unsqueeze.default(t, axis)
        return t
    mean = spread(save_mean)
    grad_sum = aten.sum.dim_IntList(grad_out, axes)
    dot = aten.sum.dim_IntList(aten.mul.Tensor(grad_out, aten.sub.Tensor(input, mean)), axes)
    grad_mean = spread(aten.mul.Tensor(grad_sum, per_channel))
    projection = aten.mul.Tensor(aten.mul.Tensor(dot, per_channel), aten.mul.Tensor(save_invstd, save_invstd))
    projection = spread(projection)
    if weight is None:
        scale = aten.mul.Tensor(spread(save_invstd), 1.0)
    else:
        scale = spread(aten.mul.Tensor(save_invstd, weight))
    centered = aten.mul.Tensor(aten.sub.Tensor(input, mean), projection)
    grad_input = aten.mul.Tensor(aten.sub.Tensor(aten.sub.Tensor(grad_out, centered), grad_mean), scale)
    return grad_input, aten.mul.Tensor(dot, save_invstd), grad_sum


def unfold_backward(grad_in, input_sizes, dim, size, step):
    """Each window's gradient added back at the positions it was taken from: the windows of the positions
    (unfold of an arange) and the gradient with its window dim next to dim, both flattened, into index_put."""
    dim = dim % max(len(input_sizes), 1)
    zeros = aten.full.default(list(input_sizes), 0, dtype=grad_in.dtype, layout=strided, device=grad_in.device,
                              pin_memory=False)
    positions = aten.arange.start_step(0, input_sizes[dim], dtype=_dtype.int32, layout=strided,
                                       device=grad_in.device, pin_memory=False)
    windows = aten.unfold.default(positions, 0, size, step)
    index = _reshaped(windows, [windows.numel()])
    last = grad_in.dim() - 1
    grad = aten.permute.default(grad_in, list(range(dim + 1)) + [last] + list(range(dim + 1, last)))
    sizes = list(input_sizes)
    sizes[dim] = windows.numel()
    return aten.index_put.default(zeros, [None] * dim + [index], _reshaped(grad, sizes), True)


def _reshaped(t, sizes):
    """t.reshape(sizes): a view of a contiguous t, else of a contiguous copy."""
    if not t.is_contiguous():
        t = aten.clone.default(t, memory_format=contiguous_format)
    return aten.view.default(t, sizes)


def diagonal_backward(grad_output, input_sizes, offset, dim1, dim2):
    zeros = aten.full.default(list(input_sizes), 0, dtype=grad_output.dtype, layout=strided,
                              device=grad_output.device, pin_memory=False)
    return aten.diagonal_scatter.default(zeros, grad_output, offset, dim1, dim2)


BACKWARD = {
    aten.diagonal_backward.default: diagonal_backward, aten.logit_backward.default: logit_backward,
    aten.native_dropout_backward.default: native_dropout_backward,
    aten.native_batch_norm_backward.default: native_batch_norm_backward,
    aten.unfold_backward.default: unfold_backward,
    aten._unsafe_masked_index_put_accumulate.default: unsafe_masked_index_put_accumulate,
    # rows in our core set for the inductor path (as in torch's core set), which torch's export table splits still
    aten.embedding_dense_backward.default: aten.embedding_dense_backward.default.decomposition,
    aten.native_layer_norm_backward.default: aten.native_layer_norm_backward.default.decomposition,
}
