"""optim.NAdam (as torch.optim.NAdam): Adam with Nesterov momentum; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
The momentum coefficient warms up with the step, `mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))`;
the state keeps the running product of the `mu_t` (a float32 0-dim tensor, like `step`) and the
update mixes the current gradient with the look-ahead of the first moment.
`decoupled_weight_decay=True` shrinks the parameter instead of growing the gradient (NAdamW).
"""
from .. import _functions_foreach as _foreach
from .optimizer import (Optimizer, capturable, check_adam_hyperparameters, decayed, foreach_prologue, get_value,
                        scalar_state, zeros_state)


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False, differentiable=False):
        check_adam_hyperparameters(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = scalar_state()
            state["mu_product"] = scalar_state(1.0)
            state["exp_avg"] = zeros_state(param)
            state["exp_avg_sq"] = zeros_state(param)
        return state

    def _update(self, param, group):
        beta1, beta2 = group["betas"]
        lr, momentum_decay = group["lr"], group["momentum_decay"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        exp_avg, exp_avg_sq, mu_product, step_t = (state[k] for k in ("exp_avg", "exp_avg_sq", "mu_product", "step"))
        step_t += 1
        step = step_t if capturable(group) else get_value(step_t)
        bias_correction2 = 1 - beta2**step
        grad = decayed(group, param, grad)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        if capturable(group):
            denom = denom.add(group["eps"])
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            param.addcdiv_(grad, denom)
            param.addcdiv_(exp_avg, denom)
        else:
            # The scalar factors are Python floats computed left to right, as PyTorch writes them.
            mu_product_next = get_value(mu_product) * mu_next
            denom.add_(group["eps"])
            param.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - get_value(mu_product)))
            param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor NAdam, op for op (its _foreach_* ops over the group's parameters)."""
        beta1, beta2 = group["betas"]
        lr, momentum_decay = group["lr"], group["momentum_decay"]
        exp_avgs, exp_avg_sqs, mu_products, steps = (
            [self.state[p][k] for p in params] for k in ("exp_avg", "exp_avg_sq", "mu_product", "step"))
        grads = foreach_prologue(group, params, steps)
        _foreach._foreach_lerp_(exp_avgs, grads, 1 - beta1)
        _foreach._foreach_mul_(exp_avg_sqs, beta2)
        _foreach._foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
        exp_avg_sq_sqrt = _foreach._foreach_sqrt(exp_avg_sqs)
        if capturable(group):
            exponent = _foreach._foreach_mul(steps, momentum_decay)
            mus = _foreach._foreach_pow(0.96, exponent)
            _foreach._foreach_mul_(mus, -0.5)
            _foreach._foreach_add_(mus, 1.0)
            _foreach._foreach_mul_(mus, beta1)
            _foreach._foreach_add_(exponent, momentum_decay)
            mu_nexts = _foreach._foreach_pow(0.96, exponent)
            _foreach._foreach_mul_(mu_nexts, -0.5)
            _foreach._foreach_add_(mu_nexts, 1.0)
            _foreach._foreach_mul_(mu_nexts, beta1)
            bias_correction_sqrt = _foreach._foreach_pow(beta2, steps)
            _foreach._foreach_sub_(bias_correction_sqrt, 1.0)
            _foreach._foreach_neg_(bias_correction_sqrt)
            _foreach._foreach_sqrt_(bias_correction_sqrt)
        else:
            bias_correction_sqrt = [(1 - beta2 ** step.item()) ** 0.5 for step in steps]
            mus = [beta1 * (1.0 - 0.5 * (0.96 ** (step.item() * momentum_decay))) for step in steps]
            mu_nexts = [beta1 * (1.0 - 0.5 * (0.96 ** ((step.item() + 1) * momentum_decay))) for step in steps]
        _foreach._foreach_mul_(mu_products, mus)
        _foreach._foreach_div_(exp_avg_sq_sqrt, bias_correction_sqrt)
        _foreach._foreach_add_(exp_avg_sq_sqrt, group["eps"])
        if capturable(group):
            _foreach._foreach_sub_(mus, 1.0)
            _foreach._foreach_mul_(mus, lr)
            denom = _foreach._foreach_sub(mu_products, 1.0)
            _foreach._foreach_neg_(denom)
            _foreach._foreach_div_(mus, denom)
            denom = _foreach._foreach_mul(mu_products, mu_nexts)
            _foreach._foreach_mul_(mu_nexts, lr)
            _foreach._foreach_sub_(denom, 1.0)
            _foreach._foreach_div_(mu_nexts, denom)
            numerator = _foreach._foreach_mul(mus, grads)
            _foreach._foreach_addcmul_(numerator, mu_nexts, exp_avgs)
            _foreach._foreach_addcdiv_(params, numerator, exp_avg_sq_sqrt)
        else:
            step_size_grads = [(lr * (1.0 - mu) / (1.0 - mu_product.item())) * -1
                               for mu_product, mu in zip(mu_products, mus)]
            step_size_exp_avgs = [(lr * mu_next / (1.0 - mu_product.item() * mu_next)) * -1
                                  for mu_product, mu_next in zip(mu_products, mu_nexts)]
            _foreach._foreach_addcdiv_(params, grads, exp_avg_sq_sqrt, step_size_grads)
            _foreach._foreach_addcdiv_(params, exp_avgs, exp_avg_sq_sqrt, step_size_exp_avgs)
