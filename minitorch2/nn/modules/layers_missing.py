"""The nn layers issue 20 found missing: RReLU, ChannelShuffle, FeatureAlphaDropout, MultiLabelMarginLoss,
TripletMarginWithDistanceLoss and SyncBatchNorm.

Runtime layer, coverage surface (layers_more.py gathers it). Each forward calls its nn.functional form
(_functional_missing.py); SyncBatchNorm is BatchNorm as torch runs it in a single process (no process group
to share statistics with), and convert_sync_batchnorm swaps it in for a model's batch norms, sharing their
parameters and running statistics.
"""
from ...autograd.grad_mode import no_grad
from .. import functional as F
from .activation_more import PairwiseDistance, _DropoutNd
from .batchnorm import _BatchNorm
from .loss import _Loss
from .module import Module
from .normalization_more import _InstanceNorm

__all__ = ["RReLU", "ChannelShuffle", "FeatureAlphaDropout", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss",
           "SyncBatchNorm"]


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


class FeatureAlphaDropout(_DropoutNd):
    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class MultiLabelMarginLoss(_Loss):
    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(reduction=reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} "
                             "instead")
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin, self.swap = margin, swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=self.distance_function,
                                                   margin=self.margin, swap=self.swap, reduction=self.reduction)


class SyncBatchNorm(_BatchNorm):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype=dtype)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """The module with each batch norm below it (itself included) a SyncBatchNorm over the same tensors."""
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, (_InstanceNorm, SyncBatchNorm)):
            converted = cls(module.num_features, module.eps, module.momentum, module.affine,
                            module.track_running_stats, process_group)
            if module.affine:
                with no_grad():
                    converted.weight, converted.bias = module.weight, module.bias
            converted.running_mean, converted.running_var = module.running_mean, module.running_var
            converted.num_batches_tracked, converted.training = module.num_batches_tracked, module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted
