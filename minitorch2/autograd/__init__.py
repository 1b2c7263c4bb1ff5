"""minitorch2.autograd: the eager autograd engine (as torch.autograd).

Runtime layer. Not to be confused with the top-level `autograd` package, the
ahead-of-time tracer that builds joint graphs on top of this engine.
"""
from . import functional  # noqa: F401  (torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import backward, grad
from .function import Function, FunctionCtx
from .gradcheck import gradcheck, gradgradcheck
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .graph import Node
from .variable import Variable, _is_checkpoint_valid  # (torch's legacy constructor; returns a Tensor)

__all__ = ["backward", "grad", "Function", "FunctionCtx", "no_grad", "enable_grad", "set_grad_enabled",
           "inference_mode", "is_grad_enabled", "Node", "detect_anomaly", "set_detect_anomaly", "Variable",
           "gradcheck", "gradgradcheck"]
