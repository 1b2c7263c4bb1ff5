"""nn.functional's 3-d pooling, adaptive max pooling with indices, fractional max pooling and max unpooling.

Runtime layer, coverage surface (re-exported by nn/functional.py). Each makes the aten calls torch's function makes:
max_pool3d_with_indices, avg_pool3d, _adaptive_avg_pool3d (a `mean` over the last three dims for a 1x1x1 output),
adaptive_max_pool2d/3d, max_unpool2d/3d (the 1-d forms through their 2-d ops on an unsqueezed input, as torch's);
fractional_max_pool2d/3d draw their samples with torch.rand, as torch's do (lp_pool: _functional_lp_pool.py). The
kernels and their derivatives are in _aten/nn_pool3d.py.
"""
from .. import _factories
from .._ops import ops
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time
from ._functional_more import _tuple

aten = ops.aten

__all__ = ["max_pool3d", "max_pool3d_with_indices", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
           "adaptive_max_pool3d_with_indices", "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "max_unpool1d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d",
           "fractional_max_pool2d_with_indices", "fractional_max_pool3d", "fractional_max_pool3d_with_indices"]


def _three(value):
    return list(_tuple(value, 3))


# ---------------------------------------------------------------- max and average pooling
def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    stride = [] if stride is None else _three(stride)
    return aten.max_pool3d_with_indices.default(input, _three(kernel_size), stride, _three(padding),
                                                _three(dilation), ceil_mode)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, indices = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    stride = [] if stride is None else _three(stride)
    return aten.avg_pool3d.default(input, _three(kernel_size), stride, _three(padding), ceil_mode, count_include_pad,
                                   divisor_override)


# ---------------------------------------------------------------- adaptive pooling
def _output_size(input, output_size, nd):
    """None keeps the input's size along that dim."""
    sizes = _tuple(output_size, nd)
    return [input.shape[-nd + i] if s is None else s for i, s in enumerate(sizes)]


def adaptive_avg_pool3d(input, output_size):
    size = _output_size(input, output_size, 3)
    if size == [1, 1, 1]:
        return aten.mean.dim(input, [-1, -2, -3], True)
    return aten._adaptive_avg_pool3d.default(input, size)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=True):
    return aten.adaptive_max_pool3d.default(input, _output_size(input, output_size, 3))


def adaptive_max_pool3d(input, output_size, return_indices=False):
    out, indices = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    return F.adaptive_max_pool2d(input, output_size, return_indices=True)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=True):
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


# ---------------------------------------------------------------- max unpooling
def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """torch's default size, (in - 1) * stride + kernel - 2 * padding, or the asked one if within a stride of it."""
    nd = len(kernel_size)
    default = [(input.shape[-nd + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(nd)]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == nd + 2:
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it has a "
                         f"length of '{len(output_size)}'")
    for d in range(nd):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    return output_size


def _unpool_arguments(kernel_size, stride, padding, nd):
    kernel = list(_tuple(kernel_size, nd))
    return kernel, kernel if stride is None else list(_tuple(stride, nd)), list(_tuple(padding, nd))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel, stride, padding = _unpool_arguments(kernel_size, stride, padding, 1)
    size = _unpool_output_size(input, kernel, stride, padding, output_size) + [1]
    out = aten.max_unpool2d.default(aten.unsqueeze.default(input, -1), aten.unsqueeze.default(indices, -1), size)
    return aten.squeeze.dim(out, -1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel, stride, padding = _unpool_arguments(kernel_size, stride, padding, 2)
    return aten.max_unpool2d.default(input, indices, _unpool_output_size(input, kernel, stride, padding, output_size))


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel, stride, padding = _unpool_arguments(kernel_size, stride, padding, 3)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    return aten.max_unpool3d.default(input, indices, size, stride, padding)



# ---------------------------------------------------------------- fractional max pooling
def _fractional(input, kernel_size, output_size, output_ratio, random_samples, nd):
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = output_ratio if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * nd
        output_size = [int(input.shape[-nd + i] * r) for i, r in enumerate(ratio)]
    if random_samples is None:
        batch = 1 if input.dim() == nd + 1 else input.shape[0]
        random_samples = _factories.rand(batch, input.shape[-nd - 1], nd, dtype=input.dtype)
    op = aten.fractional_max_pool2d if nd == 2 else aten.fractional_max_pool3d
    return op.default(input, list(_tuple(kernel_size, nd)), list(_tuple(output_size, nd)), random_samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)
    return out if return_indices else out[0]


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)
    return out if return_indices else out[0]
