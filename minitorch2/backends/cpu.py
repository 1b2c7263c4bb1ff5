"""torch.backends.cpu: what the CPU kernels may use (see backends/__init__.py). minitorch2's kernels are
compiled by LLVM for the host, so the answer names no instruction set."""


def get_cpu_capability():
    return "DEFAULT"
