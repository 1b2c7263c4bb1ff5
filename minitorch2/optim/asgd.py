"""optim.ASGD (as torch.optim.ASGD): averaged SGD; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Each parameter steps with its own decaying rate `eta = lr / (1 + lambd * lr * t) ** alpha` (after
shrinking by `1 - lambd * eta`), and `ax` keeps the running average of the iterates once
`t > t0` (before that, `mu == 1` and `ax` just copies the parameter). `eta` and `mu` live in the
state as float32 0-dim tensors, so the rate is rounded to float32 as in PyTorch.
"""
from .. import _factories, _functions
from .optimizer import Optimizer, capturable, get_value, scalar_state, zeros_state


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
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
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
