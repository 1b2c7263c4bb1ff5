"""optim.swa_utils (as torch.optim.swa_utils): weight averaging (SWA and EMA), update_bn, and the SWALR schedule.

Coverage surface (outside the lesson): training scripts keep an averaged copy of their model
beside it. `AveragedModel` holds a deep copy of the model and a long `n_averaged` buffer; each
`update_parameters(model)` copies the model's values in on the first call and afterwards folds
them into the average: by default the equal-weight running mean (PyTorch's CPU path,
`avg + (new - avg) / (n + 1)`), or an `avg_fn` (one tensor) / `multi_avg_fn` (lists of tensors
of one dtype) such as `get_ema_multi_avg_fn(decay)`. Buffers are averaged too with
`use_buffers=True`, else copied. `update_bn` recomputes BatchNorm statistics of a model with one
pass over data; `SWALR` anneals each group's lr to its `swa_lr` over `anneal_epochs` epochs.
"""
import copy
import itertools
import math

from .. import _dtype, _factories
from ..autograd.grad_mode import no_grad
from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from .lr_scheduler import LRScheduler, _per_group
from .optimizer import divide

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn", "get_ema_avg_fn",
           "get_swa_avg_fn"]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay=0.999):
    """In place over lists: ema <- lerp(ema, model, 1 - decay) (integer tensors: ema * decay + model * (1 - decay))."""
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        floating = ema_param_list[0].is_floating_point() or ema_param_list[0].is_complex()
        with no_grad():
            for ema, current in zip(ema_param_list, current_param_list, strict=True):
                if floating:
                    ema.lerp_(current, 1 - decay)
                else:
                    ema.copy_(ema * decay + current * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """In place over lists: the equal-weight running mean, avg <- lerp(avg, model, 1 / (n + 1))."""

    def swa_update(averaged_param_list, current_param_list, num_averaged):
        floating = averaged_param_list[0].is_floating_point() or averaged_param_list[0].is_complex()
        # a tensor count makes the weight PyTorch's float32 reciprocal of n + 1
        weight = float(divide(1, num_averaged + 1))
        with no_grad():
            for averaged, current in zip(averaged_param_list, current_param_list, strict=True):
                if floating:
                    averaged.lerp_(current, weight)
                elif hasattr(num_averaged, "item"):
                    averaged.addcdiv_(current - averaged, num_averaged + 1)
                else:
                    averaged.add_(current - averaged, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """One tensor: decay * ema + (1 - decay) * model, returned (AveragedModel copies it in)."""
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """One tensor: the equal-weight running mean avg + (model - avg) / (n + 1), returned."""

    def swa_update(averaged_param, current_param, num_averaged):
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


def _by_dtype(averaged, current):
    """Pairs grouped by dtype in first-seen order, as PyTorch groups them (one device here) for a multi_avg_fn."""
    groups = {}
    for a, c in zip(averaged, current):
        pair = groups.setdefault(a.dtype, ([], []))
        pair[0].append(a)
        pair[1].append(c)
    return list(groups.values())


class AveragedModel(Module):
    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = copy.deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", _factories.tensor(0, dtype=_dtype.int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _tracked(self, model):
        """The (averaged, model) tensor pairs: parameters, and with use_buffers the buffers too."""
        if self.use_buffers:
            return (itertools.chain(self.module.parameters(), self.module.buffers()),
                    itertools.chain(model.parameters(), model.buffers()))
        return self.parameters(), model.parameters()

    def update_parameters(self, model):
        with no_grad():
            mine, theirs = self._tracked(model)
            pairs = [(a.detach(), m.detach()) for a, m in zip(mine, theirs)]
            if bool(self.n_averaged == 0):
                for averaged, current in pairs:
                    averaged.copy_(current)
            if self.n_averaged > 0:
                self._average(pairs)
            if not self.use_buffers:
                for b_averaged, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                    b_averaged.detach().copy_(b_model.detach())
            self.n_averaged += 1

    def _average(self, pairs):
        if self.avg_fn is not None:
            for averaged, current in pairs:
                averaged.copy_(self.avg_fn(averaged, current, self.n_averaged))
            return
        for averaged, current in _by_dtype([a for a, _ in pairs], [c for _, c in pairs]):
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged, current, self.n_averaged)
            else:
                # PyTorch's CPU path (no foreach kernels): the one-tensor SWA function, pair by pair
                average = get_swa_avg_fn()
                for a, c in zip(averaged, current, strict=True):
                    a.copy_(average(a, c, self.n_averaged))


def update_bn(loader, model, device=None):
    """Recompute every BatchNorm's running statistics as a cumulative average over one pass of `loader`."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with no_grad():
        for batch in loader:
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            if device is not None:
                batch = batch.to(device)
            model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr from its value to `swa_lr` ("cos" or "linear"), then hold it there."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        for value, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups, strict=True):
            group["swa_lr"] = value
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        """The lr that annealing by `alpha` toward swa_lr would have turned into `lr`."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def _progress(self, step):
        return max(0, min(1, step / max(1, self.anneal_epochs)))

    def _lrs(self):
        # The current lr is un-annealed by the previous step's alpha and re-annealed by this step's,
        # so a change made to group["lr"] by another scheduler carries through.
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(self._progress(step - 1))
        alpha = self.anneal_func(self._progress(step))
        groups = self.optimizer.param_groups
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha) for group in groups]
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(groups, prev_lrs, strict=True)]

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
