"""What the backend shows of its work: `metrics` (a record of every compiled graph, plays torch._inductor.metrics),
the MINITORCH2_LOGS artifacts output_code and fusion, and MINITORCH2_COMPILE_DEBUG folders (plays
torch._inductor.debug).

Backend layer, called by compile_fx for every compiled graph. With MINITORCH2_COMPILE_DEBUG=1
(backend.config.debug) each graph gets a folder in minitorch2._logging's debug folder, named as torch's:
`torchinductor/model__<aot id>_<forward|backward|inference>_<n>.<k>/` holds the aten graph as received
(fx_graph_readable.py) and as lowered (fx_graph_transformed.py: constants lifted to inputs), a script that
compiles it again (fx_graph_runnable.py), the IR before and after fusion (ir_pre_fusion.txt, ir_post_fusion.txt:
every refused fusion with its reason) and the generated module (output_code.py: `python output_code.py` builds
its kernels from the LLVM IR it holds and times `call` on random inputs, as torch's does).
"""
import copy
import itertools
import os
import threading

from minitorch2 import _logging
from minitorch2._sym import is_symbolic
from minitorch2._tensor import Tensor

from . import config, ir
from . import loop_ir as L
from .scheduler import KernelStep

_folders = itertools.count()  # the `.k` of torch's folder names


class Metrics:
    """What the backend compiled since the last reset() (plays torch._inductor.metrics). `graphs` holds each
    CompiledGraph's record (its source, kernels and fusion decisions, not the code that runs it), so the
    machine code of a compiled function is freed once the function is gone, e.g. after frontend.reset()."""

    def __init__(self):
        self._lock = threading.Lock()  # graphs compile on several threads at once
        self.reset()

    def reset(self):
        self.graphs = []  # CompiledGraph, in compile order
        self.generated_kernel_count = 0
        self.fallback_ops = []

    def record(self, graph, kernel_count, fallbacks):
        with self._lock:
            self.graphs.append(_without_code(graph))
            self.generated_kernel_count += kernel_count
            self.fallback_ops += fallbacks


metrics = Metrics()


def _without_code(graph):
    """A CompiledGraph's record: the graph without the code that runs it (and holds its kernels' machine code)."""
    record = copy.copy(graph)
    record._call = None
    return record


def log_compiled_graph(graph, gm, example_inputs):
    """The fusion and output_code artifacts of a CompiledGraph and, with config.debug, its folder of files."""
    if _logging.enabled("fusion"):
        _logging.log_artifact("fusion", f"[{graph.name}] fusion\n{post_fusion_text(graph.scheduler)}")
    cached = " (from the graph cache)" if graph.from_cache else ""
    _logging.log_artifact("output_code", f"[{graph.name}] output code{cached}\n{graph.source}")
    if config.debug:  # (never a graph from the cache: the cache holds no compile made with debug on)
        scheduler = graph.scheduler
        write_graph_files(graph.name, gm, example_inputs, pre_fusion_text(scheduler.graph),
                          post_fusion_text(scheduler), graph.source)


def write_graph_files(name, gm, example_inputs, pre_fusion, post_fusion, output_code):
    aot_id, compile_id = gm.meta.get("logged_in", (None, None))  # (a backward compiles outside its compile)
    folder = os.path.dirname(_logging.debug_file(f"torchinductor/model__{aot_id}_{name}.{next(_folders)}/"))
    inputs = f"[{', '.join(map(input_spec, example_inputs))}]"
    files = {
        "fx_graph_readable.py": gm.print_readable(print_output=False, include_stride=True, include_device=True),
        "fx_graph_runnable.py": "\n".join([
            f'"""The aten graph {name} of compile {compile_id}: `python fx_graph_runnable.py` compiles it again."""',
            "import minitorch2 as torch", "from minitorch2.cli.standalone import device, inf, nan, repro", "",
            gm.code.strip().replace("def forward(self, ", "def forward(").replace("(self)", "()"), "", "",
            'if __name__ == "__main__":', f"    repro(forward, {name.rsplit('_', 1)[0]!r}, {inputs})", ""]),
        "fx_graph_transformed.py": gm.print_readable(print_output=False),
        "ir_pre_fusion.txt": pre_fusion,
        "ir_post_fusion.txt": post_fusion,
        "output_code.py": standalone_output_code(name, output_code, inputs, _size_hints(example_inputs)),
    }
    for filename, text in files.items():
        with open(os.path.join(folder, filename), "w") as f:
            f.write(text)


def input_spec(value):
    """An example input as data the standalone scripts rebuild: (shape, stride, dtype name) or the value (a size
    over symbols, dynamic shapes: its example value)."""
    if isinstance(value, Tensor):
        return repr((tuple(map(_hint, value.shape)), tuple(map(_hint, value.stride())), value.dtype.name))
    return repr(_hint(value))


def _hint(value):
    return value.node.hint if is_symbolic(value) else value


def _size_hints(example_inputs):
    """{size symbol name: its example value} for a graph over symbolic sizes."""
    sizes = [v for value in example_inputs for v in (value, *getattr(value, "shape", ())) if is_symbolic(v)]
    return {str(v.node.expr): v.node.hint for v in sizes if v.node.expr.is_Symbol}


def standalone_output_code(name, source, inputs, hints=None):
    """The wrapper module, runnable alone: kernels from the source it holds, a main that times `call` (a graph
    over symbolic sizes at its example sizes, `hints`)."""
    kernels = next(graph for graph in reversed(metrics.graphs) if graph.name == name).kernels
    ranges = {k.name: L.with_sizes(k.loop.ranges[0], hints or {}) if k.loop.vars else 1 for k in kernels}
    header, _, rest = source.partition("\n\n")
    return "\n".join([header, "from minitorch2.cli.standalone import benchmark_compiled_module, Kernels",
                      f"kernels = Kernels(globals(), {config.cpu_codegen!r}, outer_ranges={ranges})", "",
                      rest.rstrip("\n"), "", "",
                      'if __name__ == "__main__":', f"    benchmark_compiled_module(call, {inputs})", ""])


def pre_fusion_text(graph):
    """ir_pre_fusion.txt: the lowered graph's buffers, one a line, and the ops left to eager kernels."""
    lines = [describe(b) for b in graph.inputs] + [""] + [describe(b) for b in graph.buffers]
    if graph.fallbacks:
        lines += ["", "# extern fallbacks (eager kernels): " + ", ".join(sorted(set(graph.fallbacks)))]
    return "\n".join(lines) + "\n"



def describe(node):
    """One IR buffer (or a buffer's body) as ir_pre_fusion.txt prints it."""
    if isinstance(node, ir.Pointwise):
        return f"Pointwise(size={node.size}, dtype={node.dtype.name}, body={node.body()})"
    if isinstance(node, ir.Reduction):
        return (f"Reduction(size={node.size}, reduction_ranges={node.reduction_ranges}, "
                f"type={node.reduction_type}, dtype={node.dtype.name}, body={node.body()})")
    if isinstance(node, ir.Scatter):
        idx = ir.symbolic_index(node.size, "x")
        where = ", ".join(str(i) for i in node.output_indexer(idx))
        return (f"Scatter(size={node.size}, dtype={node.dtype.name}, mode={node.mode}, "
                f"at=[{where}], body={node.inner_fn(idx)})")
    if isinstance(node, ir.ComputedBuffer):
        into = f" (into {node.storage_name})" if node.storage_name != node.name else ""
        return f"ComputedBuffer {node.name}{into}: {node.layout}\n  {describe(node.data)}"
    if isinstance(node, ir.ConcatBuffer):
        return f"ConcatBuffer {node.name}: {node.layout}, written by {', '.join(node.writers)}"
    if isinstance(node, ir.ExternKernel):
        tag = " (fallback)" if node.fallback else ""
        args = ", ".join(map(repr, node.args))  # a tensor argument prints as its buffer and size: buf3[4, 8]
        return f"ExternKernel{tag} {node.name} = {node.kind}({args})" + (f": {node.layout}" if node.layout else "")
    if isinstance(node, ir.MultiOutput):
        return f"MultiOutput {node.name} = {node.kernel.name}[{node.index}]: {node.layout}"
    return f"{type(node).__name__} {node.name}: {node.layout}"


def post_fusion_text(scheduler):
    """ir_post_fusion.txt and the fusion log: each kernel with the buffers it fuses, then every refused fusion."""
    lines = []
    for step in scheduler.steps:
        if isinstance(step, KernelStep):
            names = ", ".join(n.name for n in step.group.nodes)
            lines.append(f"# {step.kernel.name}: fuses {names}" + (
                f"; not stored (read only inside): {', '.join(step.group.dropped)}" if step.group.dropped else ""))
            lines.append(str(step.kernel))
        else:
            lines.append(describe(step.kernel))
        lines.append("")
    lines.append("# fusions refused")
    lines += [f"#   {r}" for r in scheduler.refusals] or ["#   (none)"]
    return "\n".join(lines) + "\n"
