"""Activation modules beyond the core set (as torch.nn): PReLU, Hardtanh, Hardswish, Hardsigmoid, Mish, Softplus,
SELU, CELU, GLU, Softsign, Tanhshrink, Threshold, Softmin, Softmax2d; and, where torch keeps them in other files,
Dropout1d/2d/3d (dropout.py), Bilinear (linear.py) and PairwiseDistance (distance.py).

Runtime layer, coverage surface: thin wrappers over nn.functional with torch's constructor arguments, parameter
initialisation and repr. PReLU's and Bilinear's parameters are drawn as torch draws them, so they are
bit-identical after the same manual_seed.
"""
import math
import warnings

from ... import _factories
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = [
    "PReLU", "Hardtanh", "Hardswish", "Hardsigmoid", "Mish", "SELU", "CELU", "Softplus", "GLU", "Softsign",
    "Tanhshrink", "Threshold", "Softmin", "Softmax2d", "Dropout1d", "Dropout2d", "Dropout3d", "Bilinear",
    "PairwiseDistance", "Hardshrink", "Softshrink", "AlphaDropout",
]


def _inplace_suffix(module):
    return ", inplace=True" if module.inplace else ""


class PReLU(Module):
    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(_factories.empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        for old, new, value in (("min_value", "min_val", min_value), ("max_value", "max_val", max_value)):
            if value is not None:
                warnings.warn(f"keyword argument `{old}` is deprecated and renamed to `{new}`", FutureWarning,
                              stacklevel=2)
        self.min_val = min_val if min_value is None else min_value
        self.max_val = max_val if max_value is None else max_value
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_suffix(self)


class _InplaceActivation(Module):
    _shows_inplace = True  # torch's Hardswish and Hardsigmoid print nothing, even for inplace=True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace and self._shows_inplace else ""


class Hardswish(_InplaceActivation):
    _shows_inplace = False

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Hardsigmoid(_InplaceActivation):
    _shows_inplace = False

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Mish(_InplaceActivation):
    def forward(self, input):
        return F.mish(input, self.inplace)


class SELU(_InplaceActivation):
    def forward(self, input):
        return F.selu(input, self.inplace)


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + _inplace_suffix(self)


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softsign(Module):
    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    def forward(self, input):
        return F.tanhshrink(input)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + _inplace_suffix(self)


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class Bilinear(Module):
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(_factories.empty(out_features, in1_features, in2_features, dtype=dtype))
        if bias:
            self.bias = Parameter(_factories.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class Hardshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    def forward(self, input):
        return F.softshrink(input, self.lambd)


class AlphaDropout(_DropoutNd):
    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)
