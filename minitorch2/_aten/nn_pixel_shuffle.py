"""pixel_shuffle and pixel_unshuffle as ATen ops: kernels, meta functions, derivatives and decompositions.

Runtime layer, coverage surface (rows in table_nn_more.py; nn.functional's checks are in nn/_functional_more.py).
Each is its own op, as torch's, so eager autograd names PixelShuffleBackward0 and a backward graph records the
other op; each decomposes as torch's reference does: view the channels apart, permute, reshape (a clone and a view)
and a final clone in the input's memory format.
"""
import numpy as np

from .._ops import ops
from .._tensor import channels_last, contiguous_format
from .meta_util import fake_empty

aten = ops.aten


def _shuffled_shape(shape, r):
    *lead, c, h, w = shape
    return [*lead, c // (r * r), h * r, w * r]


def _unshuffled_shape(shape, r):
    if 0 in shape:  # (an empty input comes back with its own shape: ATen returns its clone before unshuffling)
        return list(shape)
    *lead, c, h, w = shape
    return [*lead, c * r * r, h // r, w // r]


def _split(shape, r, shuffle):
    """The 5 trailing dims the channels (shuffle) or the spatial dims (unshuffle) are viewed as, and their order."""
    *lead, c, h, w = shape
    b = len(lead)
    if shuffle:
        return [*lead, c // (r * r), r, r, h, w], [*range(b), b, b + 3, b + 1, b + 4, b + 2]
    return [*lead, c, h // r, r, w // r, r], [*range(b), b, b + 2, b + 4, b + 1, b + 3]


def _kernel(shuffle):
    new_shape = _shuffled_shape if shuffle else _unshuffled_shape

    def kernel(self, factor):
        _check_channels(self, factor, shuffle)
        split, order = _split(list(self.shape), factor, shuffle)
        out = np.ascontiguousarray(self._np.reshape(split).transpose(order)).reshape(new_shape(self.shape, factor))
        if _suggested_format(self) is contiguous_format:
            return out
        return np.ascontiguousarray(out.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)  # channels last, as the input

    def meta(self, factor):
        _check_channels(self, factor, shuffle)
        shape = new_shape(list(self.shape), factor)
        if _suggested_format(self) is contiguous_format:
            return fake_empty(shape, self.dtype)
        return fake_empty(shape, self.dtype, _nhwc(shape))

    return kernel, meta


def _check_channels(self, r, shuffle):
    """The op's own check (F.pixel_shuffle makes it first; the backward of pixel_unshuffle reaches only this one)."""
    if shuffle and self.shape[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={self.shape[-3]} is not divisible by {r * r}")


pixel_shuffle, pixel_unshuffle = _kernel(True), _kernel(False)


def pixel_shuffle_backward(grad, upscale_factor):
    return aten.pixel_unshuffle.default(grad, upscale_factor)


def pixel_unshuffle_backward(grad, downscale_factor):
    return aten.pixel_shuffle.default(grad, downscale_factor)


def _nhwc(shape):
    """The strides of a channels-last tensor of this shape, as ATen gives them (size-1 dims too)."""
    n, c, h, w = shape
    return c * h * w, 1, w * c, c


def _decomposition(shuffle):
    new_shape = _shuffled_shape if shuffle else _unshuffled_shape

    def decompose(self, factor):
        split, order = _split(list(self.shape), factor, shuffle)
        moved = aten.permute.default(aten.view.default(self, split), order)
        out = moved.reshape(new_shape(list(self.shape), factor))
        return aten.clone.default(out, memory_format=_suggested_format(self))

    return decompose


def _suggested_format(x):
    """torch's suggest_memory_format: channels last for a 4-d input in that layout only, else contiguous."""
    channels_last_only = x.dim() == 4 and not x.is_contiguous() and x.is_contiguous(memory_format=channels_last)
    return channels_last if channels_last_only else contiguous_format


pixel_shuffle_decomposition, pixel_unshuffle_decomposition = _decomposition(True), _decomposition(False)
