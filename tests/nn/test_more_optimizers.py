"""RMSprop, Adagrad, Adadelta against torch.optim: the same training loop from the same numpy weights.

The exact comparisons feed both libraries the same gradients (a numpy function of the current
weights), so only the optimizers' arithmetic is compared; one autograd loop checks the whole.
"""
import numpy as np
import pytest
import torch

import minitorch2

CONFIGS = [
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, centered=True)),
    ("RMSprop", dict(lr=0.005, centered=True, momentum=0.5, weight_decay=0.1, eps=1e-6)),
    ("RMSprop", dict(lr=0.01, maximize=True)),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01)),
    ("Adagrad", dict(lr=0.05, initial_accumulator_value=0.1, weight_decay=0.01, eps=1e-8)),
    ("Adagrad", dict(lr=0.05, maximize=True)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5)),
    ("Adadelta", dict(weight_decay=0.1, maximize=True)),
]

RNG = np.random.default_rng(0)
WEIGHTS = [RNG.standard_normal(shape).astype(np.float32) for shape in [(8, 4), (8,), (1, 8), (1,)]]
X, Y = RNG.standard_normal((16, 4)).astype(np.float32), RNG.standard_normal((16, 1)).astype(np.float32)


def _params(lib):
    return [lib.nn.Parameter(lib.from_numpy(w.copy())) for w in WEIGHTS]


def _loss(lib, params):
    w1, b1, w2, b2 = params
    x, y = lib.from_numpy(X), lib.from_numpy(Y)
    return ((lib.tanh(x @ w1.t() + b1) @ w2.t() + b2 - y) ** 2).mean()


def _numpy_grad(weight, step):
    """A gradient both libraries receive bit for bit: float32 numpy arithmetic on the weight."""
    return (weight * np.float32(0.3) + np.float32(0.1 * (step % 3 - 1))).astype(np.float32)


def _train(lib, name, kwargs, steps=20):
    params = _params(lib)
    optimizer = getattr(lib.optim, name)(params, **kwargs)
    for step in range(steps):
        optimizer.zero_grad()
        for p in params:
            p.grad = lib.from_numpy(_numpy_grad(p.detach().numpy(), step))
        optimizer.step()
    return params, optimizer


def _autograd_train(lib, name, kwargs, steps=20):
    params = _params(lib)
    optimizer = getattr(lib.optim, name)(params, **kwargs)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = _loss(lib, params)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return params, losses


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=[f"{n}-{sorted(k.items())}" for n, k in CONFIGS])
def test_twenty_steps_match_torch(name, kwargs):
    ours, our_opt = _train(minitorch2, name, kwargs)
    theirs, their_opt = _train(torch, name, kwargs)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-6, atol=1e-7)
    ours_state, theirs_state = our_opt.state_dict(), their_opt.state_dict()
    assert ours_state["param_groups"] == [{k: v for k, v in g.items()} for g in theirs_state["param_groups"]]
    for index, their_state in theirs_state["state"].items():
        assert list(ours_state["state"][index]) == list(their_state)
        for key, value in their_state.items():
            # atol: a momentum buffer can pass near zero, where 1 ulp of its earlier magnitude is a large rtol
            np.testing.assert_allclose(ours_state["state"][index][key].numpy(), value.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name,kwargs", CONFIGS[::3], ids=[n for n, _ in CONFIGS[::3]])
def test_autograd_training_loop_tracks_torch(name, kwargs):
    """Gradients differ from torch's in the last bit here (matmul order), so the tolerance is looser."""
    ours, our_losses = _autograd_train(minitorch2, name, kwargs)
    theirs, their_losses = _autograd_train(torch, name, kwargs)
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-5)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_adagrad_state_exists_before_the_first_step_and_for_added_groups():
    for lib in (minitorch2, torch):
        params = _params(lib)
        opt = lib.optim.Adagrad(params[:2], initial_accumulator_value=0.5)
        assert opt.state[params[0]]["step"].item() == 0.0
        assert float(opt.state[params[0]]["sum"].numpy()[0, 0]) == 0.5
        opt.add_param_group({"params": params[2:], "initial_accumulator_value": 2.0})
        assert params[2] not in opt.state
    ours, theirs = _params(minitorch2), _params(torch)
    for lib, params in ((minitorch2, ours), (torch, theirs)):
        opt = lib.optim.Adagrad(params[:2], initial_accumulator_value=0.5)
        opt.add_param_group({"params": params[2:], "initial_accumulator_value": 2.0})
        _loss(lib, params).backward()
        opt.step()
        # lazily created state takes the optimizer's default, not the group's value
        assert float(opt.state[params[2]]["sum"].detach().numpy().min()) >= 0.5
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-6)


def test_rmsprop_state_keys_follow_the_options():
    for lib in (minitorch2, torch):
        params = _params(lib)
        opt = lib.optim.RMSprop(params, momentum=0.9, centered=True)
        _loss(lib, params).backward()
        opt.step()
        assert list(opt.state[params[0]]) == ["step", "square_avg", "momentum_buffer", "grad_avg"]


def test_params_without_grad_are_skipped():
    for name in ("RMSprop", "Adagrad", "Adadelta"):
        params = _params(minitorch2)
        opt = getattr(minitorch2.optim, name)(params)
        before = params[0].detach().numpy().copy()
        opt.step()
        np.testing.assert_array_equal(params[0].detach().numpy(), before)


BAD = [
    ("RMSprop", dict(lr=-1)), ("RMSprop", dict(eps=-1e-3)), ("RMSprop", dict(momentum=-0.5)),
    ("RMSprop", dict(weight_decay=-1)), ("RMSprop", dict(alpha=-0.1)),
    ("Adagrad", dict(lr=-1)), ("Adagrad", dict(lr_decay=-1)), ("Adagrad", dict(weight_decay=-2)),
    ("Adagrad", dict(initial_accumulator_value=-1)), ("Adagrad", dict(eps=-1)),
    ("Adadelta", dict(lr=-1)), ("Adadelta", dict(rho=1.5)), ("Adadelta", dict(rho=-0.1)), ("Adadelta", dict(eps=-1)),
    ("Adadelta", dict(weight_decay=-1)),
]


@pytest.mark.parametrize("name,kwargs", BAD, ids=[f"{n}-{sorted(k.items())}" for n, k in BAD])
def test_bad_hyperparameters_raise_torchs_error(name, kwargs):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim, name)(_params(torch), **kwargs)
    with pytest.raises(ValueError, match="^" + __import__("re").escape(str(theirs.value)) + "$"):
        getattr(minitorch2.optim, name)(_params(minitorch2), **kwargs)


def test_empty_parameter_list_raises():
    for name in ("RMSprop", "Adagrad", "Adadelta"):
        with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
            getattr(minitorch2.optim, name)([])


def test_load_state_dict_resumes_identically():
    params, opt = _train(minitorch2, "RMSprop", dict(lr=0.01, momentum=0.9), steps=3)
    clone = minitorch2.optim.RMSprop(params, lr=0.5, momentum=0.9)
    clone.load_state_dict(opt.state_dict())
    assert clone.param_groups[0]["lr"] == 0.01
    for p in params:
        np.testing.assert_array_equal(clone.state[p]["momentum_buffer"].numpy(), opt.state[p]["momentum_buffer"].numpy())
