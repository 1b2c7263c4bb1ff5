"""optim.Adadelta (as torch.optim.Adadelta): PyTorch's single-tensor update, op for op.

Two running means per parameter: of squared gradients (`square_avg`) and of squared updates
(`acc_delta`); the update is the gradient scaled by the ratio of their roots, so the step size
adapts without a global rate (`lr` only scales the result, 1.0 by default).
"""
from .. import _dtype, _factories, _functions
from .. import _functions_foreach as _foreach
from .._tensor import Tensor
from .optimizer import Optimizer, capturable, decayed, foreach_prologue


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = _factories.tensor(0.0, dtype=_dtype.float32)
            state["square_avg"] = _functions.clone(_factories.zeros_like(param))
            state["acc_delta"] = _functions.clone(_factories.zeros_like(param))
        return state

    def _update(self, param, group):
        rho, eps = group["rho"], group["eps"]
        state = self._init_state(param, group)
        step_t = state["step"]
        step_t += 1
        grad = param.grad if not group["maximize"] else -param.grad
        grad = decayed(group, param, grad)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-group["lr"])

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor Adadelta, op for op (its _foreach_* ops over the group's parameters)."""
        rho, eps = group["rho"], group["eps"]
        square_avgs, acc_deltas, steps = (
            [self.state[p][k] for p in params] for k in ("square_avg", "acc_delta", "step"))
        grads = foreach_prologue(group, params, steps, steps_first=True)
        _foreach._foreach_mul_(square_avgs, rho)
        _foreach._foreach_addcmul_(square_avgs, grads, grads, value=1 - rho)
        std = _foreach._foreach_add(square_avgs, eps)
        _foreach._foreach_sqrt_(std)
        deltas = _foreach._foreach_add(acc_deltas, eps)
        _foreach._foreach_sqrt_(deltas)
        _foreach._foreach_div_(deltas, std)
        _foreach._foreach_mul_(deltas, grads)
        _foreach._foreach_mul_(acc_deltas, rho)
        _foreach._foreach_addcmul_(acc_deltas, deltas, deltas, value=1 - rho)
        if capturable(group) and isinstance(group["lr"], Tensor):  # (a tensor lr: no .item() in the graph)
            _foreach._foreach_mul_(deltas, -group["lr"])
            _foreach._foreach_add_(params, deltas)
        else:
            _foreach._foreach_add_(params, deltas, alpha=-group["lr"])
