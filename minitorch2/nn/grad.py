"""torch.nn.grad (also nn.functional.grad): a convolution's input or weight gradient from its output's gradient.

Runtime layer, coverage surface. Each is one aten.convolution_backward asking for the one gradient; the tensor
whose gradient is not asked for is only read for its size, so a one-element tensor expanded to that size stands
in for it, as torch passes.
"""
from .._ops import ops

aten = ops.aten

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _tuple(value, n):
    return list(value) if isinstance(value, (tuple, list)) else [value] * n


def _backward(n, grad_output, input, weight, stride, padding, dilation, groups, which):
    mask = [which == 0, which == 1, False]
    return aten.convolution_backward.default(grad_output, input, weight, None, _tuple(stride, n), _tuple(padding, n),
                                             _tuple(dilation, n), False, [0] * n, groups, mask)[which]


def _input_grad(n):
    def conv_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
        stand_in = grad_output.new_empty(1).expand(list(input_size))
        return _backward(n, grad_output, stand_in, weight, stride, padding, dilation, groups, 0)
    conv_input.__name__ = f"conv{n}d_input"
    return conv_input


def _weight_grad(n):
    def conv_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
        stand_in = grad_output.new_empty(1).expand(list(weight_size))
        return _backward(n, grad_output, input, stand_in, stride, padding, dilation, groups, 1)
    conv_weight.__name__ = f"conv{n}d_weight"
    return conv_weight


conv1d_input, conv2d_input, conv3d_input = _input_grad(1), _input_grad(2), _input_grad(3)
conv1d_weight, conv2d_weight, conv3d_weight = _weight_grad(1), _weight_grad(2), _weight_grad(3)
