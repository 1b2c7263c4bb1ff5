"""CTCLoss (as torch.nn.CTCLoss): the connectionist temporal classification loss as a layer.

Runtime layer, coverage surface, beside loss.py. The layer holds blank, reduction and zero_infinity and calls
F.ctc_loss (nn/_functional_extra.py), which calls aten._ctc_loss.
"""
from .. import functional as F
from .loss import _Loss

__all__ = ["CTCLoss"]


class CTCLoss(_Loss):
    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)
