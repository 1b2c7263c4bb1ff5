"""Graph: a program as a doubly linked list of Nodes.

FX layer, the IR every later layer speaks. A Graph is a Python function in disguise:

    graph():
        %x : [num_users=1] = placeholder[target=x]
        %lin : [num_users=2] = call_module[target=lin](args = (%x,), kwargs = {})
        %sigmoid : [num_users=1] = call_function[target=torch.sigmoid](args = (%lin,), kwargs = {})
        %mul : [num_users=1] = call_function[target=operator.mul](args = (%lin, %sigmoid), kwargs = {})
        return mul

The one idea to hold: the list order *is* the program order, and every edit goes through a handful of operations
that keep the graph valid (`inserting_before/after`, `Node.replace_all_uses_with`, `erase_node`), which `lint()`
checks. A Graph never regenerates code; `GraphModule.recompile()` does. Node names come from `_Namespace` exactly as
torch.fx makes them (`sum` -> `sum_1`).
"""
import builtins
import copy
import inspect
import keyword
import re
import warnings

from ..nn import Module
from ._codegen import CodeGen, PythonCode
from ._codegen import inplace_methods, magic_methods, reflectable_magic_methods  # noqa: F401  (torch.fx.graph has them)
from ._codegen import custom_builtins
from ._graph_more import GraphCopying, GraphTable
from .immutable_collections import immutable_dict
from .node import Node, _legal_ops, map_arg

__all__ = ["Graph", "PythonCode", "CodeGen"]

# Names a node may not take: Python keywords, builtins, and the globals every
# generated module defines. A node named `sum` would shadow the builtin inside
# generated code, so it becomes `sum_1`.
_illegal_names = {k: object() for k in keyword.kwlist}
_illegal_names.update(builtins.__dict__)
_illegal_names.update(custom_builtins)

_camel_hump = re.compile(r"(?<=[a-z])([A-Z])")
_illegal_char_regex = re.compile("[^0-9a-zA-Z_]+")
_name_regex = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")


def _snake_case(s):
    """`mod.pascalCase` -> `mod.pascal_case`, `ALL_CAPS` -> `all_caps`."""
    return _camel_hump.sub(r"_\1", s).lower()


class _Namespace:
    """Unique identifiers for objects: one name per object, no name used twice.

    A candidate `add` becomes `add`, then `add_1`, `add_2`...; a candidate that already ends in `_<n>` keeps its number
    when free; illegal characters become `_`; a name that would shadow a keyword or builtin gets a suffix (unless the
    object *is* that builtin).
    """

    def __init__(self):
        self._obj_to_name = {}
        self._used_names = set()
        self._base_count = {}

    def create_name(self, candidate, obj):
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        match = _name_regex.match(candidate)
        if match is None:
            candidate = _illegal_char_regex.sub("_", candidate) or "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _name_regex.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self._used_names:
            num = self._base_count.get(base, 0)
            if candidate in _illegal_names and _illegal_names[candidate] is not obj:
                num += 1
                candidate = f"{base}_{num}"
        else:
            num = int(num)
        while candidate in self._used_names:
            num += 1
            candidate = f"{base}_{num}"
        self._used_names.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[obj] = candidate
        return candidate

    def associate_name_with_obj(self, name, obj):
        existing = self._obj_to_name.setdefault(obj, name)
        if existing is not name:
            raise AssertionError("obj is already associated")

    def _rename_object(self, obj, name):
        self._obj_to_name[obj] = name
        self._used_names.add(name)


class _InsertPoint:
    """Context manager returned by inserting_before/after: restores the old point on exit."""

    def __init__(self, graph, new_insert):
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        self.graph._insert = self.orig_insert


class _node_list:
    """A live view of a graph's nodes; iteration survives edits made while iterating."""

    def __init__(self, graph, direction="_next"):
        self.graph = graph
        self.direction = direction

    def __len__(self):
        return self.graph._len

    def __iter__(self):
        root = self.graph._root
        node = getattr(root, self.direction)
        while node is not root:
            if not node._erased:
                yield node
            node = getattr(node, self.direction)

    def __reversed__(self):
        return iter(_node_list(self.graph, "_prev" if self.direction == "_next" else "_next"))


class Graph(GraphTable, GraphCopying):
    """A function as a list of Nodes (print_tabular from _graph_more.py). See the module docstring."""

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = _Namespace()
        self.owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._codegen = CodeGen()

    @property
    def nodes(self):
        return _node_list(self)

    def output_node(self):
        node = next(iter(reversed(self.nodes)))
        if node.op != "output":
            raise AssertionError(f"Expected output node, got op={node.op}")
        return node

    def find_nodes(self, *, op, target=None, sort=True):
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    # ---------------------------------------------------------- creating nodes
    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        """Create a Node at the insertion point (by default: the end of the graph)."""
        if not args:
            args = ()
        elif not isinstance(args, tuple):
            raise AssertionError(f"args must be a tuple, got {type(args)}")
        if not kwargs:
            kwargs = immutable_dict()
        elif not isinstance(kwargs, dict):
            raise AssertionError(f"kwargs must be a dict, got {type(kwargs)}")
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        node = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace.associate_name_with_obj(name, node)
        self._insert(node)
        self._len += 1
        return node

    def _target_to_str(self, target):
        if callable(target):
            return _snake_case(target.__name__)
        is_magic = target.startswith("__") and target.endswith("__")
        return _snake_case(target[2:-2] if is_magic else target)

    def placeholder(self, name, type_expr=None, default_value=inspect.Signature.empty):
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None, name=None):
        return self.create_node("call_function", the_function, args, kwargs, name=name, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node(op="output", target="output", args=(result,), type_expr=type_expr)

    # ---------------------------------------------------------- insertion point
    def inserting_before(self, n=None):
        """`with graph.inserting_before(n):` new nodes go just before n (None: the start)."""
        if n is None:
            return self.inserting_after(self._root)
        if n.graph is not self:
            raise AssertionError("Node to insert before is not in graph.")
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n=None):
        """`with graph.inserting_after(n):` new nodes go just after n (None: the end)."""
        if n is None:
            return self.inserting_before(self._root)
        if n.graph is not self:
            raise AssertionError("Node to insert after is not in graph.")
        return _InsertPoint(self, n.append)

    # ---------------------------------------------------------- removing nodes
    def erase_node(self, to_erase):
        """Remove a node nothing uses any more; a node with users is refused."""
        if len(to_erase.users) > 0:
            raise RuntimeError(
                f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                f"users in the graph: {to_erase.users}!"
            )
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            warnings.warn(f"erase_node({to_erase}) on an already erased node")
            return
        to_erase._remove_from_list()
        to_erase._erased = True  # iterators may still hold it
        self._len -= 1
        # Drop its own edges, so its inputs no longer count it as a user.
        to_erase._update_args_kwargs(map_arg(to_erase._args, lambda n: None), map_arg(to_erase._kwargs, lambda n: None))

    def eliminate_dead_code(self, is_impure_node=None):
        """Erase every pure node whose result is unused, last to first; True if anything changed."""
        self.lint()

        def has_side_effect(node):
            return is_impure_node(node) if is_impure_node is not None else node.is_impure()

        changed = False
        for node in reversed(self.nodes):
            if not has_side_effect(node) and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    # ---------------------------------------------------------- copying
    def node_copy(self, node, arg_transform=lambda x: x):
        """Copy a node (from any graph) to the insertion point, mapping its Node args."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = copy.copy(node.meta)
        return result

    # ---------------------------------------------------------- code
    def python_code(self, root_module, *, verbose=False, include_stride=False, include_device=False, colored=False):
        """The graph as Python source (`def forward(self, ...)`) plus the globals it needs."""
        return self._codegen.generate(self, root_module, _Namespace(), verbose=verbose, include_stride=include_stride,
                                      include_device=include_device)

    def set_codegen(self, codegen):
        self._codegen = codegen

    # ---------------------------------------------------------- printing
    def __str__(self):
        return "graph():" + "".join(f"\n    {node.format_node()}" for node in self.nodes)

    # ---------------------------------------------------------- checking
    def lint(self):
        """Check ownership, topological order, unique names and (with a module) targets."""

        def check_arg(arg, n=None):
            context = f" of Node '{n}' " if n else " "
            if arg.graph is not self:
                raise RuntimeError(
                    f"Argument '{arg}'{context}does not belong to this Graph, but was used as an argument! "
                    f"If you are copying nodes from another graph, make sure to use ``arg_transform`` on "
                    f"node_copy() to remap values\n{self}"
                )
            if arg not in seen_values:
                raise RuntimeError(
                    f"Argument '{arg}'{context}was used before it has been defined! Please check that "
                    f"Nodes in the graph are topologically ordered\n{self}"
                )

        seen_names = set()
        seen_values = set()
        for node in self.nodes:
            if node.op not in _legal_ops:
                raise RuntimeError(f"Node {node} had unknown opcode {node.op}!")
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node._input_nodes:
                check_arg(arg, node)
            seen_values.add(node)
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_names.add(node.name)
        if self.owning_module:
            self._lint_targets()

    def _lint_targets(self):
        for node in self.nodes:
            if node.op == "call_function":
                if not callable(node.target):
                    raise ValueError(
                        f"Node {node} target {node.target} has type {type(node.target).__name__} but "
                        "a Callable is expected"
                    )
            elif not isinstance(node.target, str):
                raise ValueError(
                    f"Node {node} target {node.target} has type {type(node.target).__name__} but a str is expected"
                )
            if node.op in ("get_attr", "call_module"):
                atoms = node.target.split(".")
                obj = self.owning_module
                for i, atom in enumerate(atoms):
                    next_obj = getattr(obj, atom, None)
                    seen = ".".join(atoms[:i])
                    if next_obj is None:
                        raise RuntimeError(
                            f"Node {node} target {node.target} references nonexistent attribute {atom} of {seen}"
                        )
                    if node.op == "call_module" and not isinstance(next_obj, Module):
                        raise RuntimeError(
                            f"Node {node} target {node.target} {atom} of {seen} does not reference an nn.Module"
                        )
                    obj = next_obj

