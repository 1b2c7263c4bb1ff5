"""Walks over a module's tree inside compiled frames, its __dict__, and slices of a ModuleList or Sequential.

Frontend layer, beside nn_module.py. `self.modules()`, `children()`, `named_parameters()`, `buffers()`,
`state_dict()` and the rest: as Dynamo does, the walk runs now, at translation time. The real method on the real
module gives the names and members in their order (duplicates dropped by its own memo, prefixes added), and each
member is read through the source of the first place it lives (`L['self']._modules['body']._parameters['weight']`),
so a tensor is a graph input and a module a tracker, as anywhere else. state_dict() detaches each tensor (its
detach nodes are in Dynamo's graph too). `seq[1:]` is a new Sequential of the same modules (Dynamo makes one: its
init node), called as the chain of its modules; so is `nn.Sequential(a, nn.ReLU(), b)` made in the frame of modules
it holds. A module call inlines forward, or Module.__call__ itself (hooks and all, as Dynamo inlines _call_impl) when
forward hooks are registered; `key in module_dict` looks the key up now.
"""
import collections

import minitorch2
from minitorch2.nn.modules import module as module_mod

from .. import guards
from ..exc import Unsupported
from ..source import AttrSource, module_member_source
from .base import VariableTracker
from .constant import ConstantVariable
from .dicts import DictVariable
from .dynamo_forms import name_after_local, record_module_inits
from .lists import ListIteratorVariable, ListVariable, TupleVariable
from .user_protocols import instance_dict

DICTS = (minitorch2.nn.ModuleDict, minitorch2.nn.ParameterDict)
# the walks, each with the named walk its items come from
WALKS = {"modules": "named_modules", "children": "named_children", "parameters": "named_parameters",
         "buffers": "named_buffers", "named_modules": "named_modules", "named_children": "named_children",
         "named_parameters": "named_parameters", "named_buffers": "named_buffers", "state_dict": "state_dict"}


HOOK_TABLES = ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks")


def guarded_module(og, module, source):
    """A module read from the frame, guarded by type as Dynamo's unspecialized modules: the instances of a class share
    one graph, whose inputs are their tensors. What forward reads is guarded where read; a container's members by
    their keys (iterated, counted or indexed, its members are read now)."""
    from .nn_module import NNModuleVariable  # reason: nn_module.py imports this module
    if source is not None:
        og.guards.add(guards.type_guard(source, module), type(module))
        if isinstance(module, (minitorch2.nn.ModuleList, minitorch2.nn.Sequential, *DICTS, minitorch2.nn.ParameterList)):
            kind = "_parameters" if isinstance(module, (minitorch2.nn.ParameterList, DICTS[1])) else "_modules"
            og.guards.add(guards.dict_keys_guard(AttrSource(source, kind), list(getattr(module, kind))))
    return NNModuleVariable(module, source)


def is_walk(module, name):
    """`name` is one of Module's walks, and the module's class keeps Module's own; or `__dict__`."""
    return name == "__dict__" or name in WALKS and getattr(type(module), name, None) is getattr(
        minitorch2.nn.Module, name)


def walk(tx, module_var, name):
    """module.<name> for a name of is_walk: the walk, not called yet, or the module's __dict__ (user_protocols.py)."""
    return instance_dict(tx, module_var, module_var.module.__dict__) if name == "__dict__" else \
        ModuleWalkVariable(module_var, name)


class _ContainerMadeHere(TupleVariable):
    def getitem(self, tx, index):
        """A slice of it: again a new container of its class (its init node, as Dynamo's); an index: that module."""
        sliced = super().getitem(tx, index)
        if isinstance(sliced, TupleVariable):
            record_module_inits(tx, 1)
            return type(self)(sliced.items)
        return sliced


class ModuleTupleVariable(_ContainerMadeHere):
    """A ModuleList made or sliced in the frame: the tuple of its modules, of ModuleList's class (isinstance holds)."""
    python_cls = minitorch2.nn.ModuleList


def container_slice(tx, module_var, index):
    """`layers[1:]` of a ModuleList (a tuple of its modules, iterated or indexed only) or a Sequential (called as the
    chain of its modules): Dynamo makes a new container of the same modules (its init node)."""
    module = module_var.module
    if not isinstance(module, (minitorch2.nn.ModuleList, minitorch2.nn.Sequential)):
        raise Unsupported(f"a slice of a {type(module).__name__}", "unsupported")
    record_module_inits(tx, 1)
    sliced = SequentialSliceVariable if isinstance(module, minitorch2.nn.Sequential) else ModuleTupleVariable
    return sliced(module_var.unpack_var_sequence(tx)[index])


def container_made_here(tx, cls, args, kwargs, otherwise):
    """`nn.Sequential(self.a, nn.ReLU(), b)`, `nn.ModuleList(mods)` or `nn.ModuleDict({...})` of modules the frame
    holds: as Dynamo, the container's init node, then the chain of those modules (a ModuleList: the tuple of them; a
    ModuleDict: a dict of them of its class); `otherwise` makes another class, or one made of constants
    (user_defined.py)."""
    from .nn_module import NNModuleVariable  # (nn_module.py imports this module)
    if kwargs or cls not in (minitorch2.nn.Sequential, minitorch2.nn.ModuleList, minitorch2.nn.ModuleDict):
        return otherwise(tx, cls, args, kwargs)
    one = args[0].realize() if len(args) == 1 else None
    if cls is minitorch2.nn.ModuleDict:  # ModuleDict({name: module, ...}): the dict of them
        if not isinstance(one, DictVariable) or not all(isinstance(m.realize(), NNModuleVariable)
                                                        for m in one.items.values()):
            return otherwise(tx, cls, args, kwargs)
        record_module_inits(tx, 1)
        return DictVariable({k: m.realize() for k, m in one.items.items()}, cls=cls)  # (isinstance: a ModuleDict)
    if isinstance(one, DictVariable):  # Sequential(OrderedDict(name=module, ...))
        members = list(one.items.values())
    else:  # ModuleList([...]), or the modules themselves
        members = one.unpack_var_sequence(tx) if isinstance(one, (ListVariable, TupleVariable)) else args
    modules = [a.realize() for a in members]
    if not modules or not all(isinstance(m, NNModuleVariable) for m in modules):
        return otherwise(tx, cls, args, kwargs)
    record_module_inits(tx, 1)
    return (SequentialSliceVariable if cls is minitorch2.nn.Sequential else ModuleTupleVariable)(modules)


def inlined_call(module_var, tx):
    """The function a call of the module inlines: forward, or Module.__call__ when it has forward hooks or a forward
    of its own (an instance attribute, which Module.__call__ reads as `self.forward`)."""
    module = module_var.module
    if type(module).__call__ is not module_mod.Module.__call__:
        raise Unsupported(f"{type(module).__name__} overrides __call__", "unsupported_call")
    if module._backward_hooks or module._backward_pre_hooks:
        raise Unsupported(f"{type(module).__name__} has backward hooks", "unsupported_call")
    own_forward, name = "forward" in module.__dict__, module_var.source and module_var.source.name()
    if name and not own_forward:  # (one set after this compile, or another instance's, must not be passed by)
        code = f"'forward' not in {name}.__dict__"
        tx.output.guards.add(guards.Guard("DICT_CONTAINS", code, f"{name} has no own forward"))
    if name and (empty := [k for k in HOOK_TABLES if not getattr(module, k)]):  # (another instance's may not be)
        code = f"not ({' or '.join(f'{name}.{k}' for k in empty)})"
        tx.output.guards.add(guards.Guard("HOOKS", code, f"{name} has no {', '.join(empty)}"))
    hooked = (module._forward_hooks or module._forward_pre_hooks or module_mod._global_forward_hooks
              or module_mod._global_forward_pre_hooks or own_forward)
    return type(module).__call__ if hooked else type(module).forward


def module_dict_contains(module_var, tx, item):
    """`key in module_dict` (a ParameterDict too): a constant key, looked up now."""
    if not isinstance(module_var.module, DICTS) or not item.is_python_constant():
        raise Unsupported(f"`in` on a {type(module_var.module).__name__}", "unsupported")
    return item.as_python_constant() in module_var.module


def _member_sources(module_var, og=None):
    """id of each module, parameter and buffer under the module -> the source of the first place it lives. With `og`
    (the OutputGraph), the tree's shape is guarded on the way, so another instance of the class walks the same: each
    table's keys, its empty entries, and each member met again (a tied weight) being the one first met."""
    found = {id(module_var.module): module_var.source}

    def visit(module, source):
        for kind in ("_parameters", "_buffers", "_modules"):
            if og is not None:
                og.guards.add(guards.dict_keys_guard(AttrSource(source, kind), list(getattr(module, kind))))
            for key, member in getattr(module, kind).items():
                member_source = module_member_source(source, kind, key)
                if og is not None and (member is None or id(member) in found):
                    og.guards.add(guards.constant_guard(member_source, None) if member is None else
                                  guards.duplicate_input_guard(member_source, found[id(member)]))
                if member is not None and id(member) not in found:
                    found[id(member)] = member_source
                    if kind == "_modules":
                        visit(member, member_source)

    visit(module_var.module, module_var.source)
    return found


class ModuleWalkVariable(VariableTracker):
    """`module.named_parameters` (a walk of is_walk) read, not called yet."""

    def __init__(self, module_var, name):
        super().__init__()
        self.module_var, self.name = module_var, name

    def call_function(self, tx, args, kwargs):
        # the walk reads the whole tree: a walk of tensors has its shape guarded (the tensors themselves are graph
        # inputs, distinct ones guarded apart); one of modules, whose sameness no input guards, this instance's
        tensors, source = self.name in ("parameters", "buffers", "named_parameters", "named_buffers"), \
            self.module_var.source
        if source is not None and not tensors:
            tx.output.guards.add(guards.id_guard(source, self.module_var.module), self.module_var.module)
        args = [a.realize().as_python_constant() for a in args]
        kwargs = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
        if self.name in ("parameters", "buffers"):  # (their one positional argument is recurse)
            kwargs.update(zip(("recurse",), args))
            args = []
        if self.name == "state_dict":
            return self.state_dict(tx, *args, **kwargs)
        sources = _member_sources(self.module_var, tx.output if tensors and source is not None else None)
        module, items = self.module_var.module, []
        for name, member in getattr(module, WALKS[self.name])(*args, **kwargs):
            var = self.module_var if member is module else tx.output.wrap(member, sources[id(member)])
            items.append(TupleVariable([ConstantVariable(name), var]) if self.name.startswith("named_") else var)
        return ListIteratorVariable(items)

    def state_dict(self, tx, destination=None, prefix="", keep_vars=False):
        if destination is not None:
            raise Unsupported("state_dict(destination=...) in a compiled frame", "unsupported_call")
        sources, items = _member_sources(self.module_var), {}
        for key, tensor in self.module_var.module.state_dict(prefix=prefix, keep_vars=True).items():
            var = tx.output.wrap(tensor, sources[id(tensor)])
            items[key] = var if keep_vars else var.call_method(tx, "detach", [], {})
        return DictVariable(items, cls=collections.OrderedDict)


class SequentialSliceVariable(_ContainerMadeHere):
    """`seq[a:b]`: the Sequential Dynamo makes of those modules; called, each module on the last one's output."""
    python_cls = minitorch2.nn.Sequential

    def call_function(self, tx, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Unsupported("a slice of a Sequential called with more than one input", "unsupported_call")
        value = args[0]
        for module in self.items:  # (each output named after Sequential.forward's local, as Dynamo inlines it)
            value = name_after_local(tx.output.graph, module.realize().call_function(tx, [value], {}), "input")
        return value

