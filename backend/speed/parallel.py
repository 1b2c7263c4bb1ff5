"""A kernel's outer range split into one chunk per thread (the speed wing's `threaded_run`; the plain
path runs `LLVMKernel.run`, the whole range on the calling thread).

Speed wing, under `codegen/llvm.py`. Every LLVM kernel function takes the range
[start, end) of its outermost loop variable, whose iterations are independent
(unless the kernel is `serial`), so a large kernel runs as `config.threads`
calls over disjoint chunks: the calling thread runs the first, the spinning
native workers of `workers.py` the others. Each chunk raises its error flags
into bytes of its own; after the launch they are combined.

The one idea to hold: splitting costs 10-20 us (building the jobs in Python,
posting them to the workers), so only kernels doing at least
PARALLEL_MIN_WORK innermost iterations are split.
"""
import math

import numpy as np

from .. import config
from .. import loop_ir as L
from . import workers

# Below this many innermost-loop iterations a kernel runs on the calling thread. Splitting costs 10-20 us
# (building the jobs in Python, posting them to spinning workers: workers.py), and the cheapest kernels
# (a copy-like pointwise op) run at 0.2-0.4 ns/element on one thread: `python benchmarks/llvm_kernels.py
# --crossover` measured a tie at 2^18 elements and a 1.2-1.4x gain from 2^20 on the 2-core development VM.
PARALLEL_MIN_WORK = 1 << 19


def statement_work(statement):
    """Innermost iterations a statement runs: the size that decides whether threads pay off."""
    if isinstance(statement, L.Loop):
        return math.prod(statement.ranges) * sum(statement_work(s) for s in statement.body)
    if isinstance(statement, L.Reduce):
        return math.prod(statement.rranges)
    return 1


def threaded_run(kernel, function, loaded, error_flags, kernel_error):
    """`run(*addresses)` for a compiled loop_ir `kernel`: `function` (ctypes, of the code in `loaded`, an
    llvm_jit.LoadedObject) over the outer range, split across threads when the kernel is large enough. A
    raised error flag becomes kernel_error(kernel, raised_flags, addresses). A closure over these values,
    `loaded` included (a caller may drop the LLVMKernel while its `run` runs), but not over the LLVMKernel
    that keeps it: a kernel that referred to itself would keep its engine alive until a gc."""
    extent = kernel.loop.ranges[0] if kernel.loop.vars else 1
    work = statement_work(kernel.loop)
    max_args = len(kernel.args) + len(kernel.sizes) + 2 + len(error_flags)
    # dynamic shapes: the range and the work from the size arguments that follow the addresses
    geometry = L.size_function([extent, work], kernel.sizes) if kernel.sizes else lambda: (extent, work)

    def run(*addresses):  # (the buffers' addresses, then the size symbols' values)
        if len(addresses) != len(kernel.args) + len(kernel.sizes):
            raise TypeError(f"{kernel.name} takes {len(kernel.args)} buffers and {len(kernel.sizes)} sizes, "
                            f"got {len(addresses)} arguments")
        extent, work = geometry(*addresses[len(kernel.args):])
        splittable = work >= PARALLEL_MIN_WORK and not kernel.serial and max_args <= workers.MAX_ARGS
        chunks = max(1, min(config.threads, extent)) if splittable else 1
        if chunks == 1 and not error_flags:
            function(*addresses, 0, extent)
            return
        bounds = [extent * i // chunks for i in range(chunks + 1)]
        flags = np.zeros((chunks, len(error_flags)), np.uint8)  # one byte per flag per chunk
        launches = [(*addresses, bounds[i], bounds[i + 1], *(flags[i].ctypes.data + j for j in range(flags.shape[1])))
                    for i in range(chunks)]
        if chunks == 1:
            function(*launches[0])
        else:
            workers.run_jobs([workers.Job(loaded.address, launch) for launch in launches])
        if flags.any():
            raise kernel_error(kernel, [f for f, up in zip(error_flags, flags.any(axis=0)) if up], addresses)

    return run
