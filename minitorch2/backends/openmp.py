"""torch.backends.openmp: minitorch2's kernels do not use OpenMP (see backends/__init__.py)."""


def is_available():
    return False
