"""A custom autograd.Function called in a compiled frame, captured as Dynamo captures it: one higher-order op.

Frontend layer, reached from TorchVariable.call_function on `MyFn.apply(...)`. When an input needs a gradient, the
Function's forward and backward are traced, each into a graph of its own, and the frame's graph records

    fwd_body_0 = self.fwd_body_0
    bwd_body_0 = self.bwd_body_0
    autograd_function_apply = torch.ops.higher_order.autograd_function_apply(fwd_body_0, bwd_body_0, arg, l_y_,
                                  non_differentiable_idx = [], saved_for_backward_idx = [0, 1])
    getitem = autograd_function_apply[0]

(the operator: minitorch2/_higher_order.py). How, in four steps:

1. forward runs inlined, under no_grad, with a FunctionCtxVariable standing for ctx; its nodes land at the end of
   the frame's graph (with a namespace of their own, as Dynamo's subgraph tracer names them afresh);
2. backward runs the same way on stand-ins for the incoming gradients; what it reads from outside (saved tensors,
   forward intermediates, inputs) becomes an input of its graph, in order of first use;
3. both node runs move out of the frame's graph into fwd_body/bwd_body (`_extract`): the forward returns
   ((outputs), (what backward reads)), the backward takes (*grads, *what it reads) and returns one gradient per
   forward input, None where there is none;
4. the call and a getitem per output are recorded; the trackers the forward returned now name those getitems.

No input needs a gradient: forward is inlined as plain code, as Dynamo does. A form Dynamo refuses (a custom vjp
or jvp, a dirty input not returned, one tensor passed twice) or one not modelled here (an output that is neither a
tensor nor a constant), and a forward or backward that breaks, are a graph break: apply runs eagerly, and its forward
compiles as a frame of its own (eager_frame.py), as Dynamo sees it.
"""
import inspect
import itertools
import operator

import minitorch2
from minitorch2 import fx
from minitorch2._higher_order import autograd_function_apply
from minitorch2._subclasses.fake_tensor import FakeTensor
from minitorch2.fx._spelling import register_spelling
from minitorch2.autograd.function import FunctionCtx, once_differentiable

from ..exc import Unsupported
from ..source import AttrSource
from .constant import ConstantVariable
from .ctx_manager import _set_grad_enabled
from .dynamo_forms import name_after_local
from .functions import UserFunctionVariable
from .hop_size_symbols import bound_by, left_out, with_size_symbols
from .lists import BaseListVariable, TupleVariable
from .tensor import TensorVariable, record
from .user_defined import UserObjectVariable

register_spelling("torch._subclasses.fake_tensor.FakeTensor", FakeTensor)  # the forward body's annotations


class FunctionCtxVariable(UserObjectVariable):
    """`ctx` inside a traced forward/backward: attributes kept as trackers, saved tensors remembered."""

    def __init__(self, needs_input_grad):
        super().__init__(FunctionCtx())
        self.saved = None  # the trackers save_for_backward was given
        self.non_differentiable = []
        self.dirty = []  # (nodes of the tensors mark_dirty was given)
        self.needs_input_grad = needs_input_grad
        self.captured = False  # (as the higher-order op: forward inlined as plain code has no mark_dirty, as Dynamo's)

    def var_getattr(self, tx, name):
        if name == "saved_tensors" and self.saved is not None:
            return TupleVariable(self.saved)
        if name == "needs_input_grad":
            return TupleVariable([ConstantVariable(b) for b in self.needs_input_grad])
        if name in ("save_for_backward", "mark_non_differentiable", "set_materialize_grads", "mark_dirty"):
            return _CtxMethod(self, name)
        return super().var_getattr(tx, name)


class _CtxMethod(UserObjectVariable):
    def __init__(self, ctx, name):
        super().__init__(None)
        self.ctx, self.name = ctx, name

    def call_function(self, tx, args, kwargs):
        args = [a.realize() for a in args]
        if self.name == "save_for_backward":
            self.ctx.saved = args
        elif self.name == "mark_non_differentiable":
            self.ctx.non_differentiable += [a.proxy.node for a in args if isinstance(a, TensorVariable)]
        elif self.name == "mark_dirty" and not self.ctx.captured:
            raise Unsupported("ctx.mark_dirty in a forward inlined as plain code (Dynamo traces it only inside "
                              "autograd.Function.apply's higher-order op)", "unsupported_call")
        elif self.name == "mark_dirty":
            self.ctx.dirty += [a.proxy.node for a in args if isinstance(a, TensorVariable)]
        # set_materialize_grads: no effect on the captured bodies, whose operator materializes gradients (as Dynamo's)
        return ConstantVariable(None)


_ONCE_DIFFERENTIABLE_CODE = once_differentiable(lambda ctx, *grads: None).__code__


class _UserFunction:
    """The Function subclass applied, and the source it was read from (its methods' closures are guarded inputs)."""

    def __init__(self, cls, source):
        self.cls, self.source = cls, source
        self.setup_context_form = "setup_context" in {name for klass in cls.__mro__
                                                      if klass is not minitorch2.autograd.Function
                                                      for name in vars(klass)}

    def method(self, name):
        fn, source = getattr(self.cls, name), self.source and AttrSource(self.source, name)
        if getattr(fn, "__code__", None) is _ONCE_DIFFERENTIABLE_CODE:  # its wrapper: the body is what is traced
            fn, source = fn.__wrapped__, source and AttrSource(source, "__wrapped__")
        if not inspect.isfunction(fn):
            raise Unsupported(f"autograd.Function method {fn!r} is not a Python function", "unsupported_call")
        return UserFunctionVariable(fn, source)

    def resolve_kwargs(self, args, kwargs):
        """Keyword arguments as forward's positional ones (Dynamo's rule: keyword-only ones are a graph break)."""
        code = self.method("forward").fn.__code__
        names = code.co_varnames[0 if self.setup_context_form else 1:code.co_argcount]
        if any(name not in names[len(args):] for name in kwargs):
            raise Unsupported(f"autograd.Function {self.cls.__name__}.apply: keyword arguments {sorted(kwargs)} are "
                              "not forward's positional parameters", "unsupported_call")
        named = names[len(args):max(names.index(k) for k in kwargs) + 1]
        if any(n not in kwargs for n in named):
            raise Unsupported(f"{self.cls.__name__}.forward() missing required argument "
                              f"{next(n for n in named if n not in kwargs)!r}", "unsupported_call")
        return [*args, *[kwargs[n] for n in named]]


def call_autograd_function(tx, apply_var, args, kwargs):
    """`MyFn.apply(*args)` in a compiled frame (apply_var: the TorchVariable of apply): the tracker it returns."""
    if hasattr(apply_var.value, "__self__"):  # MyFn.apply, bound to the class
        source = apply_var.source.base if isinstance(apply_var.source, AttrSource) else None
        fn = _UserFunction(apply_var.value.__self__, source)
    else:  # apply's function, called with the class first
        cls_var = args[0].realize()
        fn, args = _UserFunction(cls_var.value, cls_var.source), args[1:]
    for name in ("vjp", "jvp"):
        if name in vars(fn.cls):
            raise Unsupported(f"autograd.Function {fn.cls.__name__} defines a custom {name}, which Dynamo does "
                              "not trace", "unsupported_call")
    args = [a.realize() for a in (fn.resolve_kwargs(args, kwargs) if kwargs else args)]
    tensor_nodes = [a.proxy.node for a in args if isinstance(a, TensorVariable)]
    if len(set(tensor_nodes)) < len(tensor_nodes):
        raise Unsupported("autograd.Function.apply: duplicate tensor input (Dynamo does not trace apply when the "
                          "same tensor is passed to several forward inputs)", "unsupported_call")
    needs_grad = [isinstance(a, TensorVariable) and a.example_value.requires_grad for a in args]
    ctx = FunctionCtxVariable(needs_grad)
    if not (minitorch2.is_grad_enabled() and any(needs_grad)):  # no graph to build for backward: plain code
        return _run_forward(tx, fn, ctx, args)
    return _capture(tx, fn, ctx, args)


def _run_forward(tx, fn, ctx, args):
    """forward(ctx, *args), or torch 2's forward(*args) then setup_context(ctx, inputs, output)."""
    if not fn.setup_context_form:
        return fn.method("forward").call_function(tx, [ctx, *args], {})
    out = name_after_local(tx.output.graph, fn.method("forward").call_function(tx, args, {}), "output")
    fn.method("setup_context").call_function(tx, [ctx, TupleVariable(args), out], {})
    return out


def _switch_grad_mode(og, mode):
    """A grad-mode switch node, kept even where the body between two is empty (as Dynamo's bodies keep theirs)."""
    og.create_node("call_function", _set_grad_enabled, (mode,), {})
    _set_grad_enabled(mode)


class _FreshNames:
    """Within the block, new nodes are named in a namespace of their own (a subgraph's), as Dynamo's are; grad mode
    is put back however the block ends."""

    def __init__(self, graph):
        self.graph = graph

    def __enter__(self):
        self.outer, self.grad_mode = self.graph._graph_namespace, minitorch2.is_grad_enabled()
        self.graph._graph_namespace = self.inner = type(self.outer)()
        self.outer_in_a_body, self.graph.in_a_body = getattr(self.graph, "in_a_body", False), True
        return self

    def __exit__(self, *exc):
        self.graph._graph_namespace, self.graph.in_a_body = self.outer, self.outer_in_a_body
        minitorch2.autograd.grad_mode.state.grad_enabled = self.grad_mode

    def rename_outer(self, var, name):
        """name_after_local for a node of the frame's graph (its namespace, not the block's)."""
        self.graph._graph_namespace = self.outer
        name_after_local(self.graph, var, name)
        self.graph._graph_namespace = self.inner


def _nodes_since(graph, before):
    return [n for n in graph.nodes if n not in before and n.op != "placeholder"]


def _capture(tx, fn, ctx, args):
    og, ctx.captured = tx.output, True
    names_before = {n: n.name for n in og.graph.nodes}
    before = set(names_before)
    with _FreshNames(og.graph) as names:
        _switch_grad_mode(og, False)
        out = _run_forward(tx, fn, ctx, args)
        _switch_grad_mode(og, True)
        items = list(out.items) if isinstance(out, BaseListVariable) else [out]
        if not all(isinstance(o, TensorVariable) or o.is_python_constant() for o in items):
            raise Unsupported(f"autograd.Function {fn.cls.__name__}.forward returned {out}", "unsupported_call")
        traced = set(_nodes_since(og.graph, before))
        items = _as_fwd_trace_helper(tx, names, ctx, out, items, args, traced)
    fwd_nodes = _nodes_since(og.graph, before)
    fwd_inputs = with_size_symbols(og, _outer_inputs(fwd_nodes, [a.proxy.node for a in args
                                                                 if isinstance(a, TensorVariable)]))
    first_reader = {n: next((r for r in fwd_nodes if n in r.all_input_nodes), None) for n in fwd_inputs}
    # a placeholder is named as its node was when the body first read it (Dynamo lifts inputs then)
    fwd_input_names = [names_before.get(n, n.name) if first_reader[n] in traced else n.name for n in fwd_inputs]
    before = set(og.graph.nodes)
    with _FreshNames(og.graph):
        grads = _gradient_stand_ins(og, fn, items)
        with bound_by(og, [g for g in grads if isinstance(g, TensorVariable)]):  # (hop_size_symbols.py)
            _switch_grad_mode(og, False)
            grads_out = fn.method("backward").call_function(tx, [ctx, *grads], {})
            _switch_grad_mode(og, True)
    bwd_nodes = _nodes_since(og.graph, before)
    _record_call(tx, ctx, args, items, (fwd_nodes, fwd_inputs, fwd_input_names), (bwd_nodes, grads, grads_out))
    return type(out)(items) if isinstance(out, BaseListVariable) else items[0]


def _as_fwd_trace_helper(tx, names, ctx, out, items, args, traced):
    """What Dynamo traces around forward (DynamoAutogradFunctionTraceHelper): the output stored in `outs` (or each in
    `out`), the inputs it is compared with stored in `arg`, an input returned as is made a view (`view_as`)."""
    def store(var, name):  # a node of the body, or else one of the frame's graph
        if isinstance(var, TensorVariable) and var.proxy.node in traced:
            name_after_local(tx.output.graph, var, name)
        else:
            names.rename_outer(var, name)

    if not isinstance(out, BaseListVariable):
        store(out, "outs")
    result = []
    for item in items:
        if isinstance(out, BaseListVariable):
            store(item, "out")
        is_input = False
        for arg in args if isinstance(item, TensorVariable) else ():
            if isinstance(arg, TensorVariable):
                store(arg, "arg")
                if arg.proxy.node is item.proxy.node:
                    is_input = item.proxy.node not in ctx.dirty  # (a dirty input is returned as itself)
                    break
        result.append(record(tx.output, "call_method", "view_as", [item, item], {}) if is_input else item)
    return result


def _gradient_stand_ins(og, fn, items):
    """A tracker per incoming gradient, named after backward's parameters (`g`), as Dynamo's placeholders are; None
    for an output that is no tensor. The trackers are the frame graph's nodes until the body moves out."""
    params = list(inspect.signature(fn.method("backward").fn).parameters.values())[1:]
    names = [p.name for p in params if p.kind is not inspect.Parameter.VAR_POSITIONAL]
    stand_ins = []
    for i, item in enumerate(items):
        if not isinstance(item, TensorVariable):
            stand_ins.append(ConstantVariable(None))
            continue
        name = names[i] if i < len(names) else item.proxy.node.name  # (under *grads: the output's own name)
        with og.fake_mode:
            fake = minitorch2.empty_like(item.example_value)
        node = og.graph.create_node("call_function", _gradient_stand_in, (), {}, name=name)
        node.meta["example_value"] = fake
        stand_ins.append(TensorVariable(fx.Proxy(node, og._appender), fake))
    return stand_ins


def _gradient_stand_in():
    """The target of a gradient's stand-in node while backward is traced (the node becomes a placeholder)."""


def _outer_inputs(nodes, extra):
    """The nodes outside `nodes` they read, in order of first use, then those of `extra` none read."""
    inside, seen = set(nodes), []
    for node in nodes:
        for arg in node.all_input_nodes:
            if arg not in inside and arg not in seen:
                seen.append(arg)
    return seen + [n for n in extra if n not in seen]


def _extract(inputs, names, nodes, typed, output):
    """A GraphModule of `nodes` reading `inputs` as placeholders named `names` (`typed`: annotated with their fake
    values' type, as Dynamo's forward body is); output(env) gives its output."""
    graph = fx.Graph()
    env = {}
    for node, name in zip(inputs, names):
        env[node] = graph.placeholder(name, type_expr=type(node.meta["example_value"]) if typed else None)
        env[node].meta = dict(node.meta)
    for node in nodes:
        if node.target is not _gradient_stand_in and not left_out(node):
            env[node] = graph.node_copy(node, lambda a: env[a])
    graph.output(output(env))
    return fx.GraphModule(minitorch2.nn.Module(), graph)


def _record_call(tx, ctx, args, items, fwd, bwd):
    og = tx.output
    fwd_nodes, fwd_inputs, fwd_input_names = fwd
    bwd_nodes, grads, grads_out = bwd
    outs = [o for o in items if isinstance(o, TensorVariable)]
    grad_nodes = [g.proxy.node for g in grads if isinstance(g, TensorVariable)]
    read_by_bwd = with_size_symbols(og, [n for n in _outer_inputs(bwd_nodes, []) if n not in grad_nodes], grad_nodes)
    for node in read_by_bwd:  # what backward reads of the frame's graph the forward takes too (and passes on)
        if node not in fwd_nodes and node not in fwd_inputs:
            fwd_inputs.append(node)
            fwd_input_names.append(node.name)
    fwd_gm = _extract(fwd_inputs, fwd_input_names, fwd_nodes, typed=True,
                      output=lambda env: (tuple(env[o.proxy.node] for o in outs), tuple(env[n] for n in read_by_bwd)))
    grad_of = _gradient_of_each_input(args, grads_out)
    if any(n is not None and n not in bwd_nodes and n not in read_by_bwd for n in grad_of.values()):
        raise Unsupported("autograd.Function: backward returns a tensor it did not compute or read", "unsupported_call")
    bwd_inputs = grad_nodes + read_by_bwd
    bwd_gm = _extract(bwd_inputs, [n.name for n in bwd_inputs], bwd_nodes, typed=False,
                      output=lambda env: tuple(None if grad_of.get(n) is None else env[grad_of[n]] for n in fwd_inputs))
    for node in reversed(fwd_nodes + bwd_nodes):  # (users first)
        og.graph.erase_node(node)
    saved = {a.proxy.node for a in ctx.saved or () if isinstance(a, TensorVariable)}
    kwargs = {"non_differentiable_idx": [i for i, o in enumerate(items)  # (counting non-tensors, as Dynamo)
                                         if isinstance(o, TensorVariable) and o.proxy.node in ctx.non_differentiable],
              "saved_for_backward_idx": [i for i, n in enumerate(read_by_bwd) if n in saved]}
    dirty_idx = [i for i, o in enumerate(items) if isinstance(o, TensorVariable) and o.proxy.node in ctx.dirty]
    if len(dirty_idx) < len(set(ctx.dirty)):
        raise Unsupported("autograd.Function.apply: mark_dirty input not returned (Dynamo supports ctx.mark_dirty "
                          "only where each dirty input is also returned from forward)", "unsupported_call")
    if dirty_idx:  # (the call keeps its usual form otherwise, as Dynamo's)
        kwargs["dirty_idx"] = dirty_idx
    bodies = [og.create_proxy("get_attr", _install_subgraph(og, kind, gm), (), {}, None).node
              for kind, gm in (("fwd_body", fwd_gm), ("bwd_body", bwd_gm))]
    fakes = [n.meta["example_value"] for n in fwd_inputs]
    with og.fake_mode:
        values = autograd_function_apply(fwd_gm, bwd_gm, *fakes, **kwargs)
    call = og.create_proxy("call_function", autograd_function_apply, (*bodies, *fwd_inputs), kwargs, values)
    for i, out in enumerate(outs):
        out.proxy = og.create_proxy("call_function", operator.getitem, (call.node, i), {}, values[i], speculative=True)
        out.proxy.node.meta["named_after_local"] = True  # (the tracker was, in forward: Dynamo names it no more)
        out.example_value = values[i]


def _gradient_of_each_input(args, grads_out):
    """forward input node -> the node of the gradient backward returned for it (None: none)."""
    grads = grads_out.items if isinstance(grads_out, BaseListVariable) else [grads_out]
    result = {}
    for arg, grad in zip(args, grads):
        if isinstance(arg, TensorVariable):
            grad = grad.realize()
            result[arg.proxy.node] = grad.proxy.node if isinstance(grad, TensorVariable) else None
    return result


def _install_subgraph(og, kind, gm):
    """gm as an attribute of the frame's graph module, `fwd_body_0` (the first free number); returns the name."""
    name = next(f"{kind}_{i}" for i in itertools.count() if not hasattr(og.subgraph_root, f"{kind}_{i}"))
    setattr(og.subgraph_root, name, gm)
    return name
