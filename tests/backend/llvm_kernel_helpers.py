"""Shared by the LLVM code-generation tests (test_llvm_codegen.py, test_llvm_loops.py): loop-IR kernel
builders, torch's dtypes, and the fixture that gives each test a private kernel cache and its own seed."""
import re
import sys
import zlib

import numpy as np
import pytest
import torch

from backend import config
from backend import loop_ir as L
from backend.codegen import llvm as codegen
from backend.codegen import llvm_jit
from minitorch2 import _dtype as dt

x0, x1, r0, r1 = L.Var("x0"), L.Var("x1"), L.Var("r0"), L.Var("r1")


def has_float_vectors(optimized_ir):
    """Whether LLVM widened float32 code to the host's vectors (SSE 4, AVX2 8 or AVX-512 16 lanes)."""
    return re.search(r"<(4|8|16) x float>", optimized_ir) is not None


def optimized_ir(compiled):
    """A compiled LLVM kernel's module after the O3 pipeline, as text (to see what the vectorizer did)."""
    return str(llvm_jit.optimized_module(compiled.llvm_ir))


def run_arrays(compiled, *arrays):
    """Run a compiled kernel (LLVM or Triton) on numpy arrays: contiguous, of the kernel arguments' dtypes, large
    enough."""
    for arg, array in zip(compiled.kernel.args, arrays):
        if array.dtype != arg.dtype.np or not array.flags.c_contiguous or array.size < arg.numel:
            raise ValueError(f"{compiled.name}: argument {arg.name} wants a contiguous {arg.dtype.name} array "
                             f"of at least {arg.numel} elements, got {array.dtype}{list(array.shape)}")
    compiled.run(*(array.ctypes.data for array in arrays))

TORCH_DTYPES = {dt.float16: torch.float16, dt.float32: torch.float32, dt.float64: torch.float64, dt.int32: torch.int32,
                dt.int64: torch.int64, dt.bool_: torch.bool, dt.uint8: torch.uint8, dt.int8: torch.int8}


def cache_and_seed_fixture(module_name):
    """An autouse fixture for the test module `module_name`: kernels cached under pytest's temp dir, and the
    module's `RNG` reseeded from the test's name, so a test draws the same data whatever ran before."""

    @pytest.fixture(autouse=True)
    def private_cache_and_seed(tmp_path_factory, monkeypatch, request):
        monkeypatch.setattr(config, "kernel_cache_dir", str(tmp_path_factory.getbasetemp() / "kernels"))
        seed = zlib.crc32(request.node.name.encode())
        monkeypatch.setattr(sys.modules[module_name], "RNG", np.random.default_rng(seed))

    return private_cache_and_seed


def arg(name, dtype, numel, role="in"):
    return L.KernelArg(name, name, dtype, numel, role)


def pointwise(name, op, input_dtypes, out_dtype, n):
    """out_ptr0[x0] = op(in_ptr0[x0], in_ptr1[x0], ...)."""
    loads = tuple(L.Load(f"in_ptr{i}", x0, d) for i, d in enumerate(input_dtypes))
    args = [arg(f"in_ptr{i}", d, n) for i, d in enumerate(input_dtypes)] + [arg("out_ptr0", out_dtype, n, "out")]
    return L.Kernel(name, args, L.Loop(("x0",), (n,), [L.Store("out_ptr0", x0, L.Op(op, loads, out_dtype))]))


def run_pointwise(op, inputs, out_dtype):
    kernel = codegen.compile_kernel(pointwise(f"k_{op}", op, [dt.from_numpy(a.dtype) for a in inputs],
                                              out_dtype, inputs[0].size))
    out = np.empty(inputs[0].size, out_dtype.np)
    run_arrays(kernel, *inputs, out)
    return out


def torch_result(fn, *arrays):
    return fn(*(torch.from_numpy(a.copy()) for a in arrays)).numpy()
