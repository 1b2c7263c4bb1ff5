"""backend: the Inductor-like compiler (plays `torch._inductor`).

Pipeline, one module per step, in the order a graph goes through them:

    compile_fx.py   the "inductor" backend: aot tracing, then compile_fx_inner per graph
    lowering.py     aten graph -> ir.py nodes (ops: lowering_pointwise / _views / _reductions / _pooling / _indexing)
    ir.py           Pointwise, Reduction, views as index arithmetic, buffers, extern kernels
    scheduler.py    fusion: realized buffers -> loop_ir.Kernel list + extern calls (simplify.py: indices;
                    kernel_rewrites.py: an expensive reduction's value stored once and reloaded)
    loop_ir.py      the kernel IR (the contract with code generation)
    codegen/        llvm.py (llvmlite JIT), triton.py (Triton: GPU or interpreter), numpy_ref.py (reference)
    wrapper.py      output_code.py: allocates from a buffer pool, calls kernels, returns tensors
    debug.py        MINITORCH2_COMPILE_DEBUG folders and log artifacts
    cache.py        compiled graphs on disk (disk_cache.py: who may have written a cache file, its size cap)
    forking.py      what happens around os.fork() (a forked child compiles as its parent does)
    config.py       the knobs
"""
from . import config
from .compile_fx import compile_fx, compile_fx_inner, metrics

__all__ = ["compile_fx", "compile_fx_inner", "config", "metrics"]
