"""`autograd.Function`: user-defined ops with a hand-written backward.

Runtime layer. `MyFn.apply(*args)` runs `forward(ctx, *args)` with grad mode
off, then (when grad is needed) attaches a `MyFnBackward` node whose apply
calls `backward(ctx, *grads)`. The AOT layer (top-level `autograd/`) wraps
compiled forward and backward graphs in one of these.
"""
import weakref

from .._dispatch import state
from .graph import Node, SavedTensor, gradient_edge


class FunctionCtx:
    def __init__(self):
        self._saved = ()
        self.needs_input_grad = ()
        self.materialize_grads = True
        self._non_differentiable = set()
        self._dirty = set()

    def save_for_backward(self, *tensors):
        self._saved = tuple(SavedTensor(t) if t is not None else None for t in tensors)

    @property
    def saved_tensors(self):
        return tuple(s.unpack(self._node_ref()) if s is not None else None for s in self._saved)

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors):
        self._dirty.update(id(t) for t in tensors)

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class BackwardCFunction(Node):
    def __init__(self, fn_cls, ctx):
        super().__init__()
        self._name = f"{fn_cls.__name__}Backward"
        self.fn_cls = fn_cls
        self.ctx = ctx
        ctx._node_ref = weakref.ref(self)  # not a strong reference: a node <-> ctx cycle would keep the saved
        # tensors (and their memory) alive until the cycle collector ran

    def apply(self, grads):
        from .._ops import ops

        if self.ctx.materialize_grads:
            grads = [g if g is not None else ops.aten.zeros.default(list(o[0]), dtype=o[1])
                     for g, o in zip(grads, self._outputs_meta)]
        result = self.fn_cls.backward(self.ctx, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        return list(result[: len(self.next_functions)])

    def release(self):
        for s in self.ctx._saved:
            if s is not None:
                s.free()


class FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        from .._tensor import Tensor

        ctx = FunctionCtx()
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        needs_grad = state.grad_enabled and any(t.requires_grad for t in tensor_args)
        previous = state.grad_enabled
        state.grad_enabled = False
        try:
            outputs = cls.forward(ctx, *args, **kwargs)
        finally:
            state.grad_enabled = previous
        if not needs_grad:
            return outputs
        node = BackwardCFunction(cls, ctx)
        node.next_functions = tuple(
            (gradient_edge(a) or (None, 0)) if isinstance(a, Tensor) else (None, 0) for a in args
        )
        single = not isinstance(outputs, tuple)
        out_list = [outputs] if single else list(outputs)
        result = []
        for i, out in enumerate(out_list):
            if isinstance(out, Tensor):
                if any(out is a for a in args) and id(out) not in ctx._dirty:
                    out = out.view_as(out)
                if out.dtype.is_floating_point and id(out) not in ctx._non_differentiable:
                    out.grad_fn = node
                    out._output_nr = i
            result.append(out)
        # (shape, dtype) only: holding the outputs themselves would make an output <-> grad_fn cycle
        node._outputs_meta = [(o.shape, o.dtype) if isinstance(o, Tensor) else None for o in result]
        return result[0] if single else tuple(result)
