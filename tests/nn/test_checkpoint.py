"""torch.utils.checkpoint against torch: the same loss, parameter and input gradients (dropout's random stream
replayed in the recomputation), for both variants, with and without an input that requires grad, and compiled."""
import warnings

import pytest
import torch

import minitorch2
import minitorch2.utils.checkpoint


def _run(lib, checkpoint, use_reentrant, x_requires_grad, compile_=False):
    lib.manual_seed(0)
    nn = lib.nn
    block = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Dropout(0.3), nn.Linear(8, 4))
    head = nn.Linear(4, 1)
    x = lib.randn(3, 4, requires_grad=x_requires_grad)

    def loss_of(v):
        return head(checkpoint(block, v, use_reentrant=use_reentrant)).sum()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loss = (lib.compile(loss_of, backend="aot_eager") if compile_ else loss_of)(x)
        if loss.requires_grad:
            loss.backward()
    grads = [p.grad if p.grad is None else round(p.grad.sum().item(), 5) for p in (block[0].weight, x)]
    return round(loss.item(), 5), grads


@pytest.mark.parametrize("use_reentrant", [True, False])
@pytest.mark.parametrize("x_requires_grad", [True, False])
def test_checkpoint_matches_torch(use_reentrant, x_requires_grad):
    expected = _run(torch, torch.utils.checkpoint.checkpoint, use_reentrant, x_requires_grad)
    assert _run(minitorch2, minitorch2.utils.checkpoint.checkpoint, use_reentrant, x_requires_grad) == expected


def test_checkpoint_under_compile_matches_eager():
    eager = _run(minitorch2, minitorch2.utils.checkpoint.checkpoint, False, True)
    assert _run(minitorch2, minitorch2.utils.checkpoint.checkpoint, False, True, compile_=True)[1] == eager[1]


def test_checkpoint_warnings_and_errors_match_torch():
    for lib in (torch, minitorch2):
        with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
            lib.utils.checkpoint.checkpoint(lambda t: t * 2, lib.ones(2, requires_grad=True))
        with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
            lib.utils.checkpoint.checkpoint(lambda t, scale: t * scale, lib.ones(2), use_reentrant=True, scale=2)
