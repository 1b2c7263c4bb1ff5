"""The autograd layer of the dispatcher: record a grad_fn for an op call.

Runtime layer. When grad mode is on and an input requires grad, the dispatcher hands the call here: the op runs below
autograd (modes, then kernel), and its outputs get an `OpBackward` node that will run the op's derivative formula.

A formula (minitorch2/_aten/derivatives.py) is a plain function whose
parameter names say what it needs, as derivatives.yaml does in PyTorch:

    def mul_tensor(grad, self, other): ...      # saves self and other
    def exp(grad, result): ...                  # saves the output
    def sum_default(grad, self_shape): ...      # saves only a shape

Names: `grad`/`grads` (incoming gradients), schema arguments (tensors saved with their version), `result`/`result0`..,
`<arg>_shape`, `<arg>_dtype`, and `needs_grad` (or `grad_input_mask`). It returns one gradient (or None) per tensor
argument, a list for a `Tensor[]`.
"""
import enum
import functools
import inspect
from dataclasses import dataclass

from .._dispatch import redispatch_below_autograd
from .._ops import ops
from .._tensor import FakeTensor, Tensor
from .graph import Node, SavedTensor, gradient_edge, tensor_metadata
from .saved_hooks import SavedValues
from .view_history import rebase_view_history, remember_view_ops  # noqa: F401  (the dispatcher calls it through here)
from .view_refusals import refuse_multi_output_view


class Derivative:
    def __init__(self, fn, name=None, self_value_for=None):
        self.fn = fn
        self.params = tuple(inspect.signature(fn).parameters)
        self.name = name  # grad_fn name when it differs from the op's default
        self.self_value_for = self_value_for  # an in-place op's: see _reads_original_self


class OpBackward(Node):
    """The grad_fn of one op call; `name()` is PyTorch's (MulBackward0, AddmmBackward0, ...)."""

    def __init__(self, op, derivative, name):
        super().__init__()
        self.op = op
        self.derivative = derivative
        self._name = name
        self.saved = {}
        self.input_slots = ()  # per schema tensor argument: None for a Tensor, a count for a Tensor[], or _NO_EDGE
        self.needs_grad = ()  # per schema tensor argument: does a gradient flow back to it?

    def apply(self, grads):
        values = {}
        for param in self.derivative.params:
            if param == "grad":
                values[param] = grads[0]
            elif param == "grads":
                values[param] = tuple(grads)
            elif param in ("needs_grad", "grad_input_mask"):
                values[param] = self.needs_grad
            else:
                values[param] = unpacked(self.saved[param], self)
        result = self.derivative.fn(**values)
        if not isinstance(result, tuple):
            result = (result,)
        flat = []
        for slot, g in zip(self.input_slots, result):
            if slot is None:
                flat.append(g)
            elif slot != _NO_EDGE:
                flat.extend(g if g is not None else [None] * slot)
        return flat

    def release(self):
        for value in self.saved.values():
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, SavedTensor):
                    v.free()


def unpacked(saved, owner):
    """A kept value as a formula reads it: a saved tensor (each of a list's) unpacked, metadata as it is."""
    if isinstance(saved, list):
        return [unpacked(s, owner) for s in saved]
    return saved.unpack(owner) if isinstance(saved, SavedTensor) else saved


@functools.cache
def _node_class(name):
    """OpBackward under torch's node name, so type(y.grad_fn).__name__ is "MulBackward0" as in torch (one
    class per name, made at its first use)."""
    return type(name.split("::")[-1], (OpBackward, SavedValues), {"__module__": "builtins"})  # (CopyBackwards)


class NotImplementedBackward(Node):
    def __init__(self, op):
        super().__init__()
        self._name = "NotImplemented"
        self.op = op

    def apply(self, grads):
        raise RuntimeError(f"the derivative for '{self.op.name()}' is not implemented.")


def record(op, args, kwargs):
    plan = _plan(op)
    bound = _bind(op._schema, args, kwargs)
    derivative = op.derivative
    base_of_view = _check_inplace(args[0]) if op.is_inplace else None
    # where each input's gradient goes, taken before the op runs, as torch collects its edges: an in-place
    # op bumps the version its inputs may share (y.add_(x), x and y views of one base), and an edge read
    # after it would take x's history as remade onto the base's old grad_fn, and x would not be stale later
    edges = _input_edges(plan.tensor_args, bound)
    # An in-place op overwrites `self`; a formula that reads the original needs a copy made first. Its other
    # tensors are saved before it runs too, at their versions then: x.mul_(x) changes the `other` it saved,
    # and the backward must refuse it, as torch's does, rather than read the new value
    pre_saved = {}
    if derivative is not None and "self" in derivative.params and (op.is_inplace or derivative.self_value_for):
        if not _reads_original_self(derivative, bound):
            # self's value is read only for gradients nobody needs (x * 2 keeps no x, as torch's): its shape will
            # do, in a stand-in with no memory, which no later write can invalidate
            pre_saved["self"] = SavedTensor(FakeTensor._make(args[0].shape, args[0].dtype, args[0].stride()))
        elif op.is_inplace:
            pre_saved["self"] = SavedTensor(redispatch_below_autograd(ops.aten.clone.default, (args[0],), {}))
    if op.is_inplace and derivative is not None:
        pre_saved.update({keep.param: SavedTensor(bound[keep.source]) for keep in plan.saves
                          if keep.kind is Kept.ARG and keep.param != "self" and isinstance(bound[keep.source], Tensor)})

    outputs = redispatch_below_autograd(op, args, kwargs)
    out_list = list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]
    mask = op.output_differentiability or (True,) * len(out_list)
    differentiable = [isinstance(o, Tensor) and o.dtype.is_inexact and m for o, m in zip(out_list, mask)]
    if not any(differentiable):
        return outputs

    if derivative is None:
        node = NotImplementedBackward(op)
    else:
        name = derivative.name or op.grad_fn_name
        node = _node_class(name)(op, derivative, name)
    _connect_inputs(node, op, plan.tensor_args, bound, edges)

    if base_of_view is not None:
        rebase_view_history(args[0], base_of_view, node)
    else:
        for i, out in enumerate(out_list):
            if differentiable[i]:
                out.grad_fn = node
                out._output_nr = i
                if out._base is not None:
                    out._grad_fn_version = out._version
    if derivative is not None:
        _save(node, plan.saves, bound, out_list, pre_saved, differentiable)
    return outputs


def _reads_original_self(derivative, bound):
    """Whether the formula reads self's value: always, unless it says it does so only for the gradients
    of some other arguments (`self_value_for`) and none of them needs one."""
    others = derivative.self_value_for
    return others is None or any(isinstance(bound.get(name), Tensor) and bound[name].requires_grad for name in others)


class Kept(enum.Enum):
    """What the forward keeps for one formula parameter, read from the parameter's name."""

    RESULT = "result"  # result, result0, result1, ...: an output
    ARG = "arg"  # a schema argument's own name: its value (a tensor with its version)
    SHAPE = "shape"  # <arg>_shape
    DTYPE = "dtype"  # <arg>_dtype
    SHAPES = "shapes"  # <arg>_shapes: the shape of each tensor of a Tensor[] argument
    GEOMETRY = "geometry"  # <arg>_geometry: (shape, strides, storage offset), torch's TensorGeometry: no tensor


_SUFFIXES = {"shape": Kept.SHAPE, "dtype": Kept.DTYPE, "shapes": Kept.SHAPES, "geometry": Kept.GEOMETRY}


@dataclass(frozen=True)
class _Keep:
    param: str  # the formula's parameter
    kind: Kept
    source: object  # the output's index (RESULT), else the schema argument's name


class _Plan:
    """What `record` needs to know about an op, worked out once from its schema and formula."""

    def __init__(self, op):
        schema = op._schema
        # (name, is_list, has_edge) for each Tensor / Tensor[] argument, in schema order
        op_name = schema.name.split("::")[-1]
        self.tensor_args = [(arg.name, arg.type.startswith(("Tensor[", "Tensor?[")), _has_edge(op_name, arg.name))
                            for arg in schema.arguments if arg.type.startswith("Tensor")]
        self.saves = []
        names = {a.name for a in schema.arguments}
        for param in (op.derivative.params if op.derivative is not None else ()):
            if param in ("grad", "grads", "needs_grad", "grad_input_mask"):
                continue
            if param == "result" or (param.startswith("result") and param[6:].isdigit()):
                self.saves.append(_Keep(param, Kept.RESULT, int(param[6:]) if param != "result" else 0))
            elif param in names:
                self.saves.append(_Keep(param, Kept.ARG, param))
            else:
                arg, _, suffix = param.rpartition("_")
                if arg not in names or suffix not in _SUFFIXES:
                    raise TypeError(f"derivative {op.derivative.fn.__name__} of {op} asks for unknown value '{param}'")
                self.saves.append(_Keep(param, _SUFFIXES[suffix], arg))


# Tensor arguments that derivatives.yaml gives no formula: torch's grad_fn has no edge for them, and refuses them
# when they require grad. In every op: indices, masks, CTC targets and lengths, running statistics; in a loss: its
# weights; in the classification losses: the class targets.
_NEVER_DIFFERENTIATED = {"index", "indices", "mask", "condition", "offsets", "targets", "input_lengths",
                         "target_lengths", "running_mean", "running_var", "pos_weight"}
_CLASS_TARGET_LOSSES = ("nll_loss", "multi_margin_loss", "multilabel_margin_loss")
_NO_EDGE = "no edge"  # an input_slots entry


def _has_edge(op_name, arg):
    if arg in _NEVER_DIFFERENTIATED or (arg == "weight" and ("loss" in op_name or "entropy" in op_name)):
        return False
    return not (arg == "target" and op_name.startswith(_CLASS_TARGET_LOSSES))


_plan = functools.cache(_Plan)  # one plan per op, worked out at its first recorded call


def _input_edges(tensor_args, bound):
    """Per schema tensor argument, its gradient edge (a list of them for a Tensor[]), None where none."""
    def edge(value):
        return gradient_edge(value) if isinstance(value, Tensor) else None

    return [[edge(t) for t in bound.get(name) or []] if is_list else edge(bound.get(name))
            for name, is_list, _ in tensor_args]


def _connect_inputs(node, op, tensor_args, bound, arg_edges):
    edges, metadata, slots, needs = [], [], [], []
    for (name, is_list, has_edge), edge in zip(tensor_args, arg_edges):
        value = bound.get(name)
        if not has_edge:
            if isinstance(value, Tensor) and value.requires_grad:
                raise RuntimeError(f"The function '{op._schema.name.split('::')[-1]}' is not differentiable with "
                                   f"respect to argument '{name}'. This input cannot have requires_grad True.")
            slots.append(_NO_EDGE)
            needs.append(False)
        elif is_list:
            items = value or []
            slots.append(len(items))
            needs.append(tuple(e is not None for e in edge))
            edges.extend(edge)
            metadata.extend(tensor_metadata(t) if e is not None else None for t, e in zip(items, edge))
        else:
            slots.append(None)
            needs.append(edge is not None)
            edges.append(edge)
            metadata.append(tensor_metadata(value) if edge is not None else None)
    node.next_functions = tuple(e if e is not None else (None, 0) for e in edges)
    node.input_metadata = tuple(metadata)
    node.input_slots = tuple(slots)
    node.needs_grad = tuple(needs)


def _save(node, saves, bound, outputs, pre_saved, differentiable):
    for keep in saves:
        param, kind, source = keep.param, keep.kind, keep.source
        if param in pre_saved:
            node.saved[param] = pre_saved[param]
        elif kind is Kept.RESULT:
            # a differentiable output is kept detached from its own grad_fn; others are plain tensors
            output = outputs[source]
            node.saved[param] = SavedTensor(output, node, source) if differentiable[source] else SavedTensor(output)
        elif kind is Kept.ARG:
            value = bound[source]
            if isinstance(value, Tensor):
                node.saved[param] = SavedTensor(value)
            elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Tensor):
                node.saved[param] = [SavedTensor(v) for v in value]
            else:
                node.saved[param] = value
        else:
            node.saved[param] = _METADATA[kind](bound[source])


# What a formula parameter asking for an argument's metadata receives.
_METADATA = {
    Kept.SHAPE: lambda value: tuple(value.shape) if isinstance(value, Tensor) else None,
    Kept.DTYPE: lambda value: getattr(value, "dtype", None),  # (None for a Python number)
    Kept.GEOMETRY: lambda value: (tuple(value.shape), tuple(value.stride()), value.storage_offset()),
    Kept.SHAPES: lambda tensors: [tuple(t.shape) for t in tensors],
}


def _bind(schema, args, kwargs):
    bound = {}
    for i, arg in enumerate(schema.positional):
        bound[arg.name] = args[i] if i < len(args) else (arg.default if arg.has_default else None)
    for arg in schema.kwarg_only:
        bound[arg.name] = kwargs.get(arg.name, arg.default if arg.has_default else None)
    return bound


def _check_inplace(target):
    """PyTorch's refusals for in-place ops; returns the base when `target` is a view whose base needs history."""
    base = target._base
    if base is not None:
        refuse_multi_output_view(target, "and is being modified inplace")
    if target.grad_fn is None and target._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if base is None:
        return None
    if target._grad_fn is None and base.requires_grad:  # a view with no history of its own: made under no_grad
        raise RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this "
            "use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view "
            "and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or "
            "both outside (if you want the inplace to be tracked).")
    if base.grad_fn is None and target.requires_grad:  # (the view's flag, as torch's: its base's may be off now)
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    return base
