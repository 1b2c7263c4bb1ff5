"""optim.Adamax (as torch.optim.Adamax): Adam with the infinity norm; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Instead of a running mean of squared gradients, each parameter keeps `exp_inf`, a decaying
maximum of gradient magnitudes; only the first moment is bias-corrected.
"""
from .. import _functions
from .. import _functions_foreach as _foreach
from .optimizer import (Optimizer, capturable, check_adam_hyperparameters, decayed, foreach_prologue, get_value,
                        scalar_state, zeros_state)


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *, maximize=False,
                 differentiable=False, capturable=False):
        check_adam_hyperparameters(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = scalar_state()
            state["exp_avg"] = zeros_state(param)
            state["exp_inf"] = zeros_state(param)
        return state

    def _update(self, param, group):
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        exp_avg, exp_inf, step_t = state["exp_avg"], state["exp_inf"], state["step"]
        step_t += 1
        grad = decayed(group, param, grad)
        exp_avg.lerp_(grad, 1 - beta1)
        _functions.maximum(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]), out=exp_inf)
        if capturable(group):
            neg_bias_correction = beta1**step_t - 1
            neg_bias_correction.div_(lr)
            param.addcdiv_(exp_avg, exp_inf * neg_bias_correction)
        else:
            bias_correction = 1 - beta1 ** get_value(step_t)
            param.addcdiv_(exp_avg, exp_inf, value=-(lr / bias_correction))

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor Adamax, op for op (its _foreach_* ops over the group's parameters)."""
        beta1, beta2 = group["betas"]
        lr, weight_decay, maximize = group["lr"], group["weight_decay"], group["maximize"]
        exp_avgs, exp_infs, steps = ([self.state[p][k] for p in params] for k in ("exp_avg", "exp_inf", "step"))
        grads = foreach_prologue(group, params, steps)
        _foreach._foreach_lerp_(exp_avgs, grads, 1 - beta1)
        _foreach._foreach_mul_(exp_infs, beta2)
        if not maximize and weight_decay == 0:
            grads = _foreach._foreach_abs(grads)  # (the gradients themselves are not to change)
        else:
            _foreach._foreach_abs_(grads)
        _foreach._foreach_add_(grads, group["eps"])
        _foreach._foreach_maximum_(exp_infs, grads)
        if capturable(group):
            bias_corrections = _foreach._foreach_pow(beta1, steps)
            _foreach._foreach_sub_(bias_corrections, 1)
            _foreach._foreach_div_(bias_corrections, lr)
            denom = _foreach._foreach_mul(exp_infs, bias_corrections)
            _foreach._foreach_addcdiv_(params, exp_avgs, denom)
        else:
            step_size = [(lr / (1 - beta1 ** get_value(step))) * -1 for step in steps]
            _foreach._foreach_addcdiv_(params, exp_avgs, exp_infs, step_size)
