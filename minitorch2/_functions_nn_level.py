"""torch-level names of nn functions (torch.conv2d, torch.layer_norm, torch.batch_norm, torch.dropout, ...), at
the argument order of the ATen ops torch binds them to, which for several is not nn.functional's: batch_norm takes
its weight and bias before the running statistics, embedding its weight before the indices, the losses an int
reduction (0 none, 1 mean, 2 sum; left out, torch's bindings give 0). Also torch.vmap, which is torch.func's, the
two ops of the attention inference fast path (from _functions_fastpath.py) and torch._weight_norm (nn.utils').

Runtime layer, coverage surface (minitorch2/__init__.py star-imports it). Each calls the nn.functional function.
"""
import warnings

from ._functions_fastpath import _native_multi_head_attention, _transformer_encoder_layer_fwd  # noqa: F401
from ._functions_foreach import *  # noqa: F401,F403  (torch._foreach_add_ and the rest)
from ._functions_foreach import __all__ as _foreach_names
from ._aten import weight_norm_ops
from . import _functions_missing
from .nn import functional as F

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "pixel_shuffle",
           "pixel_unshuffle", "cosine_similarity", "pairwise_distance", "pdist", "selu", "selu_", "celu", "celu_",
           "prelu", "threshold", "threshold_", "hardshrink", "bilinear", "rms_norm", "alpha_dropout", "dropout",
           "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d",
           "adaptive_max_pool1d", "layer_norm",
           "group_norm", "batch_norm", "instance_norm", "embedding", "kl_div", "binary_cross_entropy_with_logits",
           "cosine_embedding_loss", "margin_ranking_loss", "hinge_embedding_loss", "triplet_margin_loss",
           "poisson_nll_loss", "vmap", "_native_multi_head_attention", "_transformer_encoder_layer_fwd", "_weight_norm",
           "rrelu", "rrelu_", "channel_shuffle", "native_channel_shuffle", "feature_alpha_dropout",
           "feature_alpha_dropout_", *_foreach_names, *_functions_missing.FUNCTIONS_ONLY]
globals().update({name: getattr(_functions_missing, name) for name in _functions_missing.FUNCTIONS_ONLY})

_REDUCTIONS = ("none", "mean", "sum")  # ATen's Reduction enum

conv1d, conv2d, conv3d = F.conv1d, F.conv2d, F.conv3d
conv_transpose1d, conv_transpose2d, conv_transpose3d = F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d
pixel_shuffle, pixel_unshuffle, prelu, bilinear = F.pixel_shuffle, F.pixel_unshuffle, F.prelu, F.bilinear
cosine_similarity, pairwise_distance, pdist, rms_norm = F.cosine_similarity, F.pairwise_distance, F.pdist, F.rms_norm
threshold_, selu_, celu_, hardshrink = F.threshold_, F.selu_, F.celu_, F.hardshrink
adaptive_avg_pool1d = F.adaptive_avg_pool1d
channel_shuffle, native_channel_shuffle = F.channel_shuffle, F.native_channel_shuffle


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, generator=generator)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, inplace=True, generator=generator)


def feature_alpha_dropout(input, p, train):
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p, train):
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def _weight_norm(v, g, dim=0):
    return weight_norm_ops.weight_norm(v, g, dim)


_weight_norm.__module__ = "minitorch2"  # (graph code prints `torch._weight_norm(...)`, as Dynamo's)


def selu(input):
    return F.selu(input)


def celu(input, alpha=1.0):
    return F.celu(input, alpha)


def threshold(input, threshold, value):
    return F.threshold(input, threshold, value)


def dropout(input, p, train):
    return F.dropout(input, p, train)


def alpha_dropout(input, p, train):
    return F.alpha_dropout(input, p, train)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool3d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode, return_indices=True)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    return F.avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def adaptive_max_pool1d(input, output_size):
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return F.embedding(indices, weight, padding_idx if padding_idx >= 0 else None,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def kl_div(input, target, reduction=0, *, log_target=False):
    with warnings.catch_warnings():  # (ATen's mean is meant: nn.functional's warning about it is not torch.kl_div's)
        warnings.simplefilter("ignore")
        return F.kl_div(input, target, reduction=_REDUCTIONS[reduction], log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return F.binary_cross_entropy_with_logits(input, target, weight, pos_weight=pos_weight,
                                              reduction=_REDUCTIONS[reduction])


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_REDUCTIONS[reduction])


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_REDUCTIONS[reduction])


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin, reduction=_REDUCTIONS[reduction])


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=_REDUCTIONS[reduction])


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_REDUCTIONS[reduction])


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """torch.vmap: torch.func.vmap (autograd/func.py)."""
    from autograd.func import vmap as func_vmap  # deferred: autograd sits above the runtime and imports it

    return func_vmap(func, in_dims, out_dims, randomness, chunk_size=chunk_size)
