"""nn.functional's pooling (max_pool2d, avg_pool2d, adaptive_avg_pool2d), scaled_dot_product_attention,
multi_head_attention_forward (with its mask helpers) and normalize: the functional forms of layers beyond the core
set (their modules: modules/pooling.py, transformer.py).

Runtime layer, coverage surface, re-exported by nn/functional.py. Each makes the aten calls PyTorch's makes on the
CPU: the pooling ops, adaptive pooling to 1x1 as a `mean`, attention as the fused CPU op where ATen picks it, else
matmul, softmax and matmul.
"""
import math
import warnings

from .. import _dtype, _factories, _functions
from .._aten.nn_ops import is_channels_last
from .._ops import ops
from .._tensor import strided
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time

aten = ops.aten


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    # as torch's: the norm is linalg.vector_norm (its own backward), clamped and expanded
    denom = input.norm(p, dim, keepdim=True)
    if out is None:
        return input / denom.clamp_min(eps).expand_as(input)
    return _functions.div(input, denom.clamp_min_(eps).expand_as(input), out=out)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = [] if stride is None else F._per_dim(stride)
    out, indices = aten.max_pool2d_with_indices.default(input, F._per_dim(kernel_size), stride, F._per_dim(padding),
                                                        F._per_dim(dilation), ceil_mode)
    return (out, indices) if return_indices else out


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    stride = [] if stride is None else F._per_dim(stride)
    return aten.avg_pool2d.default(input, F._per_dim(kernel_size), stride, F._per_dim(padding), ceil_mode,
                                   count_include_pad, divisor_override)


def adaptive_avg_pool2d(input, output_size):
    size = [input.shape[-2 + i] if s is None else s for i, s in enumerate(F._per_dim(output_size))]
    if size == [1, 1]:  # the mean over h and w; a channels-last input's output restrided to that layout, as ATen's
        out = aten.mean.dim(input, [-1, -2], True)  # (ATen restrides in place, as_strided_: functionalized, this)
        n, c = input.shape[:2] if input.dim() == 4 else (None, None)
        return aten.as_strided.default(out, [n, c, 1, 1], [c, 1, c, c]) if is_channels_last(input) else out
    return aten._adaptive_avg_pool2d.default(input, size)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """ATen's choice on the CPU: a bool mask becomes an additive one (0 / -inf); then the fused
    _scaled_dot_product_flash_attention_for_cpu where its constraints hold (_fused_attention_fits), the math
    path otherwise."""
    from ..backends import cuda as switches  # reason: the backends package imports nn's modules

    if not (switches.flash_sdp_enabled() or switches.math_sdp_enabled()):  # (torch.nn.attention.sdpa_kernel's)
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This is likely due to "
                           "turning off both the math kernel and the fused kernels.")
    if attn_mask is not None and attn_mask.dtype is _dtype.bool_:
        attn_mask = _additive_mask(attn_mask, query)
    if switches.flash_sdp_enabled() and _fused_attention_fits(query, key, value, attn_mask, dropout_p, enable_gqa):
        return aten._scaled_dot_product_flash_attention_for_cpu.default(
            query, key, value, dropout_p, is_causal, attn_mask=attn_mask, scale=scale)[0]
    if not switches.math_sdp_enabled():
        raise RuntimeError("No available kernel.  Aborting execution.")
    return _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """ATen's math path: q and k each scaled by the square root of the scale (negative: q by its negation),
    the causal mask made additive, grouped key/value heads repeated, matmul, _safe_softmax, dropout, matmul;
    float16 / bfloat16 q, k, v in float32, the result rounded back."""
    half = query.dtype
    query, key, value = (t.to(_dtype.float32) if t.dtype in _dtype.HALVES else t for t in (query, key, value))
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    root = math.sqrt(abs(scale))
    query = aten.mul.Scalar(query, -root if scale < 0 else root)
    if is_causal:
        causal = aten.ones.default([query.shape[-2], key.shape[-2]], dtype=_dtype.bool_, layout=strided,
                                   device=query.device)
        attn_mask = _additive_mask(aten.tril.default(causal), query)
    if enable_gqa and query.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        groups = query.shape[-3] // key.shape[-3]
        key, value = key.repeat_interleave(groups, -3), value.repeat_interleave(groups, -3)
    scores = _functions.matmul(query, aten.mul.Scalar(aten.transpose.int(key, -2, -1), root))
    if attn_mask is not None:
        scores = aten.add.Tensor(scores, attn_mask)
    weights = aten._safe_softmax.default(scores, -1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p, True)
    return _functions.matmul(weights, value).to(half)


def _additive_mask(mask, query):
    """ATen's convert_boolean_attn_mask, where(mask, 0, -inf) in the query's dtype; its scalars are made right
    to left, the order the C++ compiler evaluates the call's arguments in."""
    minus_inf = aten.scalar_tensor.default(-math.inf, dtype=query.dtype, device=query.device)
    return aten.where.self(mask, aten.scalar_tensor.default(0.0, dtype=query.dtype, layout=strided,
                                                            device=query.device), minus_inf)


def _fused_attention_fits(query, key, value, attn_mask, dropout_p, enable_gqa):
    """The constraints of ATen's CPU flash attention: no dropout; 4-D inputs of one floating dtype with the same
    batch, the same number of heads (or, with enable_gqa, a key/value head per group of query heads) and the same
    head size, unit stride in the last dim; no empty sequence; a mask of 2 or 4 dims."""
    tensors = (query, key, value)
    if dropout_p > 0.0 or any(t.dim() != 4 for t in tensors) or not query.is_floating_point():
        return False
    if attn_mask is not None and attn_mask.dim() not in (2, 4):
        return False
    (batch, heads, length, size), (_, kv_heads, kv_length, _) = query.shape, key.shape
    same_heads = kv_heads == heads or (enable_gqa and kv_heads > 0 and heads % kv_heads == 0)
    return (all(t.shape[0] == batch and t.shape[-1] == size and t.stride(-1) == 1 for t in tensors)
            and same_heads and value.shape[1] == kv_heads and length > 0 and kv_length > 0)


def _none_or_dtype(input):
    return None if input is None else input.dtype


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask (True: do not attend) as an additive float mask, 0 / -inf; a float mask as it is. Only bool and
    floating masks are accepted, and a dtype unlike the other mask's warns (on the caller's line), as torch's."""
    if mask is None:
        return None
    if mask.dtype is not _dtype.bool_ and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not mask.is_floating_point():
        mask = _factories.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v through the packed projection, as torch's: self-attention (q is k is v) in one linear split in
    three, encoder-decoder attention (k is v) in two (q's, and k and v's together), else three linears."""
    if k is not v:
        biases = b.chunk(3) if b is not None else (None, None, None)
        return tuple(F.linear(x, w_part, b_part) for x, w_part, b_part in zip((q, k, v), w.chunk(3), biases))
    size = q.size(-1)
    if q is k:
        proj = F.linear(q, w, b)
        proj = proj.unflatten(-1, (3, size)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    (w_q, w_kv), (b_q, b_kv) = w.split([size, 2 * size]), b.split([size, 2 * size]) if b is not None else (None, None)
    q = F.linear(q, w_q, b_q)
    kv = F.linear(k, w_kv, b_kv).unflatten(-1, (2, size)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
    return q, kv[0], kv[1]


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v through separate projections (a key or value size other than the query's), with torch's checks."""
    q_size, k_size, v_size = q.size(-1), k.size(-1), v.size(-1)
    for what, t, shape in (("query weights", w_q, (q_size, q_size)), ("key weights", w_k, (q_size, k_size)),
                           ("value weights", w_v, (q_size, v_size)), ("query bias", b_q, (q_size,)),
                           ("key bias", b_k, (q_size,)), ("value bias", b_v, (q_size,))):
        if t is not None and tuple(t.shape) != shape:
            raise AssertionError(f"expecting {what} shape of {shape}, but got {t.shape}")
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _heads(t, static, bsz, num_heads, head_dim, name):
    """k or v as (N*heads, S, head_dim); a static_k / static_v given in that form is used as it is."""
    if static is None:
        return t.view(t.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if static.size(0) != bsz * num_heads:
        raise AssertionError(f"expecting {name}.size(0) of {bsz * num_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """torch's slow path of attention, (L, N, E) inputs (or unbatched (L, E)): the input projection (packed, or
    separate for other key/value sizes), bias_k/bias_v and add_zero_attn appended to the keys and values, heads as
    (N*heads, S, head_dim), then explicit weights (q scaled by 1/sqrt(head_dim), baddbmm with the additive mask,
    softmax, dropout, bmm: need_weights=True) or scaled_dot_product_attention, then the output projection."""
    batched = query.dim() == 3
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        key_padding_mask = None if key_padding_mask is None else key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # (the hint alone: scaled_dot_product_attention makes the causal mask)
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        is_causal = is_causal and key_padding_mask is None
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
        biases = in_proj_bias.chunk(3) if in_proj_bias is not None else (None, None, None)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, *biases)
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        expected = (tgt_len, src_len) if attn_mask.dim() == 2 else (bsz * num_heads, tgt_len, src_len)
        if attn_mask.dim() not in (2, 3):
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
        if tuple(attn_mask.shape) != expected:
            raise RuntimeError(f"The shape of the {attn_mask.dim()}D attn_mask is {attn_mask.shape}, but should be "
                               f"{expected}.")
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.dim() == 2 else attn_mask
    if (bias_k is None) != (bias_v is None):
        raise AssertionError("bias_k is set but bias_v is None" if bias_v is None else
                             "bias_v is set but bias_k is None")
    if bias_k is not None:  # one more key and value, learned, for every sequence
        if static_k is not None or static_v is not None:
            raise AssertionError(f"bias cannot be added to static {'key' if static_k is not None else 'value'}.")
        k, v = _functions.cat([k, bias_k.repeat(1, bsz, 1)]), _functions.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask, key_padding_mask = (None if m is None else F.pad(m, (0, 1)) for m in (attn_mask, key_padding_mask))
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, bsz, num_heads, head_dim, "static_k")
    v = _heads(v, static_v, bsz, num_heads, head_dim, "static_v")
    if add_zero_attn:  # and one more of zeros
        zeros = _factories.zeros(bsz * num_heads, 1, head_dim, dtype=k.dtype)
        k, v = _functions.cat([k, zeros], dim=1), _functions.cat([v, zeros.to(v.dtype)], dim=1)
        attn_mask, key_padding_mask = (None if m is None else F.pad(m, (0, 1)) for m in (attn_mask, key_padding_mask))
    src_len = k.size(1)
    if key_padding_mask is not None:
        padding = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    dropout_p = dropout_p if training else 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        scores = (_functions.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1)) if attn_mask is not None
                  else _functions.bmm(q_scaled, k.transpose(-2, -1)))
        weights = F.softmax(scores, dim=-1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, p=dropout_p)
        output = _functions.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        output = F.linear(output, out_proj_weight, out_proj_bias).view(tgt_len, bsz, embed_dim)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        weights = weights.mean(dim=1) if average_attn_weights else weights
        return (output, weights) if batched else (output.squeeze(1), weights.squeeze(0))
    if attn_mask is not None:
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 else attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k, v = k.view(bsz, num_heads, src_len, head_dim), v.view(bsz, num_heads, src_len, head_dim)
    output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    output = output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    output = F.linear(output, out_proj_weight, out_proj_bias).view(tgt_len, bsz, embed_dim)
    return (output, None) if batched else (output.squeeze(1), None)
