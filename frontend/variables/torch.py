"""TorchVariable: minitorch2 itself (the `torch` namespace) and its functions.

Frontend layer. `torch.relu(x)` and `F.linear(x, w, b)` become one `call_function` node each, printed as PyTorch
spells them (`torch._C._nn.linear`): recorded at torch level, not opened up (aten is `autograd/`'s business).
"""
import inspect
import types

import minitorch2
from minitorch2 import _ops

from ..exc import Unsupported
from .base import ValueVariable
from . import checkpoint_hop, higher_order
from .constant import ConstantVariable
from .dynamo_forms import (ANSWERED_WHILE_TRACING, TORCH_CALL_FORMS, addcdiv_as_dynamo, backends_flag_source,
                           pad_as_dynamo, record_runtime_assert, tensor_as_dynamo)
from .numpy_arrays import ndarray_as_tensor
from .size_builtins import check_is_size_in_graph
from .sym_node import SymNodeVariable
from .tensor import record

# `torch.ops`, `torch.ops.aten` and an op's overloads (`torch.ops.aten.add.Tensor`): attribute reads are
# resolved while translating, and a call of a packet or an overload becomes a node, as in Dynamo.
OP_NAMESPACES = (_ops._Ops, _ops._AtenNamespace, _ops.OpOverloadPacket)

# Library code written in Python over tensors, which Dynamo inlines rather than putting into the graph: a
# Distribution's methods must be traced (their tensors are its parameters), not recorded as one opaque call;
# the backends' flags are read as guarded constants; the compile markers are the translator's own (functions.py);
# F.lp_pool* and nn.utils.parameters_to_vector are Python over avg_pool and cat in torch too.
INLINED_PACKAGES = ("minitorch2.distributions", "minitorch2.utils.data", "minitorch2.optim", "minitorch2.backends",
                    "minitorch2._compile_markers", "minitorch2.jit", "minitorch2.nn._functional_lp_pool",
                    "minitorch2.nn.utils.convert_parameters")

# torch._dynamo.allow_in_graph / disallow_in_graph (frontend/compiler.py): ids of the functions whose calls are one
# graph node instead of being inlined, and of those whose calls are a graph break: from the start, autograd.grad (while
# trace_autograd_ops is off) and the generator's state functions of torch/random.py, a file Dynamo skips.
ALLOWED_IN_GRAPH = set()
DISALLOWED_IN_GRAPH = {id(f) for f in (minitorch2.autograd.grad, minitorch2.get_rng_state, minitorch2.set_rng_state)}


def _check_at_translation(tx, args, kwargs):
    """torch._check(cond): decided now (a size condition becomes a fact and a guard); a symbolic one also leaves
    Dynamo's runtime-assert node (dynamo_forms.py)."""
    cond = args[0]
    if isinstance(cond, SymNodeVariable):
        minitorch2._check(cond.value)
        record_runtime_assert(tx, cond)
    elif cond.is_python_constant():
        minitorch2._check(cond.as_python_constant())
    else:
        return None
    return ConstantVariable(None)


# Functions recorded as the few simpler ops Dynamo rewrites them into (None: recorded as they are).
DECOMPOSED = {minitorch2.addcdiv: addcdiv_as_dynamo, minitorch2._check: _check_at_translation,
              minitorch2._check_is_size: check_is_size_in_graph, minitorch2.nn.functional.pad: pad_as_dynamo,
              minitorch2.from_numpy: ndarray_as_tensor, minitorch2.as_tensor: ndarray_as_tensor,
              minitorch2.tensor: tensor_as_dynamo, **TORCH_CALL_FORMS,
              minitorch2.utils.checkpoint.checkpoint: checkpoint_hop.checkpoint_as_dynamo}


class TorchVariable(ValueVariable):
    def var_getattr(self, tx, name):
        if not isinstance(self.value, (types.ModuleType, *OP_NAMESPACES)):
            raise Unsupported(f"attribute {name!r} of {self.value}", "unsupported_attr")
        try:
            attr = getattr(self.value, name)
        except Exception as e:
            raise Unsupported(f"{getattr(self.value, '__name__', self.value)}.{name}: {e}", "unsupported_attr") from None
        return tx.output.wrap(attr, backends_flag_source(self, name, attr))

    def call_function(self, tx, args, kwargs):
        fn = self.value
        if isinstance(fn, (types.ModuleType, _ops._Ops, _ops._AtenNamespace)):
            raise Unsupported(f"calling module {fn.__name__}", "unsupported_call")
        if fn in ANSWERED_WHILE_TRACING:
            return ConstantVariable(fn(*(a.realize().as_python_constant() for a in args)))
        if getattr(fn, "__func__", fn) is minitorch2.autograd.Function.apply.__func__:  # a custom Function's apply
            return higher_order.call_autograd_function(tx, self, args, kwargs)
        args, kwargs = [a.realize() for a in args], {k: v.realize() for k, v in kwargs.items()}
        if "requires_grad" in kwargs and kwargs["requires_grad"].as_python_constant():  # (as Dynamo: a break)
            raise Unsupported("Attempted to use tensor creation function with requires_grad=True", "unsupported_call")
        decomposed = DECOMPOSED[fn](tx, args, kwargs) if fn in DECOMPOSED else None
        return decomposed or record(tx.output, "call_function", fn, args, kwargs)

    def reconstruct(self, cg):
        cg.append("LOAD_CONST", self.value)

    output_plan = ConstantVariable.output_plan  # (returned from the frame: the module or function itself)


def is_torch_object(value):
    if isinstance(value, (types.ModuleType, *OP_NAMESPACES)):  # (an op namespace, or one of minitorch2's modules)
        return isinstance(value, OP_NAMESPACES) or f"{value.__name__}.".startswith("minitorch2.")
    if isinstance(value, type) or not callable(value) or isinstance(value, types.MethodType) and not isinstance(
            value.__self__, (types.ModuleType, type, minitorch2.Tensor)):
        return False  # (a method of a library object, q.rsample: its self holds tensors the graph must see)
    module = _module_name(value)
    if module.startswith("minitorch2.nn.utils") and not isinstance(value, types.FunctionType):
        return False  # a hook object of nn.utils' Python code (weight_norm's): a user object, its __call__ inlined
    if module.startswith("minitorch2.nn.") and isinstance(value, types.FunctionType) and value.__name__[0] == "_":
        return False  # a private helper of nn's Python code (F._canonical_mask): inlined, as Dynamo inlines torch's
    return not module.startswith(INLINED_PACKAGES) and (module == "minitorch2" or module.startswith("minitorch2."))


def _module_name(value):
    """The module a callable was defined in ('' if unknown), read without running the user's __getattr__."""
    module = value.__module__ if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)) \
        else inspect.getattr_static(value, "__module__", None)
    return module if isinstance(module, str) else ""
