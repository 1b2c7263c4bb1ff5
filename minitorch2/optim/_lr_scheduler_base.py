"""LRScheduler, the base every learning-rate schedule builds on, and the schedules that are one formula of the epoch.

Runtime layer, plain Python floats, re-exported by lr_scheduler.py (torch.optim.lr_scheduler). The base class keeps
PyTorch's protocol (the initial step in the constructor, `get_lr()` inside `step()`, the warnings when the optimizer
has not stepped first) and the helpers the other schedulers share; LambdaLR, MultiplicativeLR, StepLR, MultiStepLR,
ConstantLR, LinearLR, ExponentialLR, PolynomialLR and CosineAnnealingLR each compute the next rate from the group's
current one with PyTorch's float operations in PyTorch's order (and the closed form for `step(epoch)`).
"""
import contextlib
import functools
import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter

from .._tensor import Tensor
from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
_HOW_TO = "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


def _check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


def _per_group(name, optimizer, value):
    """One value per param group: a list/tuple of the right length, or one value repeated."""
    if not isinstance(value, (list, tuple)):
        return [value] * len(optimizer.param_groups)
    if len(value) != len(optimizer.param_groups):
        raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                         f"{name} has {len(value)} values, param_groups has {len(optimizer.param_groups)}.")
    return list(value)


def _group_values(optimizer, key):
    """group[key] of each param group, a tensor cloned (a tensor lr is filled in place: no alias of it)."""
    return [_unaliased(group[key]) for group in optimizer.param_groups]


def _unaliased(value):
    return value.clone() if isinstance(value, Tensor) else value


def _set_group_value(group, key, value):
    """group[key] = value, or, where group[key] is a tensor (a tensor lr), that tensor filled with it, as torch's."""
    if isinstance(group[key], Tensor):
        group[key].fill_(value.squeeze() if isinstance(value, Tensor) else value)
    else:
        group[key] = value


@contextlib.contextmanager
def _flag(scheduler, name):
    setattr(scheduler, name, True)
    try:
        yield
    finally:
        setattr(scheduler, name, False)


def _set_momentum(group, momentum, use_beta1):
    """Cycling schedulers move SGD's momentum, or Adam's beta1."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def _mark_optimizer_steps(optimizer):
    """Wrap optimizer.step so a scheduler can tell whether the optimizer stepped before it did."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step, owner = optimizer.step.__func__, weakref.ref(optimizer)  # weak: no optimizer <-> wrapper cycle

    @functools.wraps(step)
    def marked_step(*args, **kwargs):
        opt = owner()
        opt._opt_called = True
        return step(opt, *args, **kwargs)

    # torch's lr_scheduler.py is a file Dynamo skips (trace_rules' FORCE_SKIP_FILES): a compiled frame's call of
    # this wrapper is a graph break, and the optimizer step it calls compiles as a frame of its own; the frontend
    # reads these marks as frontend.disable(recursive=False)'s, but (no _torchdynamo_orig_callable) compiling the
    # wrapper itself runs it skipped, as torch.compile does a function of a skipped file: only the step compiles
    @functools.wraps(step)
    def skipped_marked_step(*args, **kwargs):
        return marked_step(*args, **kwargs)

    skipped_marked_step.__wrapped__ = marked_step
    skipped_marked_step._torchdynamo_disable, skipped_marked_step._torchdynamo_disable_recursive = True, False
    skipped_marked_step._wrapped_by_lr_sched = True
    optimizer.step = skipped_marked_step


class LRScheduler:
    """Subclasses give `get_lr()` (ours give `_lrs()`, which `get_lr` wraps with PyTorch's warning)."""
    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", _unaliased(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(
                    f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                    "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from a "
                    "checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                    "for a fresh training run (not recommended)")
        self.base_lrs = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _mark_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        with _flag(self, "_is_initial"):
            self.step()

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        return self._last_lr

    def get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=2)
        return self._lrs()

    def _lrs(self):
        raise NotImplementedError

    def step(self, epoch=None):
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn("Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                              "initialization. Please, make sure to call `optimizer.step()` before "
                              "`lr_scheduler.step()`. " + _HOW_TO, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                              "and later, you should call them in the opposite order: `optimizer.step()` before "
                              "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
                              "value of the learning rate schedule. " + _HOW_TO, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        with _flag(self, "_get_lr_called_within_step"):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        self._set_lrs(values)

    def _set_lrs(self, values):
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_group_value(group, "lr", lr)
        self._last_lr = _group_values(self.optimizer, "lr")

    def _scaled(self, factor):
        return [group["lr"] * factor for group in self.optimizer.param_groups]


class _LRScheduler(LRScheduler):
    pass


class _LambdaScheduler(LRScheduler):
    """One function of the epoch per group; state dicts keep callable objects' attributes, not functions."""
    _check_callable = False

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        elif len(lr_lambda) != len(optimizer.param_groups):
            raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
        else:
            self.lr_lambdas = list(lr_lambda)
        for fn in self.lr_lambdas if self._check_callable else ():
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        for fn, saved in zip(self.lr_lambdas, state.pop("lr_lambdas")):
            if saved is not None:
                fn.__dict__.update(saved)
        self.__dict__.update(state)


class LambdaLR(_LambdaScheduler):
    def _lrs(self):
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(_LambdaScheduler):
    _check_callable = True

    def _lrs(self):
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * fn(self.last_epoch)
                for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)]


class StepLR(LRScheduler):
    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _group_values(self.optimizer, "lr")
        return self._scaled(self.gamma)

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        if self.last_epoch not in self.milestones:
            return _group_values(self.optimizer, "lr")
        return self._scaled(self.gamma ** self.milestones[self.last_epoch])

    def _get_closed_form_lr(self):
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base_lr * self.gamma ** passed for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        if self.last_epoch == 0:
            return self._scaled(self.factor)
        if self.last_epoch != self.total_iters:
            return _group_values(self.optimizer, "lr")
        return self._scaled(1.0 / self.factor)

    def _get_closed_form_lr(self):
        reached = self.last_epoch >= self.total_iters
        return [base_lr * (self.factor + reached * (1 - self.factor)) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        if self.last_epoch == 0:
            return self._scaled(self.start_factor)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _group_values(self.optimizer, "lr")
        span = self.end_factor - self.start_factor
        # ratio of this step's factor to the previous one's
        return self._scaled(1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span))

    def _get_closed_form_lr(self):
        span = self.end_factor - self.start_factor
        return [base_lr * (self.start_factor + span * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        return _group_values(self.optimizer, "lr") if self._is_initial else self._scaled(self.gamma)

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        if self._is_initial or self.last_epoch > self.total_iters:
            return _group_values(self.optimizer, "lr")
        now, before = 1.0 - self.last_epoch / self.total_iters, 1.0 - (self.last_epoch - 1) / self.total_iters
        return self._scaled((now / before) ** self.power)

    def _get_closed_form_lr(self):
        left = 1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [base_lr * left ** self.power for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def _lrs(self):
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base_lr in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:  # the trough: climb back by one step
            return [group["lr"] + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups, strict=True)]
        ratio = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / (
            1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
        return [ratio * (group["lr"] - self.eta_min) + self.eta_min for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


# The schedulers are torch.optim.lr_scheduler's names and print as such (<torch.optim.lr_scheduler.StepLR object ...>)
for _scheduler in (LRScheduler, _LRScheduler, _LambdaScheduler, LambdaLR, MultiplicativeLR, StepLR, MultiStepLR,
                   ConstantLR, LinearLR, ExponentialLR, PolynomialLR, CosineAnnealingLR):
    _scheduler.__module__ = "minitorch2.optim.lr_scheduler"
