"""Loss functions given the targets users get wrong: torch's errors, not a number (session 32).

SILENT before: binary_cross_entropy took class-index (int64) targets, float64 targets and targets outside
[0, 1] and returned a loss; kl_div took integer and bool tensors; soft_margin_loss broadcast a (4, 1) target
against a (4,) input into a (4, 4) loss; multi_margin_loss took int32 targets. torch raises for each.
"""
import pytest
import torch

import minitorch2

LOSS_MISTAKES = {
    "bce with class indices": lambda t, x: t.nn.functional.binary_cross_entropy(x.sigmoid(), t.tensor([0, 4, 2, 1])),
    "bce with a bool target": lambda t, x: t.nn.BCELoss()(x.sigmoid(), t.tensor([0, 1, 1, 0]).bool()),
    "bce with a float64 target": lambda t, x: t.nn.functional.binary_cross_entropy(x.sigmoid(), t.rand(4).double()),
    "bce of float64 with a float32 target": lambda t, x: t.nn.functional.binary_cross_entropy(
        x.sigmoid().double(), t.rand(4)),
    "bce with a target above 1": lambda t, x: t.nn.functional.binary_cross_entropy(x.sigmoid(), t.tensor([0., 4, 2, 1])),
    "bce with a negative target": lambda t, x: t.nn.functional.binary_cross_entropy(x.sigmoid(), -t.rand(4)),
    "bce with a nan target": lambda t, x: t.nn.functional.binary_cross_entropy(x.sigmoid(), t.full((4,), float("nan"))),
    "bce of logits (no sigmoid)": lambda t, x: t.nn.functional.binary_cross_entropy(x * 10, t.rand(4)),
    "kl_div with an int64 target": lambda t, x: t.nn.functional.kl_div(x.log_softmax(0), t.tensor([0, 4, 2, 1]),
                                                                      reduction="batchmean"),
    "kl_div with a bool target": lambda t, x: t.nn.KLDivLoss(reduction="sum")(x, x > 0),
    "kl_div of an int input": lambda t, x: t.nn.functional.kl_div(x.long(), x, reduction="sum"),
    "soft_margin with a column target": lambda t, x: t.nn.functional.soft_margin_loss(x, t.ones(4, 1)),
    "soft_margin of a column with a row": lambda t, x: t.nn.SoftMarginLoss()(x.view(4, 1), t.ones(4)),
    "multi_margin with int32 targets": lambda t, x: t.nn.functional.multi_margin_loss(
        x.view(2, 2), t.tensor([0, 1], dtype=t.int32)),
    "multi_margin with float targets": lambda t, x: t.nn.MultiMarginLoss()(x.view(2, 2), t.tensor([0.0, 1.0])),
}


def _error(fn, lib):
    lib.manual_seed(0)
    with pytest.raises(Exception) as info:
        fn(lib, lib.randn(4))
    return type(info.value).__name__, str(info.value)


@pytest.mark.parametrize("name", sorted(LOSS_MISTAKES))
def test_loss_mistake_raises_torch_error(name):
    assert _error(LOSS_MISTAKES[name], minitorch2) == _error(LOSS_MISTAKES[name], torch)


@pytest.mark.parametrize("lib", [minitorch2, torch], ids=["minitorch2", "torch"])
def test_the_right_targets_still_compute(lib):
    lib.manual_seed(0)
    x = lib.randn(4)
    losses = [lib.nn.functional.binary_cross_entropy(x.sigmoid(), (x > 0).float()),
              lib.nn.functional.kl_div(x.log_softmax(0), x.softmax(0), reduction="batchmean"),
              lib.nn.functional.soft_margin_loss(x, lib.ones(1)),
              lib.nn.functional.multi_margin_loss(x.view(2, 2), lib.tensor([0, 1]))]
    assert all(loss.dim() == 0 and loss.dtype == lib.float32 for loss in losses)


def test_the_right_targets_compute_torchs_values():
    def losses(lib):
        lib.manual_seed(0)
        x = lib.randn(4)
        return [lib.nn.functional.binary_cross_entropy(x.sigmoid(), (x > 0).float()).item(),
                lib.nn.functional.soft_margin_loss(x, lib.ones(1)).item(),
                lib.nn.functional.multi_margin_loss(x.view(2, 2), lib.tensor([0, 1])).item()]

    assert losses(minitorch2) == pytest.approx(losses(torch), rel=1e-6)
