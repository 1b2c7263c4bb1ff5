"""Loop-IR Kernels -> machine code with llvmlite, and the calls that run it (the CPU code generator).

Codegen layer: the CPU end of the backend. `llvm_emit.py` writes a `loop_ir.Kernel` as LLVM IR text;
`llvm_jit.py` optimizes it at O3 for the host CPU and loads the machine code; this module wraps the function
pointer in an `LLVMKernel` that the generated wrapper (output_code.py) calls with raw buffer addresses.

    kernel = compile_kernel(k)        # loop IR -> LLVM IR text -> machine code
    kernel.llvm_ir                    # the readable, unoptimized text that goes into output_code.py
    kernel.run(x.ctypes.data, out.ctypes.data)

The one idea to hold: the kernel function takes the buffers' addresses, the range [start, end) of its outermost
loop variable, then one pointer per error flag (llvm_emit.py); `run` calls it over [0, extent) and turns a raised
flag into the exception eager raises. The speed wing adds `speed.compile_ir` (compiled code cached by IR text, in
memory and on disk) and `speed.threaded_run` (one chunk of the range per thread).
"""
import ctypes
import time

import numpy as np

from .. import loop_ir as L
from .. import speed
from . import CompiledKernel
from .llvm_emit import KernelEmitter, kernel_error


def compile_kernel(kernel):
    began = time.perf_counter()
    emitter = KernelEmitter(kernel)
    llvm_ir = emitter.module_text()
    loaded, source = speed.compile_ir(llvm_ir, kernel.name)  # fast: found in memory or on disk when it can be
    return LLVMKernel(kernel, llvm_ir, emitter.b.flags, loaded, source, time.perf_counter() - began)


class LLVMKernel(CompiledKernel):
    def __init__(self, kernel, llvm_ir, error_flags, loaded, source, compile_seconds):
        self.kernel, self.name, self.llvm_ir = kernel, kernel.name, llvm_ir
        self.error_flags = error_flags  # llvm_builder's error flags: one byte each, checked after a run
        self.source = source  # "compiled", or where the speed wing found the machine code: "disk", "memory"
        self.compile_seconds = compile_seconds
        self._loaded = loaded  # keeps the engine, hence the code, alive
        prototype = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(kernel.args), *[ctypes.c_int64] * len(kernel.sizes),
                                     ctypes.c_int64, ctypes.c_int64, *[ctypes.c_void_p] * len(error_flags))
        self._function = prototype(loaded.address)
        self.outer_range = kernel.loop.ranges[0] if kernel.loop.vars else 1
        # (dynamic shapes: the outer range from the size arguments that follow the addresses in `run`)
        self._outer_range_of = L.size_function([self.outer_range], kernel.sizes)
        threaded = speed.threaded_run(kernel, self._function, loaded, error_flags, kernel_error)
        if threaded is not None:  # the fast configuration: `run` also splits large ranges across threads
            self.run = threaded

    def __repr__(self):
        return f"<LLVMKernel {self.name} ({self.source}, {self.compile_seconds * 1e3:.1f} ms)>"

    def run(self, *addresses):
        """The kernel over its whole outer range, on the calling thread (after the addresses: the sizes, if any)."""
        self.check_arity(addresses)
        (extent,) = self._outer_range_of(*addresses[len(self.kernel.args):])
        if not self.error_flags:
            self._function(*addresses, 0, extent)
            return
        flags = np.zeros(len(self.error_flags), np.uint8)
        self._function(*addresses, 0, extent, *(flags.ctypes.data + j for j in range(flags.size)))
        if flags.any():
            raise kernel_error(self.kernel, [f for f, up in zip(self.error_flags, flags) if up], addresses)
