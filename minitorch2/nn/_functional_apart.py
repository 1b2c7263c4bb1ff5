"""nn.functional's pooling (max_pool2d, avg_pool2d, adaptive_avg_pool2d), scaled_dot_product_attention and
normalize: the functional forms of layers beyond the core set (their modules: modules/pooling.py, transformer.py).

Runtime layer, coverage surface, re-exported by nn/functional.py. Each makes the aten calls PyTorch's makes on the
CPU: the pooling ops, adaptive pooling to 1x1 as a `mean`, attention as matmul, softmax and matmul.
"""
import math

from .. import _dtype, _factories, _functions
from .._ops import ops
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time

aten = ops.aten


def normalize(input, p=2.0, dim=1, eps=1e-12):
    powered = aten.pow.Tensor_Scalar(aten.abs.default(input), p)
    norm = aten.clamp_min.default(aten.pow.Tensor_Scalar(aten.sum.dim_IntList(powered, [dim], True), 1.0 / p), eps)
    return aten.div.Tensor(input, aten.expand.default(norm, list(input.shape)))


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
    if size == [1, 1]:
        return aten.mean.dim(input, [-1, -2], True)
    return aten._adaptive_avg_pool2d.default(input, size)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = aten.mul.Scalar(_functions.matmul(query, aten.transpose.int(key, -2, -1)), scale)
    if is_causal:
        mask = aten.tril.default(_factories.ones(query.shape[-2], key.shape[-2], dtype=_dtype.bool_))
        scores = aten.masked_fill.Scalar(scores, aten.logical_not.default(mask), -math.inf)
    if attn_mask is not None:
        if attn_mask.dtype is _dtype.bool_:
            scores = aten.masked_fill.Scalar(scores, aten.logical_not.default(attn_mask), -math.inf)
        else:
            scores = aten.add.Tensor(scores, attn_mask)
    weights = aten._softmax.default(scores, -1, False)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p, True)
    return _functions.matmul(weights, value)
