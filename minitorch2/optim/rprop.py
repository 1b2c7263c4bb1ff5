"""optim.Rprop (as torch.optim.Rprop): resilient backpropagation; PyTorch's single-tensor update, op for op.

Coverage surface (outside the lesson): third-party training scripts construct it by name.
Only the gradient's sign is used. Each element keeps its own step size: it grows by `etaplus`
while the sign holds, shrinks by `etaminus` when it flips (and that element then skips its
update, its remembered gradient zeroed), clamped to `step_sizes`.
"""
from .. import _factories, _functions
from .. import _functions_foreach as _foreach
from .optimizer import Optimizer, capturable, scalar_state, zeros_state


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
        prev, step_size, step_t = state["prev"], state["step_size"], state["step"]
        step_t += 1
        sign = grad.mul(prev).sign()
        if capturable(group):
            sign.copy_(_functions.where(sign.gt(0), etaplus, sign))
            sign.copy_(_functions.where(sign.lt(0), etaminus, sign))
            sign.copy_(_functions.where(sign.eq(0), 1, sign))
        else:
            sign[sign.gt(0)] = etaplus
            sign[sign.lt(0)] = etaminus
            sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        if capturable(group):
            grad.copy_(_functions.where(sign.eq(etaminus), 0, grad))
        else:
            grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor Rprop, op for op (its _foreach_* ops over the group's parameters); the
        remembered gradients (`prev`) are the ones the update zeroes and takes the signs of."""
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        grads = [p.grad for p in params]
        prevs, step_sizes, steps = ([self.state[p][k] for p in params] for k in ("prev", "step_size", "step"))
        _foreach._foreach_add_(steps, 1)
        signs = _foreach._foreach_mul(grads, prevs)
        if group["maximize"]:
            _foreach._foreach_neg_(signs)
        _foreach._foreach_copy_(prevs, grads)
        if group["maximize"]:
            _foreach._foreach_neg_(prevs)
        _foreach._foreach_sign_(signs)
        for sign in signs:
            if capturable(group):
                sign.copy_(_functions.where(sign.gt(0), etaplus, sign))
                sign.copy_(_functions.where(sign.lt(0), etaminus, sign))
                sign.copy_(_functions.where(sign.eq(0), 1, sign))
            else:
                sign[sign.gt(0)] = etaplus
                sign[sign.lt(0)] = etaminus
                sign[sign.eq(0)] = 1
        _foreach._foreach_mul_(step_sizes, signs)
        for step_size in step_sizes:
            step_size.clamp_(step_size_min, step_size_max)
        for sign, prev in zip(signs, prevs):
            prev.copy_(_functions.where(sign.eq(etaminus), 0, prev))
        _foreach._foreach_addcmul_(params, [prev.sign() for prev in prevs], step_sizes, value=-1)
