"""compile_fx: the "inductor" backend entry point (plays torch._inductor.compile_fx).

Backend layer, where the frontend's FX graph enters the backend:

    compile_fx(gm, example_inputs)              the backend a frontend calls
      -> autograd.aot_module_simplified(...)    joint graph, decomposed with the backend's table,
                                                 cut by the min-cut partitioner
           fw / bw / inference compiler = compile_fx_inner(graph):
              lowering.lower       aten graph -> IR buffers          (ir_pre_fusion.txt)
              scheduler.schedule   buffers -> fused loop_ir kernels  (ir_post_fusion.txt)
              codegen              each Kernel -> runnable (llvm or numpy_ref)
              wrapper              output_code.py, exec'd; its call(args) is the compiled graph

Every compiled graph is recorded in `metrics` (kernel counts, fallbacks) so
tests can tell compilation really happened. MINITORCH2_COMPILE_DEBUG=1
writes each stage to disk (debug.py); MINITORCH2_LOGS=output_code,fusion
print the generated module and the fusion decisions.
"""
import functools
import itertools

from . import config, debug
from .codegen import get_codegen
from .lowering import lower
from .scheduler import Scheduler, pre_fusion_text
from .wrapper import WrapperCodeGen, load_module


class Metrics:
    """What the backend compiled since the last reset() (plays torch._inductor.metrics)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.graphs = []  # CompiledGraph, in compile order
        self.generated_kernel_count = 0
        self.fallback_ops = []


metrics = Metrics()
_graph_ids = itertools.count()


class CompiledGraph:
    """A compiled aten graph: `call(args)` with the boxed calling convention aot uses."""
    _boxed_call = True

    def __init__(self, name, call, kernels, source, fallbacks, scheduler):
        self.name, self._call, self.kernels, self.source = name, call, kernels, source
        self.fallbacks, self.scheduler = fallbacks, scheduler

    def __call__(self, args):
        return list(self._call(list(args)))


def select_decomp_table():
    """The decompositions applied while tracing for this backend. torch's inductor uses the core aten
    decompositions plus its own; minitorch2's table holds the ones our lowerings rely on (softmax,
    log_softmax and their backwards, layer_norm, gelu, addmm, silu, ...), so it is the whole table."""
    from autograd import core_aten_decompositions

    return core_aten_decompositions()


def compile_fx_inner(gm, example_inputs, graph_kind="forward"):
    """Lower, schedule, generate and load one aten graph."""
    name = f"{graph_kind}_{next(_graph_ids)}"
    graph = lower(gm, name)
    scheduler = Scheduler(graph).schedule()
    codegen = get_codegen()
    compiled = {kernel.name: codegen.compile_kernel(kernel) for kernel in scheduler.kernels()}
    source = WrapperCodeGen(graph, scheduler, compiled, name).generate()
    call = load_module(source, compiled, f"<output_code {name}>")["call"]
    result = CompiledGraph(name, call, scheduler.kernels(), source, sorted(set(graph.fallbacks)), scheduler)
    metrics.graphs.append(result)
    metrics.generated_kernel_count += len(compiled)
    metrics.fallback_ops += graph.fallbacks
    debug.log("fusion", f"[{name}] fusion\n{scheduler.post_fusion_text()}")
    debug.log("output_code", f"[{name}] output code\n{source}")
    if config.debug:
        debug.write_graph_files(name, gm, example_inputs, pre_fusion_text(graph), scheduler.post_fusion_text(), source)
    return result


def compile_fx(gm, example_inputs):
    """The "inductor" backend: AOT-trace gm into forward/backward aten graphs and compile each."""
    from autograd import aot_module_simplified
    from partition import min_cut_rematerialization_partition

    return aot_module_simplified(
        gm, example_inputs,
        fw_compiler=functools.partial(compile_fx_inner, graph_kind="forward"),
        bw_compiler=functools.partial(compile_fx_inner, graph_kind="backward"),
        inference_compiler=functools.partial(compile_fx_inner, graph_kind="inference"),
        partition_fn=min_cut_rematerialization_partition,
        decompositions=select_decomp_table())
