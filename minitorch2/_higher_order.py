"""torch.ops.higher_order.autograd_function_apply: a custom autograd.Function as a graph captured it; and
torch.ops.higher_order.tag_activation_checkpoint: a torch.utils.checkpoint call as a graph captured it.

Runtime layer. When a compiled frame calls `MyFn.apply(x, y)`, the frontend (frontend/variables/higher_order.py)
does not record the call: it traces MyFn.forward into one small graph (`fwd_body_0`) and MyFn.backward into another
(`bwd_body_0`), and records one call of this operator on them:

    fwd_body(*inputs)                 -> ((outputs...), (values the backward reads...))
    bwd_body(*grads, *saved values)   -> one gradient (or None) per input of fwd_body

Called, it is a fresh autograd.Function whose forward runs fwd_body and whose backward runs bwd_body, so the eager
engine, AOT's tracer (which records the ops the bodies run, forward and backward) and every backend need nothing
else. The one idea to hold: the user's Function disappears; its two bodies are graphs, run by fx's Interpreter.

`checkpoint(fn, *args, use_reentrant=False)` in a compiled frame is captured the same way with one body
(`wrap_body_0`, frontend/variables/checkpoint_hop.py): fn traced, its outputs a tuple. Called, the operator runs
that body through torch.utils.checkpoint itself (non-reentrant, as torch's implementation does whatever the flag),
so its intermediates are recomputed in the backward and the values and gradients are eager checkpoint's. Under a
dispatch mode (AOT's tracer) the body just runs: its ops, dropout's mask included, are recorded once into the joint
graph, as torch's tracer records them (torch tags them to be recomputed; here the partitioner decides alone).
"""
import types

from ._dispatch import current_modes
from ._ops import ops
from .autograd.function import Function
from .autograd.grad_mode import state
from .fx import Interpreter
from .fx._spelling import register_spelling
from .utils.checkpoint import checkpoint


class AutogradFunctionApply:
    """The operator; `non_differentiable_idx` and `dirty_idx` name the outputs mark_non_differentiable and mark_dirty
    marked (saved_for_backward_idx, which saved values save_for_backward was given, matters to no check here)."""

    __name__ = "autograd_function_apply"

    def __call__(self, fwd_body, bwd_body, *args, non_differentiable_idx, saved_for_backward_idx, dirty_idx=()):
        class ApplyTemplate(Function):
            @staticmethod
            def forward(ctx, *inputs):
                outputs, ctx.saved_values = _run_body(fwd_body, *inputs)
                ctx.mark_non_differentiable(*[outputs[i] for i in non_differentiable_idx])
                ctx.mark_dirty(*[outputs[i] for i in dirty_idx])
                return tuple(outputs)

            @staticmethod
            def backward(ctx, *grads):
                return _run_body(bwd_body, *grads, *ctx.saved_values)

        return ApplyTemplate.apply(*args)

    def __repr__(self):
        return "torch.ops.higher_order.autograd_function_apply"


def _run_body(body, *args):
    """A body leaves grad mode as it found it (its last node switches it back on, as Dynamo records the block)."""
    grad_enabled = state.grad_enabled
    try:
        return tuple(Interpreter(body).run(*args))
    finally:
        state.grad_enabled = grad_enabled


class TagActivationCheckpoint:
    """The operator; its keyword arguments are checkpoint's own (use_reentrant, preserve_rng_state, ...)."""

    __name__ = "tag_activation_checkpoint"

    def __call__(self, body, *args, **kwargs):
        if current_modes():  # traced (AOT's tracer): the body's ops recorded once, forward and backward, as torch's
            return _run_body(body, *args)
        kwargs["use_reentrant"] = False
        return checkpoint(lambda *inputs: _run_body(body, *inputs), *args, **kwargs)

    def __repr__(self):
        return "torch.ops.higher_order.tag_activation_checkpoint"


autograd_function_apply, tag_activation_checkpoint = AutogradFunctionApply(), TagActivationCheckpoint()
ops.higher_order = types.SimpleNamespace(autograd_function_apply=autograd_function_apply,
                                         tag_activation_checkpoint=tag_activation_checkpoint)
register_spelling("torch.ops.higher_order.autograd_function_apply", autograd_function_apply)
register_spelling("torch.ops.higher_order.tag_activation_checkpoint", tag_activation_checkpoint)
