"""torch.fx's conveniences beyond what the pipeline calls: a Graph printed as a table (`print_tabular`), a
GraphModule's submodule surgery (`add_submodule`, `delete_submodule`, `delete_all_unused_submodules`, which
subgraph_rewriter uses), its code printed as a class (`print_readable`, for logs and the debug folder), and the
ShapeProp pass (torch.fx.passes.shape_prop's, imported there; the pipeline reads only that module's TensorMetadata),
and copy.deepcopy of a Graph or GraphModule with Graph.graph_copy (which subgraph_rewriter uses too): no stage copies.

FX layer, coverage surface. Graph and GraphModule take these from the mixins here, as nn.Module takes its
conveniences from module_more.py.
"""
import contextlib
import copy

from .. import _tensor
from ..nn import Module
from .interpreter import Interpreter
from .node import map_aggregate, map_arg


class GraphTable:
    """Graph.print_tabular."""

    def print_tabular(self):
        """Print the nodes as a table: opcode, name, target, args, kwargs (tabulate's layout)."""
        headers = ["opcode", "name", "target", "args", "kwargs"]
        rows = [[str(cell) for cell in (n.op, n.name, n.target, n.args, n.kwargs)] for n in self.nodes]
        print(_format_table(headers, rows))


def _format_table(headers, rows):
    """tabulate's default ("simple") layout: left-aligned columns at least header + 2 wide, dashes under the headers."""
    widths = [max([len(h) + 2] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


class GraphCopying:
    """Graph.graph_copy and copy.deepcopy(graph)."""

    def graph_copy(self, g, val_map, return_output_node=False):
        """Copy all of g's nodes into self; returns what g's output returns (mapped)."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                rv = map_arg(node.args[0], lambda n: val_map[n])
                return rv if not return_output_node else (rv, node)
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None):
        from .graph import Graph  # (graph.py imports this module)
        memo = memo if memo else {}
        g = Graph(tracer_cls=self._tracer_cls)
        output = g.graph_copy(self, val_map=memo, return_output_node=True)
        g._codegen = copy.deepcopy(self._codegen)
        if output is not None:
            value, old_output = output
            new_output = g.output(value, type_expr=getattr(old_output, "type", None))
            new_output.meta = copy.copy(old_output.meta)
        return g


class GraphModuleCopying:
    """copy.deepcopy(graph_module): a GraphModule over a deep copy of every attribute, used by its graph or not."""

    def __deepcopy__(self, memo):
        from .graph_module import GraphModule  # (graph_module.py imports this module)
        res = type(self).__new__(type(self))
        memo[id(self)] = res
        fake = _CodeOnlyModule(copy.deepcopy(self.__dict__, memo))
        GraphModule.__init__(res, fake, fake.__dict__["_graph"], type(self).__name__)
        res.meta = copy.deepcopy(getattr(self, "meta", {}), memo)
        return res


class _CodeOnlyModule(Module):
    """A Module carrying a copied __dict__; GraphModule.__init__ takes all of it over."""

    def __init__(self, body):
        super().__init__()
        self.__dict__ = body


class GraphModuleSurgery:
    """GraphModule's submodules installed and deleted by dotted path."""

    def add_submodule(self, target, m):
        """Install m at a dotted path, creating empty Modules on the way; False if blocked."""
        *prefix, field = target.split(".")
        mod = self
        for item in prefix:
            sub = getattr(mod, item, None)
            if sub is None:
                sub = Module()
                setattr(mod, item, sub)
            if not isinstance(sub, Module):
                return False
            mod = sub
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target):
        *path, name = target.split(".")
        mod = self
        for item in path:
            mod = getattr(mod, item, None)
            if not isinstance(mod, Module):
                return False
        if not isinstance(getattr(mod, name, None), Module):
            return False
        delattr(mod, name)
        return True

    def delete_all_unused_submodules(self):
        """Delete submodules that no call_module or get_attr node reaches."""
        used = set()
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr"):
                atoms = node.target.split(".")
                used.update(".".join(atoms[: i + 1]) for i in range(len(atoms)))
                if node.op == "call_module":
                    try:
                        sub = self.get_submodule(node.target)
                    except AttributeError:
                        continue
                    used.update(f"{node.target}.{name}" for name, _ in sub.named_modules() if name)
        for name in [name for name, _ in self.named_modules() if name not in used]:
            self.delete_submodule(name)



class GraphModuleReadable:
    """GraphModule.print_readable."""

    def print_readable(self, print_output=True, include_stride=False, include_device=False, colored=False):
        """The generated code as a class, with the code of GraphModule children nested inside."""
        output = _readable(self, self._get_name(), include_stride, include_device)
        if print_output:
            print(output)
        return output


def _readable(module, module_name, include_stride, include_device):
    code = module.graph.python_code(root_module="self", verbose=True, include_stride=include_stride,
                                    include_device=include_device).src.lstrip("\n")
    children = [_readable(child, name, include_stride, include_device)
                for name, child in module.named_children() if isinstance(child, GraphModuleReadable)]
    return _addindent(f"class {module_name}(torch.nn.Module):\n{code}", 4) + _addindent("\n".join(["", *children]), 4)


def _addindent(s, num_spaces):
    first, *rest = s.split("\n")
    return "\n".join([first, *(num_spaces * " " + line if line.strip() else "" for line in rest)])

class ShapeProp(Interpreter):
    """torch.fx.passes.shape_prop.ShapeProp: run the graph once on example inputs (only meta functions with
    `fake_mode`) and write down a TensorMetadata for what each node produced in `node.meta["tensor_meta"]` (a
    tuple, list or dict of them for several tensors), and its Python type in `node.meta["type"]`."""

    def __init__(self, gm, fake_mode=None):
        super().__init__(gm)
        self.fake_mode = fake_mode

    def run_node(self, n):
        from .passes.shape_prop import _extract_tensor_metadata  # deferred: that module re-exports this class

        try:
            with self.fake_mode if self.fake_mode is not None else contextlib.nullcontext():
                result = super().run_node(n)
        except Exception as e:
            raise RuntimeError(f"ShapeProp error for: node={n.format_node()} with meta={n.meta}") from e
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, _tensor.Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args):
        """Run on args (faked first when a fake_mode was given); returns the graph's output."""
        if self.fake_mode is not None:
            args = [self.fake_mode.from_tensor(a) if isinstance(a, _tensor.Tensor) else a for a in args]
        return super().run(*args)
