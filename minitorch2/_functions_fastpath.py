"""torch._native_multi_head_attention and torch._transformer_encoder_layer_fwd: the two ops of the attention
inference fast path, which nn.MultiheadAttention and nn.TransformerEncoderLayer call in eval mode without gradients
(nn/modules/transformer.py decides, with torch's checks; the kernels are _aten/nn_fused_transformer.py's).

Runtime layer, coverage surface: torch-level names (_functions_nn_level.py exports them as torch's), in a module of
their own because nn's modules import them while nn.functional is still loading. A compiled frame records each
as one call, printed as torch prints it.
"""
from ._ops import ops


def _native_multi_head_attention(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight, proj_bias,
                                 mask=None, need_weights=True, average_attn_weights=True, mask_type=None):
    return ops.aten._native_multi_head_attention.default(
        query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
        average_attn_weights, mask_type)


def _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, use_gelu,
                                   norm_first, eps, norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2,
                                   ffn_weight_1, ffn_bias_1, ffn_weight_2, ffn_bias_2, mask=None, mask_type=None):
    return ops.aten._transformer_encoder_layer_fwd.default(
        src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps,
        norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2, ffn_bias_2,
        mask, mask_type)


# torch binds both in its own namespace (their __module__ is "torch"): a graph prints torch._native_multi_head_attention
_native_multi_head_attention.__module__ = _transformer_encoder_layer_fwd.__module__ = "minitorch2"
