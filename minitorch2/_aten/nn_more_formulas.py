"""Derivative formulas of table_nn_more.py's ops: embedding bags, grid sampling, affine grids, CTC loss.

Runtime layer, coverage surface, read by the autograd layer through the op table as derivatives_nn.py's formulas are
(parameter names say what a node saves: `result1` is the op's second output, `needs_grad` the inputs that want a
gradient). As in derivatives.yaml, each forward's gradient is one call of its own backward op, which takes the
forward's extra outputs: an embedding bag's offset2bag, bag sizes and chosen rows, CTC's log_alpha.
"""
from .._ops import ops
from .derivatives_nn import first, not_implemented

aten = ops.aten


def embedding_bag(grads, weight, indices, offsets, result1, result2, result3, scale_grad_by_freq, mode, sparse,
                  per_sample_weights, padding_idx, needs_grad):
    grad = first(grads)
    if grad is None:
        return None, None, None, None
    if sparse:
        raise NotImplementedError("minitorch2 has no sparse tensors: embedding_bag(..., sparse=True) cannot be "
                                  "differentiated")
    grad_weight = grad_weights = None
    if needs_grad[0]:
        grad_weight = aten._embedding_bag_backward.default(grad, indices, offsets, result1, result2, result3,
                                                           weight.shape[0], scale_grad_by_freq, mode, sparse,
                                                           per_sample_weights, padding_idx)
    if per_sample_weights is not None and needs_grad[3]:
        grad_weights = aten._embedding_bag_per_sample_weights_backward.default(grad, weight, indices, offsets,
                                                                               result1, mode, padding_idx)
    return grad_weight, None, None, grad_weights


def grid_sampler_2d(grad, input, grid, interpolation_mode, padding_mode, align_corners, needs_grad):
    return aten.grid_sampler_2d_backward.default(grad, input, grid, interpolation_mode, padding_mode, align_corners,
                                                 [needs_grad[0], needs_grad[1]])


def grid_sampler_3d(grad, input, grid, interpolation_mode, padding_mode, align_corners, needs_grad):
    return aten.grid_sampler_3d_backward.default(grad, input, grid, interpolation_mode, padding_mode, align_corners,
                                                 [needs_grad[0], needs_grad[1]])


def affine_grid_generator(grad, size, align_corners):
    return aten.affine_grid_generator_backward.default(grad, size, align_corners)


def ctc_loss(grads, log_probs, targets, input_lengths, target_lengths, result0, result1, blank, zero_infinity):
    grad = first(grads)
    return aten._ctc_loss_backward.default(grad, log_probs, targets, input_lengths, target_lengths, result0, result1,
                                           blank, zero_infinity), None


embedding_bag_backward = not_implemented("_embedding_bag_backward")
per_sample_weights_backward = not_implemented("_embedding_bag_per_sample_weights_backward")
grid_sampler_2d_backward = not_implemented("grid_sampler_2d_backward")
grid_sampler_3d_backward = not_implemented("grid_sampler_3d_backward")


def affine_grid_generator_backward(grad, size, align_corners):
    return aten.affine_grid_generator.default(grad, size, align_corners)  # the backward of a linear map's backward
ctc_loss_backward = not_implemented("_ctc_loss_backward")
