"""The kernels of torch's inference fast path for attention: _native_multi_head_attention (what an eval-mode
nn.MultiheadAttention calls without gradients) and _transformer_encoder_layer_fwd (a whole eval-mode
nn.TransformerEncoderLayer in one op). nn/modules/transformer.py decides when they are taken, with torch's checks.

Runtime layer, coverage surface: rows of table_nn_apart.py. torch has no decomposition for either, so a compiled
graph keeps them whole and the inductor calls them as fallbacks. Computed in float64 and rounded once; the masks are
those nn.MultiheadAttention.merge_masks makes: mask_type 0 an attention mask (L, S), 1 a key padding mask (B, S),
2 both merged to (B, H, L, S); a nonzero entry (True, or an additive mask's -inf) hides a key, and a query row with
every key hidden gives NaN, as ATen's masked softmax does. Without need_weights the weights are undefined (None eagerly, an
empty tensor when traced, as torch's meta function makes it).
"""
import math

import numpy as np

from .meta_util import fake_empty
from .pointwise_unary import _gelu


def _f64(tensor):
    return tensor._np.astype(np.float64)


def _linear(x, weight, bias):
    return x @ _f64(weight).T + _f64(bias)


def _heads(x, heads):
    """(B, L, E) -> (B, H, L, E / H)."""
    batch, length, embed = x.shape
    return x.reshape(batch, length, heads, embed // heads).transpose(0, 2, 1, 3)


def _hidden(mask, mask_type, batch, heads):
    """Which keys the merged mask hides, broadcasting over (B, H, L, S): its nonzero entries (a float mask is read
    as a bool one, as ATen's kernels read it)."""
    hidden = mask._np != 0
    if mask_type == 1:
        return hidden.reshape(batch, 1, 1, hidden.shape[-1])
    return hidden if mask_type == 2 or hidden.ndim == 2 else hidden.reshape(batch, heads, *hidden.shape[-2:])


def _attention(query, key, value, heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, mask_type):
    """Output (B, L, E) and per-head probabilities (B, H, L, S), in float64."""
    embed = query.shape[-1]
    weights, biases = np.split(_f64(qkv_weight), 3), np.split(_f64(qkv_bias), 3)
    q, k, v = (_heads(x @ w.T + b, heads) for x, w, b in zip((query, key, value), weights, biases))
    scores = (q @ k.swapaxes(-1, -2)) / math.sqrt(embed // heads)
    if mask is not None:
        scores = np.where(_hidden(mask, mask_type, query.shape[0], heads), -np.inf, scores)
    with np.errstate(invalid="ignore"):  # a query row with every key hidden: NaN, as ATen's masked softmax
        exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = exps / exps.sum(axis=-1, keepdims=True)
    context = (probs @ v).transpose(0, 2, 1, 3).reshape(query.shape[0], query.shape[1], embed)
    return _linear(context, proj_weight, proj_bias), probs


def _native_mha_kernel(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight, proj_bias,
                       mask=None, need_weights=True, average_attn_weights=True, mask_type=None):
    dtype = query.dtype.np
    out, probs = _attention(_f64(query), _f64(key), _f64(value), num_head, qkv_weight, qkv_bias, proj_weight,
                            proj_bias, mask, mask_type)
    if not need_weights:
        return out.astype(dtype), None
    return out.astype(dtype), (probs.mean(axis=1) if average_attn_weights else probs).astype(dtype)


def _native_mha_meta(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight, proj_bias,
                     mask=None, need_weights=True, average_attn_weights=True, mask_type=None):
    if query.numel() == 0:
        return fake_empty(query.shape, query.dtype), fake_empty((0,), query.dtype)
    batch, length = query.shape[:2]
    output = fake_empty((batch, length, proj_weight.shape[0]), query.dtype)
    if not need_weights:
        return output, fake_empty((0,), query.dtype)
    shape = (batch, length, length) if average_attn_weights else (batch, num_head, length, length)
    return output, fake_empty(shape, query.dtype)


_native_multi_head_attention = (_native_mha_kernel, _native_mha_meta)


def _layer_norm(x, weight, bias, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps) * _f64(weight) + _f64(bias)


def _encoder_layer_kernel(src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, use_gelu,
                          norm_first, eps, norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1,
                          ffn_bias_1, ffn_weight_2, ffn_bias_2, mask=None, mask_type=None):
    def self_attention(x):
        return _attention(x, x, x, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, mask_type)[0]

    def feed_forward(x):
        hidden = _linear(x, ffn_weight_1, ffn_bias_1)
        return _linear(_gelu(hidden) if use_gelu else np.maximum(hidden, 0.0), ffn_weight_2, ffn_bias_2)

    x = _f64(src)
    if norm_first:
        x = x + self_attention(_layer_norm(x, norm_weight_1, norm_bias_1, eps))
        x = x + feed_forward(_layer_norm(x, norm_weight_2, norm_bias_2, eps))
    else:
        x = _layer_norm(x + self_attention(x), norm_weight_1, norm_bias_1, eps)
        x = _layer_norm(x + feed_forward(x), norm_weight_2, norm_bias_2, eps)
    return x.astype(src.dtype.np)


def _encoder_layer_meta(src, *args, **kwargs):
    return fake_empty(src.shape, src.dtype)


_transformer_encoder_layer_fwd = (_encoder_layer_kernel, _encoder_layer_meta)
