"""optim.swa_utils against torch.optim.swa_utils: AveragedModel (SWA and EMA), update_bn, SWALR.

Both libraries average the same weights: the "training" writes the same numpy values into both
models before each update. The equal-weight average (sub, divide, add) and the one-tensor EMA
(two products and a sum) round alike and are compared bit for bit; the list EMA uses lerp,
which torch's vectorized CPU kernel computes with a fused multiply-add (one rounding where numpy
has two), so it is compared within float32 rounding. SWALR's rates are Python floats computed
in the same order: equal.
"""
import re
import warnings

import numpy as np
import pytest
import torch

import minitorch2

RNG = np.random.default_rng(0)
X = RNG.standard_normal((32, 3)).astype(np.float32)


def _model(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU(), lib.nn.Linear(4, 2))


def _snapshots(count=6):
    """The weights 'training' visits: each step a numpy perturbation of the last."""
    rng = np.random.default_rng(1)
    shapes = [(4, 3), (4,), (4,), (4,), (2, 4), (2,)]
    weights = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    steps = []
    for _ in range(count):
        weights = [w + np.float32(0.1) * rng.standard_normal(w.shape).astype(np.float32) for w in weights]
        steps.append(weights)
    return steps


def _load(lib, model, weights):
    with lib.no_grad():
        for p, w in zip(model.parameters(), weights):
            p.copy_(lib.from_numpy(w))


def _average(lib, make_averaged, use_bn_batches=True):
    model = _model(lib)
    averaged = make_averaged(lib, model)
    for weights in _snapshots():
        _load(lib, model, weights)
        if use_bn_batches:
            model(lib.from_numpy(X))  # the BatchNorm buffers move too
        averaged.update_parameters(model)
    return averaged


def _assert_same_state(ours, theirs, exact):
    sa, sb = ours.state_dict(), theirs.state_dict()
    assert list(sa) == list(sb)
    for key in sb:
        a, b = sa[key].numpy(), sb[key].numpy()
        assert a.dtype == b.dtype, key
        if exact or a.dtype.kind != "f":
            np.testing.assert_array_equal(a, b, err_msg=key)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7, err_msg=key)


def test_default_average_is_torchs_equal_weight_mean_bit_for_bit():
    """Parameters averaged, buffers copied from the model (the BatchNorm statistics compared loosely: kernels)."""
    ours = _average(minitorch2, lambda lib, model: lib.optim.swa_utils.AveragedModel(model), use_bn_batches=False)
    theirs = _average(torch, lambda lib, model: lib.optim.swa_utils.AveragedModel(model), use_bn_batches=False)
    _assert_same_state(ours, theirs, exact=True)
    assert ours.n_averaged.item() == 6 and str(ours.n_averaged.dtype) == "torch.int64"
    mean = np.mean([s[0] for s in _snapshots()], axis=0)
    np.testing.assert_allclose(ours.module[0].weight.detach().numpy(), mean, rtol=1e-5)


def test_buffers_are_copied_from_the_model_without_use_buffers():
    ours = _average(minitorch2, lambda lib, model: lib.optim.swa_utils.AveragedModel(model))
    theirs = _average(torch, lambda lib, model: lib.optim.swa_utils.AveragedModel(model))
    # the batch-norm running statistics come from each library's own kernels (last-bit reduction order)
    _assert_same_state(ours, theirs, exact=False)
    assert ours.module[1].num_batches_tracked.item() == 6


def test_ema_avg_fn_matches_torch_bit_for_bit():
    def make(lib, model):
        return lib.optim.swa_utils.AveragedModel(model, avg_fn=lib.optim.swa_utils.get_ema_avg_fn(0.9))

    _assert_same_state(_average(minitorch2, make, False), _average(torch, make, False), exact=True)


@pytest.mark.parametrize("decay", [0.999, 0.5])
def test_ema_multi_avg_fn_with_buffers_matches_torch(decay):
    """use_buffers=True: parameters and buffers averaged; the long num_batches_tracked takes the integer path."""
    def make(lib, model):
        return lib.optim.swa_utils.AveragedModel(model, multi_avg_fn=lib.optim.swa_utils.get_ema_multi_avg_fn(decay),
                                                 use_buffers=True)

    ours, theirs = _average(minitorch2, make), _average(torch, make)
    _assert_same_state(ours, theirs, exact=False)


def test_swa_multi_avg_fn_matches_torch():
    def make(lib, model):
        return lib.optim.swa_utils.AveragedModel(model, multi_avg_fn=lib.optim.swa_utils.get_swa_multi_avg_fn())

    _assert_same_state(_average(minitorch2, make, False), _average(torch, make, False), exact=False)


def test_swa_avg_fn_with_an_int_count_matches_torch():
    for lib in (minitorch2, torch):
        update = lib.optim.swa_utils.get_swa_avg_fn()
        result = update(lib.from_numpy(X[0].copy()), lib.from_numpy(X[1].copy()), 3)
        np.testing.assert_array_equal(result.numpy(), X[0] + (X[1] - X[0]) / np.float32(4))


def test_averaged_model_forwards_to_its_copy_and_state_dict_loads():
    model = _model(minitorch2).eval()
    averaged = minitorch2.optim.swa_utils.AveragedModel(model)
    x = minitorch2.from_numpy(X)
    np.testing.assert_array_equal(averaged(x).detach().numpy(), model(x).detach().numpy())
    assert averaged.module is not model and averaged.module[0].weight is not model[0].weight
    theirs = torch.optim.swa_utils.AveragedModel(_model(torch))
    assert list(averaged.state_dict()) == list(theirs.state_dict())
    averaged.update_parameters(model)
    clone = minitorch2.optim.swa_utils.AveragedModel(model)
    clone.load_state_dict(averaged.state_dict())
    assert clone.n_averaged.item() == 1


def test_avg_fn_and_multi_avg_fn_together_are_refused():
    for lib in (minitorch2, torch):
        swa = lib.optim.swa_utils
        with pytest.raises(AssertionError, match="^Only one of avg_fn and multi_avg_fn should be provided$"):
            swa.AveragedModel(_model(lib), avg_fn=swa.get_ema_avg_fn(), multi_avg_fn=swa.get_ema_multi_avg_fn())


@pytest.mark.parametrize("make", ["get_ema_avg_fn", "get_ema_multi_avg_fn"])
@pytest.mark.parametrize("decay", [-0.1, 1.5])
def test_bad_decay_raises_torchs_error(make, decay):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim.swa_utils, make)(decay)
    with pytest.raises(ValueError, match="^" + re.escape(str(theirs.value)) + "$"):
        getattr(minitorch2.optim.swa_utils, make)(decay)


def _update_bn(lib, loader_kind):
    model = _model(lib)
    with lib.no_grad():
        model[1].running_mean.fill_(5.0)
    model.eval()
    batches = [lib.from_numpy(X[i:i + 8]) for i in range(0, 32, 8)]
    loader = {"tensors": batches, "tuples": [(b, None) for b in batches], "lists": [[b] for b in batches]}[loader_kind]
    lib.optim.swa_utils.update_bn(loader, model)
    return model


@pytest.mark.parametrize("loader_kind", ["tensors", "tuples", "lists"])
def test_update_bn_recomputes_statistics_like_torch(loader_kind):
    ours, theirs = _update_bn(minitorch2, loader_kind), _update_bn(torch, loader_kind)
    assert not ours.training and ours[1].momentum == 0.1
    # a cumulative average over the four batches; the batch statistics are reductions (last-bit order)
    for name in ("running_mean", "running_var"):
        np.testing.assert_allclose(getattr(ours[1], name).numpy(), getattr(theirs[1], name).numpy(), rtol=1e-5,
                                   atol=1e-6)
    assert ours[1].num_batches_tracked.item() == theirs[1].num_batches_tracked.item() == 4


def test_update_bn_without_batch_norm_does_nothing():
    model = minitorch2.nn.Linear(3, 2)
    calls = []
    minitorch2.optim.swa_utils.update_bn(iter(calls), model)
    assert model.training


SCHEDULES = [
    dict(swa_lr=0.05),
    dict(swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear"),
    dict(swa_lr=[0.02, 0.3], anneal_epochs=4),
    dict(swa_lr=0.5, anneal_epochs=0),
    dict(swa_lr=0.01, anneal_epochs=1, anneal_strategy="linear"),
]


def _schedule(lib, kwargs, epochs=15, swa_start=None):
    params = [lib.nn.Parameter(lib.zeros(2)), lib.nn.Parameter(lib.zeros(3))]
    optimizer = lib.optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.2}], lr=0.1, momentum=0.9)
    swa = lib.optim.swa_utils.SWALR(optimizer, **kwargs)
    cosine = lib.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10) if swa_start is not None else None
    rates = [[group["lr"] for group in optimizer.param_groups]]
    for epoch in range(epochs):
        optimizer.step()
        if swa_start is not None and epoch < swa_start:
            cosine.step()
        else:
            swa.step()
        rates.append([group["lr"] for group in optimizer.param_groups])
    return rates, swa, optimizer


@pytest.mark.parametrize("kwargs", SCHEDULES, ids=[str(sorted(k.items())) for k in SCHEDULES])
def test_swalr_rates_equal_torchs(kwargs):
    ours, our_swa, our_opt = _schedule(minitorch2, kwargs)
    theirs, their_swa, their_opt = _schedule(torch, kwargs)
    assert ours == theirs
    assert our_swa.get_last_lr() == their_swa.get_last_lr()
    assert our_opt.state_dict()["param_groups"] == their_opt.state_dict()["param_groups"]
    assert our_swa.state_dict() == their_swa.state_dict()


def test_swalr_takes_over_from_another_schedule_like_torch():
    ours, _, _ = _schedule(minitorch2, dict(swa_lr=0.05, anneal_epochs=5), epochs=20, swa_start=8)
    theirs, _, _ = _schedule(torch, dict(swa_lr=0.05, anneal_epochs=5), epochs=20, swa_start=8)
    assert ours == theirs


def test_swalr_state_dict_round_trip_restores_the_annealing():
    _, swa, optimizer = _schedule(minitorch2, dict(swa_lr=0.05, anneal_epochs=6, anneal_strategy="linear"), epochs=2)
    saved = swa.state_dict()
    assert "anneal_func" not in saved and "optimizer" not in saved
    fresh = minitorch2.optim.swa_utils.SWALR(optimizer, swa_lr=0.05)
    fresh.load_state_dict(saved)
    assert fresh.anneal_func(0.25) == 0.25 and fresh.anneal_epochs == 6
    optimizer.step()
    fresh.step()
    _, _, uninterrupted = _schedule(minitorch2, dict(swa_lr=0.05, anneal_epochs=6, anneal_strategy="linear"), epochs=3)
    assert [g["lr"] for g in optimizer.param_groups] == [g["lr"] for g in uninterrupted.param_groups]


def test_swalr_get_lr_outside_step_warns_like_torch():
    for lib in (minitorch2, torch):
        optimizer = lib.optim.SGD([lib.nn.Parameter(lib.zeros(2))], lr=0.1)
        swa = lib.optim.swa_utils.SWALR(optimizer, swa_lr=0.05)
        with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
            swa.get_lr()


BAD_SWALR = [dict(swa_lr=0.05, anneal_strategy="step"), dict(swa_lr=0.05, anneal_epochs=-1),
             dict(swa_lr=0.05, anneal_epochs=2.5), dict(swa_lr=[0.1, 0.2, 0.3])]


@pytest.mark.parametrize("kwargs", BAD_SWALR, ids=[str(sorted(k.items())) for k in BAD_SWALR])
def test_bad_swalr_arguments_raise_torchs_error(kwargs):
    messages = []
    for lib in (minitorch2, torch):
        optimizer = lib.optim.SGD([lib.nn.Parameter(lib.zeros(2))], lr=0.1)
        with pytest.raises(ValueError) as error, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.optim.swa_utils.SWALR(optimizer, **kwargs)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
