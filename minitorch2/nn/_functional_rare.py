"""nn.functional's rarer functions, composed of other ops as torch's Python or ATen's composites compute them:
hardshrink, softshrink, alpha_dropout, gumbel_softmax, pdist, the deprecated upsample_nearest/upsample_bilinear,
max_pool{1,2}d_with_indices and the in-place activations threshold_, hardtanh_, selu_, celu_.

Runtime layer, coverage surface (re-exported by nn/functional.py). The values and gradients are torch's; eager
hardshrink and softshrink are ATen's ops (nn_activation_ops.py), and an AOT trace records them as torch's
decompositions spell them (torch registers those at the autograd key, for the Python dispatcher).
"""
import math
import warnings

import minitorch2

from .. import _factories
from .._aten.memory import _dtype_title
from .._aten.scalar_arguments import OWN, parse_scalars, read_scalar
from .._python_dispatcher import python_dispatcher_enabled
from . import _functional_lp_pool, _functional_missing, _functional_pool3d
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time
from ._functional_lp_pool import *  # noqa: F401,F403
from ._functional_missing import *  # noqa: F401,F403
from ._functional_pool3d import *  # noqa: F401,F403

__all__ = ["hardshrink", "softshrink", "alpha_dropout", "gumbel_softmax", "pdist", "upsample_nearest",
           "upsample_bilinear", "max_pool1d_with_indices", "max_pool2d_with_indices", "threshold_", "hardtanh_",
           "selu_", "celu_", "_Reduction"]
__all__ += _functional_pool3d.__all__ + _functional_lp_pool.__all__ + _functional_missing.__all__  # (3-d, LP, un-pooling: re-exported here)

_ALPHA = 1.7580993408473766  # SELU's scale times its alpha: alpha dropout's value for a dropped unit is -_ALPHA


def _floating_only(kernel, input):
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_title(input.dtype)}'")


def hardshrink(input, lambd=0.5):
    parse_scalars(lambd)
    _floating_only("hardshrink_cpu", input)
    read_scalar(lambd, input.dtype, OWN)  # (ATen's kernel: 0 inside [-lambd, lambd], input elsewhere, nan included)
    if python_dispatcher_enabled():  # (an AOT trace records torch's decomposition of the op)
        return minitorch2.where(minitorch2.abs(input) <= lambd, 0, input)
    return minitorch2.ops.aten.hardshrink.default(input, lambd)


def softshrink(input, lambd=0.5):
    parse_scalars(lambd)
    _floating_only("softshrink_check", input)
    lambd = float(lambd)
    largest = float(minitorch2.finfo(input.dtype).max)
    if not 0 <= lambd <= largest:
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype {_dtype_title(input.dtype)}, "
                           f"but found {lambd:g}")
    if python_dispatcher_enabled():  # (an AOT trace records torch's decomposition of the op)
        outside = minitorch2.abs(input) > lambd
        return minitorch2.where(outside, input - minitorch2.sign(input) * lambd, input * 0)
    return minitorch2.ops.aten.softshrink.default(input, lambd)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """ATen's alpha dropout: kept units scaled by a, dropped ones set to a*(-_ALPHA) + b, so that a SELU net's
    mean and variance are kept; the mask is drawn as dropout's (bernoulli_ with 1 - p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(0.0) if inplace else input.mul(_factories.zeros((), dtype=input.dtype))
    noise = minitorch2.empty_like(input).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input.mul(noise)).add_(b)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """Softmax of the logits plus Gumbel noise (-log of exponential draws), over tau; hard: one-hot of the
    argmax in the forward, the soft sample's gradient in the backward."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = minitorch2.empty_like(logits).exponential_().log().neg()
    soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return soft
    index = soft.max(dim, keepdim=True)[1]
    return minitorch2.zeros_like(logits).scatter_(dim, index, 1.0) - soft.detach() + soft


def pdist(input, p=2):
    """The p-norm distance between each pair of rows i < j, in row-major order of the pairs."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input.dtype in (minitorch2.float16, minitorch2.bfloat16):  # (ATen's kernel: float and double only)
        raise NotImplementedError(f"\"pdist\" not implemented for '{_dtype_title(input.dtype)}'")
    rows, cols = minitorch2.triu_indices(input.size(0), input.size(0), 1)
    return minitorch2.linalg.vector_norm(input[rows] - input[cols], p, dim=1)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return F.interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return F.interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return F.hardtanh(input, min_val, max_val, inplace=True)


def selu_(input):
    return F.selu(input, inplace=True)


def celu_(input, alpha=1.0):
    return F.celu(input, alpha, inplace=True)


class _Reduction:
    """F._Reduction: a reduction's name as the enum ATen's loss kernels take (libraries' own losses call it)."""

    @staticmethod
    def get_enum(reduction):
        if reduction == "elementwise_mean":
            warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
            return 1
        enums = {"none": 0, "mean": 1, "sum": 2}
        if reduction not in enums:
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return enums[reduction]
