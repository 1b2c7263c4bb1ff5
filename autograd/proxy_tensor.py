"""make_fx: record the aten ops that actually run into an FX graph (as torch.fx.experimental.proxy_tensor).

autograd layer, the tracer everything in this package is built on. A `ProxyTorchDispatchMode` on the dispatcher's
mode stack turns every op that reaches it (backward formulas' ops too) into a `call_function` node whose target is
the `OpOverload`. Inputs become placeholders named `<arg>_<k>` (`x_1`, `primals_1`, `tangents_1`, `arg0_1` for a C
function of torch's), as PyTorch names them.

    tracing_mode="real"   ops run for real on the inputs
    tracing_mode="fake"   inputs become FakeTensors: only meta functions run
    tracing_mode="symbolic"   fake, every size a symbol (`s75`): a size used as a value is `sym_size.int` nodes,
                              arithmetic on sizes is traced as it runs (`mul = 2 * sym_size_int`)

The one idea to hold: the tracer never inspects Python code. It sees only what the dispatcher sees, so the graph is
exactly the ops PyTorch's kernels would run.
"""
import contextlib
import functools
import inspect
import operator

import minitorch2
from minitorch2._dispatch import current_modes
from minitorch2._subclasses.fake_tensor import FakeTensorMode
import minitorch2._sym
from minitorch2._sym import is_symbolic
from minitorch2._tensor import Tensor
from minitorch2.fx.experimental.symbolic_shapes import ShapeEnv
from minitorch2.fx import Graph, GraphModule
from minitorch2.fx._pytree import PyTreeCodeGen
from minitorch2.fx._spelling import is_from_torch, qualified_name
from minitorch2.fx.passes.shape_prop import _extract_tensor_metadata
from minitorch2.utils import _pytree as pytree
from minitorch2.utils._python_dispatch import TorchDispatchMode

from .dedupe_symints import finish_trace
from .functionalization_sizes import replay_functionalization_sizes
from .stack_traces import current_stack_trace

aten = minitorch2.ops.aten


class ProxyTorchDispatchMode(TorchDispatchMode):
    def __init__(self, graph, decomposition_table=None, functionalized=False):
        self.graph = graph
        self.decomposition_table = decomposition_table or {}
        self.functionalized = functionalized  # traced for AOT: see functionalization_sizes.py
        self._nodes = {}  # id(tensor) -> (tensor, node); the tensor is kept so its id stays unique
        self._constant_counts = {"_param_constant": 0, "_tensor_constant": 0}  # (named apart, as torch names them)
        self.root = minitorch2.nn.Module()
        self._decomposing = None  # the outermost op whose decomposition is being traced
        # id(SymNode) -> (SymNode, node or a callable making it when first used): a Sym* value's node, by identity
        # as torch's proxy slots; a size of a traced tensor gets `sym_size.int` of it, made only if ever used
        self._sym_slots = {}
        self.size_memo = {}  # id(tensor) -> (tensor, {question: answer}): see minitorch2/_aten/composite_sizes.py

    def track_symint(self, value, node):
        """A Sym* input (or op result): the node every use of it becomes (before any `sym_size.int` of a tensor)."""
        node.meta["val"] = value
        self._sym_slots[id(value.node)] = (value.node, node)

    def _set_sym_slot(self, value, op, *args):
        """A Sym* size of a traced tensor: its node, `op(*args)` (`sym_size.int(x, 0)`), made where first used."""
        if is_symbolic(value) and id(value.node) not in self._sym_slots:
            make = functools.cache(lambda: self._sym_node(op, args, value, name=op.__name__.replace(".", "_")))
            self._sym_slots[id(value.node)] = (value.node, make)

    def _sym_arg(self, value):
        """The node of a Sym* argument: the one its slot holds (made now if it is a size not used before)."""
        slot = self._sym_slots.get(id(value.node))
        if slot is None:  # a value no traced tensor, input or traced operation gave: as torch's, an error
            raise RuntimeError(f"{value} is not tracked with proxy for {self}")
        return slot[1]() if callable(slot[1]) else slot[1]

    def record_sym_op(self, op, operands, result):
        """A Sym* operation run while this mode traces: a node `add = sym_size_int + 1`, as torch's
        __sym_dispatch__ records it."""
        if op is operator.mul and any(type(v) is int and v == 1 for v in operands):
            return operands[0] if type(operands[1]) is int and operands[1] == 1 else operands[1]
        # (torch's result is a Sym* even when a number, as `s77 == 0`: traced all the same)
        node = self._sym_node(op, self._to_arg(tuple(operands)), result)
        if is_symbolic(result):
            self._sym_slots[id(result.node)] = (result.node, node)
        return result

    # ------------------------------------------------------------ tensors <-> nodes
    def track(self, tensor, node):
        self._nodes[id(tensor)] = (tensor, node)
        for dim, (size, stride) in enumerate(zip(tensor.shape, tensor.stride())):
            self._set_sym_slot(size, aten.sym_size.int, node, dim)
            self._set_sym_slot(stride, aten.sym_stride.int, node, dim)
        self._set_sym_slot(tensor.storage_offset(), aten.sym_storage_offset.default, node)
        node.meta.setdefault("val", tensor)
        node.meta.setdefault("tensor_meta", _extract_tensor_metadata(tensor))

    def _sym_node(self, op, args, value, name=None):
        node = self.graph.call_function(op, args, name=name)
        node.meta["val"] = value
        return _with_current_stack_trace(node)

    def view_adopted(self, tensor, before, view):  # t_: tensor's nodes keep its old value, its later uses are view's
        for node in (n for n in self.graph.nodes if n.meta.get("val") is tensor):  # (a placeholder's too)
            node.meta["val"], node.meta["tensor_meta"] = before, _extract_tensor_metadata(before)
        self._nodes[id(tensor)] = (tensor, self.node_of(view))
        self.node_of(view).meta["adopted"] = True  # (functionalization takes it as current, as torch's t_)

    def node_of(self, tensor):
        entry = self._nodes.get(id(tensor))
        return entry[1] if entry is not None and entry[0] is tensor else self._lift_constant(tensor)

    def _lift_constant(self, tensor):
        """A tensor the graph did not produce (a global, a captured constant) becomes a get_attr."""
        kind = "_param_constant" if isinstance(tensor, minitorch2.nn.Parameter) else "_tensor_constant"
        name, self._constant_counts[kind] = f"{kind}{self._constant_counts[kind]}", self._constant_counts[kind] + 1
        setattr(self.root, name, tensor)
        node = _with_current_stack_trace(self.graph.get_attr(name))
        self.track(tensor, node)
        return node

    def _to_arg(self, value):
        if isinstance(value, Tensor):
            return self.node_of(value)
        if is_symbolic(value):  # (a symbol pinned since, as a size the frontend pinned: its number, as torch's)
            expr = value.node.shape_env.simplify(value.node.expr)
            return value.node.pytype(expr) if expr.is_number else self._sym_arg(value)
        return type(value)(self._to_arg(v) for v in value) if isinstance(value, (list, tuple)) else value

    # ------------------------------------------------------------ the hook
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = self._trace_call(func, args, kwargs or {})
        if self.functionalized and self._decomposing is None:  # the size arithmetic torch's functionalization adds
            replay_functionalization_sizes(self if self.functionalized is True else None, func, args, out)
        return out

    def _trace_call(self, func, args, kwargs):
        # (native_batch_norm's decomposition copy_s into running statistics its schema does not mark as written: only
        # a graph functionalized after the trace, as AOT's, keeps those writes)
        writes_hidden = func is minitorch2.ops.aten.native_batch_norm.default and not self.functionalized
        decomposition = None if writes_hidden else self.decomposition_table.get(func)
        if decomposition is not None:
            outer, self._decomposing = self._decomposing, self._decomposing or func
            try:
                with self:  # the decomposition's own ops are traced in turn
                    result = decomposition(*args, **kwargs)
            finally:
                self._decomposing = outer
            if result is not NotImplemented:
                return result
        if func is minitorch2.ops.aten.lift_fresh.default:  # a tensor made from Python data: copy the constant
            func = minitorch2.ops.aten.lift_fresh_copy.default
        keywords = {k: self._to_arg(v) for k, v in kwargs.items()}  # (a tensor among them: attention's mask)
        node = _with_current_stack_trace(self.graph.call_function(func, self._to_arg(args), keywords, name=func._opname))
        if self._decomposing or minitorch2._out.WRITING:  # as torch's: the lowering may raise the original op's error
            node.meta["original_aten"] = self._decomposing or "out="  # (an out= write: inplace_decomposed.py)
        out = func(*args, **kwargs)
        self._tie(out, node)
        return out

    def _tie(self, out, node):
        if isinstance(out, Tensor):
            self.track(out, node)
        elif is_symbolic(out):  # a float read from a tensor (`_local_scalar_dense`): its uses take this node
            self.track_symint(out, node)
        elif isinstance(out, (list, tuple)):
            node.meta["val"] = out
            for i, item in enumerate(out):
                if isinstance(item, Tensor):
                    self.track(item, _with_current_stack_trace(self.graph.call_function(operator.getitem, (node, i))))


def _record_sym_op(op, operands, result):
    """minitorch2._sym's hook: the op is traced by the innermost ProxyTorchDispatchMode on the mode stack, if
    any (none while one of its ops runs: the dispatcher takes the mode off the stack, so meta functions'
    size arithmetic is not traced, as in torch)."""
    mode = _innermost_mode()
    return result if mode is None else mode.record_sym_op(op, operands, result)


def _innermost_mode():
    return next((m for m in reversed(current_modes()) if isinstance(m, ProxyTorchDispatchMode)), None)


minitorch2._sym.sym_op_hook = _record_sym_op


def _with_current_stack_trace(node):
    stack_trace = current_stack_trace()
    if stack_trace:
        node.meta["stack_trace"] = stack_trace
    return node


def tag_forward_nodes():
    """Mark every node traced so far (tangents aside) as forward: the joint trace calls this between its
    forward and its backward, and the default partitioner cuts after the last forward node."""
    _innermost_mode().functionalized = "asked"  # (torch's backward asks its size questions, records no arithmetic)
    for node in _innermost_mode().graph.nodes:
        is_tangent = node.op == "placeholder" and node.name.startswith("tangents")
        node.meta["partitioner_tag"] = "is_backward" if is_tangent else "is_forward"


def _torch_builtin(fn):
    """torch's top-level and torch._C functions are C builtins: no signature, no code."""
    spelled = qualified_name(fn) if is_from_torch(fn) and getattr(fn, "__name__", "") != "<lambda>" else ""
    return spelled.startswith("torch._C.") or (spelled.startswith("torch.") and spelled.count(".") == 1)


def _module_name(fn):
    """fn's name; `<lambda>` where torch traces through a lambda (a builtin, partial or module; *args)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    return "<lambda>" if code is None or code.co_flags & inspect.CO_VARARGS or _torch_builtin(fn) else fn.__name__


def _placeholder_names(fn, args):
    try:  # a C builtin has no signature: `arg<i>`, as for *args
        params = [] if _torch_builtin(fn) else inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        params = []
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    # *args: PyTorch names them arg0_1, arg1_1, ...
    return [positional[i] if i < len(positional) else f"arg{i}" for i in range(len(args))]


def make_fx(f, decomposition_table=None, tracing_mode="real", _allow_non_fake_inputs=False, _functionalized=False):
    """Return a function that traces `f` on example inputs into a GraphModule of aten ops (`_functionalized`:
    for AOT, which functionalizes the graph: the size arithmetic torch's functionalization does is traced)."""
    if tracing_mode not in ("real", "fake", "symbolic"):
        raise ValueError(f"Unrecognized tracing mode: {tracing_mode}")

    def traced(*args):
        graph = Graph()
        mode = ProxyTorchDispatchMode(graph, decomposition_table, _functionalized)
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
        finish_trace(graph)
        module = GraphModule(mode.root, graph, _module_name(f))
        if tracing_mode == "symbolic":
            module.shape_env = fake_mode.shape_env
        return module

    return traced
