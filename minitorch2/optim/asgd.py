"""optim.ASGD (as torch.optim.ASGD): averaged SGD; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Each parameter steps with its own decaying rate `eta = lr / (1 + lambd * lr * t) ** alpha` (after
shrinking by `1 - lambd * eta`), and `ax` keeps the running average of the iterates once
`t > t0` (before that, `mu == 1` and `ax` just copies the parameter). `eta` and `mu` live in the
state as float32 0-dim tensors, so the rate is rounded to float32 as in PyTorch.
"""
from .optimizer import Optimizer, scalar_state, zeros_state


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
        lr, lambd, alpha = group["lr"], group["lambd"], group["alpha"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        eta = state["eta"].item()
        param.mul_(1 - lambd * eta)
        param.add_(grad, alpha=-eta)
        if state["mu"].item() != 1:
            state["ax"].add_(param.sub(state["ax"]).mul_(state["mu"]))
        else:
            state["ax"].copy_(param)
        step = state["step"].item()
        state["eta"].copy_(scalar_state(lr / ((1 + lambd * lr * step) ** alpha)))
        state["mu"].copy_(scalar_state(1 / max(1, step - group["t0"])))
