"""Conv1d and Conv2d (as torch.nn). Runtime layer: aten.convolution through F.conv2d."""
import math

from ... import _factories
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module
from .conv_padding import check_padding, reversed_padding_repeated_twice
from .module_more import conv_repr


def _ntuple(x, n):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,) * n


class _ConvNd(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        n = self._nd
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        check_padding(padding, _ntuple(stride, n), padding_mode)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed, self.output_padding = False, _ntuple(0, n)
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = reversed_padding_repeated_twice(self.padding, self.kernel_size, self.dilation)
        self.weight = Parameter(_factories.empty(out_channels, in_channels // groups, *self.kernel_size, dtype=dtype))
        self.register_parameter("bias", Parameter(_factories.empty(out_channels, dtype=dtype)) if bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    extra_repr = conv_repr  # (printing: module_more.py)

    def _conv_forward(self, input, weight, bias):  # (torch's name: subclasses call it with weights of their own)
        padding = self.padding
        if self.padding_mode != "zeros":  # (reflect, replicate, circular: F.pad first, as torch's)
            input, padding = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), (0,) * self._nd
        return getattr(F, self._conv)(input, weight, bias, self.stride, padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    _nd, _conv = 2, "conv2d"


class Conv1d(_ConvNd):
    _nd, _conv = 1, "conv1d"
