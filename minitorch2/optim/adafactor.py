"""optim.Adafactor (as torch.optim.Adafactor): PyTorch's single-tensor update, op for op.

Coverage surface. Adafactor keeps, for a matrix (or a stack of them), only a row and a column mean of the
squared gradients over the last two dims, and estimates the full second moment as their outer product over
the rows' mean; a vector keeps the full running mean. The decay 1 - beta2 is step**beta2_decay, the relative
step size min(lr, 1/sqrt(step)) is scaled by the parameter's RMS (at least eps2), and each update is clipped
to RMS d. (foreach=True takes the single-tensor path here: same formulas, not torch's grouped kernels.)
"""
from .. import _factories, _functions
from .._type_info import finfo
from .optimizer import Optimizer, get_value, scalar_state


class Adafactor(Optimizer):
    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _init_state(self, param, group):
        if param.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        state = self.state[param]
        if not state:
            state["step"] = scalar_state()
            if param.grad.dim() > 1:
                state["row_var"] = param.grad.new_zeros([*param.grad.shape[:-1], 1])
                state["col_var"] = param.grad.new_zeros([*param.grad.shape[:-2], 1, param.grad.shape[-1]])
            else:
                state["variance"] = _factories.zeros_like(param.grad)
        return state

    def _update(self, param, group):
        state = self._init_state(param, group)
        grad = param.grad if not group["maximize"] else -param.grad
        lr, eps1, eps2 = group["lr"], *group["eps"]
        if eps1 is None:  # torch's loop sets it once, from the group's first parameter with a gradient
            eps1 = finfo(next(p for p in group["params"] if p.grad is not None).dtype).eps
        step_t = state["step"]
        step_t += 1
        step = get_value(step_t)
        one_minus_beta2 = step ** group["beta2_decay"]
        rho = min(lr, 1 / (step ** 0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho
        if group["weight_decay"] != 0:
            param.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(_functions.norm(grad, dim=-1, keepdim=True).square_().div_(grad.shape[-1]), one_minus_beta2)
            col_var.lerp_(_functions.norm(grad, dim=-2, keepdim=True).square_().div_(grad.shape[-2]), one_minus_beta2)
            estimate = row_var @ col_var
            estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2)
            estimate = state["variance"].clone()
        update = estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denominator = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        param.add_(update, alpha=-alpha / denominator)
