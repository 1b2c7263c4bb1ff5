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
function, so `node.target is torch.sigmoid` holds. `RECORDED_REBOUND` lists the calls
PyTorch's Python records normalised (`F.relu(x)` records `inplace=False`).
"""
import builtins
import functools
import inspect
import types

from .._ops import OpOverload, OpOverloadPacket
from .._tensor import Tensor
from ._spelling import forget_spellings, public_functions
from .node import map_aggregate
from .proxy import Proxy

# PyTorch's functions written in Python hand a call on to __torch_function__ rebound: the parameters without a
# default positionally, the others by keyword, every default filled in (`F.relu(x)` records `relu(x, inplace=False)`).
# Its C functions record a call as written. Two Python ones only call the tensor method: a call_method is recorded.
RECORDED_REBOUND = frozenset([
    *(f"nn.functional.{name}" for name in """relu relu6 selu silu mish hardswish hardsigmoid elu celu softmax
      log_softmax softmin dropout dropout1d dropout2d max_pool1d max_pool2d tanhshrink softsign leaky_relu hardtanh
      glu threshold batch_norm layer_norm rms_norm group_norm instance_norm embedding adaptive_avg_pool2d
      adaptive_max_pool2d cross_entropy nll_loss mse_loss l1_loss smooth_l1_loss binary_cross_entropy
      binary_cross_entropy_with_logits kl_div pad normalize interpolate unfold fold""".split()),
    "split", "einsum", "broadcast_tensors", "meshgrid", "tensordot", "cdist", "norm",
])
RECORDED_AS_METHOD = frozenset({"nn.functional.sigmoid", "nn.functional.tanh"})

# Public minitorch2 functions that never see tensors, so are never recorded.
_NOT_RECORDED = frozenset({
    "compile", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "get_default_dtype",
    "set_default_dtype", "is_grad_enabled", "is_inference_mode_enabled", "is_tensor", "promote_types", "can_cast",
})


def find_proxy(*objects):
    """The last Proxy inside (nested) arguments, or None."""
    proxies = []
    map_aggregate(objects, lambda x: proxies.append(x) if isinstance(x, Proxy) else None)
    return proxies[-1] if proxies else None


def _rebound(fn, args, kwargs):
    """A call as PyTorch's Python function hands it on (see RECORDED_REBOUND); as it is if it does not bind."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    new_args, new_kwargs = [], {}
    for name, parameter in bound.signature.parameters.items():
        if parameter.kind is parameter.VAR_POSITIONAL:
            new_args.extend(bound.arguments[name])
        elif parameter.default is parameter.empty and parameter.kind is not parameter.KEYWORD_ONLY:
            new_args.append(bound.arguments[name])
        elif parameter.kind is not parameter.VAR_KEYWORD:
            new_kwargs[name] = bound.arguments[name]
    return tuple(new_args), new_kwargs


def _recording(original, record, skip=0):
    """original, except that a call with a Proxy among its arguments (the first `skip` aside: a method's
    self) is recorded instead, by record(tracer, args, kwargs)."""

    @functools.wraps(original)
    def wrapped(*args, **kwargs):
        proxy = find_proxy(args[skip:], kwargs)
        if proxy is None:
            return original(*args, **kwargs)
        return record(proxy.tracer, args, kwargs)

    return wrapped


def recording_wrapper(fn, path, for_good=False):
    """Wrap a minitorch2 function: with a Proxy among the arguments, record it; else just call it. A wrapper
    installed for good takes the function's place, so it is the node's target (`node.target is F.relu`)."""

    def record(tracer, args, kwargs):
        if path in RECORDED_AS_METHOD:
            return _record_method_call(fn.__name__, tracer, args, kwargs)
        if path in RECORDED_REBOUND:
            args, kwargs = _rebound(fn, args, kwargs)
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


def _record_method_call(method_name, tracer, args, kwargs):
    return tracer.create_proxy("call_method", method_name, args, kwargs)


def patch_tensor_methods(patcher):
    """Tensor methods called on a real tensor with a Proxy argument record a call_method."""
    for name, value in list(vars(Tensor).items()):
        if name in TENSOR_OPERATOR_METHODS or (not name.startswith("_") and isinstance(value, types.FunctionType)):
            method_name = TENSOR_OPERATOR_METHODS.get(name, name)
            patcher.set_attr(Tensor, name, _recording(value, functools.partial(_record_method_call, method_name), 1))


def torch_functions():
    """{id: path} for every public function of the function namespaces (and the function a recording wrapper
    installed for good wraps: names bound before it was installed still hold that one)."""
    paths = {}
    for _, prefix, name, value in public_functions():
        if name not in _NOT_RECORDED and not isinstance(value, type):
            paths.setdefault(id(value), prefix + name)
            if getattr(value, "__fx_already_patched", False):
                paths.setdefault(id(value.__wrapped__), prefix + name)
    return paths


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
    for module, prefix, name, value in public_functions():
        if id(value) in functions:
            patcher.set_item(vars(module), name, recording_wrapper(value, prefix + name, for_good))
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
        if id(value) in functions:
            patcher.set_item(frame_dict, name, recording_wrapper(value, functions[id(value)]))
        elif id(value) in autowrap_ids:
            patcher.set_item(frame_dict, name, leaf_function_wrapper(value))
