"""NNModuleVariable: an nn.Module the frame touches, opened up rather than called.

Frontend layer. As with Dynamo's `inline_inbuilt_nn_modules`, a module call is no graph node: the translator inlines
`type(module).forward`, `self.weight` is a graph input (`L_self_modules_fc_parameters_weight_`), the module is guarded
by its type (a class's instances share a graph: guarded_module), and loops over ModuleList and Sequential unroll.
"""
import inspect

import minitorch2

from ..exc import Unsupported
from ..source import AttrSource, attr_source, module_member_source
from .base import LazyVariableTracker, VariableTracker
from .functions import UserFunctionVariable, UserMethodVariable
from .nn_module_walks import DICTS, container_slice, inlined_call, is_walk, module_dict_contains, walk
from .user_protocols import class_member

CONTAINERS = (minitorch2.nn.ModuleList, minitorch2.nn.Sequential, minitorch2.nn.ParameterList)


class NNModuleVariable(VariableTracker):
    def __init__(self, module, source):
        super().__init__(source)
        self.module = module

    def python_type(self):
        return type(self.module)

    def truth(self, tx):
        return len(self.module) > 0 if isinstance(self.module, CONTAINERS) else True

    def var_getattr(self, tx, name):
        m = self.module
        if (self.source, name) in tx.output.stored_attrs:  # written earlier in this frame (pending side effect)
            return tx.output.stored_attrs[(self.source, name)][1]
        for kind in ("_parameters", "_buffers", "_modules"):
            table = m.__dict__.get(kind, {})
            tracked = [v.items[name] for v in tx.output.mutated if name in getattr(v, "items", ()) and v.source and
                       v.source.name() == attr_source(self.source, kind).name()]  # (register_buffer in this frame)
            if tracked:
                return tracked[-1]
            if name in table:
                return tx.output.wrap(table[name], module_member_source(self.source, kind, name))
        if name in m.__dict__:  # (a float, as Dynamo's, is looked at when used: it may become a graph input)
            value, src = m.__dict__[name], attr_source(self.source, name)
            return LazyVariableTracker(tx.output, value, src) if type(value) is float else tx.output.wrap(value, src)
        if is_walk(m, name):  # modules(), named_parameters(), state_dict(), __dict__... (nn_module_walks.py)
            return walk(tx, self, name)
        try:
            attr = inspect.getattr_static(type(m), name)  # (`self.f(...)` of a staticmethod binds no self)
        except AttributeError:
            raise Unsupported(f"{type(m).__name__} has no attribute {name!r}", "unsupported_attr") from None
        if isinstance(attr, property):
            return UserFunctionVariable(attr.fget).call_function(tx, [], {}, self_var=self)
        if isinstance(attr, (classmethod, staticmethod)):
            return class_member(tx, type(m), attr, source=self.source and AttrSource(self.source, name))
        if callable(attr) and hasattr(attr, "__code__"):  # (a decorated method's closure: read through its source)
            source = attr.__closure__ and self.source and AttrSource(attr_source(self.source, name), "__func__")
            return UserMethodVariable(UserFunctionVariable(attr, source), self)
        if isinstance(attr, (int, float, bool, str, type(None), tuple)):  # a class-level constant or table
            return tx.output.wrap(attr, attr_source(self.source, name))  # (BatchNorm1d's input dims): guarded
        raise Unsupported(f"attribute {name!r} of {type(m).__name__}", "unsupported_attr")

    def can_store_attr(self, name, value, made_here=False):
        """Replayed after the graph: `self.calls += 1` of a constant, `self.weight = w` (weight_norm's hook) or a buffer's
        `self.count += 1` of a tensor; a parameter is a break. One made in the frame writes a constant at once."""
        value, kinds = value.realize(), ("_parameters", "_modules")
        kinds += () if value.python_type() is minitorch2.Tensor else ("_buffers",)
        if (self.source is None) != made_here or any(name in self.module.__dict__.get(k, {}) for k in kinds):
            return False
        return not made_here if value.python_type() is minitorch2.Tensor else (
            value.is_python_constant() and not isinstance(value.as_python_constant(), (list, dict, set)))

    def store_attr(self, tx, name, value):  # a module made in the frame (no source): only this translation sees it
        if not self.can_store_attr(name, value, made_here=True) or hasattr(type(self.module), name) or \
                type(self.module).__setattr__ is not minitorch2.nn.Module.__setattr__:  # (no user code runs now)
            raise Unsupported(f"setting {name!r} of a {type(self.module).__name__} made in the frame", "side_effect")
        setattr(self.module, name, value.realize().as_python_constant())  # (self.training = False, self.cache = 2.0)

    def call_function(self, tx, args, kwargs):
        return UserFunctionVariable(inlined_call(self, tx)).call_function(tx, args, kwargs, self_var=self)

    def unpack_var_sequence(self, tx):
        if not isinstance(self.module, CONTAINERS):
            raise Unsupported(f"iteration over {type(self.module).__name__}", "unsupported")
        kind = "_parameters" if isinstance(self.module, minitorch2.nn.ParameterList) else "_modules"
        return [tx.output.wrap(sub, module_member_source(self.source, kind, key))
                for key, sub in getattr(self.module, kind).items()]

    def getitem(self, tx, index):
        index = index.realize()
        key = index.as_python_constant() if index.is_python_constant() else None
        if isinstance(self.module, DICTS) and isinstance(key, str) and key in self.module:
            return self.var_getattr(tx, key)  # (each member lives under its key in _modules or _parameters)
        if not isinstance(self.module, CONTAINERS) or not index.is_python_constant():
            raise Unsupported(f"indexing {type(self.module).__name__}", "unsupported")
        if isinstance(key, slice):  # a new ModuleList or Sequential (nn_module_walks.py)
            return container_slice(tx, self, key)
        if not isinstance(key, int):
            raise Unsupported(f"indexing {type(self.module).__name__} with {key!r}", "unsupported")
        return self.unpack_var_sequence(tx)[key]

    def length(self):
        if not isinstance(self.module, (*CONTAINERS, *DICTS)):
            raise Unsupported(f"len() of {type(self.module).__name__}", "unsupported")
        return len(self.module)

    contains = module_dict_contains  # `key in module_dict`

    def __repr__(self):
        return f"NNModuleVariable({type(self.module).__name__})"
