"""optim.RMSprop (as torch.optim.RMSprop): PyTorch's single-tensor update, op for op.

Each parameter keeps a running mean of squared gradients (`square_avg`); the step divides
the gradient by its root. `centered` also tracks the mean gradient and subtracts its square
(a variance estimate); `momentum` accumulates the scaled steps in a buffer.
"""
from .. import _dtype, _factories, _functions
from .. import _functions_foreach as _foreach
from .._tensor import Tensor
from .optimizer import Optimizer, capturable, decayed, foreach_prologue


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        for name, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = _factories.tensor(0.0, dtype=_dtype.float32)
            state["square_avg"] = _functions.clone(_factories.zeros_like(param))
            if group["momentum"] > 0:
                state["momentum_buffer"] = _functions.clone(_factories.zeros_like(param))
            if group["centered"]:
                state["grad_avg"] = _functions.clone(_factories.zeros_like(param))
        return state

    def _update(self, param, group):
        alpha, momentum = group["alpha"], group["momentum"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        step_t = state["step"]
        step_t += 1
        grad = decayed(group, param, grad)
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            state["grad_avg"].lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(state["grad_avg"], state["grad_avg"], value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(group["eps"])
        if momentum > 0:
            state["momentum_buffer"].mul_(momentum).addcdiv_(grad, avg)
            param.add_(state["momentum_buffer"], alpha=-group["lr"])
        else:
            param.addcdiv_(grad, avg, value=-group["lr"])

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor RMSprop, op for op (its _foreach_* ops over the group's parameters)."""
        alpha, momentum, lr = group["alpha"], group["momentum"], group["lr"]
        square_avgs, steps = ([self.state[p][k] for p in params] for k in ("square_avg", "step"))
        grads = foreach_prologue(group, params, steps)
        _foreach._foreach_mul_(square_avgs, alpha)
        _foreach._foreach_addcmul_(square_avgs, grads, grads, value=1 - alpha)
        if group["centered"]:
            grad_avgs = [self.state[p]["grad_avg"] for p in params]
            _foreach._foreach_lerp_(grad_avgs, grads, 1 - alpha)
            avg = _foreach._foreach_addcmul(square_avgs, grad_avgs, grad_avgs, value=-1)
            _foreach._foreach_sqrt_(avg)
        else:
            avg = _foreach._foreach_sqrt(square_avgs)
        _foreach._foreach_add_(avg, group["eps"])
        if momentum > 0:
            bufs = [self.state[p]["momentum_buffer"] for p in params]
            _foreach._foreach_mul_(bufs, momentum)
            _foreach._foreach_addcdiv_(bufs, grads, avg)
            if capturable(group) and isinstance(lr, Tensor):  # (a tensor lr: no .item() in the graph)
                _foreach._foreach_add_(params, _foreach._foreach_mul(bufs, -lr))
            else:
                _foreach._foreach_add_(params, bufs, alpha=-lr)
        elif capturable(group) and isinstance(lr, Tensor):
            _foreach._foreach_div_(avg, -lr)
            _foreach._foreach_addcdiv_(params, grads, avg)
        else:
            _foreach._foreach_addcdiv_(params, grads, avg, value=-lr)
