"""make_fx: record the aten ops that actually run into an FX graph (as torch.fx.experimental.proxy_tensor).

autograd layer, the tracer everything in this package is built on. A `ProxyTorchDispatchMode` on the dispatcher's
mode stack turns every op that reaches it (backward formulas' ops too) into a `call_function` node whose target is
the `OpOverload`. Inputs become placeholders named `<arg>_<k>` (`x_1`, `primals_1`, `tangents_1`, `arg0_1` for a C
function of torch's), as PyTorch names them.

    tracing_mode="real"   ops run for real on the inputs
    tracing_mode="fake"   inputs become FakeTensors: only meta functions run
    tracing_mode="symbolic"   fake, every size a symbol (`s75`): a size used as a value is `sym_size.int` nodes

The one idea to hold: the tracer never inspects Python code. It sees only what the dispatcher sees, so the graph is
exactly the ops PyTorch's kernels would run.
"""
import contextlib
import inspect
import operator

import sympy

import minitorch2
from minitorch2._dispatch import current_modes
from minitorch2._subclasses.fake_tensor import FakeTensorMode
from minitorch2._sym import is_symbolic
from minitorch2._tensor import Tensor
from minitorch2.fx.experimental.symbolic_shapes import ShapeEnv, python_step
from minitorch2.fx import Graph, GraphModule
from minitorch2.fx._pytree import PyTreeCodeGen
from minitorch2.fx._spelling import is_from_torch, qualified_name
from minitorch2.fx.passes.shape_prop import _extract_tensor_metadata
from minitorch2.utils import _pytree as pytree
from minitorch2.utils._python_dispatch import TorchDispatchMode

from .stack_traces import current_stack_trace


class ProxyTorchDispatchMode(TorchDispatchMode):
    def __init__(self, graph, decomposition_table=None):
        self.graph = graph
        self.decomposition_table = decomposition_table or {}
        self._nodes = {}  # id(tensor) -> (tensor, node); the tensor is kept so its id stays unique
        self._constant_count = 0
        self.root = minitorch2.nn.Module()
        self._decomposing = None  # the outermost op whose decomposition is being traced
        self._size_sources = {}  # symbol -> (placeholder node, dim) whose size it is
        self._sym_nodes = {}  # sympy expression -> the node computing it

    def track_sizes(self, tensor, node):
        for dim, size in enumerate(tensor.shape):
            if is_symbolic(size) and size.node.expr.is_Symbol:
                self._size_sources.setdefault(size.node.expr, (node, dim))

    def track_symint(self, value, node):
        """A SymInt input: the node every use of its symbol becomes (before any `sym_size.int` of a tensor)."""
        node.meta["val"] = value
        self._sym_nodes.setdefault(value.node.shape_env.simplify(value.node.expr), node)

    def _sym_node(self, expr, shape_env):
        """The node computing a symbolic size: `sym_size.int` of an input for a symbol, Python arithmetic on
        those for an expression (made where it is first used)."""
        if expr.is_Number:
            return int(expr) if expr.is_Integer else float(expr)
        node = self._sym_nodes.get(expr)
        if node is None:
            if expr.is_Symbol:
                tensor_node, dim = self._size_sources[expr]
                node = self.graph.call_function(minitorch2.ops.aten.sym_size.int, (tensor_node, dim),
                                                name="sym_size_int")
            else:
                coefficient, rest = expr.as_coeff_Mul()
                # a quotient (`s27 / 2` is the product of s27 and 1/2) is made by dividing, as Python made it
                step, operands = ((operator.truediv, [coefficient.p * rest, sympy.Integer(coefficient.q)])
                                  if coefficient.is_Rational and not coefficient.is_Integer else python_step(expr))
                node = self.graph.call_function(step, tuple(self._sym_node(e, shape_env) for e in operands))
            hint = sympy.sympify(expr.xreplace(shape_env.var_to_val))  # (partitioners tell sizes by meta["val"])
            node.meta["val"] = shape_env.wrap(expr, int if expr.is_integer else float, int(hint) if hint.is_Integer
                                              else float(hint) if hint.is_Number else None)
            self._sym_nodes[expr] = _with_current_stack_trace(node)
        return node

    # ------------------------------------------------------------ tensors <-> nodes
    def track(self, tensor, node):
        self._nodes[id(tensor)] = (tensor, node)
        node.meta.setdefault("val", tensor)
        node.meta.setdefault("tensor_meta", _extract_tensor_metadata(tensor))

    def node_of(self, tensor):
        entry = self._nodes.get(id(tensor))
        return entry[1] if entry is not None and entry[0] is tensor else self._lift_constant(tensor)

    def _lift_constant(self, tensor):
        """A tensor the graph did not produce (a global, a captured constant) becomes a get_attr."""
        name = f"_tensor_constant{self._constant_count}"
        self._constant_count += 1
        setattr(self.root, name, tensor)
        node = _with_current_stack_trace(self.graph.get_attr(name))
        self.track(tensor, node)
        return node

    def _to_arg(self, value):
        if isinstance(value, Tensor):
            return self.node_of(value)
        if is_symbolic(value):
            return self._sym_node(value.node.shape_env.simplify(value.node.expr), value.node.shape_env)
        if isinstance(value, (list, tuple)):
            return type(value)(self._to_arg(v) for v in value)
        return value

    # ------------------------------------------------------------ the hook
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        decomposition = self.decomposition_table.get(func)
        if decomposition is not None:
            outermost = self._decomposing is None
            self._decomposing = self._decomposing or func
            try:
                with self:  # the decomposition's own ops are traced in turn
                    result = decomposition(*args, **kwargs)
            finally:
                if outermost:
                    self._decomposing = None
            if result is not NotImplemented:
                return result
        if func is minitorch2.ops.aten.lift_fresh.default:  # a tensor made from Python data: copy the constant
            func = minitorch2.ops.aten.lift_fresh_copy.default
        node = _with_current_stack_trace(
            self.graph.call_function(func, self._to_arg(args), self._to_arg(kwargs), name=func._opname))
        if self._decomposing is not None:  # as torch's: the lowering may raise the error the original op raises
            node.meta["original_aten"] = self._decomposing
        out = func(*args, **kwargs)
        self._tie(out, node)
        return out

    def _tie(self, out, node):
        if isinstance(out, Tensor):
            self.track(out, node)
        elif is_symbolic(out):  # a float read from a tensor (`_local_scalar_dense`): its uses take this node
            node.meta["val"] = out
            self._sym_nodes[out.node.expr] = node
        elif isinstance(out, (list, tuple)):
            node.meta["val"] = out
            for i, item in enumerate(out):
                if isinstance(item, Tensor):
                    self.track(item, _with_current_stack_trace(self.graph.call_function(operator.getitem, (node, i))))


def _with_current_stack_trace(node):
    stack_trace = current_stack_trace()
    if stack_trace:
        node.meta["stack_trace"] = stack_trace
    return node


def tag_forward_nodes():
    """Mark every node traced so far (tangents aside) as forward: the joint trace calls this between its
    forward and its backward, and the default partitioner cuts after the last forward node."""
    for mode in reversed(current_modes()):
        if isinstance(mode, ProxyTorchDispatchMode):
            for node in mode.graph.nodes:
                is_tangent = node.op == "placeholder" and node.name.startswith("tangents")
                node.meta["partitioner_tag"] = "is_backward" if is_tangent else "is_forward"
            return


def _placeholder_names(fn, args):
    spelled = qualified_name(fn) if is_from_torch(fn) and getattr(fn, "__name__", "") != "<lambda>" else ""
    try:  # torch's top-level and torch._C functions are C builtins: no signature, so `arg<i>`, as for *args
        builtin = spelled.startswith("torch._C.") or (spelled.startswith("torch.") and spelled.count(".") == 1)
        params = [] if builtin else inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        params = []
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    # *args: PyTorch names them arg0_1, arg1_1, ...
    return [positional[i] if i < len(positional) else f"arg{i}" for i in range(len(args))]


def make_fx(f, decomposition_table=None, tracing_mode="real", _allow_non_fake_inputs=False):
    """Return a function that traces `f` on example inputs into a GraphModule of aten ops."""
    if tracing_mode not in ("real", "fake", "symbolic"):
        raise ValueError(f"Unrecognized tracing mode: {tracing_mode}")

    def traced(*args):
        graph = Graph()
        mode = ProxyTorchDispatchMode(graph, decomposition_table)
        fake_mode = None if tracing_mode == "real" else FakeTensorMode(
            shape_env=ShapeEnv() if tracing_mode == "symbolic" else None)
        inputs, count = [], 0
        for base, arg in zip(_placeholder_names(f, args), args):
            flat, spec = pytree.tree_flatten(arg)
            leaves = []
            for k, leaf in enumerate(flat, start=1):
                if leaf is not None:
                    node = graph.placeholder(f"{base}_{k}")
                if isinstance(leaf, Tensor):
                    if fake_mode is not None:
                        leaf = fake_mode.from_tensor(leaf, source=f"input{count}")
                    count += 1
                    mode.track(leaf, node)
                    mode.track_sizes(leaf, node)
                elif is_symbolic(leaf):
                    mode.track_symint(leaf, node)
                leaves.append(leaf)
            inputs.append(pytree.tree_unflatten(leaves, spec))
        with fake_mode if fake_mode is not None else contextlib.nullcontext(), mode:
            out = f(*inputs)
        if any(isinstance(a, (list, tuple, dict)) for a in args):
            # nested arguments: the module is called with them as they are, as PyTorch's make_fx does
            out, out_spec = pytree.tree_flatten(out)
            graph.set_codegen(PyTreeCodeGen(_placeholder_names(f, args), pytree.tree_flatten(list(args))[1], out_spec))
        graph.output(mode._to_arg(out))
        module = GraphModule(mode.root, graph)
        if tracing_mode == "symbolic":
            module.shape_env = fake_mode.shape_env
        return module

    return traced
