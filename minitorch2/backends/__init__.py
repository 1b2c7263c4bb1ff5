"""torch.backends: the flags scripts set for the kernels of each backend (cudnn, cuda, mps, cpu, ...).

Runtime library surface. minitorch2 runs its own CPU kernels, so these flags choose nothing; they hold
the values a CPU-only build of PyTorch reports (`torch.backends.cudnn.benchmark = True` is accepted and
read back), and the `is_available()` questions answer as on a machine without a GPU.
"""
from . import cpu, cuda, cudnn, mha, mkldnn, mps, openmp  # noqa: F401  (torch.backends.<name> without an import)
