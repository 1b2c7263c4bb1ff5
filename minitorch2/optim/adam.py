"""optim.Adam and optim.AdamW (as torch.optim): PyTorch's single-tensor update, op for op.

AdamW is Adam with decoupled weight decay: the parameter shrinks by
`lr * weight_decay` before the Adam step instead of the gradient growing by
`weight_decay * param`.
"""
from .. import _dtype, _factories, _functions
from .. import _functions_foreach as _foreach
from .._tensor import Tensor
from .optimizer import Optimizer, capturable, check_adam_hyperparameters, decayed, foreach_prologue


class Adam(Optimizer):
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False, fused=None, decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
        check_adam_hyperparameters(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay or self._decoupled)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = _factories.tensor(0.0, dtype=_dtype.float32)
            state["exp_avg"] = _functions.clone(_factories.zeros_like(param))
            state["exp_avg_sq"] = _functions.clone(_factories.zeros_like(param))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _functions.clone(_factories.zeros_like(param))
        return state

    def _update(self, param, group):
        beta1, beta2 = group["betas"]
        lr, eps = group["lr"], group["eps"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        step_t = state["step"]
        step_t += 1
        grad = decayed(group, param, grad)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        if capturable(group):
            self._capturable_update(param, group, state, step_t)
            return
        step = step_t.item()
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        if group["amsgrad"]:
            state["max_exp_avg_sq"].copy_(_functions.maximum(state["max_exp_avg_sq"], exp_avg_sq))
            denom = (state["max_exp_avg_sq"].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor Adam, op for op (its _foreach_* ops over the group's parameters)."""
        (beta1, beta2), lr, eps = group["betas"], group["lr"], group["eps"]
        exp_avgs, exp_avg_sqs, steps = ([self.state[p][k] for p in params] for k in ("exp_avg", "exp_avg_sq", "step"))
        grads = foreach_prologue(group, params, steps)
        _foreach._foreach_lerp_(exp_avgs, grads, 1 - beta1)
        _foreach._foreach_mul_(exp_avg_sqs, beta2)
        _foreach._foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
        if capturable(group):
            step_size, bias_correction2_sqrt = _foreach._foreach_pow(beta1, steps), _foreach._foreach_pow(beta2, steps)
            _foreach._foreach_sub_(step_size, 1)
            _foreach._foreach_sub_(bias_correction2_sqrt, 1)
            _foreach._foreach_neg_(bias_correction2_sqrt)
            _foreach._foreach_div_(step_size, lr)
            _foreach._foreach_reciprocal_(step_size)
            _foreach._foreach_sqrt_(bias_correction2_sqrt)
        else:
            step_size = [(lr / (1 - beta1 ** step.item())) * -1 for step in steps]
            bias_correction2_sqrt = [(1 - beta2 ** step.item()) ** 0.5 for step in steps]
        second_moments = exp_avg_sqs
        if group["amsgrad"]:
            second_moments = [self.state[p]["max_exp_avg_sq"] for p in params]
            _foreach._foreach_maximum_(second_moments, exp_avg_sqs)
        denom = _foreach._foreach_sqrt(second_moments)
        _foreach._foreach_div_(denom, bias_correction2_sqrt)
        _foreach._foreach_add_(denom, eps)
        if capturable(group):
            _foreach._foreach_div_(denom, step_size)
            _foreach._foreach_addcdiv_(params, exp_avgs, denom)
        else:
            _foreach._foreach_addcdiv_(params, exp_avgs, denom, step_size)

    @staticmethod
    def _capturable_update(param, group, state, step_t):
        """The rest of torch's capturable update, op for op: the bias corrections stay 0-dim tensors."""
        (beta1, beta2), lr, eps = group["betas"], group["lr"], group["eps"]
        bias_correction1 = 1 - beta1**step_t
        bias_correction2 = 1 - beta2**step_t
        step_size = lr / bias_correction1
        step_size_neg = step_size.neg()
        bias_correction2_sqrt = bias_correction2.sqrt()
        second_moment = state["exp_avg_sq"]
        if group["amsgrad"]:
            state["max_exp_avg_sq"].copy_(_functions.maximum(state["max_exp_avg_sq"], second_moment))
            second_moment = state["max_exp_avg_sq"]
        denom = (second_moment.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
        param.addcdiv_(state["exp_avg"], denom)


class AdamW(Adam):
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused, decoupled_weight_decay=True)
