"""torch.compile's refusal of double backward: gradients a compiled function's backward returns under
create_graph=True are connected to the graph (so they report requires_grad=True, as torch's), through a node
whose own backward raises torch's RuntimeError. Called once from CompiledFunction.backward (aot.py)."""
import minitorch2
from minitorch2.autograd import Function


class CompiledFunctionBackward(Function):
    """Named as torch's, so the gradients print grad_fn=<CompiledFunctionBackwardBackward>."""

    @staticmethod
    def forward(ctx, count, *args):
        return args[len(args) - count:]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("torch.compile with aot_autograd does not currently support double backward")


def refusing_double_backward(input_grads, backward_args):
    """input_grads, or with grad mode on (create_graph=True) outputs of a node refusing to be differentiated, whose
    edges are the backward's saved tensors and tangents, as torch's, and a dummy input requiring grad (one at least)."""
    if not minitorch2.is_grad_enabled():
        return input_grads
    connect = minitorch2.empty(0, requires_grad=True)
    out = CompiledFunctionBackward.apply(len(input_grads), connect, *backward_args, *input_grads)
    return [g if isinstance(g, minitorch2.Tensor) else None for g in out]
