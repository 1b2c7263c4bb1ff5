"""nn.functional's embedding_bag, grid_sample, affine_grid and ctc_loss (re-exported by nn/functional.py).

Runtime layer, coverage surface. Each function checks its arguments with PyTorch's error classes and messages, puts
them in the form the aten op takes (a 2-d batch of bags becomes flat indices with offsets; mode and padding names
become ATen's enum numbers; CTC lengths become int lists) and calls its row in _aten/table_nn_more.py, so values,
gradients and grad_fn names are those of torch's ops. ctc_loss's reduction is written out here, as ATen's composite
ctc_loss writes it: infinite losses zeroed by `where`, the mean taken over losses divided by their target lengths.
"""
import math
import warnings

from .. import _dtype, _factories
from .._ops import ops
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ._losses import _reduction

aten = ops.aten

__all__ = ["embedding_bag", "embedding_renorm_", "grid_sample", "affine_grid", "ctc_loss"]

_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}
_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}
_ALIGN_CORNERS_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                          "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                          "documentation of grid_sample for details.")


# ---------------------------------------------------------------- embedding bags
def embedding_renorm_(weight, input, max_norm, norm_type):
    """torch's embedding_renorm_, outside autograd: each row the input names whose norm passes max_norm is scaled in
    place to max_norm / (norm + 1e-7) of itself. A mask over all rows keeps the shapes independent of the data."""
    with no_grad():
        named = _factories.zeros(weight.shape[0], dtype=_dtype.bool_)
        named[input.reshape(-1)] = True
        norms = weight.norm(norm_type, dim=1, keepdim=True)
        weight.mul_((max_norm / (norms + 1e-7)).where(named.unsqueeze(1) & (norms > max_norm), 1.0))


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if weight.dtype is _dtype.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    input, offsets, include_last_offset, per_sample_weights = _flat_bags(input, offsets, include_last_offset,
                                                                         per_sample_weights)
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return aten._embedding_bag.default(weight, input, offsets, scale_grad_by_freq, _BAG_MODES[mode], sparse,
                                       per_sample_weights, include_last_offset,
                                       _padding_index(padding_idx, weight.shape[0]))[0]


def _flat_bags(input, offsets, include_last_offset, per_sample_weights):
    """1-d indices with offsets, as the op takes them: a 2-d input is a batch of equal-length bags."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = _factories.arange(0, input.numel(), input.shape[1], dtype=input.dtype)
        flat_weights = None if per_sample_weights is None else per_sample_weights.reshape(-1)
        return input.reshape(-1), offsets, False, flat_weights
    if input.dim() != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.dim() != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    return input, offsets, include_last_offset, per_sample_weights


def _padding_index(padding_idx, num_weights):
    if padding_idx is None:
        return -1
    if not -num_weights <= padding_idx < num_weights:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num_weights} through "
                           f"{num_weights - 1}, but got {padding_idx}")
    return padding_idx + num_weights if padding_idx < 0 else padding_idx


# ---------------------------------------------------------------- grid sampling and affine grids
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in _INTERPOLATION_MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in _PADDING_MODES:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    sampler = aten.grid_sampler_3d if input.dim() == 5 and grid.dim() == 5 else aten.grid_sampler_2d
    return sampler.default(input, grid, _INTERPOLATION_MODES[mode], _PADDING_MODES[padding_mode],
                                        align_corners)


def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    given, size = size, list(size)
    if len(size) not in (4, 5):
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {given}.")
    nd = len(size) - 2
    if theta.dim() != 3 or theta.shape[-2] != nd or theta.shape[-1] != nd + 1:
        raise ValueError(f"Expected a batch of {nd}D affine matrices of shape Nx{nd}x{nd + 1} for size "
                         f"{given}. Got {theta.shape}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {given}")
    return aten.affine_grid_generator.default(theta, size, align_corners)


# ---------------------------------------------------------------- CTC loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    reduction = _reduction(reduction)
    input_lengths = _lengths(input_lengths, "input_lengths")
    target_lengths = _lengths(target_lengths, "target_lengths")
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs, targets = aten.unsqueeze.default(log_probs, 1), aten.unsqueeze.default(targets, 0)
    losses = aten._ctc_loss.default(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity)[0]
    if zero_infinity:
        infinite = aten.eq.Scalar(losses, math.inf)
        losses = aten.where.self(infinite, aten.zeros.default([], dtype=losses.dtype), losses)
    if reduction == "mean":
        lengths = (target_lengths.to(losses.dtype) if isinstance(target_lengths, Tensor) else
                   _factories.tensor(target_lengths, dtype=losses.dtype))
        result = aten.mean.default(aten.div.Tensor(losses, aten.clamp_min.default(lengths, 1)))
    else:
        result = aten.sum.default(losses) if reduction == "sum" else losses
    return aten.squeeze.dim(result, 0) if unbatched else result


def _lengths(lengths, name):
    """A list of ints from a list, a tuple or an integer tensor (0-d for one unbatched sequence)."""
    if isinstance(lengths, Tensor):
        if lengths.is_floating_point() or lengths.dtype is _dtype.bool_:
            raise RuntimeError(f"{name} must be integral")
        lengths = lengths.tolist()
    return [lengths] if isinstance(lengths, int) else [int(length) for length in lengths]
