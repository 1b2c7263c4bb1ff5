"""Node: one operation in an FX graph.

FX layer (the IR every later layer speaks, see graph.py). A Node is one line of a graph's program:

    %sum_1 : [num_users=1] = call_method[target=sum](args = (%lin_bias,), kwargs = {})
     name                    op          target       args                  kwargs

The one idea to hold: nodes refer to each other only through their `args` and `kwargs`, and each node keeps the reverse
edges in `users`. Assigning `args` or `kwargs` (immutable, never mutated in place) keeps the two directions consistent;
every graph edit is built on that one assignment.
"""
import operator
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional, Union

from .._ops import ops
from ._spelling import pretty_print_target, type_repr
from .immutable_collections import immutable_dict, immutable_list

Target = Union[Callable[..., Any], str]  # what a node calls (torch.fx.node.Target)
Argument = Optional[Union[tuple, Sequence, Mapping, slice, range, "Node", str, int, float, bool, complex]]  # torch.fx's

__all__ = ["Node", "map_arg", "map_aggregate", "has_side_effect"]

_legal_ops = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root")

# Calls that dead-code elimination must keep although nothing uses their result.
_side_effectful_functions = {operator.setitem, ops.aten._assert_scalar.default, ops.aten._assert_async.msg}


def has_side_effect(fn):
    """Register `fn` as impure: `Graph.eliminate_dead_code` never removes calls to it."""
    _side_effectful_functions.add(fn)
    return fn


# ------------------------------------------------------------------ traversal
def map_aggregate(a, fn):
    """Apply fn to every leaf of a nested tuple/list/dict/slice; lists and dicts come back immutable."""
    if isinstance(a, tuple):
        mapped = tuple(map_aggregate(elem, fn) for elem in a)
        return type(a)(*mapped) if hasattr(a, "_fields") else mapped
    if isinstance(a, list):
        return immutable_list(map_aggregate(elem, fn) for elem in a)
    if isinstance(a, dict):
        return immutable_dict((key, map_aggregate(value, fn)) for key, value in a.items())
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a, fn):
    """Apply fn to every Node inside a (nested) argument; other values pass through."""
    if not callable(fn):
        raise AssertionError("torch.fx.map_arg(a, fn): fn must be a callable")
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def _collect_input_nodes(args, kwargs):
    found = {}
    map_arg((args, kwargs), found.setdefault)
    return found


def last_uses(nodes):
    """user -> the nodes whose last use it is (walking backwards, the first use seen is the last)."""
    seen, user_to_last_uses = set(), {}
    for node in reversed(nodes):
        for input_node in node._input_nodes:
            if input_node not in seen:
                seen.add(input_node)
                user_to_last_uses.setdefault(node, []).append(input_node)
    return user_to_last_uses


# ------------------------------------------------------------------ printing
def _format_arg(arg):
    if isinstance(arg, list):
        return f"[{', '.join(_format_arg(a) for a in arg)}]"
    if isinstance(arg, tuple):
        comma = "," if len(arg) == 1 else ""
        return f"({', '.join(_format_arg(a) for a in arg)}{comma})"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    return "%" + str(arg) if isinstance(arg, Node) else str(arg)


class Node:
    """One operation: `name = op[target](*args, **kwargs)`. See the module docstring."""

    def __init__(self, graph, name, op, target, args, kwargs, return_type=None):
        if op != "call_function" and op not in _legal_ops:
            raise AssertionError(f"op '{op}' is not in _legal_ops")
        if not (callable(target) if op == "call_function" else isinstance(target, str)):
            expected = "a Callable" if op == "call_function" else "a str"
            raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                             f"{_typename(target)} but {expected} is expected")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.type = return_type
        self._input_nodes = {}
        self.users = {}  # insertion-ordered set: dict with None values
        self._args = ()
        self._kwargs = immutable_dict()
        self._prev = self
        self._next = self
        self._erased = False
        self._repr_fn = None
        self.meta = {}
        self._update_args_kwargs(args, kwargs)

    # ---------------------------------------------------------- linked list
    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    def prepend(self, x):
        """Move (or insert) x to just before self."""
        if self.graph is not x.graph:
            raise AssertionError("Attempting to move a Node into a different Graph")
        if self is x:
            warnings.warn("Trying to prepend a node to itself. This behavior has no effect on the graph.")
            return
        x._remove_from_list()
        before = self._prev
        before._next, x._prev = x, before
        x._next, self._prev = self, x

    def append(self, x):
        """Move (or insert) x to just after self."""
        self._next.prepend(x)

    def _remove_from_list(self):
        before, after = self._prev, self._next
        before._next, after._prev = after, before

    # ---------------------------------------------------------- arguments
    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, a):
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k):
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self):
        """The Nodes among args and kwargs, in order of first appearance."""
        return list(self._input_nodes)

    def _update_args_kwargs(self, new_args, new_kwargs):
        """The one place where edges change: store the arguments, then fix both directions."""
        self._args = map_aggregate(new_args, lambda x: x)
        self._kwargs = map_aggregate(new_kwargs, lambda x: x)
        new_inputs = _collect_input_nodes(self._args, self._kwargs)
        for old in self._input_nodes:
            if old not in new_inputs:
                old.users.pop(self, None)
        for new in new_inputs:
            new.users.setdefault(self)
        self._input_nodes = new_inputs

    def replace_all_uses_with(self, replace_with, delete_user_cb=None, *, propagate_meta=False):
        """Make every user of self use replace_with instead; returns the users changed."""
        if propagate_meta:
            if replace_with.meta:
                raise AssertionError(
                    "Called node.replace_all_uses_with(replace_with, propagate_meta=True), "
                    "but replace_with already has .meta keys"
                )
            replace_with.meta.update(self.meta)
        changed = []
        for user in list(self.users):
            if delete_user_cb is not None and not delete_user_cb(user):
                continue
            changed.append(user)
            user.replace_input_with(self, replace_with)
        return changed

    def replace_input_with(self, old_input, new_input):
        """Replace every occurrence of old_input in self's args and kwargs with new_input."""

        def swap(n):
            return new_input if n is old_input else n

        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    # ---------------------------------------------------------- properties
    @property
    def stack_trace(self):
        return self.meta.get("stack_trace", None)

    @stack_trace.setter
    def stack_trace(self, trace):
        self.meta["stack_trace"] = trace

    def is_impure(self, impure_random=True):
        """Placeholders, outputs and calls with side effects must survive dead-code elimination."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_function":
            target = self.target
            if target in _side_effectful_functions:
                return True
            tags = getattr(target, "tags", ())
            if getattr(target, "is_inplace", False) or (impure_random and "random" in tags):
                return True
            schema = getattr(target, "_schema", None)
            return bool(schema is not None and getattr(schema, "is_mutable", False))
        if self.op == "call_module":
            module = self.graph.owning_module
            if module is None:
                raise AssertionError("self.graph.owning_module not set for purity check")
            target_mod = module.get_submodule(self.target)
            return getattr(target_mod, "_is_impure", False)
        return False

    # ---------------------------------------------------------- printing
    def __repr__(self):
        return self._repr_fn(self) if self._repr_fn is not None else self.name

    def format_node(self):
        """One line of `str(graph)`, e.g. `%x : [num_users=1] = placeholder[target=x]`."""
        users = f"[num_users={len(self.users)}]"
        typename = f"{type_repr(self.type)} " if self.type is not None else ""
        if self.op == "placeholder":
            typename = f"{type_repr(self.type)} " if self.type else ""
            default = "(default=" + str(self.args[0]) + ")" if self.args else ""
            return f"%{self.name} : {typename}{users} = {self.op}[target={self.target}]{default}"
        if self.op == "get_attr":
            return f"%{self.name} : {typename}{users} = {self.op}[target={pretty_print_target(self.target)}]"
        if self.op == "output":
            return f"return {self.args[0]}"
        return (
            f"%{self.name} : {typename}{users} = {self.op}[target={pretty_print_target(self.target)}]("
            f"args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})"
        )


def _typename(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    module = cls.__module__
    return cls.__qualname__ if module in (None, "builtins") else f"{module}.{cls.__qualname__}"
