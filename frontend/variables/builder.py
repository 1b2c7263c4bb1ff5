"""wrap(): turn a real Python value read from the frame into a tracker, installing its guards.

Frontend layer; the only place that decides which tracker a value gets, and guards a value with a source by its
kind (tensor metadata, constant value, object identity, sequence type and length)."""
import builtins
import collections
import enum
import functools
import types

import minitorch2
from minitorch2.fx._spelling import TorchNamespace

from .. import dynamic_shapes, guards, rnn_refusal
from ..exc import Unsupported
from ..source import AttrSource, GetItemSource, LocalSource
from .builtin import FOLDABLE, BuiltinVariable
from .constant import ConstantVariable
from .dataclass_internals import wrap_other
from .autocast import is_region, region_variable
from .base import LazyVariableTracker
from .ctx_manager import GRAD_MODE_CLASSES, GradModeClassVariable, GradModeInstanceVariable
from .dicts import DictVariable
from .exceptions import ExceptionClassVariable, is_exception_class
from .functions import DisabledFunctionVariable, UserFunctionVariable
from .lists import ListVariable, SizeVariable, TupleVariable
from .nn_module_walks import guarded_module
from .numpy_arrays import is_numpy_value, wrap_numpy
from .stdlib import (LIBRARY_CALLABLES, NamedTupleClassVariable, NamedTupleVariable, wrap_functools_object,
                     class_tracker, is_namedtuple_class)
from .optimizer import optim_tracker
from .user_defined import UserClassVariable, UserObjectVariable, is_plain_object, is_user_class
from .unbound_methods import wrap_tensor_method
from .torch import ALLOWED_IN_GRAPH, DISALLOWED_IN_GRAPH, TorchVariable, is_torch_object

CONSTANT_TYPES = (int, float, bool, str, type(None), range, slice, type(Ellipsis), minitorch2.dtype, minitorch2.device,
                  minitorch2.memory_format, minitorch2.layout, type(NotImplemented), types.CodeType, bytes, complex)
_SEQUENCE_TRACKERS = {tuple: TupleVariable, list: ListVariable, minitorch2.Size: SizeVariable}


def _is_constant(value):
    # (of CONSTANT_TYPES exactly: a subclass such as a numpy float may behave and print otherwise)
    """A value the translator folds: of one of CONSTANT_TYPES, an Enum's member, a slice of ints and Nones only."""
    if type(value) is slice:
        return all(v is None or type(v) is int for v in (value.start, value.stop, value.step))
    return type(value) in CONSTANT_TYPES or isinstance(value, enum.Enum)


# The value is the user's: any object at all. Deciding its tracker must not call its __eq__, __bool__,
# __hash__ or __getattr__ (a numpy array's == is elementwise, and its truth raises), so the tests below
# compare by identity and read attributes only of functions and classes, whose attributes are plain.


def _is_one_of(value, candidates):
    return any(value is c for c in candidates)


def _is_disabled_function(value):
    """A function made by frontend.disable (or a functools.wraps of one, which copies its __dict__)."""
    return isinstance(value, types.FunctionType) and value.__dict__.get("_torchdynamo_disable") is True


def _is_builtin_class(value):
    """int, range, enumerate...: a class the builtins module names."""
    return isinstance(value, type) and vars(builtins).get(type.__dict__["__name__"].__get__(value)) is value


def _sequence_tracker(value):
    # (a namedtuple or torch.Size keeps its type; any other subclass may index, iterate or measure itself its own way)
    """How to model a tuple or list item by item: (items, source) -> tracker."""
    cls = type(value)
    if cls in _SEQUENCE_TRACKERS:
        return _SEQUENCE_TRACKERS[cls]
    if issubclass(cls, tuple) and is_namedtuple_class(cls):
        return lambda items, source: NamedTupleVariable(items, cls, source, instance=value)
    raise Unsupported(f"a value of {cls.__name__}, a subclass of {cls.__mro__[1].__name__}", "unsupported")


def _item(og, value, container_source, key):
    """An item of an input container: wrapped at first use, as Dynamo's (graph inputs in the frame's order of use)."""
    source = None if container_source is None else GetItemSource(container_source, key)
    return wrap(og, value, None) if source is None else LazyVariableTracker(og, value, source)


def wrap(og, value, source):
    if isinstance(value, minitorch2.Tensor):
        if source is None or value.is_sparse:  # as Dynamo, no sparse tensor in a graph: the frame runs eagerly
            raise Unsupported("a tensor constant created outside the frame" if source is None else
                              "Attempted to wrap sparse Tensor with VariableTracker", "unsupported")
        return og.add_graph_input(source, value)
    if is_numpy_value(value, source):  # np.sin, np.float32, an ndarray input (numpy_arrays.py)
        return wrap_numpy(og, value, source)
    if _is_constant(value):
        if isinstance(value, (minitorch2.dtype, enum.Enum)):  # (a device is compared by value: torch.device("cpu") is made anew)
            return _by_identity(og, ConstantVariable, value, source)
        # every number read from the frame is recorded (Dynamo's frame state): an int attribute that becomes a float
        changed = type(value) in (int, float) and source is not None and og.code is not None and \
            dynamic_shapes.dynamic_number(og.code, source.name(), value)  # makes that float a graph input at once
        if changed and _may_be_dynamic(og, value, source):
            symbolic = og.add_int_input(source, value) if type(value) is int else og.add_float_input(source, value)
            if symbolic is not None:
                return symbolic
        if source is not None:
            og.guards.add(guards.constant_guard(source, value))
        return ConstantVariable(value, source)
    if isinstance(value, (tuple, list)):
        make = _sequence_tracker(value)
        if source is not None:
            og.guards.add(guards.type_guard(source, value), type(value))
            og.guards.add(guards.length_guard(source, value))
        return make([_item(og, v, source, i) for i, v in enumerate(value)], source)
    if type(value) in (dict, collections.OrderedDict, collections.Counter) and {*map(type, value)} <= {str, int, bool}:
        if source is not None:  # (its keys: guarded as the frame reads them, see DictVariable)
            og.guards.add(guards.type_guard(source, value), type(value))
        return DictVariable({k: _item(og, v, source, k) for k, v in value.items()}, source, type(value),
                            guard=og.guards.add if source is not None else None)
    if isinstance(value, minitorch2.nn.Module):
        rnn_refusal.refuse_module(value, source)
        if source is None and next(value.parameters(), None) is not None:  # (a submodule of one made in the frame)
            raise Unsupported("a module without a source", "unsupported")
        return guarded_module(og, value, source)  # by type, as Dynamo's unspecialized modules (nn_module_walks.py)
    if _is_disabled_function(value) and source is None or id(value) in DISALLOWED_IN_GRAPH:  # (with one: below)
        return _by_identity(og, DisabledFunctionVariable, value, source)
    if id(value) in ALLOWED_IN_GRAPH:
        return _by_identity(og, TorchVariable, value, source)
    if type(value) in (functools.partial, functools._lru_cache_wrapper):
        return wrap_functools_object(og, value, source, wrap)
    if _is_one_of(type(value), GRAD_MODE_CLASSES):  # a decorator's grad-mode object (no_grad() used as @no_grad())
        return _by_identity(og, GradModeInstanceVariable, value, source)
    if source is not None and (method := wrap_tensor_method(og, value, source)) is not None:
        return method  # a tensor's method, bound (`m.type` left by a break) or not (`m = Tensor.flip`)
    if is_region(value):  # autocast, inference_mode, sdpa_kernel: blocks recorded in the graph
        return _by_identity(og, region_variable(value), value, source)
    if is_torch_object(value):
        return _by_identity(og, TorchVariable, value, source)
    if is_exception_class(value):  # KeyError, the user's `class Stop(Exception)`: called, an exception tracker
        return _by_identity(og, ExceptionClassVariable, value, source)
    if isinstance(value, types.BuiltinFunctionType) or _is_builtin_class(value) or _is_one_of(
            value, (*LIBRARY_CALLABLES, *FOLDABLE)):  # (collections.namedtuple, np.finfo, torch.device...)
        return _by_identity(og, BuiltinVariable, value, source)
    if isinstance(value, types.FunctionType) and source is not None and ("<locals>" in value.__qualname__ and not (
            hasattr(value, "__wrapped__")) or _is_disabled_function(value)):
        # a fresh object each call (a resume function's argument, `disable(f)` made in the frame): guarded on its
        # code, as Dynamo's CLOSURE_MATCH; its cells' contents and its attributes are guarded where read
        og.guards.add(guards.id_guard(AttrSource(source, "__code__"), value.__code__), value.__code__)
        return (DisabledFunctionVariable if _is_disabled_function(value) else UserFunctionVariable)(value, source)
    if isinstance(value, types.FunctionType):  # (frontend.graph_break too: its call is the break)
        return _by_identity(og, UserFunctionVariable, value, source)
    if _is_one_of(value, GRAD_MODE_CLASSES):
        return _by_identity(og, GradModeClassVariable, value, source)
    if isinstance(value, type) and issubclass(value, tuple) and is_namedtuple_class(value):
        return _by_identity(og, NamedTupleClassVariable, value, source)
    if isinstance(value, type):
        return _by_identity(og, UserClassVariable if is_user_class(value) else class_tracker(value), value, source)
    if isinstance(value, (types.ModuleType, TorchNamespace)):  # (TorchNamespace: `torch` in a GraphModule's code)
        return _by_identity(og, PythonModuleVariable, value, source)
    if source is not None and (is_plain_object(value) or optim_tracker(value)):  # (an optimizer, a scheduler)
        og.guards.add(guards.type_guard(source, value), type(value))
        return (optim_tracker(value) or UserObjectVariable)(value, source)
    if type(value).__module__ == "minitorch2.distributions.constraints":  # a library class's attribute, no source
        return UserObjectVariable(value)
    return wrap_other(og, value, source)  # a Field, dataclasses' sentinels; else the break (dataclass_internals.py)


def _may_be_dynamic(og, value, source):
    """An int argument of the frame, or a float read from anywhere (a module's eps, a global, math.pi: Dynamo wraps
    every float it reads this way; a NaN or inf stays a constant: dynamic_number)."""
    while isinstance(source, GetItemSource) and type(value) is int:  # (an int in a tuple argument too: `L['t'][0]`)
        source = source.base
    return og.code is not None and (type(value) is int and isinstance(source, LocalSource) or (
        type(value) is float and source is not None))


def _by_identity(og, tracker_class, value, source):
    """A tracker for value, guarded (if read from the frame) to be the same object at the next call."""
    owner = getattr(value, "__self__", None) if isinstance(value, types.BuiltinMethodType) else None
    if source is not None and owner is not None and not isinstance(owner, types.ModuleType):  # (a method bound to an
        og.guards.add(guards.id_guard(AttrSource(source, "__self__"), owner), owner)  # object, `Cls.__subclasses__`,
    elif source is not None:  # is made anew at each read: its object is guarded)
        og.guards.add(guards.id_guard(source, value), value)
    return tracker_class(value, source)


class PythonModuleVariable(ConstantVariable):
    """A non-torch Python module (math, the user's helpers): its attributes are read now and guarded through
    its source (`G['helpers'].SCALE`), as in Dynamo, so rebinding `helpers.SCALE` later is seen."""

    def var_getattr(self, tx, name):
        try:
            value = getattr(self.value, name)
        except AttributeError as e:
            raise Unsupported(str(e), "unsupported_attr") from None
        return wrap(tx.output, value, AttrSource(self.source, name) if self.source is not None else None)
