"""nn.functional's names issue 20 found missing: rrelu (and rrelu_, torch.rrelu), channel_shuffle,
feature_alpha_dropout, multilabel_margin_loss, triplet_margin_with_distance_loss and F.grad (nn/grad.py).

Runtime layer, coverage surface (re-exported by _functional_rare.py, hence by nn/functional.py). Each is composed
of ops the registry has, so autograd gives torch's gradients. rrelu is ATen's rrelu_with_noise in its functional
form, whose kernel draws the slopes as ATen's CPU kernel does (one double per non-positive element in memory order
from the generator), so the same seed gives torch's slopes. Traced graphs record multilabel_margin_loss's parts,
not torch's single op (multilabel_margin_loss_forward).
"""
import math

import numpy as np

from .. import _dtype, _factories
from .._ops import ops
from .._tensor import Tensor, contiguous_format
from . import grad  # noqa: F401  (F.grad is torch.nn.grad)
from ._losses import _reduction

aten = ops.aten
_ALPHA = 1.7580993408473766  # SELU's scale times its alpha, as alpha dropout uses it

__all__ = ["rrelu", "rrelu_", "channel_shuffle", "native_channel_shuffle", "feature_alpha_dropout",
           "feature_alpha_dropout_", "multilabel_margin_loss", "triplet_margin_with_distance_loss", "grad"]


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False, generator=None):
    """Randomized leaky ReLU, ATen's rrelu_with_noise (nn_activation_ops.py): in training each non-positive element
    is scaled by a slope drawn from U(lower, upper); otherwise the slope is their mean, (lower + upper) / 2."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = aten.empty_like.default(input, memory_format=contiguous_format)
    out, slopes = aten.rrelu_with_noise_functional.default(input, noise, lower, upper, training, generator)
    if not inplace:
        return out
    return input.mul_(slopes) if training else aten.leaky_relu_.default(input, (lower + upper) / 2)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return rrelu(input, lower, upper, training, inplace=True, generator=generator)


def channel_shuffle(input, groups):
    """(N, g * k, *) -> the channels taken k-major: view as (N, g, k, *), swap g and k, flatten back."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} channels and "
                           f"{groups} groups.")
    n, rest = input.shape[0], list(input.shape[2:])
    grouped = aten.view.default(input.contiguous(), [n, groups, channels // groups, *rest])
    return aten.transpose.int(grouped, 1, 2).reshape(list(input.shape))


native_channel_shuffle = channel_shuffle


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels: one bernoulli(1 - p) draw per (sample, channel), broadcast over the rest."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        return input.mul_(0.0) if inplace else input.mul(_factories.zeros((), dtype=input.dtype))
    shape = [input.shape[0], input.shape[1]] + [1] * (input.dim() - 2)
    noise = _factories.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input.mul(noise)).add_(b)


def feature_alpha_dropout_(input, p=0.5, training=False):
    return feature_alpha_dropout(input, p, training, inplace=True)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Per sample, sum over its target classes j (those before the first -1 in its target row) and its other
    classes i of max(0, 1 - (x[j] - x[i])), over the number of classes."""
    reduction = _reduction(reduction, size_average, reduce)
    if not (input.dim() <= 2 and tuple(target.shape) == tuple(input.shape)) or (input.dim() and not
                                                                                  input.shape[-1]):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    x = input.reshape([-1, input.shape[-1] if input.dim() else 1])
    labels = target.detach().numpy().reshape(x.shape)
    if labels.size and (labels.min() < -1 or labels.max() >= x.shape[1]):
        raise RuntimeError("multilabel_margin_loss: target out of range")
    valid = np.cumprod(labels != -1, axis=1).astype(bool)  # the labels before each row's first -1
    is_target = np.zeros(x.shape, bool)
    rows = np.nonzero(valid)[0]
    is_target[rows, labels[valid]] = True
    mask = Tensor._from_numpy((valid[:, :, None] & ~is_target[:, None, :]).astype(
        np.float32 if input.dtype != _dtype.float64 else np.float64)).to(input.dtype)
    picked = aten.gather.default(x, 1, Tensor._from_numpy(np.where(valid, labels, 0).astype(np.int64)))
    hinge = aten.clamp_min.default(aten.rsub.Scalar(aten.sub.Tensor(aten.unsqueeze.default(picked, 2),
                                                                    aten.unsqueeze.default(x, 1)), 1), 0)
    loss = aten.div.Scalar(aten.sum.dim_IntList(aten.mul.Tensor(hinge, mask), [1, 2]), x.shape[1])
    if reduction == "none":
        return loss.reshape(list(input.shape[:-1]) if input.dim() else [])
    return _reduced(loss, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d pairwise_distance unless given; swap: the
    negative's distance is the smaller of its distances to the anchor and to the positive."""
    from . import functional as F  # (local: functional.py imports this module)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    distance = distance_function or F.pairwise_distance
    to_positive, to_negative = distance(anchor, positive), distance(anchor, negative)
    if swap:
        to_negative = aten.minimum.default(to_negative, distance(positive, negative))
    loss = aten.clamp_min.default(aten.sub.Tensor(aten.add.Scalar(to_positive, margin), to_negative), 0)
    return _reduced(loss, reduction)


def _reduced(loss, reduction):
    return {"sum": aten.sum.default, "mean": aten.mean.default}.get(reduction, lambda t: t)(loss)
