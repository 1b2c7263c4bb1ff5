"""The forms Dynamo 2.13's graphs give a few calls, so that graphs print as torch's (coverage surface).

Frontend layer, called from variables/tensor.py, torch.py, nn_module.py, user_defined.py and symbolic_convert.py.
No value depends on these forms (the plain call computes the same): torch.addcdiv recorded as div, mul, add, and
x.addcmul_ as mul, fma, copy_; F.pad as torch._C._nn.pad with every argument; the speculative `size` nodes of a
symbolic shape, which only number the nodes after them; a `_log_api_usage_once` node per nn.Module made in the
frame (Dynamo runs its __init__); a node named after the local it is stored in; torch.broadcast_shapes of constants
a node whose answer is a constant Size; and after a torch._check of sizes,
the `_assert_scalar` node Dynamo's runtime-assert pass leaves (the frame's guards hold the condition already, which
is why torch's Inductor drops it for sizes). One form is needed, not only printed: torch.tensor([n]) of a size
symbol or a tensor, whose data is unknown while tracing, is recorded as torch._refs.tensor, built from ops. And
torch.is_tensor, get_default_dtype, promote_types, and numel, is_floating_point and is_complex of a tensor leave no
node: Dynamo answers them while tracing; so do the questions about the process of ANSWERED_WHILE_TRACING
(torch.cuda.is_available(), the tracing checks, autocast's state) and torch.overrides.has_torch_function. Two more forms
are needed, not only printed: x.new(size) recorded as new_empty (a Size in a node's arguments would be a tuple, which
x.new reads as data), and torch.backends' flags read through their source, so that a flag set between calls is
guarded.
"""
import inspect
import operator
import re
import types

import minitorch2
from minitorch2 import _refs
from minitorch2._c_spellings import _get_data_attr
from minitorch2._sym import is_symbolic
from minitorch2.fx._spelling import register_spelling

from ..exc import Unsupported
from ..source import AttrSource
from . import tensor  # (a module: tensor.py imports this one)
from .base import VariableTracker
from .ctx_manager import _set_grad_enabled
from .constant import ConstantVariable
from .lists import SizeVariable
from .sym_node import SymNodeVariable


def record_size_items(og, tensor_var):
    """The proxies of the `size` node and of its items: Dynamo records a symbolic shape as `size = l_x_.size()` and
    a `getitem` per dim, then drops those it can (size_nodes.py); here they are speculative nodes (removed at the end
    unless used), so that the nodes after them are numbered as Dynamo's (`getitem_2`, not `getitem`)."""
    shape = tensor_var.example_value.shape
    if not any(map(is_symbolic, shape)):
        return None, [None] * len(shape)
    size = og.create_proxy("call_method", "size", (tensor_var.proxy.node,), {}, shape, speculative=True)
    return size, [og.create_proxy("call_function", operator.getitem, (size.node, d), {}, n, speculative=True)
                  for d, n in enumerate(shape)]


def inplace_as_dynamo(tx, tensor_var, name, args, kwargs):
    """The methods Dynamo rewrites; None for the others. x.new(size) is x.new_empty(size), for a Size or ints (a
    Size, recorded as a node's argument, would be a tuple: x.new's data). The in-place ones, so that a tensor `value`
    or `alpha` needs no .item(): x.addcmul_(t1, t2, value=v) (addcdiv_): mul (div) of t1 and t2, fma into x, copy_;
    x.add_(y, alpha=t) with a tensor t (an optimizer's tensor lr): fma of y and t into x, copy_."""
    if name == "requires_grad_":
        return requires_grad_bracketed(tx, tensor_var, args, kwargs)
    if name == "new" and (len(args) == 1 and isinstance(args[0], SizeVariable) or args and all(
            a.is_python_constant() and type(a.as_python_constant()) is int for a in args)):
        return tensor_var.call_method(tx, "new_empty", args, kwargs)
    if name in ("addcmul_", "addcdiv_") and len(args) == 2 and list(kwargs) == ["value"]:
        value = kwargs["value"]
        args = [tensor.record(tx.output, "call_function", getattr(minitorch2, name[4:7]), args, {})]
    elif name == "add_" and len(args) == 1 and list(kwargs) == ["alpha"] \
            and isinstance(kwargs["alpha"].realize(), tensor.TensorVariable):
        value = kwargs["alpha"]
    else:
        return None
    fused = tensor.record(tx.output, "call_function", minitorch2.ops.prims.fma.default,
                          [args[0], value, tensor_var], {})
    return tensor_var.call_method(tx, "copy_", [fused], {})


def addcdiv_as_dynamo(tx, args, kwargs):
    """torch.addcdiv(input, t1, t2, value=v) recorded as Dynamo 2.13 records it: div, mul, add (v may be a tensor)."""
    if len(args) != 3 or list(kwargs) != ["value"]:
        return None
    scaled = tensor.record(tx.output, "call_function", minitorch2.mul,
                           [tensor.record(tx.output, "call_function", minitorch2.div, args[1:], {}), kwargs["value"]], {})
    return tensor.record(tx.output, "call_function", minitorch2.add, [args[0], scaled], {})


def _nn_pad(input, pad, mode="constant", value=None):
    """F.pad under the name Dynamo's graphs give it (torch's F.pad is Python over this C function)."""
    return minitorch2.nn.functional.pad(input, pad, mode, value)


_nn_pad.__module__, _nn_pad.__name__ = "minitorch2._C._nn", "pad"  # its nodes are named `pad`, as Dynamo's
register_spelling("torch._C._nn.pad", _nn_pad)


def pad_as_dynamo(tx, args, kwargs):
    """F.pad(x, pad) recorded as Dynamo records it: torch._C._nn.pad(x, pad, 'constant', None), every argument given."""
    bound = inspect.signature(_nn_pad).bind(*args, **kwargs)
    bound.apply_defaults()
    arguments = [v if isinstance(v, VariableTracker) else ConstantVariable(v) for v in bound.arguments.values()]
    return tensor.record(tx.output, "call_function", _nn_pad, arguments, {})


def record_runtime_assert(tx, cond):
    """`_assert_scalar(gt, "Runtime assertion failed for expression s77 > 1 on node 'gt'")` after a symbolic
    torch._check's comparison `gt` (the compiled code runs it)."""
    if not is_symbolic(cond.value):
        return
    node, expr = cond.proxy.node, cond.value.node.shape_env.simplify(cond.value.node.expr)
    message = f"Runtime assertion failed for expression {expr} on node '{node.name}'"
    tx.output.create_proxy("call_function", minitorch2.ops.aten._assert_scalar.default, (node, message), {}, None)


def assert_message(tx):
    """The message of the `assert` whose POP_JUMP_IF_TRUE tx is at ("assertion error" if none), read from the bytecode
    as Dynamo reads it; None where the jump is no assert's or its message no constant."""
    insts = tx.instructions[tx.ip - 1:tx.ip + 5]
    match = re.match(r"POP_JUMP_\w*IF_TRUE LOAD_ASSERTION_ERROR (LOAD_CONST (PRECALL )?CALL )?RAISE_VARARGS",
                     " ".join(inst.opname for inst in insts))
    return None if match is None else insts[2].argval if match[1] else "assertion error"


def _log_api_usage_once(event):
    """A no-op: Dynamo records this call (torch._C._log_api_usage_once) for each nn.Module.__init__ it runs."""


_log_api_usage_once.__module__ = "minitorch2._C"
register_spelling("torch._C._log_api_usage_once", _log_api_usage_once)


def set_inplace_requires_grad_allowed(allowed):
    """A no-op: Dynamo brackets an intermediate's requires_grad_() with this call (torch._C._functorch's), for
    functorch's check while AOT retraces the graph; minitorch2's AOT has no such check."""


set_inplace_requires_grad_allowed.__module__ = "minitorch2._C._functorch"
register_spelling("torch._C._functorch.set_inplace_requires_grad_allowed", set_inplace_requires_grad_allowed)


def requires_grad_bracketed(tx, tensor_var, args, kwargs):
    """`t.requires_grad_()` of an intermediate that changes its flag, between Dynamo's two switches; the tensor
    itself when the flag does not change; an input's change breaks the graph (AOT would drop it), as Dynamo's."""
    wanted = (args or [kwargs.get("requires_grad", ConstantVariable(True))])[0].realize().as_python_constant()
    if tensor_var.example_value.requires_grad == wanted:  # no change: no node, as Dynamo's (an input's too)
        return tensor_var
    if tensor_var.source is not None:
        raise Unsupported("Unsupported Tensor.requires_grad_() call", "unsupported_call")
    tx.output.create_node("call_function", set_inplace_requires_grad_allowed, (True,), {})
    result = tensor.record(tx.output, "call_method", "requires_grad_", [tensor_var, *args], kwargs)
    tx.output.create_node("call_function", set_inplace_requires_grad_allowed, (False,), {})
    return result


def module_made_here(tx, module):
    """The tracker of a module made in the frame, with the init nodes Dynamo's graph holds for it: one per module in
    it. A CrossEntropyLoss has none: Dynamo models `nn.CrossEntropyLoss(...)` as a stand-in function that calls
    F.cross_entropy with every argument in place (input, target, weight, size_average, ignore_index, reduce,
    reduction, label_smoothing), and so do we."""
    from .functions import UserFunctionVariable  # reason: functions.py imports the trackers that import this module
    from .nn_module import NNModuleVariable  # reason: as above

    if type(module) is not minitorch2.nn.CrossEntropyLoss:
        record_module_inits(tx, len(list(module.modules())))
        return NNModuleVariable(module, None)
    settings = (module.weight, None, module.ignore_index, None, module.reduction, module.label_smoothing)

    def cross_entropy_loss(input, target):
        return minitorch2.nn.functional.cross_entropy(input, target, *settings)

    return UserFunctionVariable(cross_entropy_loss)


def record_module_inits(tx, count):
    """The nodes Dynamo's graph holds for `count` modules made in the frame (Dynamo runs their __init__)."""
    for _ in range(count):
        tx.output.create_node("call_function", _log_api_usage_once, ("python.nn_module",), {})


def name_after_local(graph, var, name):
    """Name a tensor's node after the local it is first stored in (`y = sin * 2`: `y`; `q = k = v = x.t()`: `q`), as
    Dynamo's set_name_hint does; returns var (any tracker: only a tensor's node is named)."""
    node = var.proxy.node if isinstance(var, tensor.TensorVariable) else None
    if node is None or node.op == "placeholder" or node.meta.get("named_after_local"):
        return var
    node.meta["named_after_local"] = True
    if node.name != name:
        node.name = graph._graph_namespace.create_name(name, None)
        graph._graph_namespace._rename_object(node, node.name)
    return var


def graph_attr(tx, var, name):
    """x.T, x.real...: a getattr node; x.data: torch._C._autograd._get_data_attr(x), as Dynamo records it (a detached
    alias, traced as aten.detach)."""
    if name == "data":
        return tensor.record(tx.output, "call_function", _get_data_attr, [var], {})
    return tensor.record(tx.output, "call_function", getattr, [var, ConstantVariable(name)], {})


def input_grad(tx, var):
    """`x.grad` of a graph input x: read from the real tensor through its source (`L['x'].grad`), so None is a
    guarded constant and a gradient tensor a graph input of its own."""
    real = next(inp.value for inp in tx.output.inputs if inp.source.name() == var.source.name())
    return tx.output.wrap(real.grad, AttrSource(var.source, "grad"))


# Tensor attributes answered from the (guarded) metadata, never recorded.
METADATA_ATTRS = {"dtype", "device", "ndim", "requires_grad", "is_leaf", "is_cuda", "layout", "grad_fn", "is_sparse",
                  "is_quantized", "__class__"}


def metadata(tx, var, name):
    """x.dtype, x.requires_grad, x.is_leaf...: the fake tensor's answer (x.__class__: the tracker's type, as type(x)
    answers); Dynamo's graph also holds a read of is_leaf (a getattr node, left unused), which its op count counts."""
    if name == "__class__":
        return tx.output.wrap(var.python_type(), None)
    if name == "is_leaf":
        tx.output.create_node("call_function", getattr, (tx.output.as_arg(var), name), {})
    if name == "grad_fn" and var.example_value.grad_fn is not None:  # (None, a tensor no gradient flows to, folds)
        raise Unsupported("the grad_fn of a tensor that has one", "unsupported_attr")
    return ConstantVariable(getattr(var.example_value, name))


def _foreach_in_place_as_dynamo(fn):
    """torch._foreach_add_ and kin mutate their first list and return None: one node, kept though nothing reads it
    (`_foreach_add_ = torch._foreach_add_([p0, p1], [g0, g1], alpha = -0.1)`), as Dynamo's."""
    def record_in_place(tx, args, kwargs):
        og = tx.output
        with og.fake_mode:
            fn(*[og.as_arg(a, fake=True) for a in args], **{k: og.as_arg(v, fake=True) for k, v in kwargs.items()})
        og.create_proxy("call_function", fn, [og.as_arg(a) for a in args], {k: og.as_arg(v) for k, v in kwargs.items()},
                        None)
        return ConstantVariable(None)
    return record_in_place


# torch functions whose calls take Dynamo's form, name -> its recorder: the foreach in-place ops, then below
# _foreach_lerp_ and the calls Dynamo answers while tracing.
TORCH_CALL_FORMS = {getattr(minitorch2, name): _foreach_in_place_as_dynamo(getattr(minitorch2, name))
                    for name in minitorch2._functions_foreach.__all__ if name.endswith("_")}


def _foreach_lerp_polyfill(self, end, weight):
    """Dynamo's polyfill of torch._foreach_lerp_ with a number weight (inlined, so its ops are the graph's): an fma
    from the nearer end, as CUDA's lerp computes it."""
    diff = minitorch2._foreach_sub(end, self)
    if abs(weight) >= 0.5:
        neg_one_minus_weight = -(1.0 - minitorch2.tensor(weight, dtype=self[0].dtype))
        for start, stop in zip(self, end):
            start.copy_(stop)
        minitorch2._foreach_addcmul_(self, [neg_one_minus_weight] * len(diff), diff)
    else:
        minitorch2._foreach_addcmul_(self, [minitorch2.full_like(d, weight) for d in diff], diff)


def foreach_lerp_as_dynamo(tx, args, kwargs):
    if len(args) == 3 and not kwargs and args[2].realize().is_python_constant():
        return tx.output.wrap(_foreach_lerp_polyfill, None).call_function(tx, list(args), {})
    return _foreach_in_place_as_dynamo(minitorch2._foreach_lerp_)(tx, args, kwargs)


TORCH_CALL_FORMS[minitorch2._foreach_lerp_] = foreach_lerp_as_dynamo


def _is_tensor_folded(tx, args, kwargs):
    """torch.is_tensor(x): a question about the tracker's type, answered while tracing (other arguments: recorded)."""
    if len(args) == 1 and not kwargs:
        return ConstantVariable(issubclass(args[0].python_type(), minitorch2.Tensor))
    return None


TORCH_CALL_FORMS[minitorch2.is_tensor] = _is_tensor_folded
TORCH_CALL_FORMS[minitorch2.get_default_dtype] = (  # (a constant of the trace: global_state.py guards it)
    lambda tx, args, kwargs: ConstantVariable(minitorch2.get_default_dtype()))


def _folded(fn):
    """torch.numel(t), is_floating_point(t), is_complex(t): the tensor's own method (its metadata, a constant or a
    size symbol); torch.promote_types of dtypes: called now. Other arguments: recorded."""
    def form(tx, args, kwargs):
        args = [*args, *kwargs.values()] if set(kwargs) <= {"input"} else []  # (input=x: the tensor by keyword)
        if len(args) == 1 and isinstance(args[0], tensor.TensorVariable):
            return args[0].call_method(tx, fn.__name__, [], {})
        if args and all(a.is_python_constant() for a in args):
            return ConstantVariable(fn(*(a.as_python_constant() for a in args)))
        return None
    return form


for _fn in (minitorch2.numel, minitorch2.is_floating_point, minitorch2.is_complex, minitorch2.promote_types):
    TORCH_CALL_FORMS[_fn] = _folded(_fn)


def _broadcast_shapes_as_dynamo(tx, args, kwargs):
    """torch.broadcast_shapes of constant shapes: Dynamo keeps the call's node (nothing uses it) and its answer is a
    constant torch.Size."""
    if kwargs or not all(a.is_python_constant() for a in args):
        return None
    shapes = [a.as_python_constant() for a in args]
    value = minitorch2.broadcast_shapes(*shapes)
    tx.output.create_proxy("call_function", minitorch2.broadcast_shapes, shapes, {}, value)
    return SizeVariable([ConstantVariable(d) for d in value])


TORCH_CALL_FORMS[minitorch2.broadcast_shapes] = _broadcast_shapes_as_dynamo


def tensor_as_dynamo(tx, args, kwargs):
    """torch.tensor(data) where data holds a size symbol or a tensor: torch._refs.tensor, as Dynamo records it."""
    data = args[0] if args else kwargs.get("data")
    if data is None or isinstance(data, tensor.TensorVariable) or not _holds_traced_value(data):
        return None
    return tensor.record(tx.output, "call_function", _refs.tensor, args, kwargs)


def _holds_traced_value(var):
    if isinstance(var, (SymNodeVariable, tensor.TensorVariable)):
        return True
    items = getattr(var, "items", ())  # (a dict's trackers are its values: torch.tensor({...}) raises as eager)
    return any(_holds_traced_value(item.realize()) for item in (items.values() if isinstance(items, dict) else items))


def drop_undone_grad_switches(graph, mode):
    """Dynamo's cleanup_graph: a grad-mode switch straight undone goes (a resume function's re-entered, empty no_grad
    block); `mode` is the one the graph starts in."""
    nodes = list(graph.nodes)
    for a, b in zip(nodes, nodes[1:]):
        if a.target is _set_grad_enabled and a.args == (not mode,) and not a._erased:
            if b.target is _set_grad_enabled and b.args == (mode,):
                graph.erase_node(a), graph.erase_node(b)
            else:
                mode = a.args[0]


# Questions about the process that Dynamo answers while tracing, leaving no node (its constant_fold_functions, and
# the flags its trace rules fold the same way): `if torch.cuda.is_available():` in a forward is decided then. Grad
# mode and autocast are guarded with the global state.
ANSWERED_WHILE_TRACING = {
    minitorch2.is_grad_enabled, minitorch2.is_autocast_enabled, minitorch2.get_autocast_dtype,
    minitorch2.cuda.is_available, minitorch2.cuda.is_initialized, minitorch2.accelerator.is_available,
    minitorch2.xpu.is_available, minitorch2.xpu.is_initialized, minitorch2.is_autocast_cache_enabled,
    minitorch2.is_autocast_cpu_enabled, minitorch2.get_autocast_gpu_dtype, minitorch2.onnx.is_in_onnx_export,
    minitorch2.fx._symbolic_trace.is_fx_tracing, minitorch2.jit.is_tracing, minitorch2._C._get_tracing_state,
    minitorch2._C._is_any_autocast_enabled, minitorch2._C._get_cublas_allow_tf32,
    minitorch2._C._get_privateuse1_backend_name, minitorch2.autograd._is_checkpoint_valid,
    minitorch2.nn.functional._Reduction.get_enum}


def _has_torch_function_folded(fn):
    """torch.overrides.has_torch_function(args), _unary(a), _variadic(*args): answered from the trackers' types while
    tracing, as Dynamo answers them (a plain tensor takes over nothing)."""
    def form(tx, args, kwargs):
        items = args[0].unpack_var_sequence(tx) if fn is minitorch2.overrides.has_torch_function else args
        return ConstantVariable(any(minitorch2.overrides.overrides_type(a.realize().python_type()) for a in items))
    return form


for _fn in (minitorch2.overrides.has_torch_function, minitorch2.overrides.has_torch_function_unary,
            minitorch2.overrides.has_torch_function_variadic):
    TORCH_CALL_FORMS[_fn] = _has_torch_function_folded(_fn)


def backends_flag_source(torch_var, name, attr):
    """The source of torch.backends, its modules, their flags and flag objects (torch.backends.cuda.matmul), read in
    the frame: a flag the script sets between calls is guarded, as Dynamo guards it. None for the rest of torch's
    modules (functions and constants)."""
    homes = (getattr(torch_var.value, "__name__", ""),
             attr.__name__ if isinstance(attr, types.ModuleType) else type(attr).__module__)
    if torch_var.source is not None and any(home.startswith("minitorch2.backends") for home in homes):
        return AttrSource(torch_var.source, name)
    return None


def _answered_now(fn):
    """torch.distributed.is_available(), is_initialized(), get_rank(), get_world_size(): Dynamo calls them while
    tracing and keeps the answer as a constant (a library's `if dist.is_initialized()` leaves no node). One that
    raises (get_rank with no process group) is recorded, to raise as eager does."""
    def form(tx, args, kwargs):
        if not all(a.is_python_constant() for a in [*args, *kwargs.values()]):
            return None
        try:
            return ConstantVariable(fn(*(a.as_python_constant() for a in args),
                                       **{k: v.as_python_constant() for k, v in kwargs.items()}))
        except ValueError:
            return None
    return form


for _fn in (minitorch2.distributed.is_available, minitorch2.distributed.is_initialized,
            minitorch2.distributed.get_rank, minitorch2.distributed.get_world_size):
    TORCH_CALL_FORMS[_fn] = _answered_now(_fn)
