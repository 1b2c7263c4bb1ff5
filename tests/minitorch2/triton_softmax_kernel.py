"""Seed 004's Triton softmax kernel, as a user writes it at module level (Triton patches `tl` in the kernel's
globals), decorated for Triton's interpreter on a machine without a GPU, as backend/codegen/triton.py decides."""
import os

import torch

if "TRITON_INTERPRET" not in os.environ and not torch.cuda.is_available():
    os.environ["TRITON_INTERPRET"] = "1"  # read when a kernel is decorated

import triton  # noqa: E402  (after the interpreter decision above)
import triton.language as tl  # noqa: E402

INTERPRETED = bool(triton.knobs.runtime.interpret)


@triton.jit
def softmax_kernel(input_ptr, output_ptr, n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    values = tl.load(input_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    exp = tl.exp(values - tl.max(values, axis=0))
    tl.store(output_ptr + row * n_cols + cols, exp / tl.sum(exp, axis=0), mask=cols < n_cols)
