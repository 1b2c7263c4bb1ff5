"""The op table's rows for the nn layers beyond the pipeline's core set: embedding bags, grid sampling, affine grids
the CTC loss, each with the backward op its derivative formula calls, pixel (un)shuffle (nn_pixel_shuffle.py),
group norm (nn_group_norm.py) and weight normalization's fused op (weight_norm_ops.py).

Runtime layer, part of THE operator table: table.py appends these rows to its
own (`rows(op, inplace)` is called with table.py's row makers, so a row here
reads exactly as one there). Kernels and meta functions are in nn_more_ops.py (the 3-d grid sampler's in
grid_sampler_3d.py),
derivative formulas in nn_more_formulas.py. The other layers beyond the core set
(padding modes, transposed convolution, instance norm,
more activations) are composites of existing rows (nn/_functional_more.py).
"""
from . import grid_sampler_3d as gs3
from . import nll_loss2d as nll2d
from . import nn_group_norm as gn
from . import nn_more_formulas as f
from . import nn_more_ops as k
from . import nn_pixel_shuffle as ps
from . import weight_norm_ops

FOUR_OUTPUTS_FIRST_DIFFERENTIABLE = (True, False, False, False)


def rows(op, inplace):
    return [
        op("native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, "
           "float eps) -> (Tensor, Tensor, Tensor)", ("core",), gn.native_group_norm, gn.derivative,
           decomposition=gn.native_group_norm_decomposition),
        op("native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, "
           "SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", ("core",),
           gn.native_group_norm_backward, f.not_implemented("native_group_norm_backward"),
           decomposition=gn.native_group_norm_backward_decomposition),
        op("nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) "
           "-> (Tensor output, Tensor total_weight)", (), nll2d.nll_loss2d_forward, nll2d.forward_formula,
           grad_fn="NllLoss2DBackward0", output_differentiability=(True, False),
           decomposition=nll2d.forward_decomposition),
        op("nll_loss2d_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, "
           "SymInt ignore_index, Tensor total_weight) -> Tensor", (), nll2d.nll_loss2d_backward, nll2d.backward_formula,
           decomposition=nll2d.backward_decomposition),
        op("pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", (), ps.pixel_shuffle, ps.pixel_shuffle_backward,
           decomposition=ps.pixel_shuffle_decomposition),
        op("pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", (), ps.pixel_unshuffle,
           ps.pixel_unshuffle_backward, decomposition=ps.pixel_unshuffle_decomposition),
        op("_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, "
           "bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) "
           "-> (Tensor, Tensor, Tensor, Tensor)", ("core",), k.embedding_bag, f.embedding_bag,
           grad_fn="EmbeddingBagBackward0", output_differentiability=FOUR_OUTPUTS_FIRST_DIFFERENTIABLE),
        op("_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, Tensor bag_size, "
           "Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int mode, bool sparse, "
           "Tensor? per_sample_weights, int padding_idx=-1) -> Tensor", (), k.embedding_bag_backward,
           f.embedding_bag_backward),
        op("_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, Tensor offsets, "
           "Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor", (),
           k.embedding_bag_per_sample_weights_backward, f.per_sample_weights_backward),
        op("grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) "
           "-> Tensor", ("core",), k.grid_sampler_2d, f.grid_sampler_2d, grad_fn="GridSampler2DBackward0"),
        op("grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, "
           "int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)", (),
           k.grid_sampler_2d_backward, f.grid_sampler_2d_backward, grad_fn="GridSampler2DBackwardBackward0"),
        op("grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) "
           "-> Tensor", (), gs3.grid_sampler_3d, f.grid_sampler_3d, grad_fn="GridSampler3DBackward0"),
        op("grid_sampler_3d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, "
           "int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)", (),
           gs3.grid_sampler_3d_backward, f.grid_sampler_3d_backward, grad_fn="GridSampler3DBackwardBackward0"),
        op("affine_grid_generator(Tensor theta, SymInt[] size, bool align_corners) -> Tensor", (),
           k.affine_grid_generator, f.affine_grid_generator),
        op("affine_grid_generator_backward(Tensor grad, SymInt[] size, bool align_corners) -> Tensor", (),
           k.affine_grid_generator_backward, f.affine_grid_generator_backward),
        op("_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, "
           "bool zero_infinity=False) -> (Tensor, Tensor)", ("dynamic_output_shape",), k.ctc_loss, f.ctc_loss,
           grad_fn="CtcLossBackward0", output_differentiability=(True, False)),
        op("_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, "
           "int[] target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) "
           "-> Tensor", (), k.ctc_loss_backward, f.ctc_loss_backward),
        *weight_norm_ops.rows(op),  # (weight_norm_ops.py: torch._weight_norm's fused op and its backward)
    ]
