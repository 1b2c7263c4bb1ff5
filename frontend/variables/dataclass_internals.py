"""The dataclasses module's own objects met while its generated code or helpers are inlined.

Frontend layer, called from builder.wrap for a value no other tracker takes. A Field (read by fields(), astuple(),
asdict(), replace()) and the module's sentinels (MISSING, the _HAS_DEFAULT_FACTORY default of a field with a
default_factory, the _FIELD markers) are constants compared by identity, as Dynamo folds them; anything else of no
known kind stays a graph break. dataclasses.fields(obj) of an instance is its Field constants, as Dynamo's handler
answers; of a class, Dynamo's handler refuses (a graph break), and so does this one. copy.deepcopy of an immutable
constant (astuple's and asdict's leaves) is the constant itself; of lists, tuples and dicts of constants, new
containers. A torch.jit ScriptFunction is the Python function it holds as `_torchdynamo_inline`, inlined, as
Dynamo's wrap_jit_function makes it. An object whose class defines
its own __getattribute__ is a break Dynamo takes inside that method, where no frame resumes (rnn_refusal.py). An
autograd.Function's ctx, an argument of a frame of its forward run eagerly, is a user object whose attributes are set
after the graph, as Dynamo's AutogradFunctionContextVariable.
"""
import collections
import copy
import dataclasses
import inspect
import operator
import types

from minitorch2.autograd.function import FunctionCtx

from .. import guards
from ..source import AttrSource
from ..exc import Unsupported
from .constant import ConstantVariable
from .comprehension_iterators import is_comprehension_iterator, wrap_comprehension_iterator
from .input_sets import is_input_set, wrap_input_set
from .deques_and_proxies import wrap_input_deque, wrap_input_mapping_proxy
from .dicts import DictVariable
from .lists import ListVariable, TupleVariable
from .tensor_membership import is_tensor_keyed_dict, wrap_tensor_keyed_dict
from .user_defined import UserObjectVariable


def wrap_other(og, value, source):
    """A tracker for a dataclasses-internal object or a property read from its class (guarded by identity when read
    from the frame), a jit ScriptFunction's function, else the break."""
    inline = inspect.getattr_static(value, "_torchdynamo_inline", None)
    if inline is not None and not isinstance(value, type):
        from .builder import wrap  # (a cycle: the builder calls this module)
        return wrap(og, inline, AttrSource(source, "_torchdynamo_inline") if source is not None else None)
    if is_input_set(value) and source is not None:  # (not a dataclasses object: input_sets.py's)
        return wrap_input_set(og, value, source)
    if is_comprehension_iterator(value, source):  # (3.11: comprehension_iterators.py)
        return wrap_comprehension_iterator(og, value, source)
    if is_tensor_keyed_dict(value) and source is not None:  # (tensor_membership.py)
        return wrap_tensor_keyed_dict(og, value, source)
    if type(value) is collections.deque and source is not None:  # (not a dataclasses object: deques_and_proxies.py's)
        return wrap_input_deque(og, value, source)
    if type(value) is types.MappingProxyType and source is not None:  # (an enum's __members__: as the deque)
        return wrap_input_mapping_proxy(og, value, source)
    if isinstance(value, FunctionCtx) and source is not None:  # (ctx in a frame of a Function's forward run eagerly:
        og.guards.add(guards.type_guard(source, value), type(value))  # its attributes set as a user object's)
        return UserObjectVariable(value, source)
    if isinstance(inspect.getattr_static(type(value), "__getattribute__"), types.FunctionType):
        raise Unsupported(f"an object whose class defines __getattribute__ ({type(value).__name__}): Dynamo inlines "
                          "it and cannot trace object.__getattribute__ there", "getattribute")
    if (type(value).__module__ == "dataclasses" or type(value) is property) and not isinstance(value, type):
        if source is not None:
            og.guards.add(guards.id_guard(source, value), value)
        return ConstantVariable(value, source)
    raise Unsupported(f"a value of type {type(value).__name__} ({source.name() if source else 'no source'})",
                      "unsupported")


def dataclass_fields(tx, obj):
    """dataclasses.fields(obj): the instance's Fields as constants (its class is guarded, or it was made here)."""
    if not (hasattr(obj, "attrs") and dataclasses.is_dataclass(obj.python_type())):
        raise Unsupported(f"dataclasses.fields of {obj}: Dynamo handles a dataclass instance only", "unsupported_call")
    return TupleVariable([ConstantVariable(f) for f in dataclasses.fields(obj.python_type())])


def deepcopy_constant(obj, memo=None):
    """copy.deepcopy(x) of a number, string, None or a tuple of them: x (deepcopy returns such a value itself); of
    lists, tuples and dicts made of such values: new containers, one copy of a container held twice (as the memo of
    Python's deepcopy keeps); anything else (a tensor, a user object) is the break."""
    memo = {"values": {}} if memo is None else memo  # (tracker ids, and deepcopy's own memo for constants' values)
    if id(obj) in memo:
        return memo[id(obj)]
    if type(obj) in (ListVariable, TupleVariable):
        memo[id(obj)] = made = type(obj)([])
        made.items = [deepcopy_constant(item.realize(), memo) for item in obj.items]
        if type(obj) is TupleVariable and all(map(operator.is_, made.items, obj.items)):  # (Python's keeps it)
            memo[id(obj)] = made = obj
        return made
    if type(obj) is DictVariable:
        memo[id(obj)] = made = DictVariable({}, cls=obj.cls, factory=obj.factory)
        made.items = {key: deepcopy_constant(value.realize(), memo) for key, value in obj.items.items()}
        return made
    if obj.is_python_constant():  # (after the containers: a list of constants is one too, but has its own identity)
        value = obj.as_python_constant()
        memo[id(obj)] = obj if _immutable(value) else ConstantVariable(copy.deepcopy(value, memo["values"]))
        return memo[id(obj)]
    raise Unsupported(f"copy.deepcopy of {obj}", "unsupported_call")


def _immutable(value):
    return type(value) in (int, float, bool, str, type(None)) or type(value) is tuple and all(map(_immutable, value))
