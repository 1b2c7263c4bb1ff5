"""The nn layers issue 20 found missing: RReLU, ChannelShuffle, FeatureAlphaDropout, MultiLabelMarginLoss,
TripletMarginWithDistanceLoss, SyncBatchNorm and AdaptiveLogSoftmaxWithLoss.

Runtime layer, coverage surface (layers_more.py gathers it). Each forward calls its nn.functional form
(_functional_missing.py); SyncBatchNorm is BatchNorm as torch runs it in a single process (no process group
to share statistics with), and convert_sync_batchnorm swaps it in for a model's batch norms, sharing their
parameters and running statistics. AdaptiveLogSoftmaxWithLoss (Grave et al.'s adaptive softmax) scores the
frequent classes (the shortlist) and one column per cluster of rarer classes in its head; a rare class's
log-probability is its cluster's column plus its log-probability within the cluster, from that cluster's
two-layer tail, which only the rows whose target falls in it run through.
"""
import collections

from ... import _factories, _functions
from ...autograd.grad_mode import no_grad
from .. import functional as F
from .activation_more import PairwiseDistance, _DropoutNd
from .batchnorm import _BatchNorm
from .container import ModuleList, Sequential
from .linear import Linear
from .loss import _Loss
from .module import Module
from .normalization_more import _InstanceNorm

__all__ = ["RReLU", "ChannelShuffle", "FeatureAlphaDropout", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss",
           "SyncBatchNorm", "AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = collections.namedtuple("_ASMoutput", ["output", "loss"])


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


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if not cutoffs:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or cutoffs[0] <= 0 or cutoffs[-1] > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        self.in_features, self.n_classes, self.div_value, self.head_bias = in_features, n_classes, div_value, head_bias
        self.cutoffs = cutoffs + [n_classes]
        self.shortlist_size, self.n_clusters = self.cutoffs[0], len(cutoffs)
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            self.tail.append(Sequential(Linear(in_features, hidden, bias=False, dtype=dtype),
                                        Linear(hidden, self.cutoffs[i + 1] - self.cutoffs[i], bias=False,
                                               dtype=dtype)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for projection in self.tail:
            for layer in projection:
                layer.reset_parameters()

    def _cluster(self, label):
        """The tail (0, 1, ...) a label falls in; -1 for the shortlist."""
        return next(i for i, high in enumerate(self.cutoffs) if label < high) - 1

    def forward(self, input_, target_):
        if target_.dim() == 1:
            if input_.shape[0] != target_.shape[0]:
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input_.dim() != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with size "
                                   f"{input_.shape}")
        elif target_.dim() == 0:
            if input_.dim() != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with size "
                                   f"{input_.shape}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target_.dim() > 0
        input, target = (input_, target_) if batched else (input_.unsqueeze(0), target_.unsqueeze(0))
        labels = target.tolist()
        if any(not 0 <= label < self.n_classes for label in labels):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{min(labels)}, {max(labels)}] were found. ")
        clusters = [self._cluster(label) for label in labels]
        columns = [label if c < 0 else self.shortlist_size + c for label, c in zip(labels, clusters)]
        head = F.log_softmax(self.head(input), dim=1)
        output = head.gather(1, _factories.tensor(columns).unsqueeze(1)).squeeze(1)
        for i, projection in enumerate(self.tail):
            rows = [r for r, c in enumerate(clusters) if c == i]
            if rows:
                index = _factories.tensor(rows)
                within = F.log_softmax(projection(input.index_select(0, index)), dim=1)
                relative = target.index_select(0, index) - self.cutoffs[i]
                output = output.index_add(0, index, within.gather(1, relative.unsqueeze(1)).squeeze(1))
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input, head_output):
        """Every class's log-probability: the shortlist's from the head, each cluster's its column plus the
        cluster's own log-softmax."""
        head = F.log_softmax(head_output, dim=1)
        parts = [head[:, :self.shortlist_size]]
        for i, projection in enumerate(self.tail):
            parts.append(F.log_softmax(projection(input), dim=1) + head[:, self.shortlist_size + i].unsqueeze(1))
        return _functions.cat(parts, 1)

    def log_prob(self, input):
        return self._full_log_prob(input, self.head(input))

    def predict(self, input):
        head_output = self.head(input)
        output = head_output.argmax(dim=1)
        rare = output >= self.shortlist_size
        if not bool(rare.any()):
            return output
        if bool(rare.all()):
            return self._full_log_prob(input, head_output).argmax(dim=1)
        output[rare] = self._full_log_prob(input[rare], head_output[rare]).argmax(dim=1)
        return output
