"""Code generators: a `loop_ir.Kernel` -> something that runs (plays torch._inductor.codegen).

Backend layer, after the scheduler. Every generator has the same interface, `compile_kernel(kernel)` -> an object with
`.run(*addresses)` (one integer address per `kernel.args` entry, in order) and its source text for output_code.py:
`.llvm_ir` (LLVM IR, or None) and, for Triton, `.triton_source`. `backend.config.cpu_codegen` picks one:

    "llvm"       codegen/llvm.py: llvmlite JIT, vectorized (the default)
    "triton"     codegen/triton.py: Triton kernels, on a GPU or in Triton's interpreter (TRITON_INTERPRET=1)
    "numpy_ref"  codegen/numpy_ref.py: the numpy reference evaluator (the tests' oracle)

A generator is imported when first picked (llvmlite and Triton are heavy to load).
"""
import importlib

from .. import config

GENERATORS = {"llvm": "backend.codegen.llvm", "triton": "backend.codegen.triton",
              "numpy_ref": "backend.codegen.numpy_ref"}


def get_codegen(name=None):
    name = name or config.cpu_codegen
    if name not in GENERATORS:
        raise ValueError(f"backend.config.cpu_codegen={name!r}: choose one of {sorted(GENERATORS)}")
    return importlib.import_module(GENERATORS[name])


class CompiledKernel:  # the base of LLVMKernel, TritonKernel and NumpyKernel
    llvm_ir = None

    def check_arity(self, addresses):
        if len(addresses) != len(self.kernel.args) + len(self.kernel.sizes):
            raise TypeError(f"{self.name} takes {len(self.kernel.args)} buffers and {len(self.kernel.sizes)} sizes, "
                            f"got {len(addresses)} arguments")
