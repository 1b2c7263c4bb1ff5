"""The op table's nn rows: softmax, the nll loss, layer and batch norm, convolution, embedding and dropout,
each with the backward op its derivative formula calls.

Runtime layer, part of THE operator table: table.py splices these rows in among its own (the nn families no stage
of the pipeline needs, mse and binary cross entropies, pooling and upsampling, are in table_nn_apart.py). Kernels and meta functions
are in nn_ops.py, nn_norm.py and nn_conv.py; formulas in derivatives_nn.py.
"""
from . import decompositions_batch_norm as decbn
from . import decompositions_nn as decnn
from . import derivatives_nn as dnn
from . import nn_conv, nn_norm, nn_ops
from .table_row import CORE, RANDOM, op

ROWS = [
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
    # normalization
    op("native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) "
       "-> (Tensor, Tensor, Tensor)", CORE, nn_norm.native_layer_norm, dnn.native_layer_norm,
       output_differentiability=(True, False, False), decomposition=decnn.native_layer_norm),
    op("native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, "
       "Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)", CORE, nn_norm.native_layer_norm_backward,
       dnn.not_implemented("native_layer_norm_backward"), decomposition=decnn.native_layer_norm_backward),
    op("native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
       "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", (), nn_norm.native_batch_norm,
       dnn.native_batch_norm, decomposition=decbn.native_batch_norm, output_differentiability=(True, False, False)),
    op("_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, "
       "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", CORE, nn_norm.native_batch_norm,
       dnn.native_batch_norm, grad_fn="NativeBatchNormLegitBackward0", decomposition=decbn.native_batch_norm,
       output_differentiability=(True, False, False)),
    op("_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, "
       "float eps) -> (Tensor, Tensor, Tensor)", CORE, nn_norm.batch_norm_legit_no_stats, dnn.batch_norm_no_stats,
       grad_fn="NativeBatchNormLegitBackward1",
       output_differentiability=(True, False, False)),
    op("_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
       "Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, "
       "Tensor running_var_out)", (), nn_norm.batch_norm_legit_functional, dnn.native_batch_norm,
       grad_fn="NativeBatchNormLegitBackward0", decomposition=decbn.native_batch_norm_legit_functional,
       output_differentiability=(True, False, False, False, False)),
    op("_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
       "Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)", CORE,
       nn_norm.batch_norm_legit_no_training, dnn.batch_norm_no_training,
       decomposition=decbn.native_batch_norm_legit_no_training, output_differentiability=(True, False, False)),
    op("native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, "
       "Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) "
       "-> (Tensor, Tensor, Tensor)", (), nn_norm.native_batch_norm_backward, dnn.not_implemented("native_batch_norm_backward"),
       decomposition=decbn.native_batch_norm_backward),
    # convolution
    op("convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, "
       "bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor", CORE, nn_conv.convolution, dnn.convolution),
    op("convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, "
       "SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) "
       "-> (Tensor, Tensor, Tensor)", CORE, nn_conv.convolution_backward, dnn.not_implemented("convolution_backward")),
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
]
