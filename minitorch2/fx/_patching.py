"""How `minitorch2.relu(proxy)` becomes a call_function node during tracing.

FX layer, support for symbolic tracing. PyTorch records `torch.relu(proxy)`
through `__torch_function__`; minitorch2's functions have no such hook (it
would put a tracing concern into code that should only compute). So, during
tracing only, the *namespaces* are patched instead (as torch.fx does for
`fx.wrap` and `math.sqrt`):

    minitorch2.<f>, minitorch2.nn.functional.<f>   each public function is replaced by a
                                                   wrapper that records a node when a Proxy
                                                   is among its arguments, else calls through
    the traced forwards' globals                   names bound by `from torch import relu`
    OpOverload.__call__, OpOverloadPacket.__call__ `torch.ops.aten.mm.default(proxy, ...)`
    Tensor methods and operators                   `constant * proxy`, `constant.add(proxy)`:
                                                   a call_method on the constant, as in torch
    nn.Module.__call__ / __getattr__               (done by the Tracer: leaf modules, parameters)

Every patch is undone when tracing ends. The node's target is the original
function, so `node.target is torch.sigmoid` holds. `RECORDED_AS` lists the calls
PyTorch's Python records normalised (`F.relu(x)` records `inplace=False`).
"""
import builtins
import inspect
import types

from .._ops import OpOverload, OpOverloadPacket
from .._tensor import Tensor
from ._spelling import forget_spellings, function_namespaces
from .node import map_aggregate
from .proxy import Proxy

# PyTorch's recording convention for functions implemented in Python:
# (arguments passed positionally, arguments passed by keyword), every one
# present, defaults filled in. "method" means PyTorch's function just calls
# the tensor method, so a call_method node is recorded.
def _functional(names, convention):
    return {f"nn.functional.{name}": convention for name in names.split()}


RECORDED_AS = {
    **_functional("relu relu6 selu silu mish hardswish hardsigmoid", (("input",), ("inplace",))),
    **_functional("elu celu", (("input",), ("alpha", "inplace"))),
    **_functional("softmax log_softmax softmin", (("input",), ("dim", "_stacklevel", "dtype"))),
    **_functional("dropout dropout1d dropout2d", (("input",), ("p", "training", "inplace"))),
    **_functional("max_pool1d max_pool2d",
                  (("input", "kernel_size"), ("stride", "padding", "dilation", "ceil_mode", "return_indices"))),
    **_functional("tanhshrink softsign", (("input",), ())),
    **_functional("sigmoid tanh", "method"),
    "nn.functional.leaky_relu": (("input",), ("negative_slope", "inplace")),
    "nn.functional.hardtanh": (("input",), ("min_val", "max_val", "inplace")),
    "nn.functional.glu": (("input",), ("dim",)),
    "nn.functional.threshold": (("input", "threshold", "value"), ("inplace",)),
    "nn.functional.batch_norm": (("input", "running_mean", "running_var"), ("weight", "bias", "training", "momentum", "eps")),
    "nn.functional.layer_norm": (("input", "normalized_shape"), ("weight", "bias", "eps")),
    "nn.functional.rms_norm": (("input", "normalized_shape"), ("weight", "eps")),
    "nn.functional.group_norm": (("input", "num_groups"), ("weight", "bias", "eps")),
    "nn.functional.instance_norm": (("input",), ("running_mean", "running_var", "weight", "bias", "use_input_stats", "momentum", "eps")),
    "nn.functional.embedding": (("input", "weight"), ("padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse")),
    "nn.functional.adaptive_avg_pool2d": (("input", "output_size"), ()),
    "nn.functional.adaptive_max_pool2d": (("input", "output_size"), ("return_indices",)),
    "nn.functional.cross_entropy": (("input", "target"), ("weight", "size_average", "ignore_index", "reduce", "reduction", "label_smoothing")),
    "nn.functional.nll_loss": (("input", "target"), ("weight", "size_average", "ignore_index", "reduce", "reduction")),
    "nn.functional.mse_loss": (("input", "target"), ("size_average", "reduce", "reduction", "weight")),
    "nn.functional.l1_loss": (("input", "target"), ("size_average", "reduce", "reduction")),
    "nn.functional.smooth_l1_loss": (("input", "target"), ("size_average", "reduce", "reduction", "beta")),
    "nn.functional.binary_cross_entropy": (("input", "target"), ("weight", "size_average", "reduce", "reduction")),
    "nn.functional.binary_cross_entropy_with_logits": (("input", "target"), ("weight", "size_average", "reduce", "reduction", "pos_weight")),
    "nn.functional.kl_div": (("input", "target"), ("size_average", "reduce", "reduction", "log_target")),
    "nn.functional.pad": (("input", "pad"), ("mode", "value")),
    "nn.functional.normalize": (("input",), ("p", "dim", "eps", "out")),
    "nn.functional.interpolate": (("input",), ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias")),
    "nn.functional.unfold": (("input", "kernel_size"), ("dilation", "padding", "stride")),
    "nn.functional.fold": (("input", "output_size", "kernel_size"), ("dilation", "padding", "stride")),
    "split": (("tensor", "split_size_or_sections"), ("dim",)),
    "einsum": (("equation", "*operands"), ()),
    "broadcast_tensors": (("*tensors",), ()),
    "meshgrid": (("*tensors",), ("indexing",)),
    "tensordot": (("a", "b"), ("dims", "out")),
    "cdist": (("x1", "x2"), ("p", "compute_mode")),
    "norm": (("input",), ("p", "dim", "keepdim", "out", "dtype")),
}

# Public minitorch2 functions that never see tensors, so are never recorded.
_NOT_RECORDED = frozenset({
    "compile", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "get_default_dtype",
    "set_default_dtype", "is_grad_enabled", "is_inference_mode_enabled", "is_tensor", "promote_types", "can_cast",
})


def find_proxy(*objects):
    """The last Proxy inside (nested) arguments, or None."""
    found = None

    def visit(x):
        nonlocal found
        if isinstance(x, Proxy):
            found = x
        return x

    map_aggregate(objects, visit)
    return found


def _normalize(fn, convention, args, kwargs):
    """Rebind a call to PyTorch's recorded shape (positional part, keyword part); None if it does not fit."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    positional_names, keyword_names = convention
    new_args = []
    for name in positional_names:
        if name.startswith("*"):
            new_args.extend(bound.arguments.get(name[1:], ()))
        elif name in bound.arguments:
            new_args.append(bound.arguments[name])
        else:
            return None
    new_kwargs = {name: bound.arguments[name] for name in keyword_names if name in bound.arguments}
    return tuple(new_args), new_kwargs


def _recording(original, record, name=None, skip=0):
    """original, except that a call with a Proxy among its arguments (the first `skip` aside: a method's
    self) is recorded instead, by record(tracer, args, kwargs)."""

    def wrapped(*args, **kwargs):
        proxy = find_proxy(args[skip:], kwargs)
        if proxy is None:
            return original(*args, **kwargs)
        return record(proxy.tracer, args, kwargs)

    wrapped.__name__ = name or getattr(original, "__name__", "wrapped")
    wrapped.__qualname__ = getattr(original, "__qualname__", wrapped.__name__)
    wrapped.__module__ = getattr(original, "__module__", __name__)
    wrapped.__wrapped__ = original
    return wrapped


def recording_wrapper(fn, path, for_good=False):
    """Wrap a minitorch2 function: with a Proxy among the arguments, record it; else just call it. A wrapper
    installed for good takes the function's place, so it is the node's target (`node.target is F.relu`)."""
    convention = RECORDED_AS.get(path)

    def record(tracer, args, kwargs):
        if convention == "method":
            return tracer.create_proxy("call_method", fn.__name__, args, kwargs)
        if convention is not None:
            args, kwargs = _normalize(fn, convention, args, kwargs) or (args, kwargs)
        return tracer.create_proxy("call_function", wrapped if for_good else fn, args, kwargs)

    wrapped = _recording(fn, record)
    wrapped.__fx_already_patched = True
    return wrapped


def leaf_function_wrapper(fn):
    """fx.wrap / autowrap: record calls with Proxy arguments as call_function, marked `is_wrapped`."""

    def record(tracer, args, kwargs):
        result = tracer.create_proxy("call_function", fn, args, kwargs)
        result.node.meta["is_wrapped"] = True
        return result

    return _recording(fn, record)


def _record_op_call(tracer, args, kwargs):
    """`aten.mm.default(proxy, ...)`: the op itself (args[0]) is the call_function's target."""
    return tracer.create_proxy("call_function", args[0], args[1:], kwargs)


# A real tensor's operator with a Proxy operand is recorded as the method
# PyTorch's __torch_function__ sees: `c * x` -> `c.mul(x)`, `c & x` -> `c.__and__(x)`.
TENSOR_OPERATOR_METHODS = {
    "__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div", "__matmul__": "matmul",
    "__pow__": "pow", "__mod__": "remainder", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le",
    "__gt__": "gt", "__ge__": "ge", "__and__": "__and__", "__or__": "__or__", "__xor__": "__xor__",
    "__floordiv__": "__floordiv__", "__getitem__": "__getitem__",
}


def _tensor_method_wrapper(original, method_name):
    def record(tracer, args, kwargs):
        return tracer.create_proxy("call_method", method_name, args, kwargs)

    return _recording(original, record, getattr(original, "__name__", method_name), skip=1)


def patch_tensor_methods(patcher):
    """Tensor methods called on a real tensor with a Proxy argument record a call_method."""
    for name, value in list(vars(Tensor).items()):
        if name in TENSOR_OPERATOR_METHODS:
            patcher.set_attr(Tensor, name, _tensor_method_wrapper(value, TENSOR_OPERATOR_METHODS[name]))
        elif not name.startswith("_") and isinstance(value, types.FunctionType):
            patcher.set_attr(Tensor, name, _tensor_method_wrapper(value, name))


def torch_functions():
    """{id: (path, function)} for every public function of the function namespaces."""
    result = {}
    for prefix, module in function_namespaces():
        for name, value in vars(module).items():
            if name.startswith("_") or name in _NOT_RECORDED or isinstance(value, (type, types.ModuleType)):
                continue
            if not callable(value) or not getattr(value, "__module__", "").startswith("minitorch2"):
                continue
            result.setdefault(id(value), (prefix + name, value))
            if getattr(value, "__fx_already_patched", False):  # recording for good: names bound before hold
                result.setdefault(id(value.__wrapped__), (prefix + name, value))  # the function it wraps
    return result


class _Patcher:
    """Records every patch it makes and undoes them all on exit."""

    def __init__(self):
        self._undo = []
        self._visited = set()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        while self._undo:
            self._undo.pop()()
        self._visited.clear()

    def set_item(self, mapping, name, value):
        if name not in mapping and hasattr(builtins, name):
            self._undo.append(lambda: mapping.pop(name, None))
        else:
            old = mapping[name]
            self._undo.append(lambda: mapping.__setitem__(name, old))
        mapping[name] = value

    def set_attr(self, owner, name, value):
        old = owner.__dict__[name]
        self._undo.append(lambda: setattr(owner, name, old))
        setattr(owner, name, value)

    def visit_once(self, thing):
        if id(thing) in self._visited:
            return False
        self._visited.add(id(thing))
        return True


def patch_torch_namespaces(patcher, functions, for_good=False):
    """Install recording wrappers in minitorch2 and minitorch2.nn.functional, and on OpOverload calls."""
    for prefix, module in function_namespaces():
        module_dict = vars(module)
        for name, value in list(module_dict.items()):
            entry = functions.get(id(value))
            if entry is not None and not name.startswith("_"):
                patcher.set_item(module_dict, name, recording_wrapper(value, prefix + name, for_good))
    for cls in (OpOverload, OpOverloadPacket):
        patcher.set_attr(cls, "__call__", _recording(cls.__dict__["__call__"], _record_op_call, skip=1))
    patch_tensor_methods(patcher)


_RECORDING_FOR_GOOD = []


def record_torch_functions_on_proxies():
    """Install the namespace patches for the rest of the process (once): a program building graphs by hand
    calls torch functions on Proxies outside any symbolic_trace. Calls without a Proxy go through unchanged."""
    if not _RECORDING_FOR_GOOD:
        patcher = _Patcher()  # never exited: nothing is undone
        patch_torch_namespaces(patcher, torch_functions(), for_good=True)
        forget_spellings()
        _RECORDING_FOR_GOOD.append(patcher)


def patch_globals(patcher, frame_dict, functions, autowrap_ids):
    """In a traced function's globals, wrap names bound to torch functions or autowrapped functions."""
    if not patcher.visit_once(frame_dict):
        return
    for name, value in list(frame_dict.items()):
        if name.startswith("_") or isinstance(value, Proxy) or not callable(value) or getattr(
                value, "__fx_already_patched", False):
            continue
        entry = functions.get(id(value))
        if entry is not None:
            patcher.set_item(frame_dict, name, recording_wrapper(value, entry[0]))
        elif id(value) in autowrap_ids:
            patcher.set_item(frame_dict, name, leaf_function_wrapper(value))
