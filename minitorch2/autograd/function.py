"""`autograd.Function`: user-defined ops with a hand-written backward.

Runtime layer. `MyFn.apply(*args)` runs `forward(ctx, *args)` with grad mode off, then (when grad is needed)
attaches a `MyFnBackward` node whose apply calls `backward(ctx, *grads)`. backward returns one gradient per forward
argument; the node checks them as PyTorch does and passes on those of the tensor arguments, which alone have edges.
The AOT layer (top-level `autograd/`) wraps compiled forward and backward graphs in one of these.
"""
import weakref

from .._dispatch import state
from .._ops import ops
from .._tensor import Tensor
from ._record import _check_inplace, rebase_view_history
from .grad_mode import no_grad
from .graph import Node, SavedTensor, gradient_edge, tensor_metadata


class FunctionCtx:
    def __init__(self):
        self._saved = ()
        self.needs_input_grad = ()
        self.materialize_grads = True
        self._non_differentiable = set()
        self._dirty = set()

    def save_for_backward(self, *tensors):
        self._saved = tensors  # (kept as SavedTensors once the node is made: torch checks and packs them then)

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

    def __repr__(self):  # as torch prints the node classes its Python makes, in its module torch.autograd.function
        return f"<torch.autograd.function.{self._name} object at {hex(id(self))}>"

    def apply(self, grads):
        # the engine's buffer ends at the last output that received a gradient: backward gets one per output
        grads = list(grads) + [None] * (len(self._outputs_meta) - len(grads))
        if self.ctx.materialize_grads:
            grads = [g if g is not None or o is None else ops.aten.zeros.default(list(o[0]), dtype=o[1])
                     for g, o in zip(grads, self._outputs_meta)]
        result = self.fn_cls.backward(self.ctx, *grads)
        return self._gradients_for_tensor_inputs(result if isinstance(result, tuple) else (result,))

    def _gradients_for_tensor_inputs(self, result):
        """backward returns one gradient per forward argument; the edges are the tensor arguments only.
        PyTorch's checks (PyNode::apply): extra trailing Nones are allowed, anything else must match."""
        is_tensor = self._is_tensor_input
        if len(result) > len(is_tensor) and all(g is None for g in result[len(is_tensor):]):
            result = result[: len(is_tensor)]
        if len(result) != len(is_tensor):
            raise RuntimeError(f"function {self._name} returned an incorrect number of gradients "
                               f"(expected {len(is_tensor)}, got {len(result)})")
        grads = []
        for position, (g, tensor_input) in enumerate(zip(result, is_tensor), start=1):
            if not tensor_input:
                if g is not None:
                    raise RuntimeError(f"function {self._name} returned a gradient different than None at position "
                                       f"{position}, but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            grads.append(g)
        return grads

    def release(self):
        for s in filter(None, self.ctx._saved):
            s.free()


class Function:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # the grad_fn's own class, named as torch names it (type(y.grad_fn).__name__ == "MyFnBackward")
        cls._backward_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"__module__": "builtins"})

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        needs_grad = state.grad_enabled and not state.inference_mode and any(t.requires_grad for t in tensor_args)
        with no_grad():
            if not hasattr(cls, "setup_context"):  # the classic style: forward(ctx, *args)
                outputs = cls.forward(ctx, *args, **kwargs)
            else:  # torch 2's: forward(*args), then setup_context(ctx, inputs, output)
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, outputs)
        if not needs_grad:
            return outputs
        node = cls._backward_cls(cls, ctx)
        ctx._saved = tuple(SavedTensor(t) if t is not None else None for t in ctx._saved)
        node._is_tensor_input = tuple(isinstance(a, Tensor) for a in args)
        edges = [gradient_edge(a) for a in tensor_args]  # as in torch, only tensor arguments have edges
        node.next_functions = tuple(e or (None, 0) for e in edges)
        node.input_metadata = tuple(tensor_metadata(a) if e else None for a, e in zip(tensor_args, edges))
        single = not isinstance(outputs, tuple)
        out_list = [outputs] if single else list(outputs)
        result = []
        for i, out in enumerate(out_list):
            if isinstance(out, Tensor):
                if id(out) in ctx._dirty and out.requires_grad and out.grad_fn is None:
                    raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
                # a view written in place: torch's checks, and its base's history remade around the node
                base = _check_inplace(out) if id(out) in ctx._dirty and out._base is not None else None
                if any(out is a for a in args) and id(out) not in ctx._dirty:
                    out = out.view_as(out)
                if out.dtype.is_inexact and id(out) not in ctx._non_differentiable:
                    if base is not None and single and out is args[0]:  # (CopySlices: the view is its first input)
                        rebase_view_history(out, base, node)
                    else:
                        out.grad_fn, out._output_nr = node, i
                    ctx._saved = tuple(SavedTensor(out, node, i) if s is not None and s.tensor is out and not s.hooks
                                       else s for s in ctx._saved)  # a saved output: kept as torch keeps one
            result.append(out)
        # (shape, dtype) only: holding the outputs themselves would make an output <-> grad_fn cycle
        node._outputs_meta = [(o.shape, o.dtype) if isinstance(o, Tensor) else None for o in result]
        return result[0] if single else tuple(result)


from .function_extras import once_differentiable  # noqa: E402,F401  (needs Function; torch's name for it is here)
