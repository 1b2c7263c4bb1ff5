"""The kernels of _scaled_dot_product_flash_attention_for_cpu and its backward: the fused attention op that
F.scaled_dot_product_attention picks on the CPU when its inputs allow it (nn/_functional_apart.py decides, as
ATen's backend choice does), and that torch.compile's graphs keep whole (Inductor calls it as a fallback); and
_safe_softmax, the math path's softmax, whose rows of nothing but -inf give zeros instead of NaN.

Runtime layer, coverage surface: rows of table_nn_apart.py. The forward returns the output, laid out as the query
is, and the logsumexp of each query row's scores, shape (B, H, L) in (B, L, H) memory; the backward recomputes
the probabilities from that logsumexp and returns the three gradients in (B, L, H, E) memory, as ATen's kernels
do. Computed in float64 and rounded once, except where ATen's kernel rounds a bfloat16 or float16 attention's
intermediates (its probabilities before they meet the values, per block of keys; its logsumexp stays float32);
heads of a key/value with fewer heads (grouped-query attention) serve consecutive groups of query heads.
"""
import math

import numpy as np

from .. import _dtype
from .meta_util import fake_empty, preserve_format_strides, strides_in_order, wrap_dim
from .nn_ops import softmax, with_strides

_FLOATS = ("float32", "float64", "float16", "bfloat16")
_KV_BLOCK = 512  # ATen's block of keys


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


def _reduced(dtype):
    """bfloat16 and float16 attention, which ATen's kernel runs in float32 (its opmath type)."""
    return dtype.name in ("bfloat16", "float16")


def _rounded(array, dtype):
    """What ATen's kernel hands the next product: a reduced dtype's probabilities and score gradients are
    rounded to it first (the products themselves accumulate in float32)."""
    return array.astype(dtype.np).astype(np.float64) if _reduced(dtype) else array


def _q_blocks(length):
    """ATen's query block size: the backward of a reduced dtype rounds grad_key and grad_value per block."""
    return 256 if length >= 768 else 64 if length >= 192 else 32


def _forward_kernel(query, key, value, dropout_p=0.0, is_causal=False, attn_mask=None, scale=None):
    _check(query, key, value, attn_mask)
    scores, _ = _scores(query, key, is_causal, attn_mask, scale)
    v = np.repeat(value._np.astype(np.float64), query.shape[1] // value.shape[1], axis=1)
    peak = np.full(scores.shape[:-1] + (1,), -np.inf)
    total, out = np.zeros_like(peak), 0.0
    for n in range(0, scores.shape[-1], _KV_BLOCK):  # an online softmax over ATen's blocks of keys
        block = scores[..., n:n + _KV_BLOCK]
        new_peak = np.maximum(peak, block.max(axis=-1, keepdims=True))
        safe = np.where(np.isneginf(new_peak), 0.0, new_peak)  # a row with every key so far masked: weights 0
        weights, rescale = np.exp(block - safe), np.exp(peak - safe)
        total = weights.sum(axis=-1, keepdims=True) + rescale * total
        out = out * rescale + _rounded(weights, query.dtype) @ v[..., n:n + _KV_BLOCK, :]
        peak = new_peak
    peak = np.where(np.isneginf(peak), 0.0, peak)
    total = np.where(total > 0, total, 1.0)  # (a fully masked row: output 0)
    lse = (peak + np.log(total))[..., 0]
    return with_strides(out / total, query.dtype, preserve_format_strides(query)), _lse_layout(lse, _lse_dtype(query))


def _lse_dtype(query):
    return _dtype.float32 if _reduced(query.dtype) else query.dtype


def _forward_meta(query, key, value, dropout_p=0.0, is_causal=False, attn_mask=None, scale=None):
    _check(query, key, value, attn_mask)
    batch, heads, length = query.shape[:3]
    out_shape = (batch, heads, length, value.shape[-1])
    lse_shape = (batch, heads, length)
    return (fake_empty(out_shape, query.dtype, preserve_format_strides(query)),
            fake_empty(lse_shape, _lse_dtype(query), strides_in_order(lse_shape, (1, 2, 0))))


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
    d_out, q = grad_out._np.astype(np.float64), query._np.astype(np.float64)
    v = np.repeat(value._np.astype(np.float64), query.shape[1] // value.shape[1], axis=1)
    k = np.repeat(key._np.astype(np.float64), query.shape[1] // key.shape[1], axis=1)
    d_probs = d_out @ v.swapaxes(-1, -2)
    d_scores = probs * (d_probs - (d_out * out._np.astype(np.float64)).sum(axis=-1, keepdims=True))
    probs, d_scores = _rounded(probs, query.dtype), _rounded(d_scores, query.dtype)
    grad_query = (d_scores @ k) * scale
    grad_key = grad_value = 0.0
    for m in range(0, probs.shape[-2], _q_blocks(probs.shape[-2])):  # (a reduced dtype's sums rounded per block)
        rows = slice(m, m + _q_blocks(probs.shape[-2]))
        grad_key = _rounded(grad_key + (d_scores[..., rows, :].swapaxes(-1, -2) @ q[..., rows, :]) * scale, query.dtype)
        grad_value = _rounded(grad_value + probs[..., rows, :].swapaxes(-1, -2) @ d_out[..., rows, :], query.dtype)
    grad_key, grad_value = _grouped_sum(grad_key, key.shape[1]), _grouped_sum(grad_value, value.shape[1])
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
