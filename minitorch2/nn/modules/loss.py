"""Loss modules (as torch.nn): CrossEntropyLoss, NLLLoss, MSELoss, L1Loss, BCELoss and the losses beyond the core
set (SmoothL1Loss, HuberLoss, KLDivLoss, the margin and embedding losses, PoissonNLLLoss, GaussianNLLLoss,
TripletMarginLoss, MultiMarginLoss, MultiLabelSoftMarginLoss), and the functional forms of the latter, which
nn.functional re-exports (through _functional_more.py, whose size they would overflow).

Runtime layer, coverage surface. Each functional loss is a composite of table ops (so autograd and the compiler
need nothing of their own), with PyTorch's argument checks, warnings, error classes and messages.
"""
import math
import warnings

from ... import _dtype
from ..._aten.memory import _dtype_title
from ..._aten.meta_util import broadcast_shapes
from ..._ops import ops
from ...autograd import grad_mode as _grad_mode
from .. import functional as F
from .._losses import _broadcast_with_warning, _reduction
from .module import Module

__all__ = [
    "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss",
    "KLDivLoss", "SoftMarginLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "PoissonNLLLoss",
    "GaussianNLLLoss", "TripletMarginLoss", "MultiMarginLoss", "MultiLabelSoftMarginLoss",
]

aten = ops.aten

LOSS_FUNCTIONS = [
    "smooth_l1_loss", "huber_loss", "kl_div", "soft_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "cosine_embedding_loss", "poisson_nll_loss", "gaussian_nll_loss", "triplet_margin_loss", "multi_margin_loss",
    "multilabel_soft_margin_loss",
]


def _sizes(shape):
    return f"[{', '.join(map(str, shape))}]"


# ---------------------------------------------------------------- functional forms
def _reduce(loss, reduction):
    if reduction == "mean":
        return aten.mean.default(loss)
    return aten.sum.default(loss) if reduction == "sum" else loss


def _floating_kernel(kernel, input, target):
    """The common dtype of a loss ATen computes in one kernel compiled for floating types only: its dispatch refuses
    the others (the composite below would compute them); an output of input's dtype must hold the result."""
    dtype = _dtype.result_type(input, target)
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_title(dtype)}'")
    return dtype


def _cast_into(dtype, output_dtype):
    if not _dtype.can_cast(dtype, output_dtype):
        raise RuntimeError(f"result type {_dtype_title(dtype)} can't be cast to the desired output type "
                           f"{_dtype_title(output_dtype)}")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """|d| - beta/2 where |d| >= beta, d*d / (2*beta) inside (beta = 0 is the L1 loss)."""
    input, target = _broadcast_with_warning(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _floating_kernel("smooth_l1_cpu", input, target)
    distance = aten.abs.default(aten.sub.Tensor(input, target))
    if beta == 0.0:
        return _reduce(distance, reduction)
    quadratic = aten.div.Scalar(aten.mul.Scalar(aten.mul.Tensor(distance, distance), 0.5), beta)
    return _reduce(aten.where.self(aten.lt.Scalar(distance, beta), quadratic, aten.sub.Scalar(distance, 0.5 * beta)),
                   reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """d*d / 2 where |d| < delta, delta * (|d| - delta/2) outside: smooth_l1_loss scaled by delta."""
    input, target = _broadcast_with_warning(input, target)
    reduction = _reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _cast_into(_floating_kernel("huber_cpu", input, target), input.dtype)
    distance = aten.abs.default(aten.sub.Tensor(input, target))
    quadratic = aten.mul.Scalar(aten.mul.Tensor(distance, distance), 0.5)
    loss = aten.where.self(aten.lt.Scalar(distance, delta), quadratic,
                           aten.mul.Scalar(aten.sub.Scalar(distance, 0.5 * delta), delta))
    if weight is not None:
        if tuple(weight.shape) != tuple(input.shape):
            raise ValueError("Weights and input must have the same size.")
        loss = aten.mul.Tensor(loss, weight)
    return _reduce(loss, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is None and reduce is None and reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      stacklevel=2)
    if not all(t.is_floating_point() or t.is_complex() for t in (input, target)):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    batchmean = reduction == "batchmean" and size_average is None and reduce is None
    reduction = "sum" if batchmean else _reduction(reduction, size_average, reduce)
    # (ATen's operands in the order its build evaluates them, the right one first, as torch's graphs record them)
    if log_target:
        difference = aten.sub.Tensor(target, input)
        loss = aten.mul.Tensor(aten.exp.default(target), difference)
    else:
        product = aten.mul.Tensor(target, input)
        loss = aten.sub.Tensor(aten.xlogy.Tensor(target, target), product)
    loss = _reduce(loss, reduction)
    return aten.div.Tensor(loss, input.shape[0]) if batchmean and input.dim() else loss  # (Python's `/ size(0)`)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape) and broadcast_shapes(input.shape, target.shape) != input.shape:
        raise RuntimeError(f"output with shape {_sizes(input.shape)} doesn't match the broadcast shape "
                           f"{_sizes(broadcast_shapes(input.shape, target.shape))}")  # (ATen writes into input's size)
    if input.dtype is not _dtype.bool_:  # (ATen's exp_ in place: a float result into an integer product)
        _cast_into(_dtype.promote_types(_dtype.result_type(input, target), _dtype.get_default_dtype()),
                   _dtype.result_type(input, target))
    return _reduce(aten.log1p.default(aten.exp.default(aten.mul.Tensor(aten.neg.default(input), target))), reduction)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    # (the difference first: C++ evaluates `-target * (input1 - input2)` right to left; ATen's margin is a double,
    # which promotes integer inputs to the default float dtype)
    difference = aten.sub.Tensor(input1, input2)
    loss = aten.add.Scalar(aten.mul.Tensor(aten.neg.default(target), difference), float(margin))
    return _reduce(aten.clamp_min_.default(loss, 0), reduction)


def _scalar_minus(scalar, tensor):
    """ATen's C++ `scalar - tensor`: a tensor like it filled with the scalar, the tensor subtracted in place."""
    return aten.sub_.Tensor(aten.fill_.Scalar(aten.empty_like.default(tensor), scalar), tensor)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """margin - x (at least 0) where the target is -1, x where it is 1; a target that is neither adds both.
    (ATen's composite op for op: the clamp in place, so autograd saves a clone of what it clamps.)"""
    reduction = _reduction(reduction, size_average, reduce)
    zeros = aten.zeros_like.default(input)
    below_margin = aten.clamp_min_.default(_scalar_minus(margin, input), 0)
    loss = aten.add.Tensor(aten.where.self(aten.ne.Scalar(target, 1), below_margin, zeros),
                           aten.where.self(aten.ne.Scalar(target, -1), input, zeros))
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos where the target is 1, max(0, cos - margin) where it is -1 (squared norms get 1e-12, as ATen's)."""
    reduction = _reduction(reduction, size_average, reduce)
    dim = target.dim()
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1 or input2.dim() != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with sizes "
                           f"{_sizes(input1.shape)} and {_sizes(input2.shape)}.")
    dot = aten.sum.dim_IntList(aten.mul.Tensor(input1, input2), [dim])
    squares = [aten.add.Scalar(aten.sum.dim_IntList(aten.mul.Tensor(x, x), [dim]), 1e-12) for x in (input1, input2)]
    cos = aten.div.Tensor(dot, aten.sqrt_.default(aten.mul.Tensor(*squares)))
    zeros = aten.zeros_like.default(cos)
    one_minus, below_margin = _scalar_minus(1, cos), aten.clamp_min_.default(aten.sub.Scalar(cos, margin), 0)
    positive = aten.where.self(aten.eq.Scalar(target, 1), one_minus, zeros)
    negative = aten.where.self(aten.eq.Scalar(target, -1), below_margin, zeros)
    return _reduce(aten.add.Tensor(positive, negative), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    if log_input:
        loss = aten.sub.Tensor(aten.exp.default(input), aten.mul.Tensor(target, input))
    else:
        loss = aten.sub.Tensor(input, aten.mul.Tensor(target, aten.log.default(aten.add.Scalar(input, eps))))
    if full:  # Stirling's approximation of log(target!), for targets above 1
        stirling = aten.add.Tensor(aten.sub.Tensor(aten.mul.Tensor(target, aten.log.default(target)), target),
                                   aten.mul.Scalar(aten.log.default(aten.mul.Scalar(target, 2 * math.pi)), 0.5))
        loss = aten.add.Tensor(loss, aten.masked_fill.Scalar(stirling, aten.le.Scalar(target, 1), 0))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """(log var + (input - target)**2 / var) / 2, var clamped to eps outside autograd; a var one dim short of the
    input, or differing in one dim of size 1, is one variance shared along that dim."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = aten.mul.Scalar(aten.ones_like.default(input), var)
    elif bool(aten.any.default(aten.lt.Scalar(var, 0))):
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = aten.unsqueeze.default(var, -1)
        elif not (input.dim() == var.dim() and sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = aten.clone.default(var)
    with _grad_mode.no_grad():
        aten.clamp_min_.default(var, eps)
    squared = aten.pow.Tensor_Scalar(aten.sub.Tensor(input, target), 2)
    loss = 0.5 * (aten.log.default(var) + aten.div.Tensor(squared, var))  # (a wrapped number, as torch's: MulBackward0)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    reduction = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    to_positive = F.pairwise_distance(anchor, positive, p, eps)
    to_negative = F.pairwise_distance(anchor, negative, p, eps)
    if swap:
        to_negative = aten.minimum.default(to_negative, F.pairwise_distance(positive, negative, p, eps))
    return _reduce(aten.clamp_min.default(aten.sub.Tensor(aten.add.Scalar(to_positive, margin), to_negative), 0),
                   reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """Per sample, the mean over classes c != y of max(0, margin - x[y] + x[c]) ** p (times weight[y])."""
    reduction = _reduction(reduction, size_average, reduce)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    x = input.reshape([-1, input.shape[-1]]) if input.dim() else input.reshape([1, 1])
    _check_multi_margin(input, target, weight, x.shape[0], x.shape[1])
    if input.dtype not in (_dtype.float32, _dtype.float64):  # (ATen's kernel: float and double only)
        raise NotImplementedError(f"\"multi_margin_loss_cpu_kernel\" not implemented for '{_dtype_title(input.dtype)}'")
    classes = x.shape[1]
    y = aten.view.default(target, [-1, 1])
    # (a class adds its margin where it is > 0, as ATen's kernel's test: a nan one adds nothing)
    z = aten.add.Tensor(aten.rsub.Scalar(aten.gather.default(x, 1, y), margin), x)
    hinge = aten.where.self(aten.gt.Scalar(z, 0), z, aten.zeros_like.default(z))
    if p == 2:
        hinge = aten.mul.Tensor(hinge, hinge)
    if weight is not None:
        hinge = aten.mul.Tensor(hinge, aten.view.default(aten.index_select.default(weight, 0, target.reshape([-1])),
                                                         [-1, 1]))
    is_target = aten.eq.Tensor(aten.arange.default(classes, dtype=_dtype.int64), y)
    loss = aten.div.Scalar(aten.sum.dim_IntList(aten.masked_fill.Scalar(hinge, is_target, 0), [1]), classes)
    if reduction == "none":
        return loss if target.dim() else aten.squeeze.dim(loss, 0)
    return _reduce(loss, reduction)


def _check_multi_margin(input, target, weight, frames, classes):
    if target.dtype is not _dtype.int64:
        raise RuntimeError(f"expected scalar type Long but found {_dtype_title(target.dtype)}")
    if not (input.dim() == 0 or (input.dim() <= 2 and input.shape[-1] != 0)):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{_sizes(input.shape)}")
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{frames}], but got {_sizes(target.shape)}. "
                           f"Input has shape {_sizes(input.shape)}.")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {_sizes(weight.shape)}")
    if target.numel() and (int(target.min().item()) < 0 or int(target.max().item()) >= classes):
        raise RuntimeError("target out of range")


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(t * log sigmoid(x) + (1 - t) * log sigmoid(-x)), (weighted,) averaged over the classes (the last dim)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    log_p = aten.log_sigmoid_forward.default(input)[0]
    log_not_p = aten.log_sigmoid_forward.default(aten.neg.default(input))[0]
    loss = aten.neg.default(aten.add.Tensor(aten.mul.Tensor(target, log_p),
                                            aten.mul.Tensor(aten.rsub.Scalar(target, 1), log_not_p)))
    if weight is not None:
        loss = aten.mul.Tensor(loss, weight)
    class_dim = input.dim() - 1
    loss = aten.sum.dim_IntList(loss, [class_dim]) / input.shape[class_dim]  # (DivBackward0, as torch's)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- modules
class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        legacy = size_average is not None or reduce is not None  # torch checks `reduction` only when it is used
        self.reduction = F._reduction("mean", size_average, reduce) if legacy else reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class CrossEntropyLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class NLLLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class BCELoss(_WeightedLoss):
    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class SmoothL1Loss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class SoftMarginLoss(_Loss):
    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class _MarginLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class MarginRankingLoss(_MarginLoss):
    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_MarginLoss):
    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead")
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)
