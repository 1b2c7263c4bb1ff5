"""optim.Adagrad (as torch.optim.Adagrad): PyTorch's single-tensor update, op for op.

Each parameter accumulates the sum of its squared gradients from `initial_accumulator_value`
on; the step divides the gradient by the sum's root, with the learning rate decayed as
`lr / (1 + (step - 1) * lr_decay)`. As in PyTorch the state is created in the constructor.
"""
from .. import _dtype, _factories, _functions
from .. import _functions_foreach as _foreach
from .optimizer import Optimizer, decayed, foreach_prologue, get_value


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay), ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value), ("epsilon value", eps)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, group["initial_accumulator_value"])

    def _init_state(self, param, initial_value):
        state = self.state[param]
        if not state:
            state["step"] = _factories.tensor(0.0, dtype=_dtype.float32)
            state["sum"] = _functions.clone(_factories.full_like(param, initial_value))
        return state

    def _init_group(self, group):
        """Nothing: the state is made in the constructor (a parameter added later gets it in its first update)."""

    def _update(self, param, group):
        # Parameters added after construction start from the optimizer's default, as in PyTorch.
        state = self._init_state(param, self.defaults["initial_accumulator_value"])
        step_t = state["step"]
        step_t += 1
        step = get_value(step_t)
        grad = param.grad if not group["maximize"] else -param.grad
        grad = decayed(group, param, grad)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state["sum"].addcmul_(grad, grad, value=1)
        std = state["sum"].sqrt().add_(group["eps"])
        param.addcdiv_(grad, std, value=-clr)

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor Adagrad, op for op (its _foreach_* ops over the group's parameters)."""
        lr, weight_decay = group["lr"], group["weight_decay"]
        state_sums, steps = ([self.state[p][k] for p in params] for k in ("sum", "step"))
        grads = foreach_prologue(group, params, steps)
        minus_clr = [-lr / (1 + (get_value(step) - 1) * group["lr_decay"]) for step in steps]
        _foreach._foreach_addcmul_(state_sums, grads, grads, value=1)
        std = _foreach._foreach_sqrt(state_sums)
        _foreach._foreach_add_(std, group["eps"])
        if weight_decay != 0 or group["maximize"]:
            _foreach._foreach_mul_(grads, minus_clr)
            numerator = grads
        else:
            numerator = _foreach._foreach_mul(grads, minus_clr)
        _foreach._foreach_addcdiv_(params, numerator, std)
