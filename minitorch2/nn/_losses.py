"""The loss functions of nn.functional: nll_loss, cross_entropy, mse_loss, l1_loss and the binary
cross entropies (re-exported by nn/functional.py).

Runtime layer, coverage surface beside nn/modules/loss.py: each makes the
aten calls PyTorch's makes on the CPU (`cross_entropy` is `_log_softmax` +
`nll_loss_forward`; class probabilities and label smoothing as ATen's
cross_entropy_loss_prob_target and _label_smoothing), with its argument
checks, error classes and messages.
"""
import math
import warnings

from .. import _functions
from .._aten.memory import _dtype_title
from .._aten.meta_util import broadcast_shapes
from .._ops import ops
from ..amp._policy import composite_in_float32

aten = ops.aten

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction, size_average=None, reduce=None):
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "none" if not reduce else ("mean" if size_average else "sum")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() > 1 and input.shape[0] != target.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0]})."
        )
    if input.dim() > 2:  # (N, C, d1, ...) as a language model's loss over logits.transpose(1, 2)
        return _nll_loss_nd(input, target, weight, _REDUCTIONS[reduction], ignore_index)
    return aten.nll_loss_forward.default(input, target, weight, _REDUCTIONS[reduction], ignore_index)[0]


def _nll_loss_nd(input, target, weight, reduction, ignore_index):
    """ATen's nll_loss_nd past two dims: nll_loss2d of a 4-d input; any other (N, C, d1, ...) made contiguous and
    viewed as (N, C, 1, d1*...) with its target as (N, 1, d1*...), the unreduced loss viewed back."""
    if input.dim() == 4:
        return aten.nll_loss2d_forward.default(input, target, weight, reduction, ignore_index)[0]
    n, c, positions = input.shape[0], input.shape[1], list(input.shape[2:])
    if list(target.shape[1:]) != positions:
        raise RuntimeError(f"Expected target size {[n, *positions]}, got {list(target.shape)}")
    input, target = input.contiguous(), target.contiguous()
    input = aten.view.default(input, [n, c, 1, -1] if input.numel() else [n, c, 0, 0])
    target = aten.view.default(target, [n, 1, -1] if target.numel() else [n, 0, 0])
    loss = aten.nll_loss2d_forward.default(input, target, weight, reduction, ignore_index)[0]
    return aten.view.default(loss, [n, *positions]) if reduction == _REDUCTIONS["none"] else loss


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    reduction = _reduction(reduction, size_average, reduce)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    input, weight = composite_in_float32(input, weight)
    if tuple(input.shape) == tuple(target.shape):  # ATen assumes class probabilities when the shapes agree
        return _cross_entropy_probabilities(input, target, weight, ignore_index, reduction, label_smoothing, class_dim)
    log_probs = aten._log_softmax.default(input, class_dim, False)
    loss = nll_loss(log_probs, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0.0:
        return loss
    return _label_smoothing(log_probs, target, weight, ignore_index, reduction, label_smoothing, loss, class_dim)


def _cross_entropy_probabilities(input, target, weight, ignore_index, reduction, label_smoothing, class_dim):
    """ATen's cross_entropy_loss_prob_target: -sum(log_softmax(input) * target (* weight)) over classes, the
    target first smoothed toward uniform; the mean divides by the number of rows (input.numel() / classes)."""
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                           f"{_scalar_type_name(target.dtype)}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    n_classes = input.shape[class_dim]
    if weight is not None and weight.numel() != n_classes:
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no "
                           f"classes but got weight tensor of shape: [{', '.join(map(str, weight.shape))}]")
    log_probs = aten._log_softmax.default(input, class_dim, False)
    if label_smoothing > 0.0:
        target = aten.add.Tensor(aten.mul.Tensor(target, 1 - label_smoothing), label_smoothing / n_classes)
    terms = aten.mul.Tensor(log_probs, target)
    if weight is not None:
        shape = [1] * input.dim()
        shape[class_dim] = n_classes
        terms = aten.mul.Tensor(terms, weight if input.dim() == 1 else aten.view.default(weight, shape))
    if reduction == "none":
        return aten.neg.default(aten.sum.dim_IntList(terms, [class_dim]))
    loss = aten.neg.default(aten.sum.default(terms))
    if reduction == "sum":
        return loss
    if input.numel() == 0:
        return aten.fill.Scalar(loss, math.nan)
    return aten.div.Scalar(loss, input.numel() // n_classes)


_scalar_type_name = _dtype_title  # (ATen's name of a dtype in messages: 'Long', 'ComplexFloat', ...)


def _label_smoothing(log_probs, target, weight, ignore_index, reduction, label_smoothing, nll, class_dim):
    """ATen's cross_entropy_loss_label_smoothing: mix the NLL with the mean of -log p over classes."""
    n_classes = log_probs.shape[class_dim]
    if weight is not None:
        shape = [1] * log_probs.dim()
        shape[class_dim] = n_classes
        smooth = aten.neg.default(aten.sum.dim_IntList(aten.mul.Tensor(log_probs, aten.view.default(weight, shape)), [class_dim]))
    else:
        smooth = aten.neg.default(aten.sum.dim_IntList(log_probs, [class_dim]))
    ignore_mask = aten.eq.Scalar(target, ignore_index)
    aten.masked_fill_.Scalar(smooth, ignore_mask, 0.0)
    if reduction == "mean":
        # ATen evaluates the divisor before the summed smooth loss
        if weight is not None:
            safe_target = aten.masked_fill.Scalar(target, ignore_mask, 0)
            picked = aten.gather.default(weight, 0, safe_target)
            denom = aten.sum.default(aten.masked_fill_.Scalar(picked, ignore_mask, 0))
        else:
            denom = aten.sum.default(aten.bitwise_not.default(ignore_mask))
        smooth = aten.div.Tensor(aten.sum.default(smooth), denom)
    elif reduction == "sum":
        smooth = aten.sum.default(smooth)
    smooth = aten.mul.Scalar(smooth, label_smoothing / n_classes)
    return aten.add.Tensor(aten.mul.Scalar(nll, 1 - label_smoothing), smooth)


def _broadcast_with_warning(input, target):
    """The pointwise losses' (l1, mse, smooth_l1, huber) operands broadcast, with torch's warning where they differ."""
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", stacklevel=3)
        return _functions.broadcast_tensors(input, target)
    return input, target


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    input, target = _broadcast_with_warning(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    return aten.mse_loss.default(input, target, _REDUCTIONS[reduction])


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    input, target = _broadcast_with_warning(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    loss = aten.abs.default(aten.sub.Tensor(input, target))
    if reduction == "mean":
        return aten.mean.default(loss)
    if reduction == "sum":
        return aten.sum.default(loss)
    return loss


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return aten.binary_cross_entropy_with_logits.default(input, target, weight, pos_weight, _REDUCTIONS[reduction])


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) "
                         "is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = aten.expand.default(weight, list(broadcast_shapes(tuple(target.shape), tuple(weight.shape))))
    return aten.binary_cross_entropy.default(input, target, weight, _REDUCTIONS[reduction])
