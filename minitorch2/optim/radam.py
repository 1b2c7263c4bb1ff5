"""optim.RAdam (as torch.optim.RAdam): rectified Adam; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Early on the second moment is too noisy to trust, so while the length of the approximated simple
moving average (`rho_t`) is at most 5 the step is plain momentum SGD on the bias-corrected first
moment; after that it is Adam's step scaled by the variance rectification term.
`decoupled_weight_decay=True` shrinks the parameter instead of growing the gradient (RAdamW).
"""
from .. import _functions
from .. import _functions_foreach as _foreach
from .optimizer import (Optimizer, capturable, check_adam_hyperparameters, decayed, divide, foreach_prologue,
                        foreach_weight_decay, get_value, scalar_state, zeros_state)


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False):
        check_adam_hyperparameters(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = scalar_state()
            state["exp_avg"] = zeros_state(param)
            state["exp_avg_sq"] = zeros_state(param)
        return state

    def _update(self, param, group):
        beta1, beta2 = group["betas"]
        lr, eps = group["lr"], group["eps"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
        step_t += 1
        step = step_t if capturable(group) else get_value(step_t)
        grad = decayed(group, param, grad)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2

        def rect():
            return ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5

        def adaptive_lr():
            exp_avg_sq_sqrt = exp_avg_sq.sqrt().add_(eps)
            return divide(bias_correction2**0.5, exp_avg_sq_sqrt)

        if capturable(group):
            update = _functions.where(rho_t > 5.0, rect() * adaptive_lr(), 1.0)
            param.add_(bias_corrected_exp_avg * lr * update, alpha=-1.0)
        elif rho_t > 5.0:
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr() * rect(), alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor RAdam, op for op (its _foreach_* ops over the group's parameters)."""
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        exp_avgs, exp_avg_sqs, steps = ([self.state[p][k] for p in params] for k in ("exp_avg", "exp_avg_sq", "step"))
        grads = foreach_prologue(group, params, steps, steps_first=True, weight_decay=False)
        rho_inf = 2 / (1 - beta2) - 1
        if capturable(group):
            bias_correction1 = _foreach._foreach_pow(beta2, steps)
            _foreach._foreach_neg_(bias_correction1)
            _foreach._foreach_add_(bias_correction1, 1)
            rho_ts = _foreach._foreach_pow(beta2, steps)
            _foreach._foreach_mul_(rho_ts, steps)
            _foreach._foreach_mul_(rho_ts, 2)
            _foreach._foreach_div_(rho_ts, bias_correction1)
            _foreach._foreach_neg_(rho_ts)
            _foreach._foreach_add_(rho_ts, rho_inf)
        else:
            rho_ts = [rho_inf - 2 * s.item() * (beta2 ** s.item()) / (1 - beta2 ** s.item()) for s in steps]
        grads = foreach_weight_decay(group, params, grads)
        _foreach._foreach_lerp_(exp_avgs, grads, 1 - beta1)
        _foreach._foreach_mul_(exp_avg_sqs, beta2)
        _foreach._foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
        if capturable(group):
            num = _foreach._foreach_sub(rho_ts, 4)
            _foreach._foreach_mul_(num, _foreach._foreach_sub(rho_ts, 2))
            _foreach._foreach_mul_(num, rho_inf)
            _foreach._foreach_div_(num, _foreach._foreach_mul(rho_ts, (rho_inf - 4) * (rho_inf - 2)))
            _foreach._foreach_sqrt_(num)
            rect = [_functions.where(rho_t > 5.0, n, 0.0) for n, rho_t in zip(num, rho_ts)]
            unrect_step_size = [_functions.where(r > 0, 0.0, 1.0) for r in rect]
            _foreach._foreach_mul_(unrect_step_size, lr)
            bias_correction1 = _foreach._foreach_pow(beta1, steps)
            _foreach._foreach_neg_(bias_correction1)
            _foreach._foreach_add_(bias_correction1, 1)
            _foreach._foreach_div_(unrect_step_size, bias_correction1)
            _foreach._foreach_neg_(unrect_step_size)
            bias_correction2 = _foreach._foreach_pow(beta2, steps)
            _foreach._foreach_neg_(bias_correction2)
            _foreach._foreach_add_(bias_correction2, 1)
            _foreach._foreach_sqrt_(bias_correction2)
            _foreach._foreach_mul_(bias_correction2, lr)
            _foreach._foreach_mul_(bias_correction2, rect)
            _foreach._foreach_neg_(bias_correction2)
            _foreach._foreach_div_(bias_correction2, bias_correction1)
        else:
            rect = [((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    if rho_t > 5 else 0 for rho_t in rho_ts]
            bias_correction1 = [1 - beta1 ** s.item() for s in steps]
            unrect_step_size = [(lr * (0 if r > 0 else 1.0) / bc) * -1 for r, bc in zip(rect, bias_correction1)]
            bias_correction2 = [((1 - beta2 ** s.item()) ** 0.5) * (lr * r / bc) * -1
                                for s, r, bc in zip(steps, rect, bias_correction1)]
        buffer = _foreach._foreach_sqrt(exp_avg_sqs)
        _foreach._foreach_add_(buffer, group["eps"])
        _foreach._foreach_div_(buffer, bias_correction2)
        _foreach._foreach_reciprocal_(buffer)
        _foreach._foreach_add_(buffer, unrect_step_size)
        _foreach._foreach_addcmul_(params, exp_avgs, buffer)
