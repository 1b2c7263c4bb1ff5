"""optim.SGD (as torch.optim.SGD): momentum, dampening, Nesterov, weight decay; PyTorch's CPU formulas."""
from .. import _functions_foreach as _foreach
from .._compile_markers import is_compiling
from .._tensor import Tensor
from .optimizer import Optimizer, decayed, foreach_prologue, required


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False,
                 foreach=None, differentiable=False, fused=None):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        """Only with momentum: torch's SGD reads (and so makes) a parameter's state for its buffer alone."""
        return self.state[param] if group["momentum"] != 0 else None

    def _update(self, param, group):
        grad = param.grad if not group["maximize"] else -param.grad
        grad = decayed(group, param, grad)
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad.detach().clone()
                state["momentum_buffer"] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        param.add_(grad, alpha=-group["lr"])

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor SGD, op for op (its _foreach_* ops over the group's parameters)."""
        momentum, lr = group["momentum"], group["lr"]
        grads = foreach_prologue(group, params)
        if momentum != 0:
            bufs = [self.state[p].get("momentum_buffer") for p in params]
            if all(buf is not None for buf in bufs):
                _foreach._foreach_mul_(bufs, momentum)
                _foreach._foreach_add_(bufs, grads, alpha=1 - group["dampening"])
            else:
                for i, p in enumerate(params):
                    if bufs[i] is None:
                        bufs[i] = self.state[p]["momentum_buffer"] = grads[i].detach().clone()
                    else:
                        bufs[i].mul_(momentum).add_(grads[i], alpha=1 - group["dampening"])
            if group["nesterov"]:
                _foreach._foreach_add_(grads, bufs, alpha=momentum)
            else:
                grads = bufs
        if isinstance(lr, Tensor) and is_compiling():  # (a tensor lr: no .item() in the graph)
            _foreach._foreach_add_(params, _foreach._foreach_mul(grads, -lr))
        else:
            _foreach._foreach_add_(params, grads, alpha=-lr)
