"""optim.RMSprop (as torch.optim.RMSprop): PyTorch's single-tensor update, op for op.

Each parameter keeps a running mean of squared gradients (`square_avg`); the step divides
the gradient by its root. `centered` also tracks the mean gradient and subtracts its square
(a variance estimate); `momentum` accumulates the scaled steps in a buffer.
"""
from .. import _dtype, _factories, _functions
from .optimizer import Optimizer


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
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
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
