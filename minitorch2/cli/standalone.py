"""What the debug folder's scripts import to run on their own (plays torch._inductor.wrapper_benchmark and
torch._dynamo.repro.after_aot's run_repro).

CLI layer, imported by the files backend/debug.py writes under MINITORCH2_COMPILE_DEBUG=1, never by the
library itself:

    output_code.py         Kernels: each kernel built from the LLVM IR text the module holds (so an edit to
                           that text is what runs); benchmark_compiled_module: `call` timed on random inputs
                           of the graph's shapes, strides and dtypes, one line printed as torch's
    fx_graph_runnable.py   repro: the aten graph traced again (make_fx), compiled by the backend
                           (compile_fx_inner), run, and checked against running the graph eagerly

The one idea to hold: a compiled graph's wrapper needs nothing from the process that compiled it but
each kernel's machine code, which its LLVM IR text and the kernel's outer range rebuild.
"""
import ctypes
import re
from math import inf, nan  # noqa: F401 (with `device`, the globals an fx graph's code may name)
import statistics
import time

import numpy as np

import minitorch2
from autograd import make_fx
from backend import speed
from backend.compile_fx import compile_fx_inner
from minitorch2 import _dtype, device  # noqa: F401


class Kernels:
    """`kernels["kernel0"]` for a standalone output_code.py: the kernel compiled from `kernel0_llvm_ir`, a
    global of the module (`namespace`) defined above the line that asks for it."""

    def __init__(self, namespace, codegen, outer_ranges):
        self.namespace, self.codegen, self.outer_ranges = namespace, codegen, outer_ranges

    def __getitem__(self, name):
        if self.codegen != "llvm":
            raise NotImplementedError(f"output_code.py runs on its own with the llvm code generator; this one "
                                      f"was written by {self.codegen!r} (MINITORCH2_CPU_CODEGEN)")
        return StandaloneKernel(name, self.namespace[f"{name}_llvm_ir"], self.outer_ranges[name])


class StandaloneKernel:
    """One LLVM kernel from its IR text: `run(*addresses)` over its whole outer range, on this thread."""

    def __init__(self, name, llvm_ir, outer_range):
        signature = re.search(rf"define void @{name}\((.*)\)", llvm_ir).group(1)
        parameters = [p.split()[-1] for p in signature.split(",")]
        self.name, self.outer_range = name, outer_range
        self.buffer_count = parameters.index("%start")
        self.flag_count = len(parameters) - self.buffer_count - 2  # error flags come after %start, %end
        self._loaded, _ = speed.compile_ir(llvm_ir, name)  # (keeps the machine code alive)
        prototype = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * self.buffer_count, ctypes.c_int64, ctypes.c_int64,
                                     *[ctypes.c_void_p] * self.flag_count)
        self._function = prototype(self._loaded.address)

    def run(self, *addresses):
        if len(addresses) != self.buffer_count:
            raise TypeError(f"{self.name} takes {self.buffer_count} buffers, got {len(addresses)}")
        flags = np.zeros(max(self.flag_count, 1), np.uint8)
        self._function(*addresses, 0, self.outer_range, *(flags.ctypes.data + j for j in range(self.flag_count)))
        if flags.any():
            raise RuntimeError(f"{self.name}: an error flag was raised (an index out of range or an integer "
                               f"division by zero)")


def random_inputs(specs):
    """Inputs as the debug folder's scripts describe them: (shape, stride, dtype name) a random tensor with
    that layout (floats normal, integers and bools zero, so indices stay in range); anything else as it is."""
    inputs = []
    for spec in specs:
        if not (isinstance(spec, tuple) and len(spec) == 3 and isinstance(spec[2], str)):
            inputs.append(spec)
            continue
        shape, stride, dtype = spec[0], spec[1], _dtype.from_name(spec[2])
        extent = 0 if 0 in shape else 1 + sum((size - 1) * step for size, step in zip(shape, stride))
        storage = (minitorch2.randn(extent, dtype=dtype) if dtype.is_floating_point
                   else minitorch2.zeros(extent, dtype=dtype))
        inputs.append(minitorch2.as_strided(storage, shape, stride))
    return inputs


def benchmark_compiled_module(call, specs, times=10, repeat=10):
    """Time `call` on random inputs: the median over `repeat` rounds of `times` calls, in seconds per call,
    printed with six decimals as torch's output_code.py prints it."""
    args = random_inputs(specs)
    call(list(args))  # the first call allocates its buffers
    rounds = []
    for _ in range(repeat):
        began = time.perf_counter()
        for _ in range(times):
            call(list(args))
        rounds.append((time.perf_counter() - began) / times)
    took = statistics.median(rounds)
    print(f"{took:.6f}")
    return took


def repro(forward, graph_kind, specs):
    """Compile the aten graph `forward` as the backend did (graph_kind: forward, backward or inference), run
    it on random inputs and compare with running `forward` eagerly."""
    args = random_inputs(specs)
    gm = make_fx(forward, tracing_mode="fake")(*args)
    began = time.perf_counter()
    compiled = compile_fx_inner(gm, args, graph_kind=graph_kind)
    compile_seconds = time.perf_counter() - began
    outputs, expected = compiled(list(args)), forward(*args)
    worst = max((float((a.double() - b.double()).abs().max()) for a, b in zip(outputs, expected)
                 if isinstance(a, minitorch2.Tensor) and a.numel() and a.dtype.is_floating_point), default=0.0)
    print(f"{compiled.name}: compiled in {compile_seconds:.3f} s, {len(compiled.kernels)} kernel(s); "
          f"{len(outputs)} output(s), largest difference from eager {worst:.3g}")
    return compiled, outputs
