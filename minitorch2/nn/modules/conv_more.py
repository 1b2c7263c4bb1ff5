"""Conv3d and the transposed convolutions ConvTranspose1d/2d/3d (as torch.nn).

Runtime layer, coverage surface: aten.convolution through nn.functional (transposed=True for the latter). They
share conv.py's initialisation, so their parameters are bit-identical to torch's after the same manual_seed; a
transposed weight is (in_channels, out_channels // groups, *kernel), which makes its fan-in out_channels // groups
times the kernel size, as in torch.
"""
from ... import _factories
from .. import functional as F
from ..parameter import Parameter
from .conv import _ConvNd, _ntuple
from .module import Module

__all__ = [
    "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
]


class Conv3d(_ConvNd):
    _nd, _conv = 3, "conv3d"


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        Module.__init__(self)  # not _ConvNd's: the weight's shape and the stored arguments differ
        n = self._nd
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        for name, channels in (("in_channels", in_channels), ("out_channels", out_channels)):
            if channels % groups:
                raise ValueError(f"{name} must be divisible by groups")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        self.padding, self.dilation = _ntuple(padding, n), _ntuple(dilation, n)
        self.transposed = True
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(_factories.empty(in_channels, out_channels // groups, *self.kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(_factories.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _output_padding(self, input, output_size):
        """The output_padding that makes the output `output_size` (its spatial dims, or all of them)."""
        if output_size is None:
            return self.output_padding
        n = self._nd
        leading = 2 if input.dim() == n + 2 else 1
        if len(output_size) == leading + n:
            output_size = output_size[leading:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or "
                             f"{leading + n} elements (got {len(output_size)})")
        smallest = [(input.shape[leading + d] - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        largest = [size + self.stride[d] - 1 for d, size in enumerate(smallest)]
        if any(not lo <= size <= hi for size, lo, hi in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} to "
                             f"{largest} (for an input of {input.size()[2:]})")
        return [size - lo for size, lo in zip(output_size, smallest)]

    def forward(self, input, output_size=None):
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._nd - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding, self._output_padding(input, output_size),
                    self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _nd = 1


class ConvTranspose2d(_ConvTransposeNd):
    _nd = 2


class ConvTranspose3d(_ConvTransposeNd):
    _nd = 3
