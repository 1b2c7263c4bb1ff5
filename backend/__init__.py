"""backend: the Inductor-like compiler (plays `torch._inductor`).

Pipeline, one module per step, in the order a graph goes through them (the plain path):

    compile_fx.py   the "inductor" backend, `compile_fx.compile_fx`: aot tracing, then compile_fx_inner per graph
    lowering.py     aten graph -> ir.py nodes (ops: lowering_pointwise / _views / _reductions / _indexing, and beyond
                    the core set _pooling / _more; virtualized.py: the graph being lowered on this thread)
    ir.py           Pointwise, Reduction, views as index arithmetic, buffers, extern kernels
    scheduler.py    fusion: realized buffers -> loop_ir.Kernel list + extern calls (simplify.py: indices;
                    kernel_rewrites.py: an expensive reduction's value stored once and reloaded)
    loop_ir.py      the kernel IR (the contract with code generation)
    codegen/        llvm.py (llvmlite JIT), triton.py (Triton: GPU or interpreter), numpy_ref.py (reference)
    wrapper.py      output_code.py: allocates buffers, calls kernels, returns tensors
    debug.py        what a compile shows: `metrics`, the fusion and output_code logs, MINITORCH2_COMPILE_DEBUG folders
    config.py       the knobs

Beside it, the speed wing (speed/: worker threads, our own OpenBLAS, inline float32 math, column-reduction
kernels, kernel and graph caches, the preload thread, what happens around os.fork), which the plain path calls
through the functions of `speed/__init__.py` alone; `config.speed = "plain"` turns it off.
"""
from . import config
from .compile_fx import compile_fx_inner
from .debug import metrics

__all__ = ["compile_fx_inner", "config", "metrics"]
