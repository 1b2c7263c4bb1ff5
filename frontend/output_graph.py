"""OutputGraph: the FX graph a translation builds, its inputs, guards and outputs.

Frontend layer, owned by the InstructionTranslator (and shared with every
inlined call). It plays Dynamo's OutputGraph:

    graph inputs   one placeholder per tensor the frame reads, named from its
                   Source (`L_x_`, `L_self_modules_fc_parameters_weight_`), in
                   order of first use; parameters are inputs too
                   (inline_inbuilt_nn_modules=True)
    nodes          torch-level calls (`torch.relu(l_x_)`, `relu.sum()`,
                   `l_x_ + 1`), each with meta["example_value"] a fake tensor
    output         a tuple of the tensors the frame returns
    guards         a GuardSet (see guards.py)

The one idea to hold: the backend gets a GraphModule and the REAL example
inputs, and returns a callable; the cache entry later fetches the same inputs
from the live frame by their sources and calls it.
"""
import minitorch2
from minitorch2 import fx
from minitorch2._subclasses.fake_tensor import FakeTensorMode

from . import guards as guards_mod
from .exc import Unsupported


class GraphInput:
    def __init__(self, source, value, node):
        self.source = source
        self.value = value
        self.node = node


class OutputGraph:
    def __init__(self):
        self.graph = fx.Graph()
        self.fake_mode = FakeTensorMode()
        self.guards = guards_mod.GuardSet()
        self.guards.add(guards_mod.grad_mode_guard(minitorch2.is_grad_enabled()))
        self.inputs = []
        self._input_vars = {}
        self.outputs = []

    # ---- inputs -----------------------------------------------------------------------

    def add_graph_input(self, source, value):
        from .variables.tensor import TensorVariable

        key = source.name()
        if key in self._input_vars:
            return self._input_vars[key]
        self.guards.add(guards_mod.tensor_guard(source, value))
        type_expr = minitorch2.nn.Parameter if isinstance(value, minitorch2.nn.Parameter) else minitorch2.Tensor
        last_placeholder = self.inputs[-1].node if self.inputs else None
        if last_placeholder is not None:
            with self.graph.inserting_after(last_placeholder):
                node = self.graph.placeholder(source.placeholder_name(), type_expr=type_expr)
        else:
            first = next(iter(self.graph.nodes), None)
            with self.graph.inserting_before(first):
                node = self.graph.placeholder(source.placeholder_name(), type_expr=type_expr)
        fake = self.fake_mode.from_tensor(value)
        node.meta["example_value"] = fake
        self.inputs.append(GraphInput(source, value, node))
        var = TensorVariable(fx.Proxy(node), fake, type_expr, source)
        self._input_vars[key] = var
        return var

    # ---- nodes ------------------------------------------------------------------------

    def create_proxy(self, kind, target, args, kwargs, example_value):
        node = self.graph.create_node(kind, target, tuple(args), dict(kwargs))
        node.meta["example_value"] = example_value
        return fx.Proxy(node)

    def remove_node(self, node):
        self.graph.erase_node(node)

    def rename(self, node, name):
        """Name a node after the local it is stored in (`y = sin * 2` names the node `y`), as Dynamo does."""
        if node.op == "placeholder" or node.name == name:
            return
        namespace = self.graph._graph_namespace
        new_name = namespace.create_name(name, None)
        node.name = new_name
        namespace._rename_object(node, new_name)

    def as_node_arg(self, var):
        from .variables import BaseListVariable, TensorVariable

        var = var.realize()
        if isinstance(var, TensorVariable):
            return var.proxy.node
        if isinstance(var, BaseListVariable):
            items = [self.as_node_arg(v) for v in var.items]
            return items if var.python_cls is list else tuple(items)
        if var.is_python_constant():
            return var.as_python_constant()
        raise Unsupported(f"passing {var} to a graph operation", "unsupported_call")

    def as_fake_arg(self, var):
        from .variables import BaseListVariable, TensorVariable

        var = var.realize()
        if isinstance(var, TensorVariable):
            return var.example_value
        if isinstance(var, BaseListVariable):
            items = [self.as_fake_arg(v) for v in var.items]
            return items if var.python_cls is list else tuple(items)
        return var.as_python_constant()

    # ---- outputs ----------------------------------------------------------------------

    def add_output(self, tensor_var):
        for i, existing in enumerate(self.outputs):
            if existing.proxy.node is tensor_var.proxy.node:
                return i
        self.outputs.append(tensor_var)
        return len(self.outputs) - 1

    def op_count(self):
        return sum(1 for n in self.graph.nodes if n.op.startswith("call"))

    def finish(self, return_var):
        """Close the graph; returns (GraphModule, plan) where plan rebuilds the frame's return value."""
        plan = return_var.realize().output_plan(self)
        self.graph.output(tuple(v.proxy.node for v in self.outputs))
        for node in reversed(list(self.graph.nodes)):
            if node.meta.get("frontend_speculative") and not node.users:
                self.graph.erase_node(node)
        gm = fx.GraphModule(minitorch2.nn.Module(), self.graph)
        return gm, plan
