"""The op table's rows for the nn op families no stage of the pipeline needs: mse_loss and
binary_cross_entropy_with_logits (nn_apart_ops.py), log_sigmoid and binary_cross_entropy (nn_bce.py), pooling (nn_pool.py) and upsampling
(nn_upsample.py), the CPU's fused attention (nn_attention.py), the eval-mode attention and encoder layer fast paths
(nn_fused_transformer.py), each with the backward op its derivative formula
calls.

Runtime layer, coverage surface, part of THE operator table: table.py splices these rows in after table_nn.py's.
Derivative formulas and decompositions are in nn_apart_formulas.py (upsampling's decompositions in
decompositions_upsample.py).
"""
from . import decompositions_upsample as decup
from . import nn_activation_ops as act
from . import nn_apart_formulas as f
from . import nn_apart_ops, nn_attention, nn_bce, nn_fused_transformer, nn_pad_ops, nn_pool, nn_upsample, nn_upsample_filters
from . import nn_im2col
from .decompositions import inplace_by_copy
from .derivatives_nn import not_implemented, softmax
from .table_row import CORE, POINTWISE, inplace, op

NOT_IMPLEMENTED = "torch::autograd::NotImplemented"  # (the grad_fn of an op derivatives.yaml has no formula for)
_FILTER_2D = "SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None"


def _upsample_rows(name, arguments, rank, grad_fn, decomposition=None):
    """An upsampling op's row and its backward op's: the backward takes the gradient and the input's sizes first."""
    plain = name.lstrip("_")
    kernels = getattr(nn_upsample, plain, None) or getattr(nn_upsample_filters, plain)
    backward_kernels = (getattr(nn_upsample, plain + "_backward", None)
                        or getattr(nn_upsample_filters, plain + "_backward"))
    size_arguments = arguments.replace("output_size,", f"output_size, SymInt[{rank}] input_size,", 1)
    return (op(f"{name}(Tensor self, {arguments}) -> Tensor", (), kernels, getattr(f, plain), grad_fn=grad_fn,
               decomposition=decomposition),
            op(f"{name}_backward(Tensor grad_output, {size_arguments}) -> Tensor", (), backward_kernels,
               getattr(f, plain + "_backward")))


def _pad_rows(kind, nd):
    """F.pad's reflect / replicate over nd dims (nn_pad_ops.py): the pad, kept whole in traced graphs, and its
    backward op."""
    kernels, backward_kernels, decomposition = nn_pad_ops.PADS[kind, nd]
    derivative, backward_derivative = nn_pad_ops.formulas(kind, nd)
    name = f"{kind}_pad{nd}d"
    tags = () if name == "replication_pad1d" else CORE  # (torch's tags)
    return (op(f"{name}(Tensor self, SymInt[{2 * nd}] padding) -> Tensor", tags, kernels, derivative,
               grad_fn=f"{kind.capitalize()}Pad{nd}DBackward0", decomposition=decomposition),
            op(f"{name}_backward(Tensor grad_output, Tensor self, SymInt[{2 * nd}] padding) -> Tensor", (),
               backward_kernels, backward_derivative))


ROWS = [
    # mse_loss (nn_apart_ops.py)
    op("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", (), nn_apart_ops.mse_loss, f.mse_loss,
       decomposition=f.mse_loss_decomposition),
    op("mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor", (),
       nn_apart_ops.mse_loss_backward, f.mse_loss_backward, decomposition=f.mse_loss_backward_decomposition),
    # binary_cross_entropy_with_logits (nn_apart_ops.py)
    op("binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, "
       "int reduction=1) -> Tensor", (), nn_apart_ops.binary_cross_entropy_with_logits,
       f.binary_cross_entropy_with_logits, decomposition=f.binary_cross_entropy_with_logits_decomposition),
    # softshrink and hardshrink, with their backward ops (nn_activation_ops.py)
    op("softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", POINTWISE, act.softshrink, act.softshrink_formula,
       decomposition=act.softshrink_decomposition),
    op("softshrink_backward(Tensor grad_output, Tensor self, Scalar lambd) -> Tensor", (), act.shrink_backward,
       act.softshrink_backward_formula, decomposition=act.shrink_backward_decomposition),
    op("hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", POINTWISE, act.hardshrink, act.hardshrink_formula,
       decomposition=act.hardshrink_decomposition),
    op("hardshrink_backward(Tensor grad_out, Tensor self, Scalar lambd) -> Tensor", (), act.shrink_backward,
       act.hardshrink_backward_formula, decomposition=act.shrink_backward_decomposition),
    # hardsigmoid, mish and prelu's kernel, each with its backward op (nn_activation_ops.py)
    op("hardsigmoid(Tensor self) -> Tensor", POINTWISE, act.hardsigmoid, act.hardsigmoid_formula,
       decomposition=act.hardsigmoid_decomposition),
    op("hardsigmoid_backward(Tensor grad_output, Tensor self) -> Tensor", (), act.hardsigmoid_backward,
       act.hardsigmoid_backward_formula, decomposition=act.hardsigmoid_backward_decomposition, grad_fn=NOT_IMPLEMENTED),
    op("mish(Tensor self) -> Tensor", POINTWISE, act.mish, act.mish_formula, decomposition=act.mish_decomposition),
    # (their in-place forms: autograd saves a copy of self before the write, as torch's)
    inplace("hardsigmoid_(Tensor(a!) self) -> Tensor(a!)", act.hardsigmoid, act.hardsigmoid_formula,
            "HardsigmoidBackward0", POINTWISE, decomposition=inplace_by_copy(act.hardsigmoid_decomposition)),
    inplace("mish_(Tensor(a!) self) -> Tensor(a!)", act.mish, act.mish_formula, "MishBackward0", POINTWISE,
            decomposition=inplace_by_copy(act.mish_decomposition)),
    op("mish_backward(Tensor grad_output, Tensor self) -> Tensor", (), act.mish_backward,
       act.mish_backward_formula, decomposition=act.mish_backward_decomposition, grad_fn=NOT_IMPLEMENTED),
    op("_prelu_kernel(Tensor self, Tensor weight) -> Tensor", (), act.prelu_kernel, act.prelu_formula,
       decomposition=act.prelu_decomposition),
    op("_prelu_kernel_backward(Tensor grad_output, Tensor self, Tensor weight) -> (Tensor, Tensor)", (),
       act.prelu_backward_kernel, act.prelu_backward_formula, decomposition=act.prelu_backward_decomposition),
    # (rrelu's noise in: torch's functional form of rrelu_with_noise, which writes the slopes it draws into it)
    op("rrelu_with_noise_functional(Tensor self, Tensor noise, Scalar lower=0.125, Scalar upper=0.3333333333333333, "
       "bool training=False, Generator? generator=None) -> (Tensor, Tensor noise_out)", ("nondeterministic_seeded",),
       act.rrelu_with_noise_functional, act.rrelu_formula, grad_fn="RreluWithNoiseBackward0",
       output_differentiability=(True, False)),
    op("rrelu_with_noise_backward(Tensor grad_output, Tensor self, Tensor noise, Scalar lower, Scalar upper, "
       "bool training, bool self_is_result) -> Tensor", (), act.rrelu_with_noise_backward,
       act.rrelu_backward_formula, decomposition=act.rrelu_backward_decomposition),
    # F.unfold's and F.fold's ops, each the other's derivative (nn_im2col.py)
    op("im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", (),
       nn_im2col.im2col, nn_im2col.im2col_formula, decomposition=nn_im2col.im2col_decomposition,
       grad_fn="Im2ColBackward0"),
    op("col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, "
       "int[2] stride) -> Tensor", CORE, nn_im2col.col2im, nn_im2col.col2im_formula,
       decomposition=nn_im2col.col2im_decomposition, grad_fn="Col2ImBackward0"),
    # log_sigmoid and binary_cross_entropy (nn_bce.py)
    op("log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)", (), nn_bce.log_sigmoid_forward,
       f.log_sigmoid_forward, grad_fn="LogSigmoidBackward0", output_differentiability=(True, False),
       decomposition=f.log_sigmoid_forward_decomposition),
    op("log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor", (),
       nn_bce.log_sigmoid_backward, f.log_sigmoid_backward, decomposition=f.log_sigmoid_backward_decomposition),
    op("binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor", (),
       nn_bce.binary_cross_entropy, f.binary_cross_entropy, decomposition=f.binary_cross_entropy_decomposition),
    op("binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight=None, "
       "int reduction=1) -> Tensor", (), nn_bce.binary_cross_entropy_backward,
       not_implemented("binary_cross_entropy_backward"), decomposition=f.binary_cross_entropy_backward_decomposition),
    # pooling (nn_pool.py), what F.max_pool2d, F.avg_pool2d and F.adaptive_avg_pool2d reach
    op("max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
       "bool ceil_mode=False) -> (Tensor, Tensor)", CORE, nn_pool.max_pool2d_with_indices, f.max_pool2d_with_indices,
       grad_fn="MaxPool2DWithIndicesBackward0"),
    op("max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
       "int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor", CORE,
       nn_pool.max_pool2d_with_indices_backward, f.max_pool2d_with_indices_backward,
       grad_fn="MaxPool2DWithIndicesBackwardBackward0"),
    op("avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, "
       "bool count_include_pad=True, int? divisor_override=None) -> Tensor", CORE, nn_pool.avg_pool2d, f.avg_pool2d,
       grad_fn="AvgPool2DBackward0"),
    op("avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, "
       "bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor", CORE, nn_pool.avg_pool2d_backward,
       f.avg_pool2d_backward, grad_fn="AvgPool2DBackwardBackward0"),
    op("_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", CORE, nn_pool.adaptive_avg_pool2d,
       f.adaptive_avg_pool2d, grad_fn="AdaptiveAvgPool2DBackward0"),
    op("_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor", CORE,
       nn_pool.adaptive_avg_pool2d_backward, f.adaptive_avg_pool2d_backward, grad_fn="AdaptiveAvgPool2DBackwardBackward0"),
    # upsampling (nn_upsample.py), what F.interpolate and nn.Upsample reach
    op("upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor", (),
       nn_upsample.upsample_nearest1d, f.upsample_nearest1d, grad_fn="UpsampleNearest1DBackward0",
       decomposition=decup.upsample_nearest1d),
    op("upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
       (), nn_upsample.upsample_nearest2d, f.upsample_nearest2d, grad_fn="UpsampleNearest2DBackward0",
       decomposition=decup.upsample_nearest2d),
    op("upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor", (),
       nn_upsample.upsample_linear1d, f.upsample_linear1d, grad_fn="UpsampleLinear1DBackward0",
       decomposition=decup.upsample_linear1d),
    op("upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, "
       "float? scales_w=None) -> Tensor", (), nn_upsample.upsample_bilinear2d, f.upsample_bilinear2d,
       grad_fn="UpsampleBilinear2DBackward0", decomposition=decup.upsample_bilinear2d),
    op("upsample_nearest1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, "
       "float? scales=None) -> Tensor", (), nn_upsample.upsample_nearest1d_backward,
       not_implemented("upsample_nearest1d_backward")),
    op("upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, "
       "float? scales_h=None, float? scales_w=None) -> Tensor", (), nn_upsample.upsample_nearest2d_backward,
       f.upsample_nearest2d_backward),
    op("upsample_linear1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, "
       "bool align_corners, float? scales=None) -> Tensor", (), nn_upsample.upsample_linear1d_backward,
       not_implemented("upsample_linear1d_backward")),
    op("upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, "
       "bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor", (),
       nn_upsample.upsample_bilinear2d_backward, f.upsample_bilinear2d_backward),
    # 3-d nearest and trilinear, nearest-exact (nn_upsample.py); bicubic and the antialiased modes
    # (nn_upsample_filters.py): torch's traced graphs keep the antialiased ones whole, and decompose the others
    *_upsample_rows("upsample_nearest3d", "SymInt[3] output_size, float? scales_d=None, float? scales_h=None, "
                    "float? scales_w=None", 5, "UpsampleNearest3DBackward0", decup.upsample_nearest3d),
    *_upsample_rows("_upsample_nearest_exact1d", "SymInt[1] output_size, float? scales=None", 3,
                    "UpsampleNearestExact1DBackward0", decup.upsample_nearest_exact1d),
    *_upsample_rows("_upsample_nearest_exact2d", "SymInt[2] output_size, float? scales_h=None, float? scales_w=None",
                    4, "UpsampleNearestExact2DBackward0", decup.upsample_nearest_exact2d),
    *_upsample_rows("_upsample_nearest_exact3d", "SymInt[3] output_size, float? scales_d=None, float? scales_h=None, "
                    "float? scales_w=None", 5, "UpsampleNearestExact3DBackward0", decup.upsample_nearest_exact3d),
    *_upsample_rows("upsample_trilinear3d", "SymInt[3] output_size, bool align_corners, float? scales_d=None, "
                    "float? scales_h=None, float? scales_w=None", 5, "UpsampleTrilinear3DBackward0",
                    decup.upsample_trilinear3d),
    *_upsample_rows("upsample_bicubic2d", _FILTER_2D, 4, "UpsampleBicubic2DBackward0"),
    *_upsample_rows("_upsample_bilinear2d_aa", _FILTER_2D, 4, "UpsampleBilinear2DAaBackward0"),
    *_upsample_rows("_upsample_bicubic2d_aa", _FILTER_2D, 4, "UpsampleBicubic2DAaBackward0"),
    *_upsample_rows("_upsample_lanczos2d_aa", _FILTER_2D, 4, "UpsampleLanczos2DAaBackward0"),
    *(row for kind in ("reflection", "replication") for nd in (1, 2, 3) for row in _pad_rows(kind, nd)),
    # the CPU's fused attention (nn_attention.py), what F.scaled_dot_product_attention picks where it can
    op("_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0., "
       "bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)", (),
       nn_attention._scaled_dot_product_flash_attention_for_cpu, f.scaled_dot_product_flash_attention_for_cpu,
       output_differentiability=(True, False)),
    op("_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor key, "
       "Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *, Tensor? attn_mask=None, "
       "float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)", (),
       nn_attention._scaled_dot_product_flash_attention_for_cpu_backward,
       not_implemented("_scaled_dot_product_flash_attention_for_cpu_backward")),
    op("_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", (), nn_attention._safe_softmax,
       softmax, decomposition=f.safe_softmax_decomposition),
    # the inference fast paths of nn.MultiheadAttention and nn.TransformerEncoderLayer (nn_fused_transformer.py):
    # no derivative and no decomposition in torch, so compiled graphs keep them whole
    op("_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, "
       "Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None, "
       "bool need_weights=True, bool average_attn_weights=True, int? mask_type=None) -> (Tensor, Tensor)", (),
       nn_fused_transformer._native_multi_head_attention, not_implemented("_native_multi_head_attention")),
    op("_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, "
       "Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, "
       "Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, "
       "Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) -> Tensor",
       (), nn_fused_transformer._transformer_encoder_layer_fwd, not_implemented("_transformer_encoder_layer_fwd")),
]
