"""backend.speed: the speed wing, and the one seam through which the plain path calls it.

The plain path (compile_fx -> lowering -> scheduler -> loop IR -> codegen ->
wrapper) computes every result on its own: kernels compiled afresh and run on
the calling thread, numpy's matmul, libm's math. This package makes the same
results arrive sooner, and the plain path meets it only in the functions
below, each called from one place. With `config.speed = "plain"`
(MINITORCH2_BACKEND_SPEED=plain) each gives the plain answer: None, False,
nothing done, or a plain compile.

    called from          function                            what the fast configuration adds
    compile_fx           start_preload()                     llvmlite and the host target loaded on a thread
                                                             at `import backend`, beside the caller's own work
    compile_fx           compiling()                         (both configurations) a compile a fork waits for
    compile_fx           graph_key / load_graph / store_graph  compiled graphs on disk, for the next process
    codegen/llvm.py      compile_ir(llvm_ir, name)           machine code kept in memory and on disk
    codegen/llvm.py      threaded_run(kernel, ...)           large kernels split across native worker threads
    codegen/llvm_emit.py inline_math(name, dtype)            float32 exp, tanh, ... the vectorizer can widen
    codegen/llvm_emit.py column_reduction(kernel)            column sums with the loops swapped
    codegen/triton.py    cached_module(source, name)         generated Triton modules kept for the process
    wrapper.py           matmul(a, b, out)                   large products as OpenBLAS calls across threads
    wrapper.py           buffer_functions()                  buffers reused from a pool, addresses read fast

The one idea to hold: the speed wing changes when a result arrives, never
what it is. The tests run in both configurations (tests/backend/conftest.py).

    forking.py       what the backend does around os.fork (the compile gate, the preload thread)
    kernel_cache.py  compiled kernels by their IR text, in memory and on disk (disk_cache.py: the files)
    graph_cache.py   compiled graphs on disk
    parallel.py      a kernel's range split into chunks; workers.py: the spinning native threads that run them
    blas.py          our own OpenBLAS's sgemm as worker jobs
    buffers.py       the pool of buffers compiled graphs run in
    llvm_math.py     inline float32 transcendentals; llvm_columns.py: column-reduction kernels
"""
import hashlib
import os

import numpy as np

from .. import config
from ..codegen import get_codegen, llvm_jit
from ..codegen import llvm_ops
from . import blas, buffers, disk_cache, forking, graph_cache, kernel_cache, llvm_columns, llvm_math, parallel

SPEEDS = ("fast", "plain")


def fast():
    """Is the speed wing on (config.speed == "fast")?"""
    if config.speed not in SPEEDS:
        raise ValueError(f"backend.config.speed={config.speed!r}: choose one of {SPEEDS}")
    return config.speed == "fast"


# ---- around a compile (compile_fx) ------------------------------------------------------------


def compiling():
    """A context manager around each compile: a fork waits until no other thread is inside one
    (forking.py). Armed in both configurations."""
    return forking.compiling()


def start_preload():
    """Fast, with the LLVM code generator: load it (its modules, llvmlite's library, 0.2 s, and the host
    target, whose libm lookup runs ldconfig) on a daemon thread now, so the loading overlaps the caller's own
    work (building the model, its inputs) instead of adding to the first compiled call. Plain: nothing."""
    if fast() and config.cpu_codegen == "llvm":
        forking.start_preload(_preload_codegen)


def _preload_codegen():
    try:
        get_codegen()
        llvm_jit.host()
    except Exception:  # the first compile loads them again and reports any error where it belongs
        pass


def graph_key(gm, example_inputs, graph_kind):
    """Fast: the graph cache's key for this graph (None for graphs it must not hold). Plain: None."""
    return graph_cache.graph_key(gm, example_inputs, graph_kind) if fast() else None


def load_graph(key, example_inputs):
    """(wrapper source, {kernel name: compiled kernel}, fallbacks) of the graph stored under key (compiled before,
    by any process), each kernel rebuilt from its LLVM IR (the kernel cache finds the machine code), or None."""
    stored = graph_cache.load(key, example_inputs)
    if stored is None:
        return None
    llvm = get_codegen()
    kernels = {k.name: llvm.LLVMKernel(k.kernel, k.llvm_ir, k.error_flags, *compile_ir(k.llvm_ir, k.kernel.name), 0.0)
               for k in stored.kernels}
    return stored.source, kernels, stored.fallbacks


def store_graph(key, source, compiled_kernels, fallbacks):
    """Store a compiled graph under key, for the next process."""
    graph_cache.save(key, source, compiled_kernels, fallbacks)


# ---- LLVM code generation (codegen/llvm.py, codegen/llvm_emit.py) --------------------------------


def compile_ir(llvm_ir, function_name):
    """LLVM IR text -> (llvm_jit.LoadedObject, where it came from). Fast: "memory" or "disk" when this
    machine compiled the same text before, else "compiled" (and kept); plain: always "compiled"."""
    if fast():
        return kernel_cache.load_function(llvm_ir, function_name)
    return llvm_jit.compile_ir(llvm_ir, function_name), "compiled"


def threaded_run(kernel, function, loaded, error_flags, kernel_error):
    """Fast: a `run(*addresses)` for the compiled kernel that splits a large outer range into one chunk per
    `config.threads` thread (parallel.py). Plain: None (LLVMKernel.run runs it on the calling thread)."""
    return parallel.threaded_run(kernel, function, loaded, error_flags, kernel_error) if fast() else None


def inline_math(name, dtype):
    """Fast: for float32 (and float16, computed in float32) exp, exp2, log, log2, log1p, expm1, tanh, erf
    and sigmoid, an emitter `(builder, x) -> Value` of branch-free inline code the loop vectorizer can
    widen (llvm_math.py). Else None: llvm_ops calls libm."""
    if not (fast() and dtype.name in ("float32", "float16") and name in llvm_math.INLINE_FLOAT32):
        return None

    def emit(b, x):
        b.comment(f"{name}({x.ref}): inline float32 code from llvm_math.py")
        return llvm_math.INLINE_FLOAT32[name](b, x)

    return llvm_ops.in_float32(emit)


def column_reduction(kernel):
    """Fast, for a kernel that reduces along a strided dimension for each contiguous output element: an
    emitter `(KernelEmitter) -> None` writing it with the loops swapped (llvm_columns.py). Else None."""
    if not (fast() and llvm_columns.is_column_reduction(kernel)):
        return None
    return lambda emitter: llvm_columns.emit_column_reduction(emitter, kernel)


# ---- Triton code generation (codegen/triton.py) -------------------------------------------------

_modules = {}  # source hash -> the loaded module, for this process


def cached_module(source, name):
    """Fast: the generated Triton module for `source`, imported once per process from a file in the kernel
    cache that holds exactly this source (and that disk_cache.py trusts). None in the plain configuration,
    or where the cache directory is unusable: the caller imports it from a fresh temporary file."""
    if not fast():
        return None
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    if digest not in _modules:
        path = os.path.join(config.kernel_cache_dir, "triton", f"{name}_{digest}.py")
        if disk_cache.read(config.kernel_cache_dir, path) != source.encode() and not disk_cache.write(
                config.kernel_cache_dir, path, source.encode(), config.kernel_cache_max_bytes):
            return None
        from ..codegen.triton import import_file  # (loads torch and Triton; only triton.py, loaded, calls this)

        _modules[digest] = import_file(path, f"minitorch2_triton_{name}_{digest}")
    return _modules[digest]


# ---- the wrapper's extern matmul (wrapper.py) ----------------------------------------------------


def matmul(a, b, out):
    """Fast: out = a @ b as OpenBLAS sgemm calls split across the worker threads, for a large float32
    product (blas.py), returning True. Else False, nothing done: the wrapper calls np.matmul."""
    return fast() and blas.matmul(a, b, out)


# ---- the memory compiled graphs run in (wrapper.py) --------------------------------------------


def buffer_functions():
    """wrapper.py's alloc(numel, dtype), free(array), lend(array) and ptr(array), chosen once at import. Fast: the
    pool's (buffers.py). Plain: fresh numpy memory for every buffer, freed by numpy, and `array.ctypes.data`."""
    if fast():
        return buffers.POOL.alloc, buffers.POOL.free, buffers.POOL.lend, buffers.ptr
    return _fresh_buffer, _let_numpy_free, _let_numpy_free, _address


def _fresh_buffer(numel, dtype):
    return np.empty(max(numel, 1), dtype.np)


def _let_numpy_free(array):
    pass


def _address(array):
    return array.ctypes.data
