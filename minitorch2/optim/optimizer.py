"""optim.Optimizer (as torch.optim.Optimizer): param groups, per-parameter state, state dicts.

Runtime layer. Subclasses implement `_update(param, group)` with PyTorch's single-tensor
update formulas (the path PyTorch takes for CPU tensors), op for op, so
parameters track PyTorch's over many steps within float32 rounding. The helpers below are what
the optimizers share: the Adam family's checks, float32 scalar state, zeroed moment buffers,
PyTorch's rounding of `scalar / tensor`, and the prologue of the multi-tensor (foreach) updates.
"""
import warnings
from collections import defaultdict

from .. import _dtype, _factories, _functions
from .. import _functions_foreach as _foreach
from .._compile_markers import graph_break, is_compiling
from .._functions_extra import typename
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def check_adam_hyperparameters(lr, eps, betas, weight_decay):
    """The checks (and messages) every Adam-family constructor makes."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def scalar_state(value=0.0):
    """A per-parameter scalar (`step`, NAdam's `mu_product`, ASGD's `eta`): a float32 0-dim tensor, as PyTorch's."""
    if isinstance(value, Tensor):  # (a tensor lr: copied, as torch.as_tensor(lr).clone())
        return value.detach().clone().to(_dtype.float32)
    return _factories.tensor(value, dtype=_dtype.float32)


def divide(numerator, denominator):
    """`numerator / denominator` as PyTorch computes it: `scalar / tensor` is `tensor.reciprocal() * scalar`."""
    if isinstance(denominator, Tensor) and not isinstance(numerator, Tensor):
        return denominator.reciprocal() * numerator
    return numerator / denominator


def get_value(x):
    """torch.optim's _get_value: a 0-dim state tensor's number eagerly; the tensor itself while compiling (so the
    arithmetic on it is traced into the step's graph)."""
    return x if is_compiling() else x.item()


def capturable(group):
    """A group's `capturable` as the update reads it: Dynamo's OptimizerVariable reads it as True in every traced
    group that has the key (its updates then keep step counts and bias corrections as tensors)."""
    return "capturable" in group and (group["capturable"] or is_compiling())


def zeros_state(param):
    return _functions.clone(_factories.zeros_like(param))


def decayed(group, param, grad):
    """`weight_decay` in a single-tensor update: with `decoupled_weight_decay` the parameter shrinks (AdamW's way);
    otherwise `weight_decay * param` is added to the gradient. Returns the gradient the update is to use."""
    decay = group["weight_decay"]
    if decay != 0 and group.get("decoupled_weight_decay"):
        param.mul_(1 - group["lr"] * decay)
    elif decay != 0:
        grad = grad.add(param, alpha=decay)
    return grad


def foreach_prologue(group, params, steps=None, *, steps_first=False, weight_decay=True):
    """The start of torch's multi-tensor updates: the group's gradients, negated under `maximize`, each step count
    raised by one (before the negation where `steps_first`: RAdam's and Adadelta's order), then the weight decay
    (`foreach_weight_decay`; RAdam does it later). Returns the gradients the update is to use."""
    grads = [p.grad for p in params]
    if steps_first:
        _foreach._foreach_add_(steps, 1)
    if group["maximize"]:
        grads = _foreach._foreach_neg(grads)
    if steps is not None and not steps_first:
        _foreach._foreach_add_(steps, 1)
    return foreach_weight_decay(group, params, grads) if weight_decay else grads


def foreach_weight_decay(group, params, grads):
    """`weight_decay` in torch's multi-tensor updates: with `decoupled_weight_decay` the parameters shrink; otherwise
    `weight_decay * param` is added to the gradients (in place when they are already the negated copies)."""
    decay = group["weight_decay"]
    if decay == 0:
        return grads
    if group.get("decoupled_weight_decay"):
        _foreach._foreach_mul_(params, 1 - group["lr"] * decay)
    elif group["maximize"]:
        _foreach._foreach_add_(grads, params, alpha=decay)
    else:
        grads = _foreach._foreach_add(grads, params, alpha=decay)
    return grads


def _copy_state_value(value):
    """Tensors are cloned; lists, tuples and dicts (LBFGS's history) are rebuilt around copies, as PyTorch does."""
    if isinstance(value, Tensor):
        return value.clone()
    if isinstance(value, dict):
        return {k: _copy_state_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_copy_state_value(v) for v in value)
    return value


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                            + params.type())
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group):
        """Checks and completes `group` in place (torch's order of keys: a named group's "param_names" follows the
        keys it came with, then each default it lacks), then appends it."""
        if not isinstance(group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(group)}")
        params = group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        group["params"] = [params] if isinstance(params, Tensor) else list(params)
        named = [p for p in group["params"] if isinstance(p, tuple)]
        if named and len(named) != len(group["params"]):
            raise ValueError("all optimizer params should be with/without names. Some param names are missing")
        if named:
            group["params"], group["param_names"] = [p for _, p in named], [name for name, _ in named]
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not self.defaults.get("differentiable") and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            group.setdefault(name, default)
        if len({id(p) for p in group["params"]}) != len(group["params"]):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        for other in self.param_groups:
            if ("param_names" in group) != ("param_names" in other):
                raise ValueError("all optimizer param groups should be with/without names. cannot add param group "
                                 f"{'with' if 'param_names' in group else 'without'} names to the optimizer")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    p.grad = p.grad.detach()
                    p.grad.zero_()

    zero_grad._torchdynamo_disable = True  # torch.optim's zero_grad is @torch._disable_dynamo: a call is a break
    def state_dict(self):
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            ids = []
            for p in group["params"]:
                index.setdefault(id(p), len(index))
                ids.append(index[id(p)])
            packed["params"] = ids
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        params = [p for g in self.param_groups for p in g["params"]]
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
            for k, v in saved.items():
                if k != "params":
                    mine[k] = v
        self.state = defaultdict(dict)
        for i, s in state_dict["state"].items():
            self.state[params[i]] = {k: _copy_state_value(v) for k, v in s.items()}

    def __repr__(self):
        lines = [self.__class__.__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines += [""] * (i > 0) + [f"Parameter Group {i}"]  # (torch's groups are a blank line apart)
            for key in sorted(group):
                if key != "params":
                    lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)

    def step(self, closure=None):
        loss = self._run_closure(closure)
        self._step_without_grad()
        return loss

    def _step_without_grad(self):
        """torch's _use_grad_for_differentiable, whose graph breaks split a compiled step where torch's split: the
        frame calling this breaks at the call; this one (a break in a try block) runs eagerly, and the updates are a
        frame of their own, compiled under no_grad."""
        grad_enabled = is_grad_enabled()
        try:
            set_grad_enabled(False)
            graph_break()
            self._apply_updates()
        finally:
            graph_break()
            set_grad_enabled(grad_enabled)

    def _apply_updates(self):
        for group in self.param_groups:
            self._init_group(group)
            if group.get("capturable") and not is_compiling() and any(p.grad is not None for p in group["params"]):
                raise AssertionError("If capturable=True, params and state_steps must be on supported devices: "
                                     "['cuda', 'xpu', 'hpu', 'privateuseone'].")  # (this library's tensors: CPU)
            if group.get("foreach"):
                self._foreach_update(group, [p for p in group["params"] if p.grad is not None])
                continue
            for p in group["params"]:
                if p.grad is not None:
                    self._update(p, group)

    def _init_group(self, group):
        """Create the state of the group's parameters that have a gradient; a compiled step runs it outside the
        graph (as Dynamo's OptimizerVariable runs torch's _init_group), so the state is an input of the graph."""
        for p in group["params"]:
            if p.grad is not None:
                self._init_state(p, group)

    def _init_state(self, param, group):
        """One parameter's state, made on its first step (each optimizer's buffers)."""
        return self.state[param]

    def _update(self, param, group):
        """One parameter's update: each optimizer's formula."""
        raise NotImplementedError

    def _foreach_update(self, group, params):
        """foreach=True: torch's multi-tensor update (its _foreach_* ops over the group's parameters), where an
        optimizer models it; otherwise the single-tensor updates."""
        for p in params:
            self._update(p, group)

    @staticmethod
    def _run_closure(closure):
        if closure is None:
            return None
        with enable_grad():
            return closure()


__all__ = ["Optimizer", "required", "check_adam_hyperparameters", "divide", "scalar_state",
           "zeros_state", "get_value", "capturable", "foreach_prologue", "foreach_weight_decay", "decayed"]
