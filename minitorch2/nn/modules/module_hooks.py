"""Module hooks: their registration (forward, forward-pre, full backward, backward-pre) and the full backward hooks'
machinery, as torch.nn.Module's.

Runtime layer, coverage surface. Module.__call__ (module.py) runs the forward hooks around `forward`; here is what
registers them, what makes backward hooks possible, and `call_with_hooks`, Module.__call__ with each function it
calls passed through a `frame` (torch.compile(a user's module) compiles each as a frame of its own). A module with full backward hooks passes its inputs, before
forward, and its outputs, after, through `BackwardHookFunction`, an identity autograd Function: in the backward, the
outputs' node sees the gradients of the outputs first (backward-pre hooks may replace them), then the inputs' node
sees the gradients of the inputs, and calls each hook with (module, grad_input, grad_output), as torch's
BackwardHook does. A hook returning a tuple replaces grad_input.

The state-dict hooks (state_dict's pre and post hooks, load_state_dict's pre and post hooks, and torch's private
spellings of them that HF transformers registers) live in dicts made on first use; state_dict and load_state_dict
(module_more.py) call them in torch's order.
"""
from collections import OrderedDict

from ..._tensor import Tensor
from ...autograd.function import Function
from ...utils.hooks import RemovableHandle


def call_with_hooks(module, args, kwargs, frame):
    """module(*args, **kwargs) as Module.__call__ runs it, each pre-hook, forward and each hook called as `frame(fn)`.

    frontend/eval_frame.py passes the compiler: Dynamo skips Module.__call__'s own frame (torch/nn is not traced from
    the top) and catches the frames it calls, so a user module's forward and each hook are compiled apart."""
    from . import module as module_py  # (an import cycle: module.py imports this one)
    for key, hook in (*module_py._global_forward_pre_hooks.items(), *module._forward_pre_hooks.items()):
        with_kwargs = key in module._forward_pre_hooks_with_kwargs  # (such a hook returns args and kwargs)
        result = frame(hook)(module, args, kwargs) if with_kwargs else frame(hook)(module, args)
        if result is not None:
            args, kwargs = result if with_kwargs else (result if isinstance(result, tuple) else (result,), kwargs)
    backward_hooks = BackwardHooks(module) if module._backward_hooks or module._backward_pre_hooks else None
    if backward_hooks:  # (the inputs and outputs pass through a node that calls the hooks)
        args = backward_hooks.setup_input(args)
    output = frame(module.forward)(*args, **kwargs)
    for key, hook in (*module_py._global_forward_hooks.items(), *module._forward_hooks.items()):
        with_kwargs = key in module._forward_hooks_with_kwargs
        result = frame(hook)(module, args, kwargs, output) if with_kwargs else frame(hook)(module, args, output)
        if result is not None:
            output = result
    return backward_hooks.setup_output(output) if backward_hooks else output


class ModuleHooks:
    """The register_*_hook methods of nn.Module."""

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output), or with_kwargs=True: hook(module, args, kwargs, output)."""
        return RemovableHandle(self._forward_hooks, hook, prepend,
                               self._forward_hooks_with_kwargs if with_kwargs else None)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args), or with_kwargs=True: hook(module, args, kwargs), returning None or (args, kwargs)."""
        return RemovableHandle(self._forward_pre_hooks, hook, prepend,
                               self._forward_pre_hooks_with_kwargs if with_kwargs else None)

    def register_full_backward_hook(self, hook, prepend=False):
        if self.__dict__.get("_non_full_backward_hooks"):
            raise RuntimeError(_BOTH_BACKWARD_HOOKS)
        return RemovableHandle(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """The deprecated non-full backward hook: hook(module, grad_input, grad_output) gets the gradients of the
        autograd node that made the module's (first) output, not those of the module's inputs, as torch's; a
        forward hook hangs it on that node."""
        if self._backward_hooks:
            raise RuntimeError(_BOTH_BACKWARD_HOOKS)
        if "_non_full_backward_hooks" not in self.__dict__:
            self.register_forward_hook(_attach_non_full_backward_hooks)
        return RemovableHandle(self._state_hooks("_non_full_backward_hooks"), hook)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        return RemovableHandle(self._backward_pre_hooks, hook, prepend)

    def _state_hooks(self, kind):
        """The module's dict of `kind` hooks (torch's attribute names), made on first use."""
        return self.__dict__.setdefault(kind, OrderedDict())

    _state_dict_pre_hooks = property(lambda self: self._state_hooks("_state_dict_pre_hooks"))
    _state_dict_hooks = property(lambda self: self._state_hooks("_state_dict_hooks"))
    _load_state_dict_pre_hooks = property(lambda self: self._state_hooks("_load_state_dict_pre_hooks"))
    _load_state_dict_post_hooks = property(lambda self: self._state_hooks("_load_state_dict_post_hooks"))

    def register_state_dict_pre_hook(self, hook):
        """hook(module, prefix, keep_vars), before state_dict saves this module's entries."""
        return RemovableHandle(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata), after; it must return None (it edits in place)."""
        hook._from_public_api = True  # (as torch: state_dict then requires it to return None)
        return RemovableHandle(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook):
        """torch's private form of the post hook: a dict it returns replaces the state dict."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook that was previously "
                               "registered via register_state_dict_post_hook")
        return RemovableHandle(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs), before
        this module's entries load; it may rename or add keys of state_dict."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """torch's private form: hook(state_dict, prefix, ...) without the module unless with_module."""
        module = self

        def call(*args):
            return hook(module, *args) if with_module else hook(*args)
        return RemovableHandle(self._load_state_dict_pre_hooks, call)

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) after load_state_dict loads this module and those under it; it may
        empty incompatible_keys' lists in place (then strict loading doesn't fail on them)."""
        return RemovableHandle(self._load_state_dict_post_hooks, hook)



_BOTH_BACKWARD_HOOKS = ("Cannot use both regular backward hooks and full backward hooks on a single Module. Please use "
                        "only one of them.")


def _attach_non_full_backward_hooks(module, args, output):
    first = output
    while not isinstance(first, Tensor):  # (as torch: the first tensor, through tuples, lists and dict values)
        first = next(iter(first.values())) if isinstance(first, dict) else first[0]
    if first.grad_fn is not None:
        for hook in module._non_full_backward_hooks.values():
            first.grad_fn.register_hook(lambda grad_input, grad_output, hook=hook:
                                        hook(module, grad_input, grad_output))


class BackwardHookFunction(Function):
    """The identity on `tensors`; its backward hands their gradients to `hooks` (a BackwardHooks)."""

    @staticmethod
    def forward(ctx, hooks, stage, *tensors):
        ctx.hooks, ctx.stage = hooks, stage
        outputs = tuple(t.view_as(t) for t in tensors)
        ctx.mark_non_differentiable(*(o for o, t in zip(outputs, tensors) if not t.requires_grad))
        return outputs

    @staticmethod
    def backward(ctx, *grads):
        return (None, None, *ctx.hooks.on_gradients(ctx.stage, grads))


def _tensor_positions(values):
    return [i for i, v in enumerate(values) if isinstance(v, Tensor)]


class BackwardHooks:
    """One forward call's wiring of a module's full backward hooks (torch's torch.utils.hooks.BackwardHook)."""

    def __init__(self, module):
        self.module = module
        self.n_inputs = 0
        self.input_positions = []
        self.grad_outputs = None

    def setup_input(self, args):
        self.n_inputs = len(args)
        positions = _tensor_positions(args)
        if not any(args[i].requires_grad for i in positions):
            return args
        self.input_positions = positions
        return self._wrapped(args, positions, "input")

    def setup_output(self, output):
        single = not isinstance(output, (tuple, list))
        outputs = (output,) if single else tuple(output)
        positions = _tensor_positions(outputs)
        if not any(outputs[i].requires_grad for i in positions):
            return output
        wrapped = self._wrapped(outputs, positions, "output")
        return wrapped[0] if single else type(output)(wrapped)

    def _wrapped(self, values, positions, stage):
        new = BackwardHookFunction.apply(self, stage, *(values[i] for i in positions))
        values = list(values)
        for i, v in zip(positions, new):
            values[i] = v
        return tuple(values)

    def on_gradients(self, stage, grads):
        if stage == "output":
            for hook in self.module._backward_pre_hooks.values():
                result = hook(self.module, grads)
                if result is not None:
                    grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            self.grad_outputs = grads
            if not self.input_positions:  # no input needs a gradient: the hooks get Nones for grad_input now
                self._call_hooks((None,) * self.n_inputs)
            return grads
        grad_inputs = [None] * self.n_inputs
        for i, g in zip(self.input_positions, grads):
            grad_inputs[i] = g
        grad_inputs = self._call_hooks(tuple(grad_inputs))
        return tuple(grad_inputs[i] for i in self.input_positions)

    def _call_hooks(self, grad_inputs):
        for hook in self.module._backward_hooks.values():
            result = hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None:
                result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
                if len(result) != len(grad_inputs):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got {len(result)}, "
                                       f"but expected {len(grad_inputs)}")
                grad_inputs = result
        return grad_inputs
