"""Activation modules (as torch.nn): ReLU, GELU, SiLU, Sigmoid, Tanh, Softmax, LogSoftmax, LeakyReLU,
ReLU6, ELU, LogSigmoid. Runtime layer: thin wrappers over nn.functional."""
from ... import _functions
from .. import functional as F
from .module import Module
from .transformer import MultiheadAttention  # noqa: F401  (torch's path: nn.modules.activation.MultiheadAttention)


class _InplaceFlag(Module):
    """ReLU's, SiLU's and ReLU6's one argument: whether the activation overwrites its input."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ReLU(_InplaceFlag):
    def forward(self, input):
        return F.relu(input, inplace=self.inplace)


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(_InplaceFlag):
    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class Sigmoid(Module):
    def forward(self, input):
        return _functions.sigmoid(input)  # torch.sigmoid, as torch's module calls it


class Tanh(Module):
    def forward(self, input):
        return _functions.tanh(input)  # torch.tanh, as torch's module calls it


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ReLU6(_InplaceFlag):
    def forward(self, input):
        return F.relu6(input, self.inplace)


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input):
        return F.log_softmax(input, self.dim)


class LogSigmoid(Module):
    def forward(self, input):
        return F.logsigmoid(input)
