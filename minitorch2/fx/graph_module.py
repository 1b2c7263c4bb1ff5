"""GraphModule: an nn.Module whose forward is generated from a Graph.

FX layer; what every stage hands the next. It holds

    graph     the Graph (the IR; edit this)
    code      Python source generated from the graph (read this)
    forward   that source, compiled (run this)

plus the submodules, parameters and buffers its `call_module` and `get_attr` nodes name.

The one idea to hold: `code` and `forward` are a snapshot. Editing `gm.graph` in place changes nothing until
`gm.recompile()` (assigning a new graph recompiles at once), as in PyTorch: a pass generates code once, at the end. Each
instance gets its own subclass, so installing `forward` leaks into no other.
"""
import itertools
import linecache

from ..nn import Module
from .._tensor import Tensor
from ..nn.parameter import Parameter
from ._graph_more import GraphModuleCopying, GraphModuleReadable, GraphModuleSurgery, _CodeOnlyModule
from .graph import Graph

__all__ = ["GraphModule"]


_source_ids = itertools.count()  # (next() on it is atomic: graphs are generated on several threads)


def _forward_from_src(src, globals_):
    key = f"<eval_with_key>.{next(_source_ids)}"
    linecache.cache[key] = (len(src), None, src.splitlines(keepends=True), key)  # tracebacks show generated lines
    namespace = dict(globals_)
    exec(compile(src, key, "exec", dont_inherit=True), namespace)
    return namespace["forward"]


def _copy_attr(from_module, to_module, target):
    """Install from_module's `a.b.c` on to_module at the same path (by reference)."""
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return  # a parent is already installed, and with it everything under it
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    _install(to_module, field, getattr(from_module, field))


def _assign_attr(from_obj, to_module, target):
    *prefix, field = target.split(".")
    for item in prefix:
        if getattr(to_module, item, None) is None:
            setattr(to_module, item, Module())
        to_module = getattr(to_module, item)
    _install(to_module, field, from_obj)


def _install(module, field, obj):
    """A plain tensor goes in as a buffer; parameters and modules as attributes."""
    if isinstance(obj, Tensor) and not isinstance(obj, Parameter):
        module.register_buffer(field, obj)
    else:
        setattr(module, field, obj)


class GraphModule(GraphModuleSurgery, GraphModuleReadable, GraphModuleCopying, Module):
    """An nn.Module generated from a Graph (submodule surgery, print_readable and deepcopy from _graph_more.py). See
    the module docstring."""

    def __new__(cls, *args, **kwargs):
        for base in cls.__mro__:
            if base.__qualname__.split(".")[-1] != "GraphModuleImpl":
                cls = base
                break

        class GraphModuleImpl(cls):
            pass

        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        """root: a Module whose attributes the graph's targets name, or a dict {qualified name: object}."""
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, Module):
            if hasattr(root, "training"):
                self.training = root.training
            if isinstance(root, _CodeOnlyModule):  # a deepcopy: keep everything, used or not
                for name, _ in itertools.chain(root.named_children(), root.named_buffers(), root.named_parameters()):
                    _copy_attr(root, self, name)
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            targets = []
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(
                            f"Node {node} referenced target {node.target} but that target was not provided in ``root``!"
                        )
                    targets.append(node.target)
            for target in sorted(targets, key=lambda t: t.count(".")):  # parents before children
                _assign_attr(root[target], self, target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.meta = {}
        self.graph = graph

    # ---------------------------------------------------------- graph and code
    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, g):
        if not isinstance(g, Graph):
            raise AssertionError(f"Expected a Graph instance, but got {type(g)}")
        self._graph = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self):
        if not hasattr(self, "_code"):
            raise RuntimeError("Code has not been generated! Please report a bug to minitorch2")
        return self._code

    def recompile(self):
        """Regenerate `code` and `forward` from `graph`. Call after editing the graph."""
        codegen = self._graph._codegen
        if hasattr(codegen, "in_spec"):  # pytree calling convention: generated code reads these
            self._in_spec, self._out_spec = codegen.in_spec, codegen.out_spec
        python_code = self._graph.python_code(root_module="self")
        self._code = python_code.src
        type(self).forward = _forward_from_src(self._code, python_code.globals)
        for _, child in self.named_children():
            if isinstance(child, GraphModule):
                child.recompile()
        return python_code

    def __str__(self):
        reminder = "# To see more debug info, please use `graph_module.print_readable()`"
        return "\n".join([super().__repr__(), self._code, reminder])
