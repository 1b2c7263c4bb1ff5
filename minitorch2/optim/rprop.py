"""optim.Rprop (as torch.optim.Rprop): resilient backpropagation; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Only the gradient's sign is used. Each element keeps its own step size: it grows by `etaplus`
while the sign holds, shrinks by `etaminus` when it flips (and that element then skips its
update, its remembered gradient zeroed), clamped to `step_sizes`.
"""
from .. import _factories, _functions
from .optimizer import Optimizer, scalar_state, zeros_state


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        state = self.state[param]
        if not state:
            state["step"] = scalar_state()
            state["prev"] = zeros_state(param)
            state["step_size"] = _functions.clone(_factories.full_like(param, group["lr"]))
        return state

    def _update(self, param, group):
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        state["step"].add_(1)
        agreement = grad.mul(state["prev"]).sign()
        flipped = agreement.lt(0)
        factor = _functions.where(agreement.gt(0), etaplus, _functions.where(flipped, etaminus, 1.0))
        state["step_size"].mul_(factor).clamp_(step_size_min, step_size_max)
        grad = _functions.where(flipped, 0.0, grad)
        param.addcmul_(grad.sign(), state["step_size"], value=-1)
        state["prev"].copy_(grad)
