"""Compile loop-IR Kernels to machine code with llvmlite, cache them, and run them on threads.

Codegen layer: the CPU end of the backend. The scheduler hands over a
`loop_ir.Kernel`; `llvm_emit.py` writes it as LLVM IR text; this module
optimizes that text at O3 for the host CPU (loop and SLP vectorizers on),
turns it into an object file, loads the object into an MCJIT engine, and
wraps the function pointer in an `LLVMKernel` that the generated wrapper
(output_code.py) calls with raw buffer addresses.

    kernel = compile_kernel(k)        # LLVM IR text -> (memory cache | disk cache | O3 + codegen)
    kernel.llvm_ir                    # the readable, unoptimized text that goes into output_code.py
    kernel.run(x.ctypes.data, out.ctypes.data)

The one idea to hold: the compiled artifact is keyed by a hash of the IR
text (plus the host CPU), so a kernel is optimized once per machine, ever.
In a process it is found in a dict (weakly: an engine whose kernels are all
gone is disposed of); across processes the object file is read back from
`config.kernel_cache_dir`, which skips LLVM's optimizer and code generator
entirely (a warm start costs the parse of a few KB of object code). That file
is machine code this process will run: `disk_cache.py` reads it only from
directories the user owns and nobody else can write, and caps the cache's size.

Threading: the kernel function takes the range [start, end) of the outermost
loop variable. Large kernels split that range into one chunk per thread
(`config.threads`, read at each launch): the calling thread runs the first,
the spinning native workers of `workers.py` the others.
"""
import ctypes
import ctypes.util
import hashlib
import math
import os
import threading
import time
import weakref

import llvmlite
import llvmlite.binding as llvm
import numpy as np

from .. import config, disk_cache
from .. import loop_ir as L
from . import workers
from .llvm_emit import KernelEmitter, kernel_error

# Below this many innermost-loop iterations a kernel runs on the calling thread. Splitting costs 10-20 us
# (building the jobs in Python, posting them to spinning workers: workers.py), and the cheapest kernels
# (a copy-like pointwise op) run at 0.2-0.4 ns/element on one thread: `python benchmarks/llvm_kernels.py
# --crossover` measured a tie at 2^18 elements and a 1.2-1.4x gain from 2^20 on the 2-core development VM.
PARALLEL_MIN_WORK = 1 << 19


# ---- the host target: initialized once per process --------------------------------------------


class HostTarget:
    """The target machine for this CPU and the fingerprint that keys its object files."""

    def __init__(self):
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        # libm for expf/sinf/pow..., libc for memset/memcpy, libgcc_s for half-float helpers LLVM may call
        for library in ("m", "c", "gcc_s"):
            path = ctypes.util.find_library(library)
            if path:
                llvm.load_library_permanently(path)
        self.cpu = llvm.get_host_cpu_name()
        self.features = llvm.get_host_cpu_features().flatten()
        self.machine = self.new_machine()
        self.triple = self.machine.triple
        self.data_layout = str(self.machine.target_data)
        self.fingerprint = "|".join([llvmlite.__version__, self.triple, self.cpu, self.features])

    def new_machine(self):
        return llvm.Target.from_default_triple().create_target_machine(cpu=self.cpu, features=self.features, opt=3)

    def optimize(self, module):
        tuning = llvm.create_pipeline_tuning_options(speed_level=3)
        tuning.loop_vectorization = True
        tuning.slp_vectorization = True
        tuning.loop_unrolling = True
        builder = llvm.create_pass_builder(self.machine, tuning)
        builder.getModulePassManager().run(module, builder)

    def parse(self, llvm_ir):
        module = llvm.parse_assembly(llvm_ir)
        module.triple = self.triple
        module.data_layout = self.data_layout
        module.verify()
        return module


_host = None
_host_lock = threading.Lock()


def host():
    global _host
    with _host_lock:
        if _host is None:
            _host = HostTarget()
        return _host


# ---- compiling and caching -------------------------------------------------------------------

# cache key -> LoadedObject, for this process. Weak: an engine is disposed of (its machine code freed) once
# no compiled kernel uses it, e.g. after frontend.reset() dropped the compiled functions.
_compiled = weakref.WeakValueDictionary()
_compile_lock = threading.Lock()  # LLVM's global context is not thread-safe: one thread at a time uses it


def hold_locks():
    """Before a fork (backend/forking.py): wait until no thread is inside LLVM, and keep it so."""
    _compile_lock.acquire()
    _host_lock.acquire()


def release_locks():
    _host_lock.release()
    _compile_lock.release()


def new_locks():
    """In a forked child: the locks as they were before the fork, but owned by nobody."""
    global _compile_lock, _host_lock
    _compile_lock, _host_lock = threading.Lock(), threading.Lock()


class LoadedObject:
    """An object file loaded into its own MCJIT engine (kept alive as long as the code may run)."""

    def __init__(self, object_code, function_name):
        # an engine owns (and on disposal deletes) its target machine, so each gets its own
        self.engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), host().new_machine())
        self.engine.add_object_file(llvm.ObjectFileRef.from_data(object_code))
        self.engine.finalize_object()
        self.address = self.engine.get_function_address(function_name)
        if not self.address:
            raise RuntimeError(f"LLVM object code has no function {function_name!r}")


def cache_key(llvm_ir):
    return hashlib.sha256((host().fingerprint + "\n" + llvm_ir).encode()).hexdigest()


def compile_to_object(llvm_ir):
    target = host()
    module = target.parse(llvm_ir)
    target.optimize(module)
    return target.machine.emit_object(module)


def optimized_ir(llvm_ir):
    """The module after the O3 pipeline, as text (to inspect what the vectorizer did)."""
    target = host()
    module = target.parse(llvm_ir)
    target.optimize(module)
    return str(module)


def disk_cache_path(key):
    return os.path.join(config.kernel_cache_dir, key[:2], key + ".o")


def read_disk_cache(key):
    """The cached object code, or None (also for a file disk_cache.py does not trust). Each file holds
    the SHA-256 of its payload first: LLVM crashes the process on a malformed object file, so a damaged
    file must never reach it."""
    if not config.kernel_cache:
        return None
    data = disk_cache.read(config.kernel_cache_dir, disk_cache_path(key))
    if data is None:
        return None
    digest, object_code = data[:32], data[32:]
    return object_code if hashlib.sha256(object_code).digest() == digest else None


def write_disk_cache(key, object_code):
    if config.kernel_cache:
        disk_cache.write(config.kernel_cache_dir, disk_cache_path(key), hashlib.sha256(object_code).digest()
                         + object_code, config.kernel_cache_max_bytes)


def load_function(llvm_ir, function_name):
    """(LoadedObject, where it came from): 'memory', 'disk' or 'compiled'."""
    key = cache_key(llvm_ir)
    with _compile_lock:
        loaded = _compiled.get(key)
        if loaded is not None:
            return loaded, "memory"
        object_code = read_disk_cache(key)
        source = "disk"
        if object_code is None:
            object_code, source = compile_to_object(llvm_ir), "compiled"
            write_disk_cache(key, object_code)
        loaded = _compiled[key] = LoadedObject(object_code, function_name)
        return loaded, source


def live_engines():
    """How many MCJIT engines this process holds (one per distinct kernel still in use)."""
    with _compile_lock:
        return len(_compiled)


def compile_kernel(kernel):
    """Kernel -> LLVMKernel, compiling at most once per machine for the same IR."""
    began = time.perf_counter()
    emitter = KernelEmitter(kernel)
    llvm_ir = emitter.module_text()
    loaded, source = load_function(llvm_ir, kernel.name)
    return LLVMKernel(kernel, llvm_ir, emitter.b.flags, loaded, source, time.perf_counter() - began)


# ---- running ---------------------------------------------------------------------------------


def statement_work(statement):
    """Innermost iterations a statement runs: the size that decides whether threads pay off."""
    if isinstance(statement, L.Loop):
        return math.prod(statement.ranges) * sum(statement_work(s) for s in statement.body)
    if isinstance(statement, L.Reduce):
        return math.prod(statement.rranges)
    return 1


class LLVMKernel:
    """A compiled kernel: call `run` with the buffers' addresses in `kernel.args` order."""

    def __init__(self, kernel, llvm_ir, error_flags, loaded, source, compile_seconds):
        self.kernel = kernel
        self.name = kernel.name
        self.llvm_ir = llvm_ir
        self.error_flags = error_flags  # FunctionBuilderFlags: one byte per chunk each, checked after a run
        self.source = source  # "compiled", "disk" or "memory": where the machine code came from
        self.compile_seconds = compile_seconds
        self._loaded = loaded  # keeps the engine, hence the code, alive
        prototype = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(kernel.args), ctypes.c_int64, ctypes.c_int64,
                                     *[ctypes.c_void_p] * len(error_flags))
        self._function = prototype(loaded.address)
        self.outer_range = kernel.loop.ranges[0] if kernel.loop.vars else 1
        self.work = statement_work(kernel.loop)
        self.max_args = len(kernel.args) + 2 + len(error_flags)

    def __repr__(self):
        return f"<LLVMKernel {self.name} ({self.source}, {self.compile_seconds * 1e3:.1f} ms)>"

    def run(self, *addresses):
        if len(addresses) != len(self.kernel.args):
            raise TypeError(f"{self.name} takes {len(self.kernel.args)} buffers, got {len(addresses)}")
        extent = self.outer_range
        splittable = self.work >= PARALLEL_MIN_WORK and not self.kernel.serial and self.max_args <= workers.MAX_ARGS
        chunks = max(1, min(config.threads, extent)) if splittable else 1
        if chunks == 1 and not self.error_flags:
            self._function(*addresses, 0, extent)
            return
        bounds = [extent * i // chunks for i in range(chunks + 1)]
        flags = np.zeros((chunks, len(self.error_flags)), np.uint8)  # one byte per flag per chunk
        launches = [(*addresses, bounds[i], bounds[i + 1], *(flags[i].ctypes.data + j for j in range(flags.shape[1])))
                    for i in range(chunks)]
        if chunks == 1:
            self._function(*launches[0])
        else:
            workers.run_jobs([workers.Job(self._loaded.address, launch) for launch in launches])
        if flags.any():
            raise kernel_error(self.kernel, [f for f, up in zip(self.error_flags, flags.any(axis=0)) if up], addresses)

    def run_arrays(self, *arrays):
        """Run on numpy arrays (contiguous, of the kernel arguments' dtypes, large enough)."""
        for arg, array in zip(self.kernel.args, arrays):
            if array.dtype != arg.dtype.np or not array.flags.c_contiguous or array.size < arg.numel:
                raise ValueError(f"{self.name}: argument {arg.name} wants a contiguous {arg.dtype.name} array "
                                 f"of at least {arg.numel} elements, got {array.dtype}{list(array.shape)}")
        self.run(*(np.asarray(array).ctypes.data for array in arrays))

    def optimized_ir(self):
        return optimized_ir(self.llvm_ir)
