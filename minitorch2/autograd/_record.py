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
`needs_grad` (or derivatives.yaml's name, `grad_input_mask`) tells which
tensor arguments want a gradient, so a formula can skip work PyTorch's
generated code also skips (it is visible in traces).
It returns one gradient per tensor argument of the schema (a list for a
`Tensor[]` argument), None where there is none.
"""
import inspect

from .._dispatch import redispatch_below_autograd, state
from .._ops import ops
from .._tensor import Tensor, contiguous_format
from .graph import Node, SavedTensor, gradient_edge, tensor_metadata, view_history


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
            elif param in ("needs_grad", "grad_input_mask"):
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
    plan = _plan(op)
    bound = _bind(op._schema, args, kwargs)
    derivative = op.derivative
    base_of_view = None
    if op.is_inplace:
        base_of_view = _check_inplace(args[0])
    # where each input's gradient goes, taken before the op runs, as torch collects its edges: an in-place
    # op bumps the version its inputs may share (y.add_(x), x and y views of one base), and an edge read
    # after it would take x's history as remade onto the base's old grad_fn, and x would not be stale later
    edges = _input_edges(plan.tensor_args, bound)
    # An in-place op overwrites `self`; a formula that reads the original needs a copy made first.
    pre_saved = {}
    if op.is_inplace and derivative is not None and "self" in derivative.params:
        if _reads_original_self(derivative, bound):
            pre_saved["self"] = redispatch_below_autograd(ops.aten.clone.default, (args[0],), {})
        else:  # only self's shape is read: a stand-in with no memory, which no later write can invalidate
            from .._subclasses.fake_tensor import FakeTensor

            pre_saved["self"] = FakeTensor._make(args[0].shape, args[0].dtype, args[0].stride())

    outputs = redispatch_below_autograd(op, args, kwargs)
    out_list = list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]
    mask = op.output_differentiability or (True,) * len(out_list)
    differentiable = [isinstance(o, Tensor) and o.dtype.is_floating_point and m for o, m in zip(out_list, mask)]
    if not any(differentiable):
        return outputs

    if derivative is None:
        node = NotImplementedBackward(op)
    else:
        node = OpBackward(op, derivative, derivative.name or op.grad_fn_name)
    _connect_inputs(node, plan.tensor_args, bound, edges)

    if base_of_view is not None:
        _rebase_view_history(args[0], base_of_view, node)
    else:
        for i, out in enumerate(out_list):
            if differentiable[i]:
                out.grad_fn = node
                out._output_nr = i
                if out._base is not None:
                    out.__dict__["_grad_fn_version"] = out._version
        if op.is_view and out_list[0]._replays_views and len(out_list) == 1:
            _remember_view_ops(out_list[0], args[0], op, args[1:], kwargs)
    if derivative is not None:
        _save(node, plan.saves, bound, out_list, pre_saved, differentiable)
    return outputs


def _reads_original_self(derivative, bound):
    """Whether the formula reads self's value: always, unless it says it does so only for the gradients
    of some other arguments (`self_value_for`) and none of them needs one."""
    others = getattr(derivative.fn, "self_value_for", None)
    return others is None or any(isinstance(bound.get(name), Tensor) and bound[name].requires_grad for name in others)


class _Plan:
    """What `record` needs to know about an op, worked out once from its schema and formula."""

    def __init__(self, op):
        schema = op._schema
        self.tensor_args = []  # (name, is_list) for each Tensor / Tensor[] argument, in schema order
        for arg in schema.arguments:
            if arg.type.startswith(("Tensor[", "Tensor?[")):
                self.tensor_args.append((arg.name, True))
            elif arg.type.startswith("Tensor"):
                self.tensor_args.append((arg.name, False))
        self.saves = []
        names = {a.name for a in schema.arguments}
        for param in (op.derivative.params if op.derivative is not None else ()):
            if param in ("grad", "grads", "needs_grad", "grad_input_mask"):
                continue
            if param == "result" or (param.startswith("result") and param[6:].isdigit()):
                self.saves.append((param, "result", int(param[6:]) if param != "result" else 0))
            elif param in names:
                self.saves.append((param, "arg", param))
            elif param.endswith("_shape") and param[:-6] in names:
                self.saves.append((param, "shape", param[:-6]))
            elif param.endswith("_dtype") and param[:-6] in names:
                self.saves.append((param, "dtype", param[:-6]))
            elif param.endswith("_shapes") and param[:-7] in names:
                self.saves.append((param, "shapes", param[:-7]))
            else:
                raise TypeError(f"derivative {op.derivative.fn.__name__} of {op} asks for unknown value '{param}'")


def _plan(op):
    plan = op.__dict__.get("_autograd_plan")
    if plan is None:
        plan = op._autograd_plan = _Plan(op)
    return plan


def _input_edges(tensor_args, bound):
    """Per schema tensor argument, its gradient edge (a list of them for a Tensor[]), None where none."""
    edges = []
    for name, is_list in tensor_args:
        value = bound.get(name)
        if is_list:
            edges.append([gradient_edge(t) if isinstance(t, Tensor) else None for t in value or []])
        else:
            edges.append(gradient_edge(value) if isinstance(value, Tensor) else None)
    return edges


def _connect_inputs(node, tensor_args, bound, arg_edges):
    edges, metadata, slots, needs = [], [], [], []
    for (name, is_list), edge in zip(tensor_args, arg_edges):
        value = bound.get(name)
        if is_list:
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
    for param, kind, key in saves:
        if param in pre_saved:
            node.saved[param] = SavedTensor(pre_saved[param])
        elif kind == "result":
            # a differentiable output is kept detached from its own grad_fn; others are plain tensors
            node.saved[param] = SavedTensor(outputs[key], node, key) if differentiable[key] else SavedTensor(outputs[key])
        elif kind == "arg":
            value = bound[key]
            if isinstance(value, Tensor):
                node.saved[param] = SavedTensor(value)
            elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Tensor):
                node.saved[param] = [SavedTensor(v) for v in value]
            else:
                node.saved[param] = value
        elif kind == "shape":
            value = bound[key]
            node.saved[param] = tuple(value.shape) if isinstance(value, Tensor) else None
        elif kind == "dtype":
            node.saved[param] = bound[key].dtype
        else:
            node.saved[param] = [tuple(t.shape) for t in bound[key]]


def _bind(schema, args, kwargs):
    bound = {}
    positional = schema.positional
    for i, arg in enumerate(positional):
        bound[arg.name] = args[i] if i < len(args) else (arg.default if arg.has_default else None)
    for arg in schema.kwarg_only:
        bound[arg.name] = kwargs.get(arg.name, arg.default if arg.has_default else None)
    return bound


def _check_inplace(target):
    """PyTorch's refusals for in-place ops; returns the base when `target` is a view whose base needs history."""
    if target.grad_fn is None and target._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = target._base
    if base is None:
        return None
    if base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    return base


def _remember_view_ops(view, source, op, rest, kwargs):
    """Keep on `view` the view ops that made it from its base (source's, then this one), to replay."""
    if source._base is None:
        view.__dict__["_view_ops"] = [(op, rest, kwargs)]
    elif "_view_ops" in source.__dict__:
        view.__dict__["_view_ops"] = source.__dict__["_view_ops"] + [(op, rest, kwargs)]


def replay_view_ops(view, tensor):
    """The view ops that made `view` from its base (see _remember_view_ops), applied to `tensor`; None if
    they were not kept."""
    chain = view.__dict__.get("_view_ops")
    return None if chain is None else _replay(chain, tensor)


def _replay(chain, tensor):
    for op, rest, kwargs in chain:
        tensor = op(tensor, *rest, **kwargs)
    return tensor


def _rebase_view_history(view, base, op_node):
    """An in-place op on a view changes its base: the base's new grad_fn is CopySlices
    (gradient of the base = old gradient outside the view, op's gradient inside), and the
    view becomes a window onto the base's new history (see graph.view_history)."""
    copy_slices = CopySlices(base, view, op_node, gradient_edge(base))
    base.grad_fn = copy_slices
    base._output_nr = 0
    view.grad_fn, view._output_nr = view_history(view)
    view.__dict__["_grad_fn_version"] = view._version


class CopySlices(Node):
    _name = "torch::autograd::CopySlices"

    def __init__(self, base, view, op_node, base_edge):
        super().__init__()
        self.base_geometry = (list(base.shape), list(base.stride()), base.storage_offset())
        self.view_geometry = (tuple(view.shape), view.stride(), view.storage_offset() - base.storage_offset())
        self.view_ops = view.__dict__.get("_view_ops")
        self.op_node = op_node
        self.next_functions = ((base_edge or (None, 0)),) + tuple(op_node.next_functions[1:])
        self.input_metadata = (tensor_metadata(base) if base_edge else None,) + tuple(op_node.input_metadata[1:])

    def apply(self, grads):
        """As torch's: the gradient copied into a tensor laid out as the base, the window the view sees of
        it (the view's own ops replayed, or as_strided) replaced by the in-place op's gradient."""
        aten = ops.aten
        grad = grads[0]
        size, stride, _ = self.base_geometry
        result = aten.new_empty_strided.default(grad, size, stride)
        aten.copy_.default(result, grad)
        window = _replay(self.view_ops, result) if self.view_ops is not None else None
        if window is None:
            size, stride, offset = self.view_geometry
            window = aten.as_strided.default(result, list(size), list(stride), offset)
        op_grads = self.op_node.apply([aten.clone.default(window, memory_format=contiguous_format)])
        if op_grads[0] is not None:
            aten.copy_.default(window, op_grads[0])
        else:
            aten.zero_.default(window)
        return [result] + list(op_grads[1:])

    def release(self):
        self.op_node.release()


class AsStridedBackward(Node):
    _name = "AsStridedBackward0"

    def __init__(self, base, view):
        super().__init__()
        self.base_shape = list(base.shape)
        self.base_dtype = base.dtype
        self.geometry = (list(view.shape), list(view.stride()), view.storage_offset() - base.storage_offset())
        self.next_functions = (gradient_edge(base) or (None, 0),)  # a leaf base: its AccumulateGrad
        self.input_metadata = (tensor_metadata(base) if self.next_functions[0][0] is not None else None,)

    def apply(self, grads):
        aten = ops.aten
        zeros = aten.zeros.default(self.base_shape, dtype=self.base_dtype)
        size, stride, offset = self.geometry
        return [aten.as_strided_scatter.default(zeros, grads[0], size, stride, offset)]


__all__ = ["Derivative", "record", "state"]
