"""Optimizers against torch.optim: parameters after 10 steps, state dicts, zero_grad."""
import numpy as np
import pytest
import torch

import minitorch2

CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, amsgrad=True, betas=(0.8, 0.99))),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, amsgrad=True, weight_decay=0.05)),
]


def _train(lib, name, kwargs, steps=10):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
    optimizer = getattr(lib.optim, name)(model.parameters(), **kwargs)
    x, y = lib.randn(16, 4), lib.randn(16, 1)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return model, optimizer, losses


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=[f"{n}-{sorted(k.items())}" for n, k in CONFIGS])
def test_ten_steps_match_torch(name, kwargs):
    ours, our_opt, our_losses = _train(minitorch2, name, kwargs)
    theirs, their_opt, their_losses = _train(torch, name, kwargs)
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-5)
    for p, q in zip(ours.parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-6)
    ours_state, theirs_state = our_opt.state_dict(), their_opt.state_dict()
    assert ours_state["param_groups"][0]["params"] == theirs_state["param_groups"][0]["params"]
    assert sorted(ours_state["state"]) == sorted(theirs_state["state"])
    for key, value in theirs_state["state"].get(0, {}).items():
        np.testing.assert_allclose(ours_state["state"][0][key].numpy(), value.numpy(), rtol=1e-5, atol=1e-7)


def test_zero_grad_set_to_none_and_to_zero():
    model = minitorch2.nn.Linear(2, 2)
    opt = minitorch2.optim.SGD(model.parameters(), lr=0.1)
    model(minitorch2.randn(3, 2)).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.numpy().any() for p in model.parameters())
    opt.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_load_state_dict_resumes_identically():
    model, opt, _ = _train(minitorch2, "Adam", dict(lr=0.01), steps=3)
    clone = minitorch2.optim.Adam(model.parameters(), lr=0.5)
    clone.load_state_dict(opt.state_dict())
    assert clone.param_groups[0]["lr"] == 0.01
    for p in model.parameters():
        np.testing.assert_array_equal(clone.state[p]["exp_avg"].numpy(), opt.state[p]["exp_avg"].numpy())


def test_bad_hyperparameters_raise_value_error():
    params = [minitorch2.nn.Parameter(minitorch2.zeros(2))]
    for make in (lambda: minitorch2.optim.SGD(params, lr=-1), lambda: minitorch2.optim.Adam(params, betas=(1.0, 0.9)),
                 lambda: minitorch2.optim.SGD(params, lr=0.1, nesterov=True), lambda: minitorch2.optim.SGD([], lr=0.1)):
        with pytest.raises(ValueError):
            make()
