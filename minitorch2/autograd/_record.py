"""The autograd layer of the dispatcher: record a grad_fn for an op call.

Runtime layer. When grad mode is on and an input requires grad, the dispatcher
hands the call here: the op runs below autograd (modes, then kernel), and its
outputs get an `OpBackward` node that will run the op's derivative formula.

A formula (minitorch2/_aten/derivatives.py) is a plain function whose
parameter names say what it needs, as derivatives.yaml does in PyTorch:

    def mul_tensor(grad, self, other): ...      # saves self and other
    def exp(grad, result): ...                  # saves the output
    def sum_default(grad, self_shape): ...      # saves only a shape

`grad` (or `grads` for several outputs) is the incoming gradient; a schema
argument name is that argument (tensors are saved with their version);
`result`/`result0`.. are outputs; `<arg>_shape`, `<arg>_dtype` are metadata;
`needs_grad` tells which tensor arguments want a gradient, so a formula can
skip work PyTorch's generated code also skips (it is visible in traces).
It returns one gradient per tensor argument of the schema (a list for a
`Tensor[]` argument), None where there is none.
"""
import inspect

from .._dispatch import redispatch_below_autograd, state
from .graph import Node, SavedTensor, gradient_edge


class Derivative:
    def __init__(self, fn, name=None):
        self.fn = fn
        self.params = tuple(inspect.signature(fn).parameters)
        self.name = name  # grad_fn name when it differs from the op's default


class OpBackward(Node):
    """The grad_fn of one op call; `name()` is PyTorch's (MulBackward0, AddmmBackward0, ...)."""

    def __init__(self, op, derivative, name):
        super().__init__()
        self.op = op
        self.derivative = derivative
        self._name = name
        self.saved = {}
        self.input_slots = ()  # per schema tensor argument: None for a Tensor, a count for a Tensor[]
        self.needs_grad = ()  # per schema tensor argument: does a gradient flow back to it?

    def apply(self, grads):
        values = {}
        for param in self.derivative.params:
            if param == "grad":
                values[param] = grads[0]
            elif param == "grads":
                values[param] = tuple(grads)
            elif param == "needs_grad":
                values[param] = self.needs_grad
            else:
                saved = self.saved[param]
                values[param] = saved.unpack(self) if isinstance(saved, SavedTensor) else _unpack_list(saved, self)
        result = self.derivative.fn(**values)
        if not isinstance(result, tuple):
            result = (result,)
        flat = []
        for slot, g in zip(self.input_slots, result):
            if slot is None:
                flat.append(g)
            else:
                flat.extend(g if g is not None else [None] * slot)
        return flat

    def release(self):
        for value in self.saved.values():
            if isinstance(value, SavedTensor):
                value.free()
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, SavedTensor):
                        v.free()


def _unpack_list(saved, owner):
    if isinstance(saved, list):
        return [s.unpack(owner) if isinstance(s, SavedTensor) else s for s in saved]
    return saved


class NotImplementedBackward(Node):
    def __init__(self, op):
        super().__init__()
        self._name = "NotImplemented"
        self.op = op

    def apply(self, grads):
        raise RuntimeError(f"the derivative for '{self.op.name()}' is not implemented.")


def record(op, args, kwargs):
    from .._tensor import Tensor

    schema = op._schema
    bound = _bind(schema, args, kwargs)
    derivative = op.derivative
    if op.is_inplace:
        _check_inplace(op, args[0])
    # An in-place op overwrites `self`; a formula that reads the original needs a copy made first.
    pre_saved = {}
    if op.is_inplace and derivative is not None and "self" in derivative.params:
        pre_saved["self"] = redispatch_below_autograd(_ops().aten.clone.default, (args[0],), {})

    outputs = redispatch_below_autograd(op, args, kwargs)
    out_list = list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]
    differentiable = [o for o in out_list if isinstance(o, Tensor) and o.dtype.is_floating_point]
    if not differentiable:
        return outputs

    if derivative is None:
        node = NotImplementedBackward(op)
    else:
        node = OpBackward(op, derivative, derivative.name or op.grad_fn_name)
    edges, slots, needs = [], [], []
    for arg in schema.arguments:
        if arg.type.startswith("Tensor[") or arg.type.startswith("Tensor?["):
            items = bound.get(arg.name) or []
            item_edges = [gradient_edge(t) if isinstance(t, Tensor) else None for t in items]
            slots.append(len(items))
            needs.append(tuple(e is not None for e in item_edges))
            edges.extend(item_edges)
        elif arg.type.startswith("Tensor"):
            value = bound.get(arg.name)
            edge = gradient_edge(value) if isinstance(value, Tensor) else None
            slots.append(None)
            needs.append(edge is not None)
            edges.append(edge)
    node.next_functions = tuple(e if e is not None else (None, 0) for e in edges)
    node.input_slots = tuple(slots)
    node.needs_grad = tuple(needs)

    for i, out in enumerate(out_list):
        if isinstance(out, Tensor) and out.dtype.is_floating_point:
            out.grad_fn = node
            out._output_nr = i
    if derivative is not None:
        _save(node, derivative, bound, out_list, pre_saved)
    return outputs


def _save(node, derivative, bound, outputs, pre_saved):
    from .._tensor import Tensor

    for param in derivative.params:
        if param in ("grad", "grads", "needs_grad"):
            continue
        if param in pre_saved:
            node.saved[param] = SavedTensor(pre_saved[param])
        elif param == "result" or (param.startswith("result") and param[6:].isdigit()):
            index = int(param[6:]) if param != "result" else 0
            node.saved[param] = SavedTensor(outputs[index], node, index)
        elif param in bound:
            value = bound[param]
            if isinstance(value, Tensor):
                node.saved[param] = SavedTensor(value)
            elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Tensor):
                node.saved[param] = [SavedTensor(v) for v in value]
            else:
                node.saved[param] = value
        elif param.endswith("_shape"):
            value = bound[param[:-6]]
            node.saved[param] = tuple(value.shape) if isinstance(value, Tensor) else None
        elif param.endswith("_dtype"):
            node.saved[param] = bound[param[:-6]].dtype
        elif param.endswith("_shapes"):
            node.saved[param] = [tuple(t.shape) for t in bound[param[:-7]]]
        else:
            raise TypeError(f"derivative {derivative.fn.__name__} asks for unknown value '{param}'")


def _bind(schema, args, kwargs):
    bound = {}
    for i, arg in enumerate(schema.positional):
        bound[arg.name] = args[i] if i < len(args) else (arg.default if arg.has_default else None)
    for arg in schema.kwarg_only:
        bound[arg.name] = kwargs.get(arg.name, arg.default if arg.has_default else None)
    return bound


def _check_inplace(op, target):
    if target.grad_fn is None and target._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = target._base
    if base is not None and base.requires_grad:
        raise NotImplementedError(
            f"minitorch2 does not yet support the in-place op {op} on a view of a tensor that requires grad "
            "(PyTorch rewrites the base's history with CopySlices); use the out-of-place op instead."
        )


def _ops():
    from .._ops import ops

    return ops


__all__ = ["Derivative", "record", "state"]
