"""TensorVariable: a tensor in the graph being built: an FX node plus a fake example value.

Frontend layer. Every operation on a TensorVariable appends a node to the output graph and computes the result's
fake value by running the same operation on fake tensors. The one idea to hold: metadata (shape, dtype,
requires_grad) is known and guarded, so it folds into Python constants; data is unknown, so anything that needs it
(`if x.sum() > 0`, `x.item()`) is a graph break.
"""
import operator

import minitorch2
from minitorch2._sym import is_symbolic
from minitorch2._tensor import DataDependentOutputException, DynamicOutputShapeException

from .. import break_reasons
from ..exc import Unsupported
from . import dynamo_forms, requires_grad_leaks, tensor_attributes  # (modules: they record through this one)
from .base import MethodVariable, VariableTracker
from .constant import ConstantVariable
from .lists import SizeVariable, StructSequenceVariable, TupleVariable
from .sym_node import SymNodeVariable

# Tensor methods answered from the (guarded) metadata, never recorded (attributes: dynamo_forms.METADATA_ATTRS).
METADATA_METHODS = {"size", "dim", "ndimension", "numel", "nelement", "stride", "is_contiguous", "is_floating_point",
                    "is_complex", "element_size", "get_device", "__len__"}
GRAPH_ATTRS = {"T", "mT", "H", "mH", "real", "imag"}
DATA_DEPENDENT = {"item", "tolist", "__bool__", "__int__", "__float__", "nonzero", "unique", "data_ptr"}
# Change a tensor's shape in place: traced on an intermediate, a break on a graph input (its caller sees the change)
IN_PLACE_VIEWS = {"t_", "transpose_", "swapdims_", "swapaxes_", "squeeze_", "unsqueeze_", "as_strided_"}


class TensorVariable(VariableTracker):
    def __init__(self, proxy, example_value, tensor_type=None, source=None):
        super().__init__(source)
        self.proxy, self.example_value = proxy, example_value
        self.tensor_type = tensor_type or minitorch2.Tensor

    def python_type(self):
        return self.tensor_type

    store_attr, can_store_attr = tensor_attributes.store_attr, tensor_attributes.can_store_attr  # (`t.scale = 3`)

    def truth(self, tx):  # (`assert t`: Dynamo records torch._assert_async and goes on, as if t held)
        if (message := dynamo_forms.assert_message(tx)) is None:
            raise Unsupported("the truth value of a tensor (data-dependent branch)", "data_dependent_branch", [self])
        record_mutation(tx.output, minitorch2._assert_async, [self, ConstantVariable(message)])  # (returns nothing)
        return True

    def var_getattr(self, tx, name):
        fake = self.example_value
        if name == "shape":
            size, reads = dynamo_forms.record_size_items(tx.output, self)
            return SizeVariable([tx.output.size_variable(self, d, reads[d]) for d in range(fake.dim())], proxy=size)
        if name in dynamo_forms.METADATA_ATTRS:  # folded (is_leaf's read also a node of Dynamo's)
            return dynamo_forms.metadata(tx, self, name)
        if name == "grad" and self.source is not None:  # an input's: None (guarded) or a graph input, as Dynamo's
            return dynamo_forms.input_grad(tx, self)
        if name in GRAPH_ATTRS or name == "data":  # (x.T, x.real: getattr nodes; x.data: Dynamo's own call)
            return dynamo_forms.graph_attr(tx, self, name)
        if name not in ("grad", "_version", "grad_fn") and callable(getattr(minitorch2.Tensor, name, None)):
            return MethodVariable(self, name)
        if (attr := tensor_attributes.read_attr(tx, self, name)) is not None:  # a Python one (`t.scale`), or raised
            return attr
        raise Unsupported(f"tensor attribute {name!r}", "unsupported_attr")

    def unpack_var_sequence(self, tx):
        return [record(tx.output, "call_function", operator.getitem, [self, ConstantVariable(i)], {})
                for i in range(int(self.example_value.shape[0]))]  # (a symbolic length specialises)

    def output_plan(self, og):
        if og.reloading_inputs and self.source is not None and self.proxy.node.op == "placeholder":
            return super().output_plan(og)  # (no graph output)
        return tensor_attributes.output_plan(og, self, og.add_output(self))

    def build(self, cg):
        tensor_attributes.build(cg, self)

    def call_method(self, tx, name, args, kwargs):
        """`x.sum(...)`, called through the MethodVariable `x.sum`: records `call_method sum`; metadata folds."""
        if name in DATA_DEPENDENT or name == "backward":  # (backward: Dynamo breaks while trace_autograd_ops is off)
            raise Unsupported(f"Tensor.{name}() " + ("runs autograd" if name == "backward" else "needs its data"),
                              "unsupported_call" if name == "backward" else "data_dependent_value")
        # (an input reached otherwise, x.add_(1).t_(), is traced: aot replays its new shape on the caller's tensor)
        if name in IN_PLACE_VIEWS and self.source is not None:
            raise Unsupported("Getting an inplace view on a graph input is not supported", "unsupported_call")
        if name == "numpy":  # an ndarray in the graph
            from .numpy_arrays import tensor_numpy  # (deferred: numpy_arrays.py builds on this module)
            return tensor_numpy(tx, self, kwargs)
        args, kwargs = [a.realize() for a in args], {k: v.realize() for k, v in kwargs.items()}
        if name == "__setitem__" and len(args) == 2 and not kwargs:  # spelled out, as `x[k] = v` records
            return record_mutation(tx.output, operator.setitem, [self, *args]) or ConstantVariable(None)
        if name == "type" and not args and not kwargs:  # its type's name, 'torch.FloatTensor': a constant
            return ConstantVariable(self.example_value.type())
        if name in METADATA_METHODS:
            if not all(a.is_python_constant() for a in [*args, *kwargs.values()]):
                raise Unsupported(f"Tensor.{name} with non-constant arguments", "unsupported_call")
            constants = [a.as_python_constant() for a in args]
            if name == "size":
                dims = constants or [kwargs["dim"].as_python_constant()] if constants or kwargs else None
                if dims is None:
                    return self.var_getattr(tx, "shape")
                return tx.output.size_variable(self, dims[0] % max(self.example_value.dim(), 1), read_alone=True)
            if name == "numel" and is_symbolic(self.example_value.numel()):  # a node: `numel = l_x_.numel()`
                return record(tx.output, "call_method", name, [self], {})
            value = getattr(self.example_value, name)(*constants,
                                                     **{k: v.as_python_constant() for k, v in kwargs.items()})
            if isinstance(value, (tuple, list)):  # a symbolic stride or numel specialises
                return ConstantVariable(tuple(int(v) for v in value))
            return ConstantVariable(int(value) if is_symbolic(value) else value)
        requires_grad_leaks.note_call(tx, self, name)  # (a break if its result leaves the frame: at the return)
        if (form := dynamo_forms.inplace_as_dynamo(tx, self, name, args, kwargs)) is not None:
            return form
        return record(tx.output, "call_method", name, [self, *args], kwargs)

    def __repr__(self):
        return f"TensorVariable({self.proxy.node.name})"


def record(og, kind, target, args, kwargs):
    """Append one node computing target(*args, **kwargs) and wrap its result (a tensor, or a tuple of them)."""
    node_args = tuple(og.as_arg(a) for a in args)
    node_kwargs = {k: og.as_arg(v) for k, v in kwargs.items()}
    fake_args = [og.as_arg(a, fake=True) for a in args]
    fake_kwargs = {k: og.as_arg(v, fake=True) for k, v in kwargs.items()}
    try:
        with og.fake_mode:
            value = getattr(fake_args[0], target)(*fake_args[1:], **fake_kwargs) if kind == "call_method" else \
                target(*fake_args, **fake_kwargs)
    except Unsupported:
        raise
    except Exception as e:
        failure = _fake_run_failure(kind, target, fake_args, fake_kwargs, e)
        raise failure from (e if isinstance(failure, Unsupported) else None)  # Dynamo's error stands alone
    proxy = og.create_proxy(kind, target, node_args, node_kwargs, value)
    return wrap_fx_value(og, proxy, value)


# What fake tensors cannot run: left to eager
_LEFT_TO_EAGER = (NotImplementedError, DataDependentOutputException, DynamicOutputShapeException,
                  minitorch2.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode)


def _fake_run_failure(kind, target, fake_args, fake_kwargs, error):
    """As Dynamo: an op fake tensors cannot run (data-dependent, no meta function, an argument it does not take)
    is a graph break; any other failure is the program's, raised now as TorchRuntimeError."""
    name = getattr(target, "__name__", target)
    if isinstance(error, IndexError):  # a dim out of range reaches the user as itself, as Dynamo re-raises it
        return error
    if isinstance(error, _LEFT_TO_EAGER) or (isinstance(error, TypeError) and "argument" in str(error)):
        return Unsupported(f"running {name} on fake tensors failed: {type(error).__name__}: {error}", "unsupported_call")
    return break_reasons.fake_run_error(kind, target, fake_args, fake_kwargs, error)


def record_mutation(og, target, args):
    """A node that mutates its first argument and returns nothing (`operator.setitem`)."""
    with og.fake_mode:
        try:
            target(*[og.as_arg(a, fake=True) for a in args])
        except Exception as e:
            raise Unsupported(f"{target.__name__} on fake tensors failed: {e}", "unsupported_call") from e
    og.create_proxy("call_function", target, tuple(og.as_arg(a) for a in args), {}, None)


def wrap_fx_value(og, proxy, value):
    if is_symbolic(value):  # a size computed by the graph (`x.numel()`)
        return SymNodeVariable(proxy, value)
    if isinstance(value, minitorch2.Tensor):
        return TensorVariable(proxy, value, type(value) if isinstance(value, minitorch2.nn.Parameter) else None)
    if isinstance(value, (tuple, list)) and all(isinstance(v, minitorch2.Tensor) or v is None for v in value):
        # (a None item, as F.multi_head_attention_forward's weights, is a constant)
        items = [ConstantVariable(None) if v is None else TensorVariable(
            og.create_proxy("call_function", operator.getitem, (proxy.node, i), {}, v, speculative=True), v)
            for i, v in enumerate(value)]
        # (torch.return_types.sort and kin keep their type and field names)
        return TupleVariable(items) if type(value) is tuple else StructSequenceVariable(items, type(value))
    if type(value) is bool and proxy.node.target in (operator.eq, operator.ne, operator.is_, operator.is_not):
        return ConstantVariable(value)  # `t == None`: the node stays, its answer a constant, as Dynamo's
    og.graph.erase_node(proxy.node)
    raise Unsupported(f"an operation returned {type(value).__name__}, not a tensor (data-dependent)",
                      "data_dependent_value")
