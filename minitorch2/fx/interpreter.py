"""Interpreter: run a graph node by node.

FX layer; the reference executor of the IR. Generated code and an Interpreter must agree on every graph, which makes the
Interpreter the oracle other layers test against, and the base class of analyses (ShapeProp is an Interpreter that
writes down each value's shape):

    run(*args)
      for node in graph.nodes:
        env[node] = run_node(node)            <- override to instrument every node
                      |  fetch_args_kwargs_from_env(node): Nodes -> values from env
                      v
                    getattr(self, node.op)(target, args, kwargs)
                      placeholder   next input
                      get_attr      fetch_attr(target)
                      call_function target(*args, **kwargs)
                      call_method   getattr(args[0], target)(*args[1:], **kwargs)
                      call_module   fetch_attr(target)(*args, **kwargs)
                      output        args[0]             <- override one opcode's method
        free values after their last use

The one idea to hold: one method per opcode, all overridable. (torch.fx's Transformer, an Interpreter whose values are
Proxies on a new graph, lives with symbolic tracing in _symbolic_trace.py.)
"""
from ._interpreter_more import InterpreterBoxedRun
from .node import last_uses, map_arg

__all__ = ["Interpreter"]


class Interpreter(InterpreterBoxedRun):
    """Execute a GraphModule's graph node by node (boxed_run from _interpreter_more.py). See the module docstring."""

    extra_traceback = True  # errors name the node that raised them

    def __init__(self, module, garbage_collect_values=True, graph=None):
        self.module = module
        self.graph = graph if graph is not None else self.module.graph
        self.env = {}
        self.garbage_collect_values = garbage_collect_values
        if garbage_collect_values:
            self.user_to_last_uses = last_uses(self.graph.nodes)

    def run(self, *args, initial_env=None):
        """Run the graph on args; values already in initial_env are not recomputed."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                if self.extra_traceback:
                    message = f"While executing {node.format_node()}"
                    message = f"{e.args[0]}\n\n{message}" if e.args else message
                    e.args = (message,) + e.args[1:]
                    if isinstance(e, KeyError):
                        raise RuntimeError(*e.args) from e
                raise
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == "output":
                return self.env[node]

    def run_node(self, n):
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    # ---------------------------------------------------------- one method per opcode
    def placeholder(self, target, args, kwargs):
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration as si:
            if len(args) > 0:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one was not passed in!") from si

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        if isinstance(target, str):
            raise AssertionError("target should not be a string for call_function")
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    # ---------------------------------------------------------- helpers
    def fetch_attr(self, target):
        obj = self.module
        atoms = target.split(".")
        for i, atom in enumerate(atoms):
            if not hasattr(obj, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(atoms[: i + 1])}")
            obj = getattr(obj, atom)
        return obj

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load_arg(n_arg):
            if n_arg not in self.env:
                raise RuntimeError(
                    f"Node {n} referenced nonexistent value {n_arg}! Run Graph.lint() to diagnose such issues"
                )
            return self.env[n_arg]

        return _plain(map_arg(args, load_arg))


def _plain(value):
    """Values handed to targets are ordinary lists and dicts, not the graph's immutable ones."""
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return {k: _plain(v) for k, v in value.items()} if isinstance(value, dict) else value
