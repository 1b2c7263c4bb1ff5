"""The composite ops torch.export keeps whole: `aten.linear`, `aten.conv2d`, `aten.batch_norm`, `aten.group_norm`, ...

torch.export layer (coverage surface), used while `export` traces. PyTorch's export records ops at
its pre-dispatch level, above the point where a CompositeImplicitAutograd op (one whose kernel is just
other ops, such as linear = t + addmm) turns into its parts; so its graph says `aten.linear.default`
where make_fx, running below that point, records `t` and `addmm`. minitorch2's torch-level functions
call the parts directly and have no such level, so export plays it here:

    PRESERVED          one row per composite op: its schema, what it computes (the runtime's own
                       function, called with the schema's arguments), and the torch-level names
                       that call it, each with how its arguments become the schema's
    preserving_ops()   while export traces, those names are replaced by functions calling the row's
                       CompositeOp; the op reaches the dispatcher once, so the tracer records one
                       node, and computes its value from its parts without recording them

Outside a trace (running an exported graph, or its decomposition) a CompositeOp just runs its parts,
as torch's composite kernels do, so autograd and the decomposition tracer see the parts.

The one idea to hold: the rows are torch's op names and argument conventions; what the op computes is
always minitorch2's existing function, so nothing here is a second implementation.
"""
import contextlib
import threading
from dataclasses import dataclass, field

import minitorch2

from .. import _dispatch, _functions_linalg, _functions_reductions, _functions_shape
from .._aten.table_row import OpEntry
from .._ops import OpOverload
from .._tensor import Tensor
from ..backends import cudnn
from ..fx._spelling import forget_spellings
from ..nn import functional as F


class _Recording(threading.local):
    active = False  # export is tracing, and no CompositeOp is computing its parts on this thread


_recording = _Recording()


@contextlib.contextmanager
def _parts_unrecorded():
    saved = _recording.active
    _recording.active = False
    try:
        yield
    finally:
        _recording.active = saved


class CompositeOp(OpOverload):
    """An aten overload whose kernel is other ops (CompositeImplicitAutograd). It prints and names graph nodes
    as any OpOverload; called while export records, it goes through the dispatcher as one op (the tracer
    records it, then its meta or kernel computes the value from the parts); otherwise it runs its parts."""

    def __init__(self, schema, compute):
        def compute_unrecorded(*args, **kwargs):
            with _parts_unrecorded():
                return compute(*args, **kwargs)

        super().__init__(OpEntry(schema, (), compute_unrecorded, compute_unrecorded, decomposition=compute,
                                 differentiable=False))

    def __call__(self, *args, **kwargs):
        args, kwargs = self._schema.normalize(self, args, kwargs)
        args, kwargs = self._schema.check_types(self, args, kwargs)
        if not _recording.active:
            return self.decomposition(*args, **kwargs)
        return _dispatch.dispatch(self, args, kwargs)


@dataclass
class Preserved:
    schema: str
    compute: object  # the op's value from its schema arguments: minitorch2's function for it
    callers: dict = field(default_factory=dict)  # "nn.functional.linear" -> call arguments to schema arguments


def _same(*args, **kwargs):
    """The caller's arguments are the schema's, in its order."""
    return args, kwargs


def _cudnn_flag():
    return cudnn.enabled  # export traces with the flag off, as torch's does, so the graph records False


def _batch_norm_call(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
                     eps=1e-5):
    return (input, weight, bias, running_mean, running_var, training, momentum, eps, _cudnn_flag()), {}


def _layer_norm_call(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return (input, list(normalized_shape), weight, bias, eps, _cudnn_flag()), {}


def _group_norm_call(input, num_groups, weight=None, bias=None, eps=1e-5):
    return (input, num_groups, weight, bias, eps, _cudnn_flag()), {}


def _dropout_call(input, p=0.5, training=True, inplace=False):
    return None if inplace else ((input, p, training), {})  # the in-place form is aten.dropout_, not kept


def _functional_softmax_call(input, dim=None, _stacklevel=3, dtype=None):
    return None if dim is None else ((input, dim, dtype), {})  # the implicit dim warns and is not kept


def _softmax_call(input, dim, dtype=None, *, _stacklevel=3):
    return (input, dim, dtype), {}


def _reshape_method_call(self, *shape):
    return (self, list(shape[0] if len(shape) == 1 and not isinstance(shape[0], int) else shape)), {}


def _reshape_call(input, shape, *more):
    return _reshape_method_call(input, shape, *more)


def _adaptive_avg_pool2d_call(input, output_size):
    sizes = [output_size, output_size] if isinstance(output_size, int) else list(output_size)
    return (input, [input.shape[-2 + i] if s is None else s for i, s in enumerate(sizes)]), {}


def _max_pool2d_call(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        return None  # torch calls max_pool2d_with_indices, a row of the op table, recorded as it is
    return (input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode), {}


# the runtime's own, not the recording callers export installs
_batch_norm, _layer_norm, _group_norm = F.batch_norm, F.layer_norm, F.group_norm
PRESERVED = [
    Preserved("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", F.linear,
              {"nn.functional.linear": _same}),
    Preserved("conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, "
              "SymInt[1] dilation=1, SymInt groups=1) -> Tensor", F.conv1d, {"nn.functional.conv1d": _same}),
    Preserved("conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
              "SymInt[2] dilation=1, SymInt groups=1) -> Tensor", F.conv2d, {"nn.functional.conv2d": _same}),
    Preserved("batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
              "bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
              lambda input, weight, bias, mean, var, training, momentum, eps, cudnn_enabled: _batch_norm(
                  input, mean, var, weight, bias, training, momentum, eps),
              {"nn.functional.batch_norm": _batch_norm_call}),
    Preserved("layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
              "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
              lambda input, shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True: _layer_norm(
                  input, shape, weight, bias, eps),
              {"nn.functional.layer_norm": _layer_norm_call}),
    Preserved("group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, "
              "bool cudnn_enabled=True) -> Tensor",
              lambda input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True: _group_norm(
                  input, num_groups, weight, bias, eps),
              {"nn.functional.group_norm": _group_norm_call}),
    Preserved("dropout(Tensor input, float p, bool train) -> Tensor", F.dropout,
              {"nn.functional.dropout": _dropout_call}),
    Preserved("softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", _functions_reductions.softmax,
              {"nn.functional.softmax": _functional_softmax_call, "softmax": _softmax_call,
               "Tensor.softmax": _softmax_call}),
    Preserved("log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
              _functions_reductions.log_softmax,
              {"nn.functional.log_softmax": _functional_softmax_call, "log_softmax": _softmax_call,
               "Tensor.log_softmax": _softmax_call}),
    Preserved("matmul(Tensor self, Tensor other) -> Tensor", _functions_linalg.matmul,
              {"matmul": _same, "Tensor.matmul": _same, "Tensor.__matmul__": _same}),
    Preserved("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
              _functions_shape.flatten, {"flatten": _same, "Tensor.flatten": _same}),
    Preserved("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", _functions_shape.reshape,
              {"reshape": _reshape_call, "Tensor.reshape": _reshape_method_call}),
    Preserved("adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", F.adaptive_avg_pool2d,
              {"nn.functional.adaptive_avg_pool2d": _adaptive_avg_pool2d_call}),
    Preserved("max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
              "bool ceil_mode=False) -> Tensor", F.max_pool2d, {"nn.functional.max_pool2d": _max_pool2d_call}),
]
COMPOSITE_OPS = {row.schema.split("(")[0]: CompositeOp(row.schema, row.compute) for row in PRESERVED}


def _recording_caller(op, original, to_schema):
    def call(*args, **kwargs):
        arguments = to_schema(*args, **kwargs)
        if arguments is None or not any(isinstance(a, Tensor) for a in arguments[0]):
            return original(*args, **kwargs)
        return op(*arguments[0], **arguments[1])

    call.__name__, call.__qualname__, call.__doc__ = original.__name__, original.__qualname__, original.__doc__
    return call


@contextlib.contextmanager
def preserving_ops():
    """While active, the callers named in PRESERVED call their CompositeOp, and the ops record; cudnn's flag
    is off, as torch's export turns it off."""
    namespaces = {"": minitorch2, "nn.functional": F, "Tensor": Tensor}
    replaced = []
    for row in PRESERVED:
        op = COMPOSITE_OPS[row.schema.split("(")[0]]
        for place, to_schema in row.callers.items():
            owner_path, _, name = place.rpartition(".")
            owner = namespaces[owner_path]
            original = getattr(owner, name)
            replaced.append((owner, name, original, name in vars(owner)))
            setattr(owner, name, _recording_caller(op, original, to_schema))
    forget_spellings()  # the callers are spelled as the functions they replace
    saved_flag, cudnn.enabled = cudnn.enabled, False
    saved_recording, _recording.active = _recording.active, True
    try:
        yield
    finally:
        _recording.active = saved_recording
        cudnn.enabled = saved_flag
        for owner, name, original, owned in reversed(replaced):
            if owned:
                setattr(owner, name, original)
            else:
                delattr(owner, name)
        forget_spellings()
