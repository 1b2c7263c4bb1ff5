"""nn.functional beyond the core set: transposed and 3-d convolution, instance/group/RMS/local-response norms,
pixel shuffle, padding modes, more pooling, fold/unfold, bilinear, pairwise distance, cosine similarity, one_hot
(re-exported by nn/functional.py, with the losses beyond the core ones, which modules/loss.py defines, and the
activations and channel dropouts beyond the core ones, which _functional_activations.py defines).

Runtime layer, coverage surface. Each function but group_norm (aten.native_group_norm, one op as torch's) and
adaptive max pooling (aten.adaptive_max_pool2d, _aten/nn_pool3d.py) is a composite of ops the table already has, so
eager autograd, AOT tracing and the backend handle it with no rows of its own: the padding modes are one
`index_select` per padded dim whose indices come from `arange` (reflect is (n-1) - |(n-1) - |j||, replicate a clamp,
circular a remainder), unfold is two `unfold` views, cosine_similarity divides by norms clamped outside autograd,
one_hot compares with an `arange`. Values, argument checks, error classes and messages are PyTorch's.
"""
import math
import warnings

from .. import _dtype, _functions
from .._aten.nn_ops import is_channels_last, require_float
from .._dispatch import current_modes
from .._tensor import FakeTensor, channels_last, contiguous_format
from .._ops import ops
from .._type_info import finfo
from ..autograd import grad_mode as _grad_mode
from ._losses import _scalar_type_name
from ._functional_activations import (  # noqa: F401  (re-exported: the activations and channel dropouts)
    _threshold, celu, dropout1d, dropout2d, dropout3d, glu, hardsigmoid, hardswish, mish, prelu, selu, softmin,
    softsign, tanhshrink, threshold)
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time
from .modules.loss import (  # noqa: F401  (the losses' functional forms, defined beside their modules)
    LOSS_FUNCTIONS, cosine_embedding_loss, gaussian_nll_loss, hinge_embedding_loss, huber_loss, kl_div,
    margin_ranking_loss, multi_margin_loss, multilabel_soft_margin_loss, poisson_nll_loss, smooth_l1_loss,
    soft_margin_loss, triplet_margin_loss)

aten = ops.aten

__all__ = [
    "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "instance_norm", "group_norm",
    "local_response_norm", "rms_norm", "pixel_shuffle", "pixel_unshuffle", "prelu", "hardswish", "hardsigmoid",
    "mish", "selu", "celu", "glu", "softsign", "tanhshrink", "threshold", "_threshold", "softmin", "max_pool1d",
    "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d", "fold", "unfold", "bilinear",
    "pairwise_distance", "dropout1d", "dropout2d", "dropout3d", "pad", "cosine_similarity", "one_hot", "upsample",
    *LOSS_FUNCTIONS,
]


def _sizes(shape):
    return f"[{', '.join(map(str, shape))}]"


def _tuple(value, n):
    return (value,) * n if isinstance(value, int) else tuple(value)


# ---------------------------------------------------------------- convolution
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return F._conv(input, weight, bias, stride, padding, dilation, groups, 3)


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, nd):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to conv_transpose{nd}d, "
                           f"but got input of size: {_sizes(input.shape)}")
    unbatched = input.dim() == nd + 1
    x = aten.unsqueeze.default(input, 0) if unbatched else input
    out = aten.convolution.default(x, weight, bias, list(_tuple(stride, nd)), list(_tuple(padding, nd)),
                                   list(_tuple(dilation, nd)), True, list(_tuple(output_padding, nd)), groups)
    return aten.squeeze.dim(out, 0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3)


# ---------------------------------------------------------------- normalization
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """ATen's instance_norm: a batch norm of the input seen as one sample of N*C channels, the affine
    parameters and running statistics repeated per sample; the running statistics then average over samples."""
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.size()}")
    n, c = input.shape[:2]
    weight, bias, mean, var = (None if t is None else aten.repeat.default(t, [n])
                               for t in (weight, bias, running_mean, running_var))
    x = input.reshape([1, n * c] + list(input.shape[2:]))  # (after the repeats, in ATen's order)
    out = aten.native_batch_norm.default(x, weight, bias, mean, var, use_input_stats, momentum, eps)[0]
    with _grad_mode.no_grad():
        for running, repeated in ((running_mean, mean), (running_var, var)):
            if running is not None:
                aten.copy_.default(running, aten.mean.dim(aten.view.default(repeated, [n, c]), [0]))
    return aten.view.default(out, list(input.shape))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[:2]
    if n * c // num_groups * math.prod(input.shape[2:]) == 1:
        size = [n * c // num_groups, num_groups] + list(input.shape[2:])
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    if c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {_sizes(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {_sizes(t.shape)} and input of shape {_sizes(input.shape)}")
    # (ATen's group_norm: the input contiguous in its suggested memory format, then the one fused op)
    x = input.contiguous(memory_format=channels_last if is_channels_last(input) else contiguous_format)
    return aten.native_group_norm.default(x, weight, bias, n, c, math.prod(input.shape[2:]), num_groups, eps)[0]


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * mean of squares over `size` neighbouring channels) ** beta: the mean is an average pool
    over the channel axis of the squares, zero-padded by size // 2 before and (size - 1) // 2 after."""
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {input.dim()} "
                         "dimensions)")
    if input.numel() == 0:
        return input
    n, c = input.shape[:2]
    squares = aten.view.default(aten.mul.Tensor(input, input), [n, 1, c, -1])
    squares = aten.constant_pad_nd.default(squares, [0, 0, size // 2, (size - 1) // 2], 0.0)
    mean = aten.avg_pool2d.default(squares, [size, 1], [1, 1], [0, 0])
    div = aten.pow.Tensor_Scalar(aten.add.Scalar(aten.mul.Scalar(mean, alpha), k), beta)
    return aten.div.Tensor(input, aten.view.default(div, list(input.shape)))


def rms_norm(input, normalized_shape, weight=None, eps=None):
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if len(shape) > input.dim() or list(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={_sizes(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size{_sizes(input.shape)}")
    if not input.dtype.is_inexact:
        raise NotImplementedError(f"\"rms_norm\" not implemented for '{_scalar_type_name(input.dtype)}'")
    # torch's composite, op for op: halves computed in float32 (x * x would overflow float16), eps that of the
    # dtype computed in, the result cast back
    computed_in = _dtype.opmath(input.dtype)
    x = aten._to_copy.default(input, dtype=computed_in) if computed_in is not input.dtype else input
    if eps is None:
        eps = finfo(_dtype.float32 if computed_in in (_dtype.float32, _dtype.complex64) else _dtype.float64).eps
    dims = list(range(input.dim() - len(shape), input.dim()))
    mean_square = aten.mean.dim(aten.pow.Tensor_Scalar(x, 2), dims, True)
    out = aten.mul.Tensor(x, aten.rsqrt.default(aten.add_.Scalar(mean_square, eps)))
    out = out if weight is None else aten.mul.Tensor(out, weight)
    return out if computed_in is input.dtype else aten._to_copy.default(out, dtype=input.dtype)


# ---------------------------------------------------------------- pixel shuffle
def pixel_shuffle(input, upscale_factor):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r): view the channels as (C, r, r), move each r beside its spatial dim."""
    r = upscale_factor
    _check_shuffle(input, "pixel_shuffle", "upscale_factor", r)
    if input.shape[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={input.shape[-3]} is not divisible by {r * r}")
    return aten.pixel_shuffle.default(input, r)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W), pixel_shuffle's inverse."""
    r = downscale_factor
    _check_shuffle(input, "pixel_unshuffle", "downscale_factor", r)
    for name, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={input.shape[dim]} is not divisible by {r}")
    return aten.pixel_unshuffle.default(input, r)


def _check_shuffle(input, name, arg, r):
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with {input.dim()} "
                           "dimension(s)")
    if r <= 0:
        raise RuntimeError(f"{name} expects a positive {arg}, but got {r}")


# ---------------------------------------------------------------- padding
_PAD_COMBINATIONS = ("Supported combinations for non-constant padding:\n"
                     "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                     "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                     "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input, pad, mode="constant", value=None):
    """F.pad with every mode: 'constant' is constant_pad_nd; 'reflect', 'replicate' and 'circular' pick, along
    each padded dim, the source index of every output position j in [-before, size + after)."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if mode == "constant":
        return aten.constant_pad_nd.default(input, list(pad), 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    padded = len(pad) // 2
    if padded > 3 or input.dim() not in (padded + 1, padded + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
                                  + _PAD_COMBINATIONS)
    _check_pad_sizes(input, pad, mode)
    if mode != "circular":  # one ATen op, as torch's (reflection_pad2d, replication_pad1d, ...)
        kind = "reflection" if mode == "reflect" else "replication"
        return getattr(aten, f"{kind}_pad{padded}d").default(input, list(pad))
    out = input
    for i in range(padded):
        dim = input.dim() - 1 - i
        out = aten.index_select.default(out, dim, _pad_source(input.shape[dim], pad[2 * i], pad[2 * i + 1], mode))
    return out


def _check_pad_sizes(input, pad, mode):
    padded = len(pad) // 2
    if mode != "circular" and (any(s == 0 for s in input.shape[input.dim() - padded:])
                               or input.dim() == padded + 2 and input.shape[1] == 0):
        raise RuntimeError(f"Expected {padded + 1}D or {padded + 2}D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: {_sizes(input.shape)}")
    for i in range(padded):
        dim, before, after = input.dim() - 1 - i, pad[2 * i], pad[2 * i + 1]
        size = input.shape[dim]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({before}, {after}) at dimension "
                               f"{dim} of input {_sizes(input.shape)}")
        kept = size - max(-before, 0) - max(-after, 0)  # (circular wraps around what negative pads keep)
        if mode == "circular" and (before > size or after > size or size + before + after > 0 and
                                   max(before, after) > kept):  # (where torch would read memory it never wrote)
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + before + after < 0:
            raise RuntimeError(f"input ({_sizes(input.shape)}) is too small to be padded by ({before}, {after}) "
                               f"at dimension {dim}")
    outputs = [input.shape[-1 - i] + pad[2 * i] + pad[2 * i + 1] for i in range(padded)]
    if mode != "circular" and max(outputs) < 1:  # (ATen's kernels check that one padded dim keeps a position)
        raise RuntimeError(f"input ({_sizes(input.shape)}) is too small. Calculated output sizes: {outputs[::-1]}")


def _pad_source(size, before, after, mode):
    """Source index along one dim of each output position."""
    if mode == "circular":  # wrapping around what the negative pads keep, [start, start + kept), as ATen does
        start, kept = max(-before, 0), size - max(-before, 0) - max(-after, 0)
        j = aten.arange.start_step(-before - start, size + after - start, 1, dtype=_dtype.int64)
        return aten.add.Tensor(aten.remainder.Scalar(j, kept), start) if start else aten.remainder.Scalar(j, kept)
    j = aten.arange.start_step(-before, size + after, 1, dtype=_dtype.int64)
    if mode == "replicate":
        return aten.clamp.default(j, 0, size - 1)
    return aten.rsub.Scalar(aten.abs.default(aten.rsub.Scalar(aten.abs.default(j), size - 1)), size - 1)



# ---------------------------------------------------------------- pooling
def _one(value, message):
    values = _tuple(value, 1)
    if len(values) != 1:
        raise RuntimeError(message.format(len(values)))
    return values[0]


def _check_1d_input(input, name):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {name})")


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """max_pool2d over the input with a unit height, as ATen's max_pool1d."""
    k = _one(kernel_size, "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
                          "size {}")
    s = k if stride is None or _tuple(stride, 1) == () else _one(
        stride, "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size {}")
    p = _one(padding, "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size {}")
    d = _one(dilation, "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size {}")
    if input.dim() not in (2, 3) or input.shape[-1] == 0:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{_sizes(input.shape)}")
    if k <= 0 or s <= 0 or p < 0 or d <= 0 or p > k // 2:
        _max_pool1d_argument_error(k, s, p, d)
    out = (input.shape[-1] + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= input.shape[-1] + p:
        out -= 1
    # (ATen's max_pool1d_impl, for floating types only, serves an eager CPU tensor needing no grad; a fake one in a
    # compile, subclass-like, goes through max_pool2d_with_indices, which computes integers)
    if not (return_indices or input.requires_grad or _is_traced(input)):
        require_float(input, "max_pool1d_impl")
    if out < 1 and not return_indices:  # (with indices, ATen's max_pool1d_with_indices leaves it to max_pool2d's)
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    values, indices = aten.max_pool2d_with_indices.default(aten.unsqueeze.default(input, -2), [1, k], [1, s], [0, p],
                                                           [1, d], ceil_mode)
    values, indices = aten.squeeze.dim(values, -2), aten.squeeze.dim(indices, -2)
    return (values, indices) if return_indices else values


def _max_pool1d_argument_error(k, s, p, d):
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    k = _one(kernel_size, "avg_pool1d() argument 'kernel_size' should contain one int (got {})")
    s = k if stride is None else _one(stride, "avg_pool1d() argument 'stride' should contain one int (got {})")
    p = _one(padding, "avg_pool1d() argument 'padding' should contain one int (got {})")
    _check_1d_input(input, "avg_pool1d")
    out = aten.avg_pool2d.default(aten.unsqueeze.default(input, -2), [1, k], [1, s], [0, p], ceil_mode,
                                  count_include_pad)
    return aten.squeeze.dim(out, -2)


def adaptive_avg_pool1d(input, output_size):
    size = _one(output_size, "adaptive_avg_pool1d() argument 'output_size' should contain one int (got {})")
    _check_1d_input(input, "adaptive_avg_pool1d")  # (through adaptive_avg_pool2d's mean when the size is 1, as ATen)
    return aten.squeeze.dim(F.adaptive_avg_pool2d(aten.unsqueeze.default(input, -2), [1, size]), -2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    size = _one(output_size, "adaptive_max_pool1d() argument 'output_size' should contain one int (got {})")
    _check_1d_input(input, "adaptive_max_pool1d")
    require_float(input, "adaptive_max_pool2d")
    values, indices = aten.adaptive_max_pool2d.default(aten.unsqueeze.default(input, -2), [1, size])
    indices = aten.squeeze.dim(indices, -2)  # (the indices first, as ATen's adaptive_max_pool1d squeezes them)
    values = aten.squeeze.dim(values, -2)
    return (values, indices) if return_indices else values


def adaptive_max_pool2d(input, output_size, return_indices=False):
    size = _tuple(output_size, 2)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {_sizes(input.shape)}")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    size = [input.shape[-2 + i] if s is None else s for i, s in enumerate(size)]
    require_float(input, "adaptive_max_pool2d")
    values, indices = aten.adaptive_max_pool2d.default(input, size)
    return (values, indices) if return_indices else values


# ---------------------------------------------------------------- fold and unfold (im2col, col2im)
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C*kh*kw, L): the padded input's sliding blocks, ATen's im2col (nn_im2col.py)."""
    kernel, dil, pads, step = (_tuple(v, 2) for v in (kernel_size, dilation, padding, stride))
    if input.dim() not in (3, 4):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{_sizes(input.shape)}")
    if 0 in input.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {_sizes(input.shape)}")
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dil)]
    blocks = [(i + 2 * p - e) // s + 1 for i, p, e, s in zip(input.shape[-2:], pads, extent, step)]
    if any(b < 1 for b in blocks):
        raise RuntimeError(f"Given input with spatial size ({input.shape[-2]}, {input.shape[-1]}), "
                           f"kernel_size={kernel}, dilation={dil}, padding={pads}, calculated shape of the array of "
                           f"sliding blocks as ({blocks[0]}, {blocks[1]}), but its components must be at least one.")
    return aten.im2col.default(input, list(kernel), list(dil), list(pads), list(step))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C*kh*kw, L) -> (N, C, H, W), unfold's adjoint (overlapping blocks summed): ATen's col2im."""
    size, kernel, dil, pads, step = (_tuple(v, 2) for v in (output_size, kernel_size, dilation, padding, stride))
    if input.dim() not in (2, 3) or any(s == 0 for s in input.shape[1:]):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {_sizes(input.shape)}")
    if input.shape[-2] % (kernel[0] * kernel[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={input.shape[-2]} and kernel_size={kernel}.")
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dil)]
    blocks = [(o + 2 * p - e) // s + 1 for o, p, e, s in zip(size, pads, extent, step)]
    if blocks[0] * blocks[1] != input.shape[-1]:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dil}, padding={pads}, "
                           f"stride={step}, expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={input.shape[-1]}.")
    return aten.col2im.default(input, list(size), list(kernel), list(dil), list(pads), list(step))


# ---------------------------------------------------------------- bilinear and distances
def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = x1 @ weight[o] @ x2 + bias[o]: x1 times the (in1, out*in2) weight matrix, then a dot with x2."""
    _check_bilinear(input1, input2, weight, bias)
    out_features, in1, in2 = weight.shape
    lead = list(input1.shape[:-1])
    x1, x2 = input1.reshape([-1, in1]), input2.reshape([-1, in2])
    matrix = aten.permute.default(weight, [1, 0, 2]).reshape([in1, out_features * in2])
    partial = aten.view.default(aten.mm.default(x1, matrix), [-1, out_features, in2])
    out = aten.sum.dim_IntList(aten.mul.Tensor(partial, aten.unsqueeze.default(x2, 1)), [2])
    if bias is not None:
        out = aten.add.Tensor(out, bias)
    return aten.view.default(out, lead + [out_features])


def _check_bilinear(input1, input2, weight, bias):
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} "
                               f"and {input2.shape[i]}")
    for name, got, want in (("input1", input1.shape[-1], weight.shape[1]), ("input2", input2.shape[-1],
                                                                           weight.shape[2])):
        if got != want:
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got {got} but expected {want}")
    if bias is not None and bias.shape[-1] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[-1]} but expected "
                           f"{weight.shape[0]}")


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps over the last dim of the broadcast (ATen's composite: norm over that dim)."""
    dim = max(x1.dim(), x2.dim()) - 1
    diff = aten.add.Scalar(aten.sub.Tensor(x1, x2), eps)
    return aten.norm.ScalarOpt_dim(diff, p, [dim], keepdim)


# ---------------------------------------------------------------- similarity, one-hot classes, upsampling
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """ATen's cosine_similarity: each input divided by its own norm, each norm clamped to at least eps
    (in place, outside autograd, so the gradient is the unclamped norm's), then the products summed."""
    dtype = _dtype.result_type(x1, x2)
    if not dtype.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_scalar_type_name(dtype)}")
    x1, x2 = (x if x.dtype is dtype else aten._to_copy.default(x, dtype=dtype) for x in (x1, x2))
    x1, x2 = _functions.broadcast_tensors(x1, x2)
    # (linalg_vector_norm: its gradient at a zero vector is 0, where sqrt(sum(x*x))'s is nan)
    norms = [aten.clone.default(aten.linalg_vector_norm.default(x, 2, [dim], True)) for x in (x1, x2)]
    with _grad_mode.no_grad():
        eps = aten.scalar_tensor.default(eps, dtype=dtype)
        for norm in norms:
            aten.clamp_min_.Tensor(norm, eps)
    x2_unit = aten.div.Tensor(x2, norms[1])  # (first: the C++ compiler evaluates the call's arguments right to left)
    return aten.sum.dim_IntList(aten.mul.Tensor(aten.div.Tensor(x1, norms[0]), x2_unit), [dim])


def one_hot(tensor, num_classes=-1):
    """ATen's checks: an empty tensor needs num_classes, every class in [0, num_classes). Traced with num_classes
    given, the checks are asserted in the graph (aten._assert_async), as torch's traced form has them."""
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    num_classes = int(num_classes)  # (an `int` argument: a SymInt is pinned, as torch's parser pins it)
    if num_classes != -1 and _is_traced(tensor):
        for check, message in ((aten.ge.Scalar, "non-negative"), (aten.lt.Scalar, "smaller than num_classes")):
            within = check(tensor, 0 if check is aten.ge.Scalar else num_classes)
            aten._assert_async.msg(aten.all.default(within), f"one_hot: Class values must be {message}.")
        column = aten.unsqueeze.default(tensor, -1)
        classes = aten.arange.default(num_classes, dtype=tensor.dtype, device=tensor.device)
        return aten._to_copy.default(aten.eq.Tensor(column, classes), dtype=_dtype.int64)
    if tensor.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if int(tensor.min().item()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        largest = int(tensor.max().item())
        if num_classes == -1:
            num_classes = largest + 1
        elif largest >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    classes = aten.arange.start_step(0, num_classes)
    return aten._to_copy.default(aten.eq.Tensor(aten.unsqueeze.default(tensor, -1), classes), dtype=_dtype.int64)


def _is_traced(tensor):
    """Fake (Dynamo's propagation, AOT's trace) or recorded by make_fx: where torch runs an op's Python form."""
    return isinstance(tensor, FakeTensor) or any(type(mode).__name__ == "ProxyTorchDispatchMode"
                                                 for mode in current_modes())


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return F.interpolate(input, size, scale_factor, mode, align_corners)
