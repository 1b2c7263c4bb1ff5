"""AOT autograd: trace forward+backward ahead of time, partition, compile both halves
(as torch._functorch.aot_autograd / functorch.compile).

autograd layer, between the frontend (which hands a backend an FX graph) and the backend compilers. On the first
call with a given input signature (a frontend graph's at once, for its example inputs, as torch's):

    1. trace   joint(primals, tangents) under FakeTensors with make_fx: the
               forward, then autograd.grad of the outputs; one graph of aten ops
    2. cut     partition_fn splits it into forward and backward GraphModules
    3. compile fw_compiler(forward) now; bw_compiler(backward) lazily, at the
               first .backward()
    4. wrap    both in a minitorch2.autograd.Function that saves what the partition chose
    5. alias   at every call, an output that view ops made from an input, another
               output or an intermediate is made again by the same ops, as torch's
               aot regenerates it; every other output is a plain tensor (output_aliasing.py)

When no output requires grad, only the forward is traced and compiled (an inference graph). Compilers take
(GraphModule, example_inputs) and return a callable.
"""
import contextlib
import functools
import logging

import sympy

import minitorch2
from minitorch2 import _logging
from minitorch2._python_dispatcher import enable_python_dispatcher
from minitorch2._sym import is_symbolic
from minitorch2._tensor import Tensor
from minitorch2.autograd import Function
from minitorch2.fx.experimental.symbolic_shapes import SpecializeFloatInputs
from minitorch2.utils import _pytree as pytree
from partition import default_partition, min_cut_rematerialization_partition

from .double_backward import refusing_double_backward
from .functionalize import functionalize_graph
from .input_aliasing import AliasedInputs, aliasing_key
from .input_metadata_mutations import copy_in, in_joint, merge_mutated_outputs, returning_inputs, write_back
from .input_mutations_in_graph import copy_mutations_into_inputs, set_outputs
from .output_aliasing import AliasOf, trace_outputs, with_bases
from .proxy_tensor import make_fx, tag_forward_nodes
from .stack_traces import SourceKeepingInterpreter, backward_stack_traces
from .tangent_strides import restrided, traced_tangents
from .tensorify import tensorify_python_scalars

_log = logging.getLogger(__name__)


def make_boxed_func(f):
    def boxed(args):
        return f(*args)

    boxed._boxed_call = True
    return boxed


def _call_compiled(compiled, args):
    return compiled(list(args)) if getattr(compiled, "_boxed_call", False) else compiled(*args)


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


class _CompiledFunction:
    """One traced and compiled signature of a function: forward compiled, backward pending."""

    def __init__(self, fn, args, fw_compiler, bw_compiler, partition_fn, decompositions, inference_compiler=None,
                 static_input_indices=(), before_compile=None, keep_input_mutations=False):
        self.static_input_indices = list(static_input_indices)
        self.bw_compiler = bw_compiler or fw_compiler
        # whether an output requires grad decides (below), not the grad mode of the call: `with enable_grad()`
        # inside a function called under no_grad makes outputs that do, as in torch's aot
        self.grad_inputs = [isinstance(a, Tensor) and a.requires_grad for a in args]
        self.needs_grad = any(self.grad_inputs)
        self.compiled_bw = None
        self.sizes_of = lambda args: None  # a call's value of each symbolic size (the trace over symbolic sizes')
        with enable_python_dispatcher():  # trace as PyTorch's AOT does (see minitorch2/_python_dispatcher.py)
            compiler = self._trace(fn, args, fw_compiler, partition_fn, decompositions, inference_compiler,
                                   keep_input_mutations)
            if before_compile is not None:
                before_compile(self)
            self.compiled_fw = compiler(self.fw_module, list(args))
            if before_compile is not None and self.bw_module is not None:  # over symbolic sizes: compiled now, so that
                # a compiler that refuses the graph sends the calls to per-size tracing, never fails at .backward()
                self.compiled_bw = self.bw_compiler(self.bw_module, [n.meta.get("val") for n in
                                                                     self.bw_module.graph.find_nodes(op="placeholder")])

    def _trace(self, fn, args, fw_compiler, partition_fn, decompositions, inference_compiler, keep_input_mutations):
        aot_id = _logging.next_id("aot")  # "Forward graph 0", as MINITORCH2_LOGS=aot_graphs titles it
        fake_outputs, self.aliases, fake_bases, mutated, self.meta_mutated = trace_outputs(fn, args)
        self.num_outputs = len(_as_list(fake_outputs))
        # inputs fn changes in place to a value that requires grad (an input that did, or one given a value
        # that does): their new values leave the compiled function as outputs (with tangents) and are copied
        # in outside it, so autograd records the copy (CopyBackwards)
        self.grad_mutated = [i for i, needs_grad in mutated.items() if needs_grad]
        # As PyTorch's aot: inputs that require grad but no output that does make an inference graph (an output
        # viewing an input does not count: it is made again outside the graph, with its own grad_fn).
        no_output_needs_grad = not self.grad_mutated and not any(
            isinstance(o, Tensor) and o.requires_grad
            and not (i in self.aliases and self.aliases[i].of is AliasOf.INPUT)
            for i, o in enumerate(_as_list(fake_outputs)))
        self.needs_grad = self.needs_grad and not no_output_needs_grad
        if not self.needs_grad:  # views of outputs and intermediates stay as the graph returns them, as torch's
            self.aliases = {i: alias for i, alias in self.aliases.items() if alias.of is AliasOf.INPUT}
            self.num_bases = 0
            # an inference graph returns a tuple, as PyTorch's does
            forward = make_fx(lambda *flat: tuple(_as_list(returning_inputs(fn, self.meta_mutated)(*flat))),
                              decompositions, tracing_mode="fake", _functionalized=True)(*args)
            forward = merge_mutated_outputs(self, *functionalize_graph(forward))  # (sets self.mutated_inputs)
            self.mutated_inputs = copy_mutations_into_inputs(forward, self.mutated_inputs, self.meta_mutated,
                                                             keep_input_mutations)
            _eliminate_dead_code(forward)
            _logging.log_graph("aot_graphs", f"Forward graph {aot_id}", forward)  # (as torch's, before tensorify)
            tensorify_python_scalars(forward)
            self.fw_module, self.bw_module = forward, None
            return inference_compiler or fw_compiler
        # aliased outputs are made again outside the compiled function (see regenerate_aliases): the backward
        # gets no tangent for them, their gradient flowing through the view's own grad_fn to their base
        self.num_bases = len(fake_bases)
        mutated_values = [self.meta_mutated.get(i, args[i]) for i in self.grad_mutated]  # (shapes, dtypes read)
        fake_outputs = mutated_values + _as_list(fake_outputs) + fake_bases
        self.output_grad_mask = [True] * len(mutated_values) + [
            _differentiable(o) and i not in self.aliases for i, o in enumerate(fake_outputs[len(mutated_values):])]
        tangents, self.tangent_strides = traced_tangents(o for o, k in zip(fake_outputs, self.output_grad_mask) if k)
        base_sources = {alias.position: (i, len(alias.views)) for i, alias in self.aliases.items()
                        if alias.of is AliasOf.BASE}
        fn, joint_mask = in_joint(self, with_bases(fn, [base_sources[k] for k in range(self.num_bases)]))
        fn = _with_fresh_inputs(fn, self.grad_mutated)
        joint = make_fx(_joint_fn(fn, self.grad_inputs, joint_mask), decompositions,
                        tracing_mode="fake", _functionalized=True)(list(args), tangents)
        joint = merge_mutated_outputs(self, *_functionalize_joint(joint, self.grad_mutated))  # (self.mutated_inputs)
        _eliminate_dead_code(joint)
        self.mutated_inputs = copy_mutations_into_inputs(joint, self.mutated_inputs, self.grad_mutated,
                                                         keep_input_mutations)
        _logging.log_graph("aot_joint_graph", f"Joint graph {aot_id}", joint)
        tensorify_python_scalars(joint)
        self.joint_module = joint
        num_fwd = len(self.mutated_inputs) + self.num_outputs + self.num_bases  # (copy_ nodes stay: input_copies.py)
        self.fw_module, self.bw_module = partition_fn(joint, [list(args), tangents], num_fwd_outputs=num_fwd,
                                                      static_lifetime_input_indices=self.static_input_indices)
        _logging.log_graph("aot_graphs", f"Forward graph {aot_id}", self.fw_module)
        _logging.log_graph("aot_graphs", f"Backward graph {aot_id}", self.bw_module)
        # the sizes saved (dynamic shapes): the forward returns them last, the backward takes them first (as torch's)
        self.num_saved_sizes = sum(is_symbolic(n.meta.get("val")) for n in self.bw_module.graph.nodes
                                   if n.op == "placeholder")
        return fw_compiler

    def regenerate_aliases(self, args, outs):
        """Step 5 of the module docstring: aliased outputs made again from what they view (they print the
        view's grad_fn, ViewBackward0, ..., where the compiled function's copy would print its own)."""
        outs = list(outs)
        viewed = {AliasOf.INPUT: args, AliasOf.OUTPUT: outs, AliasOf.BASE: outs[self.num_outputs:]}
        for i, alias in self.aliases.items():
            outs[i] = alias.replay(viewed[alias.of][alias.position], self.sizes_of(args))
        return outs

    def __call__(self, args):
        if not self.needs_grad:
            # an inference graph runs with grad off, as torch's: its eager ops (the eager backend's, an op
            # inside `with no_grad()`) must not record autograd history the traced function did not have
            with minitorch2.no_grad():
                out = _call_compiled(self.compiled_fw, args)
            out = write_back(self, args, _as_list(out))  # (functionalization's runtime epilogue)
        else:
            with minitorch2.enable_grad():  # as torch's runtime wrapper: the outputs' grad was decided when traced
                out = CompiledFunction.apply(self, *args)
            out = copy_in(self, args, out)  # (the new values of inputs: input_metadata_mutations.py)
        return self.regenerate_aliases(args, out)[:self.num_outputs]


def _differentiable(t):
    return isinstance(t, Tensor) and t.dtype.is_inexact and t.requires_grad


class CompiledFunction(Function):
    """The autograd.Function wrapping a compiled forward and (lazily compiled) backward; named as PyTorch's,
    so outputs print grad_fn=<CompiledFunctionBackward>."""

    @staticmethod
    def forward(ctx, compiled, *args):
        out = _as_list(_call_compiled(compiled.compiled_fw, args))
        new_values = {i: value for i, value in zip(compiled.mutated_inputs, out)}
        out = write_back(compiled, args, out)
        ctx.compiled = compiled
        num_outs = compiled.num_outputs + compiled.num_bases
        tensors_end = len(out) - compiled.num_saved_sizes
        ctx.save_for_backward(*out[num_outs:tensors_end])
        ctx.saved_sizes = out[tensors_end:]
        # no differentiable output is a view (of the compiled function's intermediates): autograd would take an
        # in-place change of one for a change of that intermediate, which has no history; aliases are made again
        outs = []
        for o, differentiable in zip([new_values[i] for i in compiled.grad_mutated] + out[:num_outs],
                                     compiled.output_grad_mask):
            if isinstance(o, Tensor) and any(o is earlier for earlier in outs):  # one tensor returned twice:
                o = minitorch2.ops.aten.alias.default(o)  # two outputs, each with its own autograd metadata
            outs.append(_plain(o) if differentiable else o)
            if not differentiable:
                ctx.mark_non_differentiable(o)
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        compiled = ctx.compiled
        tangents = restrided([g for g, keep in zip(grads, compiled.output_grad_mask) if keep], compiled.tangent_strides)
        saved = [*ctx.saved_sizes, *ctx.saved_tensors]
        if compiled.compiled_bw is None:  # compiled at the first backward (step 3 of the module docstring)
            compiled.compiled_bw = compiled.bw_compiler(compiled.bw_module, saved + tangents)
        return (None, *refusing_double_backward(_as_list(_call_compiled(compiled.compiled_bw, saved + tangents)),
                                                         saved + tangents))


def _plain(t):
    """t, or when it is a view, the same memory as a tensor that is not one (torch's _unsafe_view)."""
    if isinstance(t, Tensor) and t._base is not None:
        return minitorch2.ops.aten._unsafe_view.default(t, list(t.shape))
    return t


def _eliminate_dead_code(gm):
    """What the function computed but never used (a view it discarded) dropped, as PyTorch's aot does before
    partitioning: the partitioner and compilers see live nodes only."""
    if gm.graph.eliminate_dead_code():
        gm.recompile()


def _functionalize_joint(joint, grad_mutated):
    """Functionalize a joint graph, keeping its pytree calling convention: the new values of inputs it
    mutates join the outputs, in front of those of `grad_mutated` (the inputs that require grad, which
    the joint mutated through a clone and returns first). Returns the graph and every mutated input's
    position, in the order of their values at the front of the outputs: the inputs' order, as torch's."""
    pure, mutated = functionalize_graph(joint)
    if mutated:
        flat = list(pure.graph.output_node().args[0])
        front = sorted(zip(mutated + grad_mutated, flat[:len(mutated) + len(grad_mutated)]), key=lambda p: p[0])
        set_outputs(pure, [value for _, value in front] + flat[len(front):], joint.graph._codegen)
    return pure, sorted(mutated + grad_mutated)


def _with_fresh_inputs(fn, mutated):
    """fn on clones of the inputs at positions `mutated` (changed in place to values that require grad: a
    primal changed in place would lose the gradient path to itself), their new values returned before
    its outputs; as torch's joint clones them."""
    if not mutated:
        return fn

    def with_fresh_inputs(*args):
        args = [a.clone() if i in mutated else a for i, a in enumerate(args)]
        return [args[i] for i in mutated] + _as_list(fn(*args))

    return with_fresh_inputs


def _joint_fn(fn, grad_inputs, output_grad_mask):
    def inner_f(primals, tangents):  # (torch's name for it, which its joint graph's class takes)
        outs = _as_list(fn(*primals))
        tag_forward_nodes()
        diff_outs = [o for o, keep in zip(outs, output_grad_mask) if keep]
        wanted = [p for p, g in zip(primals, grad_inputs) if g]
        grads = iter([None] * len(wanted))
        if diff_outs:
            with backward_stack_traces(diff_outs):
                grads = iter(minitorch2.autograd.grad(diff_outs, wanted, tangents, allow_unused=True))
        return outs, [next(grads) if g else None for g in grad_inputs]

    return inner_f


def aot_function(fn, fw_compiler, bw_compiler=None, partition_fn=None, decompositions=None, inference_compiler=None,
                 static_input_indices=(), keep_inference_input_mutations=False, _per_size=False, **_ignored):
    """`static_input_indices`: the inputs that live anyway (a frontend graph's parameters and buffers, found by
    aot_module_simplified; torch keeps them in its AOTConfig), handed to the partitioner as
    `static_lifetime_input_indices`: saving them for the backward costs nothing. `_per_size`: trace and compile
    once per set of input sizes (a frontend graph over symbolic sizes: its graphs are traced static, see
    aot_module_simplified)."""
    trace_and_compile = functools.partial(_CompiledFunction, fw_compiler=fw_compiler, bw_compiler=bw_compiler,
                                          partition_fn=partition_fn or default_partition,
                                          decompositions=decompositions, inference_compiler=inference_compiler,
                                          keep_input_mutations=keep_inference_input_mutations)
    signatures = {}  # aliasing key -> (call, out_spec)
    unchanged = {}  # which inputs alias -> the key whose trace serves them all (no synthetic base in it)
    symbolic = []  # the _Symbolic of the signature _ANY_SIZE

    def signature(args, kwargs, flat_args):
        # Like PyTorch's, the first call fixes the graphs (guards are the frontend's job), but for how the
        # inputs alias: a call passing one tensor twice, or overlapping views, gets graphs of its own.
        key = aliasing_key(flat_args)  # (below, the pattern: the key less geometries)
        key = unchanged.get(pattern := tuple(tuple(first for first, _, _ in group) for group, _ in key), key)
        if _per_size and not key and symbolic and symbolic[0].admits(flat_args):
            key = _ANY_SIZE
        elif _per_size:
            key = (key, tuple(tuple(a.shape) if isinstance(a, Tensor) else a for a in flat_args))
        if key not in signatures:
            flat_fn, out_spec = _tree_flattened_fn(fn, args, kwargs)
            call, plan = _compile_signature(flat_fn, flat_args, key[0] if _per_size else key, trace_and_compile,
                                            static_input_indices)
            signatures[key] = call, out_spec
            if plan and not plan.bases and not _per_size:  # overlapping inputs it never changes: any geometry
                unchanged[pattern] = key
        return signatures[key]

    def compiled_fn(*args, **kwargs):
        flat_args = pytree.tree_leaves((args, kwargs))
        call, out_spec = signature(args, kwargs, flat_args)
        return _unflatten_outputs(call(flat_args), out_spec[0])

    def compile_for(*args, **kwargs):
        """Trace and compile for these example arguments now, without running (aot_module_simplified's way)."""
        signature(args, kwargs, pytree.tree_leaves((args, kwargs)))

    def compile_symbolic(*fake_args):
        """Trace and compile once over fake inputs with symbolic sizes (a frontend graph's), for every call whose
        inputs do not alias and whose sizes the trace's facts admit (_Symbolic). False where the trace fails: the
        calls are then traced per size."""
        if aliasing_key(fake_args):
            return False
        flat_fn, out_spec = _tree_flattened_fn(fn, fake_args, {})
        trace = _Symbolic(fake_args)
        try:
            signatures[_ANY_SIZE] = (trace_and_compile(flat_fn, list(fake_args), before_compile=trace.check,
                                                       static_input_indices=static_input_indices), out_spec)
        except Exception as e:  # (whatever stops the symbolic trace, the per-size path is correct)
            trace.restore()
            if isinstance(e, SpecializeFloatInputs):  # (not per size: the frontend translates again, them constants)
                raise
            _log.info("AOT over symbolic sizes gave up (%s: %s); tracing per size", type(e).__name__, e)
            _log.debug("where AOT over symbolic sizes gave up", exc_info=True)
            return False
        symbolic.append(trace)
        return True

    compiled_fn.compile_for, compiled_fn.compile_symbolic = compile_for, compile_symbolic
    return compiled_fn


_ANY_SIZE = "any size"  # the signature key of graphs traced over symbolic sizes


class _Symbolic:
    """A trace over the frontend's symbolic sizes. What the trace decides on sizes stays in the ShapeEnv, which the
    frontend turns into the frame's guards once its backend returns (as torch's), and is kept here as facts checked
    at every call too (`admits`). A trace where a size became a constant is refused."""

    def __init__(self, fake_args):
        env = self.shape_env = next(a for a in fake_args if is_symbolic(a)).node.shape_env
        self.state = len(env.guards), dict(env.replacements), {s: list(r) for s, r in env.var_to_range.items()}
        self.sources = {}  # symbol -> where a call's flat inputs hold its value: (position, dim or None for a SymInt)
        for i, arg in enumerate(fake_args):
            for dim, size in [(None, arg)] if is_symbolic(arg) else enumerate(getattr(arg, "shape", ())):
                if is_symbolic(size) and size.node.expr.is_Symbol:
                    self.sources.setdefault(size.node.expr, (i, dim))

    def check(self, compiled):
        """Before the graphs are compiled: refuse a size constant in a graph or an output's view ops (its example
        value) and keep the trace's facts (which stay in the ShapeEnv too, see the class docstring)."""
        constants = [(n.args, n.kwargs) for m in (compiled.fw_module, compiled.bw_module) if m for n in m.graph.nodes]
        views = [(v.args, v.kwargs) for a in compiled.aliases.values() for v in a.views]
        if any(is_symbolic(leaf) or isinstance(leaf, sympy.Basic) for leaf in pytree.tree_leaves(constants)) or any(
                isinstance(leaf, sympy.Basic) or is_symbolic(leaf) and not leaf.node.expr.free_symbols <= set(
                    self.sources) for leaf in pytree.tree_leaves(views)):
            raise RuntimeError("a symbolic size is a constant of a graph or of an output's view ops")
        compiled.sizes_of = self.sizes_of  # an output's view ops take each call's sizes
        env, (guards, replacements, ranges) = self.shape_env, self.state
        pinned = [sympy.Eq(s, e) for s, e in env.replacements.items() if replacements.get(s) != e]
        narrowed = [sympy.And(low <= s, s <= high) for s, (low, high) in env.var_to_range.items()
                    if ranges.get(s) != [low, high]]
        self.facts = env.guards[guards:] + pinned + narrowed

    def restore(self):
        (guards, replacements, ranges), env = self.state, self.shape_env
        env.guards, env.replacements = env.guards[:guards], dict(replacements)
        env.var_to_range.update((symbol, list(bounds)) for symbol, bounds in ranges.items())

    def _values(self, flat_args):
        return {s: sympy.Integer(flat_args[i] if dim is None else flat_args[i].shape[dim])
                for s, (i, dim) in self.sources.items()}

    def sizes_of(self, flat_args):
        values = self._values(flat_args)
        return lambda v: int(v.node.expr.xreplace(values)) if is_symbolic(v) else v

    def admits(self, flat_args):
        values = self._values(flat_args)
        try:
            return all(bool(fact.xreplace(values)) for fact in self.facts)
        except TypeError:  # a fact on a symbol no input holds (a data-dependent size)
            return False


def _compile_signature(flat_fn, flat_args, key, trace_and_compile, static_input_indices):
    """A callable on the flat inputs, traced on how they alias (input_aliasing.py), and that plan (None where they
    do not, or where fn itself runs: overlapping inputs it changes that share no base)."""
    if not key:
        return trace_and_compile(flat_fn, flat_args, static_input_indices=static_input_indices), None
    with enable_python_dispatcher():
        aliased = AliasedInputs(flat_fn, flat_args)
    if aliased.eager:
        return (lambda args: flat_fn(*args)), None
    compiled = trace_and_compile(aliased.inner_fn, aliased.inner_args(flat_args),
                                 static_input_indices=aliased.inner_positions(static_input_indices))
    return (lambda args: compiled(aliased.inner_args(args))), aliased


def _tree_flattened_fn(fn, args, kwargs):
    """fn over the leaves of (args, kwargs), returning the leaves of its output, whose structure it records
    in out_spec[0] when traced (so dicts and nested tuples go in and come out as torch's aot_function takes
    and returns them)."""
    in_spec = pytree.tree_flatten((args, kwargs))[1]
    out_spec = [None]

    def flat_fn(*flat_args):
        args, kwargs = pytree.tree_unflatten(flat_args, in_spec)
        leaves, out_spec[0] = pytree.tree_flatten(fn(*args, **kwargs))
        return leaves

    return flat_fn, out_spec


def _unflatten_outputs(flat, spec):
    """As torch's: one tensor comes back bare, a flat tuple or list of them as a list, anything else rebuilt."""
    if spec.type is None:
        return flat[0]
    if spec.type in (list, tuple) and all(child.type is None for child in spec.children_specs):
        return list(flat)
    return pytree.tree_unflatten(flat, spec)


def aot_module_simplified(mod, example_inputs, fw_compiler, bw_compiler=None, partition_fn=None, decompositions=None,
                          inference_compiler=None, keep_inference_input_mutations=False, **_ignored):
    """What a frontend backend calls: returns a callable taking the user inputs only."""

    def run(*args):
        # the graph's grad-mode switches end with it, also when it raises (the frontend sets the mode a frame
        # leaves behind after the call)
        with minitorch2.set_grad_enabled(minitorch2.is_grad_enabled()):
            if isinstance(mod, minitorch2.fx.GraphModule):  # node by node, so aten nodes keep their sources
                return SourceKeepingInterpreter(mod).run(*args)
            return mod(*args)

    functional_call, params = _functional(mod, run, remove_duplicate=False)
    # A frontend graph over symbolic sizes (dynamic shapes: `s77: torch.SymInt` inputs) is traced with its
    # inputs' fake values once, for every compiler (a user's too, as torch's), and the trace serves every size; where
    # that trace fails, with its inputs' example values, as static graphs, once per set of sizes (sizes: their hints).
    per_size = any(is_symbolic(e) for e in example_inputs or ())
    fakes = _frontend_fakes(mod, example_inputs) if per_size else None
    if per_size:
        example_inputs = [e.node.hint if is_symbolic(e) else e for e in example_inputs]
    compiled = aot_function(functional_call, fw_compiler, bw_compiler, partition_fn, decompositions,
                            inference_compiler=inference_compiler, static_input_indices=_static_inputs(mod, params),
                            keep_inference_input_mutations=keep_inference_input_mutations, _per_size=per_size)
    # As torch's, trace and compile a frontend graph's forward now, for its example inputs (the frame's real
    # ones): a failure is then the backend's, raised while the frontend compiles (BackendCompilerFailed, or eager
    # under suppress_errors), never at the first call. Other callers' example inputs may be placeholders.
    if _is_frontend_graph(mod) and not (fakes and compiled.compile_symbolic(*params, *fakes)):
        compiled.compile_for(*params, *example_inputs)

    def forward(*args):
        if len(args) == 1 and isinstance(args[0], list):  # boxed calling convention
            args = tuple(args[0])
        return compiled(*params, *args)

    return forward


def _is_frontend_graph(mod):
    return isinstance(mod, minitorch2.fx.GraphModule) and "dynamo_compile_id" in mod.meta


def _frontend_fakes(mod, example_inputs):
    """A frontend graph's fake inputs (its placeholders' example values: SymInts and tensors over them) when each
    tensor's still has its example input's geometry (nothing changed it in place since) and the others are sizes."""
    fakes = [n.meta.get("example_value") for n in mod.graph.find_nodes(op="placeholder")]
    fit = [isinstance(fake, Tensor) and _hints(fake) == _hints(real) if isinstance(real, Tensor) else is_symbolic(fake)
           for fake, real in zip(fakes, example_inputs)]
    return fakes if _is_frontend_graph(mod) and len(fakes) == len(example_inputs) and all(fit) else None


def _hints(t):
    sizes = [*t.shape, *t.stride(), t.storage_offset()]
    return [s.node.hint if is_symbolic(s) else s for s in sizes], t.dtype, t.requires_grad


def _static_inputs(mod, params):
    """Positions, among (params, *graph inputs), of the inputs that live anyway, as torch finds them: for a
    frontend graph, the module's own parameters and buffers and the graph inputs the frontend marked static
    (meta["tensor_dict"], as Dynamo marks parameters and buffers); for any other module, none."""
    if not _is_frontend_graph(mod):
        return []
    marked = [len(params) + i for i, n in enumerate(mod.graph.find_nodes(op="placeholder"))
              if n.meta.get("tensor_dict", {}).get("_dynamo_static_input_type")]
    return list(range(len(params))) + marked


def _functional(mod, run, remove_duplicate):
    """(call, tensors): `tensors` are the module's parameters and buffers, and `call(*tensors, *inputs)` is
    run(*inputs) with the module's own tensors swapped for those arguments (a functional call)."""
    named = [*mod.named_parameters(remove_duplicate=remove_duplicate),
             *mod.named_buffers(remove_duplicate=remove_duplicate)]
    names = [name for name, _ in named]

    def functional_call(*all_args):
        with _swap_tensors(mod, names, all_args[:len(names)]):
            return run(*all_args[len(names):])

    return functional_call, [tensor for _, tensor in named]


@contextlib.contextmanager
def _swap_tensors(module, names, values):
    """Temporarily replace a module's parameters/buffers by the given tensors (a functional call)."""
    saved = []
    for name, value in zip(names, values):
        path, _, attr = name.rpartition(".")
        owner = module.get_submodule(path)
        store = owner._parameters if attr in owner._parameters else owner._buffers
        saved.append((store, attr, store[attr]))
        store[attr] = value
    try:
        yield
    finally:
        for store, attr, value in reversed(saved):
            store[attr] = value


def boxed_nop(gm, example_inputs):
    """The no-op compiler: run the graph as traced (the compilers of the aot_eager backend)."""
    return make_boxed_func(gm.forward)


def aot_eager(gm, example_inputs):
    """The `aot_eager` backend, as PyTorch registers it: AOT tracing with no-op compilers (which run symbolic graphs
    too) and the min-cut partitioner; useful to check that tracing and partitioning alone keep a program's results."""
    return aot_module_simplified(gm, example_inputs, fw_compiler=boxed_nop, bw_compiler=boxed_nop,
                                 partition_fn=min_cut_rematerialization_partition, keep_inference_input_mutations=True)
