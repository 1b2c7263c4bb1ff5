"""optim.lr_scheduler against torch.optim.lr_scheduler: the same loop in both, learning rates compared with ==.

Each case builds its scheduler from the library it is given (so SequentialLR's children come from
the same library), steps SGD then the scheduler 50 times and records every group's lr (and momentum,
which OneCycleLR cycles). Errors and warnings are compared with torch's text.
"""
import math
import re
import warnings

import numpy as np
import pytest
import torch

import minitorch2

STEPS = 50
RNG = np.random.default_rng(0)
WEIGHTS = [RNG.standard_normal(shape).astype(np.float32) for shape in [(3, 4), (4,)]]


def _optimizer(lib, name="SGD", **kwargs):
    params = [lib.nn.Parameter(lib.from_numpy(w.copy())) for w in WEIGHTS]
    groups = [{"params": params[:1]}, {"params": params[1:], "lr": 0.05}]
    options = dict(lr=0.1, momentum=0.9) if name == "SGD" else dict(lr=0.1)
    options.update(kwargs)
    return getattr(lib.optim, name)(groups, **options), params


def _lambda_lrs(lib, opt):
    return lib.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.97**e, lambda e: 1.0 / (1 + e)])


def _sequential(lib, opt):
    s = lib.optim.lr_scheduler
    return s.SequentialLR(opt, [s.LinearLR(opt, start_factor=0.1, total_iters=5), s.ExponentialLR(opt, gamma=0.9),
                                s.CosineAnnealingLR(opt, T_max=7)], milestones=[5, 20])


def _chained(lib, opt):
    s = lib.optim.lr_scheduler
    return s.ChainedScheduler([s.ConstantLR(opt, factor=0.5, total_iters=4), s.ExponentialLR(opt, gamma=0.95)])


CASES = {
    "StepLR": lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, step_size=7, gamma=0.3),
    "MultiStepLR": lambda lib, opt: lib.optim.lr_scheduler.MultiStepLR(opt, milestones=[3, 10, 10, 30], gamma=0.7),
    "ExponentialLR": lambda lib, opt: lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.93),
    "LambdaLR": _lambda_lrs,
    "MultiplicativeLR": lambda lib, opt: lib.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.9 + 0.001 * e),
    "CosineAnnealingLR": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=9, eta_min=0.001),
    "CosineAnnealingLR-zero-min": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=13),
    "LinearLR": lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, end_factor=0.9, total_iters=17),
    "LinearLR-default": lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt),
    "ConstantLR": lambda lib, opt: lib.optim.lr_scheduler.ConstantLR(opt, factor=0.3, total_iters=11),
    "PolynomialLR": lambda lib, opt: lib.optim.lr_scheduler.PolynomialLR(opt, total_iters=30, power=2.0),
    "OneCycleLR": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.5, 0.2], total_steps=STEPS + 1),
    "OneCycleLR-linear-3phase": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=1.0, epochs=5, steps_per_epoch=11, pct_start=0.25, anneal_strategy="linear", three_phase=True),
    "OneCycleLR-no-momentum": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=0.3, total_steps=60, cycle_momentum=False, div_factor=10.0),
    "CyclicLR": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=[0.1, 0.3], step_size_up=4),
    "CyclicLR-triangular2": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        opt, base_lr=[0.01, 0.02], max_lr=0.2, step_size_up=3, step_size_down=5, mode="triangular2"),
    "CyclicLR-exp_range": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        opt, base_lr=0.001, max_lr=0.1, step_size_up=6, mode="exp_range", gamma=0.97, base_momentum=0.7),
    "CyclicLR-custom": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        opt, 0.01, 0.1, step_size_up=5, scale_fn=_Decay(0.8), scale_mode="iterations", cycle_momentum=False),
    "SequentialLR": _sequential,
    "ChainedScheduler": _chained,
    "CosineAnnealingWarmRestarts": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=6),
    "CosineAnnealingWarmRestarts-mult": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        opt, T_0=3, T_mult=2, eta_min=0.01),
}

METRICS = [1.0 / (1 + 0.3 * i) if i < 12 else 0.25 + 0.01 * math.sin(i) for i in range(STEPS)]
PLATEAUS = {
    "min-rel": dict(patience=3),
    "max-abs-cooldown": dict(mode="max", threshold_mode="abs", threshold=0.01, patience=2, cooldown=4, factor=0.5),
    "min-abs-min_lr": dict(threshold_mode="abs", patience=1, factor=0.3, min_lr=[0.01, 0.002]),
    "max-rel-eps": dict(mode="max", patience=0, factor=0.9, eps=1e-3),
}


def _run(lib, build, steps=STEPS, optimizer="SGD"):
    opt, params = _optimizer(lib, optimizer)
    scheduler = build(lib, opt)
    lrs, momenta = [scheduler.get_last_lr()], []
    for step in range(steps):
        for p in params:
            p.grad = lib.from_numpy(np.full(tuple(p.shape), 0.1 * (step % 4 - 1.5), dtype=np.float32))
        opt.step()
        scheduler.step(METRICS[step]) if isinstance(scheduler, lib.optim.lr_scheduler.ReduceLROnPlateau) \
            else scheduler.step()
        lrs.append(scheduler.get_last_lr())
        momenta.append([g.get("momentum") for g in opt.param_groups])
    return scheduler, opt, params, lrs, momenta


@pytest.mark.parametrize("case", CASES)
def test_learning_rates_equal_torchs_over_fifty_steps(case):
    ours, our_opt, our_params, our_lrs, our_momenta = _run(minitorch2, CASES[case])
    theirs, their_opt, their_params, their_lrs, their_momenta = _run(torch, CASES[case])
    assert our_lrs == their_lrs
    assert our_momenta == their_momenta
    assert [g["lr"] for g in our_opt.param_groups] == [g["lr"] for g in their_opt.param_groups]
    assert [g.get("initial_lr") for g in our_opt.param_groups] == [g.get("initial_lr") for g in their_opt.param_groups]
    for p, q in zip(our_params, their_params):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-6)
    _assert_same_state(ours.state_dict(), theirs.state_dict())


@pytest.mark.parametrize("case", PLATEAUS)
def test_reduce_lr_on_plateau_equals_torchs(case):
    def build(lib, opt):
        return lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **PLATEAUS[case])
    ours, _, _, our_lrs, _ = _run(minitorch2, build)
    theirs, _, _, their_lrs, _ = _run(torch, build)
    assert our_lrs == their_lrs
    assert len({tuple(lr) for lr in our_lrs}) > 1, "the case should reduce at least once"
    _assert_same_state(ours.state_dict(), theirs.state_dict())


def test_one_cycle_cycles_adams_beta1():
    def build(lib, opt):
        return lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.01, total_steps=STEPS)
    _, our_opt, _, our_lrs, _ = _run(minitorch2, build, steps=STEPS - 1, optimizer="Adam")
    _, their_opt, _, their_lrs, _ = _run(torch, build, steps=STEPS - 1, optimizer="Adam")
    assert our_lrs == their_lrs
    assert [g["betas"] for g in our_opt.param_groups] == [g["betas"] for g in their_opt.param_groups]


def _assert_same_state(ours, theirs):
    """Scheduler state dicts: same keys, same values (lambdas that are plain functions save as None)."""
    assert set(ours) == set(theirs)
    for key, value in theirs.items():
        if key == "_schedulers":
            for mine, other in zip(ours[key], value):
                _assert_same_state(mine, other)
        else:
            assert ours[key] == value, key


CLOSED_FORM = {
    "StepLR": lambda s, opt: s.StepLR(opt, step_size=3, gamma=0.5),
    "MultiStepLR": lambda s, opt: s.MultiStepLR(opt, milestones=[2, 5, 5], gamma=0.5),
    "ExponentialLR": lambda s, opt: s.ExponentialLR(opt, gamma=0.8),
    "CosineAnnealingLR": lambda s, opt: s.CosineAnnealingLR(opt, T_max=6, eta_min=0.01),
    "LinearLR": lambda s, opt: s.LinearLR(opt, start_factor=0.25, total_iters=6),
    "ConstantLR": lambda s, opt: s.ConstantLR(opt, factor=0.5, total_iters=4),
    "PolynomialLR": lambda s, opt: s.PolynomialLR(opt, total_iters=8, power=0.5),
    "LambdaLR": lambda s, opt: s.LambdaLR(opt, lambda e: 0.5**e),
    "CosineAnnealingWarmRestarts": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=2),
}
EPOCHS = [3, 1, 7, 0, 12, 5, 5, 9]


@pytest.mark.parametrize("case", CLOSED_FORM)
def test_step_with_epoch_uses_the_closed_form_and_warns(case):
    def run(lib):
        opt, _ = _optimizer(lib)
        scheduler = CLOSED_FORM[case](lib.optim.lr_scheduler, opt)
        opt.step()
        lrs, messages = [], []
        epochs = EPOCHS + [9.25, 10.5, 0.75] if case == "CosineAnnealingWarmRestarts" else EPOCHS
        for epoch in epochs:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scheduler.step(epoch)
            lrs.append(scheduler.get_last_lr())
            messages.append([str(w.message) for w in caught])
        return lrs, messages
    assert run(minitorch2) == run(torch)


def _warnings_of(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action()
    return [(w.category, str(w.message)) for w in caught]


def _first_steps(lib, optimizer_first, override_step=False):
    opt, _ = _optimizer(lib)
    scheduler = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
    if override_step:
        opt.step = type(opt).step.__get__(opt)
    if optimizer_first:
        opt.step()
    return _warnings_of(scheduler.step)


@pytest.mark.parametrize("optimizer_first,override_step", [(True, False), (False, False), (True, True)])
def test_order_warnings_match_torchs(optimizer_first, override_step):
    ours = _first_steps(minitorch2, optimizer_first, override_step)
    assert ours == _first_steps(torch, optimizer_first, override_step)
    assert bool(ours) == (override_step or not optimizer_first)


def test_get_lr_outside_step_warns_like_torch():
    def run(lib):
        opt, _ = _optimizer(lib)
        scheduler = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        values = []
        return _warnings_of(lambda: values.append(scheduler.get_lr())), values
    assert run(minitorch2) == run(torch)


def test_warnings_point_at_the_caller():
    opt, _ = _optimizer(minitorch2)
    scheduler = minitorch2.optim.lr_scheduler.StepLR(opt, step_size=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scheduler.step()
    assert caught[0].filename == __file__


def test_state_dict_round_trip_resumes_the_schedule():
    def build(lib, opt):
        return lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    _, _, _, full, _ = _run(minitorch2, build, steps=30)
    scheduler, opt, _, head, _ = _run(minitorch2, build, steps=12)
    saved_opt, saved = opt.state_dict(), scheduler.state_dict()
    fresh_opt, _ = _optimizer(minitorch2)
    fresh = build(minitorch2, fresh_opt)
    fresh_opt.load_state_dict(saved_opt)
    fresh.load_state_dict(saved)
    tail = [fresh.get_last_lr()]
    for _ in range(18):
        fresh_opt.step()
        fresh.step()
        tail.append(fresh.get_last_lr())
    assert head[:-1] + tail == full


def test_torch_state_dict_loads_into_ours():
    def build(lib, opt):
        return lib.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)
    theirs, _, _, _, _ = _run(torch, build, steps=9)
    opt, _ = _optimizer(minitorch2)
    ours = build(minitorch2, opt)
    ours.load_state_dict(theirs.state_dict())
    for g, lr in zip(opt.param_groups, theirs.get_last_lr()):
        g["lr"] = lr
    opt.step()
    ours.step()
    theirs.optimizer.step()
    theirs.step()
    assert ours.get_last_lr() == theirs.get_last_lr()


class _Decay:
    def __init__(self, rate):
        self.rate = rate

    def __call__(self, epoch):
        return self.rate**epoch


def test_lambda_state_dict_keeps_callable_objects_not_functions():
    def run(lib):
        opt, _ = _optimizer(lib)
        scheduler = lib.optim.lr_scheduler.LambdaLR(opt, [_Decay(0.5), lambda e: 1.0])
        state = scheduler.state_dict()
        other = lib.optim.lr_scheduler.LambdaLR(_optimizer(lib)[0], [_Decay(0.9), lambda e: 2.0])
        other.load_state_dict(state)
        return state["lr_lambdas"], other.lr_lambdas[0].rate, "lr_lambdas" in state
    assert run(minitorch2) == run(torch) == ([{"rate": 0.5}, None], 0.5, True)


def test_initial_lr_is_set_once_and_required_to_resume():
    def run(lib):
        opt, _ = _optimizer(lib)
        opt.param_groups[0]["initial_lr"] = 0.7
        scheduler = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        bare, _ = _optimizer(lib)
        with pytest.raises(KeyError) as error:
            lib.optim.lr_scheduler.StepLR(bare, step_size=3, last_epoch=4)
        return scheduler.base_lrs, [g["initial_lr"] for g in opt.param_groups], str(error.value)
    assert run(minitorch2) == run(torch)


def test_resuming_with_last_epoch_continues_the_closed_form_steps():
    def run(lib):
        opt, _ = _optimizer(lib)
        for g in opt.param_groups:
            g["initial_lr"] = g["lr"]
        scheduler = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=4)
        lrs = [scheduler.get_last_lr()]
        for _ in range(8):
            opt.step()
            scheduler.step()
            lrs.append(scheduler.get_last_lr())
        return lrs
    assert run(minitorch2) == run(torch)


def _momentumless_optimizer(s):
    """An optimizer without momentum or betas, from the library `s` belongs to."""
    lib = torch if s is torch.optim.lr_scheduler else minitorch2
    return lib.optim.Adagrad([lib.nn.Parameter(lib.zeros(2))])


def _step_times(scheduler, times):
    for _ in range(times):
        scheduler.step()


BAD = {
    "not-an-optimizer": lambda s, opt: s.StepLR(object(), step_size=2),
    "plateau-not-an-optimizer": lambda s, opt: s.ReduceLROnPlateau(object()),
    "constant-factor": lambda s, opt: s.ConstantLR(opt, factor=1.5),
    "linear-start": lambda s, opt: s.LinearLR(opt, start_factor=0),
    "linear-end": lambda s, opt: s.LinearLR(opt, end_factor=1.2),
    "lambda-count": lambda s, opt: s.LambdaLR(opt, [lambda e: 1.0]),
    "multiplicative-not-callable": lambda s, opt: s.MultiplicativeLR(opt, [1.0, lambda e: 1.0]),
    "plateau-factor": lambda s, opt: s.ReduceLROnPlateau(opt, factor=1.0),
    "plateau-mode": lambda s, opt: s.ReduceLROnPlateau(opt, mode="up"),
    "plateau-threshold-mode": lambda s, opt: s.ReduceLROnPlateau(opt, threshold_mode="pct"),
    "plateau-min-lrs": lambda s, opt: s.ReduceLROnPlateau(opt, min_lr=[0.1]),
    "restarts-T_0": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=0),
    "restarts-T_mult": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5),
    "restarts-eta_min": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0"),
    "restarts-negative-epoch": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, T_0=2).step(-1),
    "onecycle-no-length": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1),
    "onecycle-total": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, total_steps=0),
    "onecycle-epochs": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, epochs=-1, steps_per_epoch=2),
    "onecycle-steps-per-epoch": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=1.5),
    "onecycle-pct": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, total_steps=10, pct_start=1.5),
    "onecycle-anneal": lambda s, opt: s.OneCycleLR(opt, max_lr=0.1, total_steps=10, anneal_strategy="exp"),
    "onecycle-max-lrs": lambda s, opt: s.OneCycleLR(opt, max_lr=[0.1], total_steps=10),
    "onecycle-too-many-steps": lambda s, opt: _step_times(s.OneCycleLR(opt, max_lr=0.1, total_steps=2), 3),
    "sequential-empty": lambda s, opt: s.SequentialLR(opt, [], milestones=[]),
    "sequential-milestones": lambda s, opt: s.SequentialLR(opt, [s.StepLR(opt, 2)], milestones=[3]),
    "sequential-plateau": lambda s, opt: s.SequentialLR(opt, [s.StepLR(opt, 2), s.ReduceLROnPlateau(opt)], [3]),
    "sequential-no-optimizer": lambda s, opt: s.SequentialLR(opt, [s.StepLR(opt, 2), object()], [3]),
    "chained-empty": lambda s, opt: s.ChainedScheduler([]),
    "cyclic-mode": lambda s, opt: s.CyclicLR(opt, 0.01, 0.1, mode="sawtooth"),
    "cyclic-max-lrs": lambda s, opt: s.CyclicLR(opt, 0.01, [0.1, 0.2, 0.3]),
    "cyclic-no-momentum": lambda s, opt: s.CyclicLR(_momentumless_optimizer(s), 0.01, 0.1),
}


@pytest.mark.parametrize("case", BAD)
def test_errors_match_torchs(case):
    opt, _ = _optimizer(torch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as theirs:
            BAD[case](torch.optim.lr_scheduler, opt)
        opt, _ = _optimizer(minitorch2)
        with pytest.raises(theirs.type, match="^" + re.escape(str(theirs.value)) + "$"):
            BAD[case](minitorch2.optim.lr_scheduler, opt)


def test_scheduler_on_a_different_optimizer_is_rejected():
    opt, other = _optimizer(minitorch2)[0], _optimizer(minitorch2)[0]
    s = minitorch2.optim.lr_scheduler
    with pytest.raises(ValueError, match="expects all schedulers to belong to the same optimizer"):
        s.SequentialLR(opt, [s.StepLR(opt, 2), s.StepLR(other, 2)], milestones=[3])


def test_reduce_lr_on_plateau_fills_min_lrs_for_added_groups():
    def run(lib):
        opt, _ = _optimizer(lib)
        scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=0.04)
        opt.add_param_group({"params": [lib.nn.Parameter(lib.zeros(2))], "lr": 1.0})
        for metric in (1.0, 2.0, 3.0):
            scheduler.step(metric)
        return scheduler.get_last_lr(), scheduler.min_lrs
    assert run(minitorch2) == run(torch)
