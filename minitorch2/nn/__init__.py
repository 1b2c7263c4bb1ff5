"""minitorch2.nn (as torch.nn): Module, Parameter, layers, functional, init.

Runtime layer. Layers are built so that, after the same `manual_seed`, their parameters are bit-identical to PyTorch's
and their forward and backward run the same aten ops.
"""
from .._unsupported import module_getattr
from . import functional, grad, init, parallel, utils  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all, UninitializedBuffer, UninitializedParameter  # noqa: F401
from .parallel import DataParallel
from .parameter import Buffer, Parameter

__all__ = ["Parameter", "Buffer", "DataParallel", "functional", "init", "parallel", "utils", *_modules_all]

__getattr__ = module_getattr("minitorch2.nn", "torch.nn")  # a missing name: one line under `run`
