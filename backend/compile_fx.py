"""compile_fx: the "inductor" backend entry point (plays torch._inductor.compile_fx).

Backend layer, where the frontend's FX graph enters the backend:

    compile_fx(gm, example_inputs)              the backend a frontend calls
      -> autograd.aot_module_simplified(...)    joint graph, decomposed with the backend's table,
                                                 rewritten by the joint-graph passes (joint_graph.py),
                                                 cut by the min-cut partitioner
           fw / bw / inference compiler = compile_fx_inner(graph):   (an inference graph: the joint-graph passes first)
              lowering.lower       aten graph -> IR buffers          (ir_pre_fusion.txt)
              scheduler.schedule   buffers -> fused loop_ir kernels  (ir_post_fusion.txt)
              codegen              each Kernel -> runnable (llvm, triton or numpy_ref)
              wrapper              output_code.py, exec'd; its call(args) is the compiled graph

Dynamic shapes: a frontend graph over symbolic sizes is traced and compiled once for every size;
its sizes are sympy expressions over the size symbols all the way down (loop_ir.py), which its kernels take as
arguments. Every compiled graph is recorded in `metrics`; MINITORCH2_COMPILE_DEBUG=1 writes each stage to disk;
MINITORCH2_LOGS=output_code,fusion print the generated module and the fusion decisions (all three in debug.py).
"""
import functools
import itertools

from autograd import aot_module_simplified, make_boxed_func
from autograd.decompositions import all_decompositions
from minitorch2 import Tensor, ops
from minitorch2._sym import is_symbolic
from minitorch2._aten import decompositions, decompositions_nn
from minitorch2._aten.half_opmath import in_float32_for_half
from minitorch2._aten.overlap import elements_alias
from partition import min_cut_rematerialization_partition

from . import debug, decompositions_inductor, lowering_random, speed
from .codegen import get_codegen
from .joint_graph import joint_graph_passes
from .lowering import lower, overload
from .scheduler import Scheduler
from .virtualized import sizes_of
from .wrapper import WrapperCodeGen, load_module


_graph_ids = itertools.count()


speed.start_preload()  # fast: the code generator loads on a thread now, beside the caller's own work


class CompiledGraph:
    """A compiled aten graph: `call(args)` with the boxed calling convention aot uses.

    `scheduler` (the fusion decisions) is kept from the compile; a graph loaded from the graph cache
    skipped scheduling, so it schedules again, from the kept aten graph, when first asked."""
    _boxed_call = True

    def __init__(self, name, call, kernels, source, fallbacks, scheduler, gm=None, from_cache=False, constants=()):
        self.name, self._call, self.kernels, self.source = name, call, kernels, source
        self.fallbacks, self._scheduler, self._gm, self.from_cache = fallbacks, scheduler, gm, from_cache
        self.constants = list(constants)  # the graph's tensor constants, passed after the caller's arguments

    @property
    def scheduler(self):
        if self._scheduler is None and self._gm is not None:
            self._scheduler = Scheduler(lower(self._gm, self.name)).schedule()
        return self._scheduler

    def __call__(self, args):
        if self._call is None:
            raise RuntimeError(f"{self.name}: a record of a compiled graph (backend.metrics) does not run")
        if any(type(a) is int and not -2**63 <= a < 2**63 for a in args):  # (torch's kernels take int64 arguments)
            raise RuntimeError("expected int arg")
        return list(self._call(list(args) + self.constants))


# Ops the core table decomposes that torch's inductor keeps whole: var_mean (one reduction gives both) and
# addmm (torch splits only one-row products on the CPU; whole, it is an extern mm with the bias added in an
# epilogue).
KEPT_WHOLE = ("var_mean.correction", "addmm.default")

# Decompositions torch's inductor applies that minitorch2 does not have (the op stays whole in our graphs and
# is lowered as it is, so the graphs differ from torch's there):
#   convolution_backward
#   clamp.Tensor (torch: clamp_min.Tensor / clamp_max.Tensor), index_select (torch: index; a negative index
#   raises eager's error here), dot (torch: mul + sum), flip (torch: prims.rev),
#   and the long tail of ops minitorch2 has no row for.
# Joint-graph patterns torch runs that joint_graph.py does not: the fused-attention patterns, and the scaled-softmax
# one for a tensor scale or with a cast between the scaling and the amax (joint_graph_softmax.py takes a number).


def select_decomp_table():
    """The decompositions applied while tracing for this backend: the core table but for KEPT_WHOLE, plus
    inductor's own (clamp as clamp_min then clamp_max, silu as x / (1 + exp(-x)), the softmax backward as
    an fma), as torch's inductor uses the core aten decompositions less its exclusions plus its own."""
    table = all_decompositions()
    for qualified in KEPT_WHOLE:
        table.pop(overload(qualified), None)
    table.update({ops.aten.clamp.default: decompositions.clamp_as_min_max,
                  ops.aten.silu.default: in_float32_for_half(decompositions.silu_inductor),
                  ops.aten._softmax_backward_data.default:
                      in_float32_for_half(decompositions_nn._softmax_backward_data_fma),
                  ops.aten.arange.start_step: decompositions.arange_as_iota,
                  **lowering_random.DECOMPOSITIONS,  # rand_like, randn_like and dropout as rand / randn
                  **decompositions_inductor.DECOMPOSITIONS})  # small products, repeated cats, index_add
    return table


def compile_fx_inner(gm, example_inputs, graph_kind="forward"):
    """Lower, schedule, generate and load one aten graph. One over symbolic sizes compiles once for every size; where
    that needs a decision on sizes their ranges do not make (`s0 < s1`, a new ShapeEnv guard), NotImplementedError
    makes AOT compile per size instead."""
    sizes = [v for v in example_inputs for v in (v, *getattr(v, "shape", ())) if is_symbolic(v)]
    if any(elements_alias(n.args[0].meta["val"].shape, n.args[0].meta["val"].stride()) for n in gm.graph.nodes
           if n.target is ops.aten.copy_.default):  # an input whose elements overlap, written: ATen's scatters keep
        return make_boxed_func(gm)  # its layout, our kernels would not; its ops run eagerly (aot_eager's values)
    if graph_kind == "inference":  # (as torch's; a forward and backward had them in the joint graph: partition_fn)
        lowering_random.replace_random_passes(joint_graph_passes(gm))
    if not sizes:
        return _compile(gm, example_inputs, graph_kind)
    env = sizes[0].node.shape_env
    facts = (len(env.guards), dict(env.replacements), {s: list(r) for s, r in env.var_to_range.items()})
    try:
        with sizes_of(env):
            compiled = _compile(gm, example_inputs, graph_kind)
    except TypeError as e:  # sympy's answer to a comparison it cannot decide
        raise NotImplementedError(f"backend: a decision over symbolic sizes ({e})") from e
    if facts != (len(env.guards), env.replacements, env.var_to_range):
        raise NotImplementedError("backend: a decision over symbolic sizes that guards them: "
                                  f"{env.guards[facts[0]:]}")
    return compiled


@speed.compiling()  # (a context manager, each call inside its own: a fork waits until no compile runs)
def _compile(gm, example_inputs, graph_kind):
    name = f"{graph_kind}_{next(_graph_ids)}"
    gm, constants = _lift_constants(gm)
    example_inputs = list(example_inputs) + constants
    key = speed.graph_key(gm, example_inputs, graph_kind)  # None: not cached (always, when speed is plain)
    stored = speed.load_graph(key, example_inputs) if key else None  # (source, compiled kernels, fallbacks) compiled before
    scheduler = None  # (a graph from the cache was not scheduled: CompiledGraph schedules it when asked)
    if stored is not None:
        source, compiled, fallbacks = stored
    else:
        graph = lower(gm, name)
        scheduler = Scheduler(graph).schedule()
        codegen = get_codegen()
        compiled = {kernel.name: codegen.compile_kernel(kernel) for kernel in scheduler.kernels()}
        source, fallbacks = WrapperCodeGen(graph, scheduler, compiled, name).generate(), graph.fallbacks
        if key:
            speed.store_graph(key, source, compiled, fallbacks)
    call = load_module(source, compiled, f"<output_code {name}>").pop("call")  # (no cycle through its globals)
    result = CompiledGraph(name, call, [k.kernel for k in compiled.values()], source, sorted(set(fallbacks)),
                           scheduler, gm=gm, from_cache=stored is not None, constants=constants)
    debug.metrics.record(result, len(compiled), fallbacks)
    debug.log_compiled_graph(result, gm, example_inputs)  # MINITORCH2_LOGS=fusion,output_code; the debug folder
    return result


def _lift_constants(gm):
    """The graph's tensor constants (`torch.tensor([...])` in compiled code: get_attr nodes) as extra inputs
    after its own, so lowering sees only inputs: (graph, their values). torch's inductor keeps them as graph
    constants the wrapper passes to its kernels the same way."""
    nodes = [n for n in gm.graph.nodes if n.op == "get_attr"]
    if not nodes:
        return gm, []
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    values = [getattr(gm, node.target) for node in nodes]
    for node, value in zip(nodes, values):
        if not isinstance(value, Tensor):
            raise NotImplementedError(f"backend: a graph attribute that is not a tensor ({node.target})")
        with (gm.graph.inserting_after(placeholders[-1]) if placeholders
              else gm.graph.inserting_before(next(iter(gm.graph.nodes)))):
            lifted = gm.graph.placeholder(node.name)
        lifted.meta.update(node.meta, val=value)
        node.replace_all_uses_with(lifted)
        gm.graph.erase_node(node)
        placeholders.append(lifted)
    gm.recompile()
    return gm, values


def partition_fn(joint, joint_inputs, **kwargs):
    """Inductor's partition function: the joint-graph passes (joint_graph.py), then the min-cut partitioner
    (which imports networkx at its first cut, partition/network.py)."""
    joint = joint_graph_passes(joint)
    lowering_random.replace_random_passes(joint)  # (torch's last joint-graph pass)
    return min_cut_rematerialization_partition(joint, joint_inputs, **kwargs)


def compile_fx(gm, example_inputs):
    """The "inductor" backend: AOT-trace gm into forward/backward aten graphs and compile each."""
    with speed.compiling():
        return aot_module_simplified(
            gm, example_inputs,
            fw_compiler=functools.partial(compile_fx_inner, graph_kind="forward"),
            bw_compiler=functools.partial(compile_fx_inner, graph_kind="backward"),
            inference_compiler=functools.partial(compile_fx_inner, graph_kind="inference"),
            partition_fn=partition_fn, keep_inference_input_mutations=True, decompositions=select_decomp_table())
