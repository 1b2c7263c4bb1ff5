"""The kernels of _scaled_dot_product_flash_attention_for_cpu and its backward: the fused attention op that
F.scaled_dot_product_attention picks on the CPU when its inputs allow it (nn/_functional_apart.py decides, as
ATen's backend choice does), and that torch.compile's graphs keep whole (Inductor calls it as a fallback); and
_safe_softmax, the math path's softmax, whose rows of nothing but -inf give zeros instead of NaN.

Runtime layer, coverage surface: rows of table_nn_apart.py. The forward returns the output, laid out as the query
is, and the logsumexp of each query row's scores, shape (B, H, L) in (B, L, H) memory; the backward recomputes
the probabilities from that logsumexp and returns the three gradients in (B, L, H, E) memory, as ATen's kernels
do. Computed in float64, rounded once; heads of a key/value with fewer heads (grouped-query attention) serve
consecutive groups of query heads.
"""
import math

import numpy as np

from .meta_util import fake_empty, preserve_format_strides, strides_in_order, wrap_dim
from .nn_ops import softmax, with_strides

_FLOATS = ("float32", "float64", "float16", "bfloat16")


def _check(query, key, value, attn_mask):
    if query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        raise RuntimeError("scaled_dot_product_flash_attention_for_cpu: query, key and value must be 4-D, "
                           f"got {query.dim()}-D, {key.dim()}-D and {value.dim()}-D")
    if query.dtype.name not in _FLOATS or key.dtype is not query.dtype or value.dtype is not query.dtype:
        raise RuntimeError("scaled_dot_product_flash_attention_for_cpu: query, key and value must be of one "
                           "floating dtype")
    if attn_mask is not None and attn_mask.dtype is not query.dtype and attn_mask.dtype.name != "bool":
        raise RuntimeError("scaled_dot_product_flash_attention_for_cpu: attn_mask must be bool or query's dtype")


def _scores(query, key, is_causal, attn_mask, scale):
    """(B, H, L, S) scaled scores in float64, masked positions -inf; key's heads repeated for grouped queries."""
    q = query._np.astype(np.float64)
    k = np.repeat(key._np.astype(np.float64), query.shape[1] // key.shape[1], axis=1)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = (q @ k.swapaxes(-1, -2)) * scale
    if is_causal:
        scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
    if attn_mask is not None:
        mask = attn_mask._np
        scores = np.where(mask, scores, -np.inf) if mask.dtype == np.bool_ else scores + mask.astype(np.float64)
    return scores, scale


def _lse_layout(array, dtype):
    """(B, H, L) in (B, L, H) memory, as ATen allocates the logsumexp."""
    return np.ascontiguousarray(array.transpose(0, 2, 1), dtype=dtype.np).transpose(0, 2, 1)


def _grad_layout(array, dtype):
    """(B, H, S, E) in (B, S, H, E) memory, as ATen allocates the gradients."""
    return np.ascontiguousarray(array.transpose(0, 2, 1, 3), dtype=dtype.np).transpose(0, 2, 1, 3)


def _forward_kernel(query, key, value, dropout_p=0.0, is_causal=False, attn_mask=None, scale=None):
    _check(query, key, value, attn_mask)
    scores, _ = _scores(query, key, is_causal, attn_mask, scale)
    peak = scores.max(axis=-1, keepdims=True)
    peak = np.where(np.isneginf(peak), 0.0, peak)  # a row with every key masked: no probabilities, output 0
    weights = np.exp(scores - peak)
    total = weights.sum(axis=-1, keepdims=True)
    v = np.repeat(value._np.astype(np.float64), query.shape[1] // value.shape[1], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(total > 0, (weights / np.where(total > 0, total, 1.0)) @ v, 0.0)
        lse = (peak + np.log(total))[..., 0]
    return with_strides(out, query.dtype, preserve_format_strides(query)), _lse_layout(lse, query.dtype)


def _forward_meta(query, key, value, dropout_p=0.0, is_causal=False, attn_mask=None, scale=None):
    _check(query, key, value, attn_mask)
    batch, heads, length = query.shape[:3]
    out_shape = (batch, heads, length, value.shape[-1])
    lse_shape = (batch, heads, length)
    return (fake_empty(out_shape, query.dtype, preserve_format_strides(query)),
            fake_empty(lse_shape, query.dtype, strides_in_order(lse_shape, (1, 2, 0))))


_scaled_dot_product_flash_attention_for_cpu = (_forward_kernel, _forward_meta)


def _grouped_sum(grad, heads):
    """A repeated key/value's gradient: the sum over the query heads that shared each of its heads."""
    b, h, s, e = grad.shape
    return grad.reshape(b, heads, h // heads, s, e).sum(axis=2)


def _backward_kernel(grad_out, query, key, value, out, logsumexp, dropout_p, is_causal, attn_mask=None,
                     scale=None):
    _check(query, key, value, attn_mask)
    scores, scale = _scores(query, key, is_causal, attn_mask, scale)
    with np.errstate(invalid="ignore"):
        probs = np.nan_to_num(np.exp(scores - logsumexp._np.astype(np.float64)[..., None]), nan=0.0)
    d_out = grad_out._np.astype(np.float64)
    v = np.repeat(value._np.astype(np.float64), query.shape[1] // value.shape[1], axis=1)
    k = np.repeat(key._np.astype(np.float64), query.shape[1] // key.shape[1], axis=1)
    d_probs = d_out @ v.swapaxes(-1, -2)
    d_scores = probs * (d_probs - (d_out * out._np.astype(np.float64)).sum(axis=-1, keepdims=True))
    grad_query = (d_scores @ k) * scale
    grad_key = _grouped_sum((d_scores.swapaxes(-1, -2) @ query._np.astype(np.float64)) * scale, key.shape[1])
    grad_value = _grouped_sum(probs.swapaxes(-1, -2) @ d_out, value.shape[1])
    return tuple(_grad_layout(g, query.dtype) for g in (grad_query, grad_key, grad_value))


def _backward_meta(grad_out, query, key, value, out, logsumexp, dropout_p, is_causal, attn_mask=None, scale=None):
    _check(query, key, value, attn_mask)
    return tuple(fake_empty(t.shape, query.dtype, strides_in_order(t.shape, (3, 1, 2, 0)))
                 for t in (query, key, value))


_scaled_dot_product_flash_attention_for_cpu_backward = (_backward_kernel, _backward_meta)


def _safe_softmax_kernel(self, dim, dtype=None):
    source = self if dtype is None else self.to(dtype)
    out = softmax[0](source, dim, False)
    if source.dim() == 0 or source.numel() == 0:
        return out
    all_masked = np.isneginf(source._np).all(axis=wrap_dim(dim, source.dim()), keepdims=True)
    return np.where(all_masked, out.dtype.type(0), out)


def _safe_softmax_meta(self, dim, dtype=None):
    return softmax[1](self if dtype is None else fake_empty(self.shape, dtype, self.stride()), dim, False)


_safe_softmax = (_safe_softmax_kernel, _safe_softmax_meta)
