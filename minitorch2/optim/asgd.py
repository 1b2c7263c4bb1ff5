"""optim.ASGD (as torch.optim.ASGD): averaged SGD; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Each parameter steps with its own decaying rate `eta = lr / (1 + lambd * lr * t) ** alpha` (after
shrinking by `1 - lambd * eta`), and `ax` keeps the running average of the iterates once
`t > t0` (before that, `mu == 1` and `ax` just copies the parameter). `eta` and `mu` live in the
state as float32 0-dim tensors, so the rate is rounded to float32 as in PyTorch.
"""
from .. import _factories, _functions
from .. import _functions_foreach as _foreach
from .optimizer import Optimizer, capturable, decayed, foreach_prologue, get_value, scalar_state, zeros_state


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None, maximize=False,
                 differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = scalar_state()
            state["eta"] = scalar_state(group["lr"])
            state["mu"] = scalar_state(1.0)
            state["ax"] = zeros_state(param)
        return state

    def _update(self, param, group):
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
        step_t += 1
        grad = decayed(group, param, grad)
        if capturable(group):
            param.mul_(1 - lambd * eta)
            param.addcmul_(grad, eta, value=-1)
        else:
            eta_value = get_value(eta)
            param.mul_(1 - lambd * eta_value)
            param.add_(grad, alpha=-eta_value)
        if capturable(group) or mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        if capturable(group):
            eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
            mu.copy_(1 / _functions.maximum(step_t - t0, _factories.ones_like(step_t)))
        else:
            step = get_value(step_t)
            eta.copy_(_factories.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
            mu.copy_(_factories.as_tensor(1 / max(1, step - t0)))

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor ASGD, op for op (its _foreach_* ops over the group's parameters); its
        parameter step is one addcmul_ of `grad + lambd * param` (the single-tensor update's mul_ and add_ apart)."""
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        axs, mus, etas, steps = ([self.state[p][k] for p in params] for k in ("ax", "mu", "eta", "step"))
        intermediate = foreach_prologue(group, params, steps)
        if group["weight_decay"] != 0:  # (the decayed gradients are a copy already)
            _foreach._foreach_add_(intermediate, params, alpha=lambd)
        else:
            intermediate = _foreach._foreach_add(intermediate, params, alpha=lambd)
        _foreach._foreach_addcmul_(params, intermediate, etas, value=-1)
        _foreach._foreach_addcmul_(axs, _foreach._foreach_sub(params, axs), mus)
        if capturable(group):
            new_mus = _foreach._foreach_sub(steps, t0)
            _foreach._foreach_maximum_(new_mus, 1.0)
            _foreach._foreach_reciprocal_(new_mus)
            _foreach._foreach_copy_(mus, new_mus)
            new_etas = _foreach._foreach_mul(steps, lambd)
            _foreach._foreach_mul_(new_etas, lr)
            _foreach._foreach_add_(new_etas, 1)
            _foreach._foreach_pow_(new_etas, alpha)
            _foreach._foreach_reciprocal_(new_etas)
            _foreach._foreach_mul_(new_etas, lr)
            _foreach._foreach_copy_(etas, new_etas)
        else:
            new_etas = [_factories.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)) for step in steps]
            _foreach._foreach_copy_(etas, new_etas)
            _foreach._foreach_copy_(mus, [_factories.as_tensor(1 / max(1, get_value(step) - t0)) for step in steps])
