"""nn.functional's activations beyond the core set (prelu, hardswish, hardsigmoid, mish, selu, celu, glu, softsign,
tanhshrink, threshold, softmin) and dropout over whole channels (dropout1d, dropout2d, dropout3d).

Runtime layer, coverage surface (re-exported by _functional_more.py, and so by nn/functional.py). Each is a
composite of rows the table already has: hardswish is x * hardtanh(x + 3, 0, 6) / 6, selu and celu are `elu` with
their constants, an in-place form without a row of its own is computed on a copy and written back with `copy_`, and
channel dropout draws one Bernoulli sample per (sample, channel), so whole channels are zeroed. Values, argument
checks, warnings, error classes and messages are PyTorch's.
"""
import warnings

from .. import _dtype
from .._aten.memory import _dtype_title
from .._ops import ops
from .._tensor import wrap_dim
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time

aten = ops.aten


def _in_place(input, fn):
    """An in-place activation without a row of its own: computed on a copy, then written back with copy_ (which
    autograd records, and which refuses a leaf that requires grad as torch's in-place kernels do)."""
    return aten.copy_.default(input, fn(aten.clone.default(input)))


def _floating(kernel, x):
    """x, if its dtype is a floating one: ATen's kernels for these activations refuse the others."""
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_title(x.dtype)}'")
    return x


def _in_float32_for_half(composite):
    """`composite` of a half (float16, bfloat16) input computed on a float32 copy and rounded once, as ATen's kernel
    for the activation computes it (in its own steps a float16 x * 6 overflows where x * 6 / 6 would not)."""
    def compute(x, *args):
        if x.dtype not in _dtype.HALVES:
            return composite(x, *args)
        return aten._to_copy.default(composite(aten._to_copy.default(x, dtype=_dtype.float32), *args), dtype=x.dtype)

    return compute


# ---------------------------------------------------------------- activations
def prelu(input, weight):
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_dtype_title(input.dtype)} and "
                           f"{_dtype_title(weight.dtype)}")
    _floating("prelu_cpu", input)
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if weight.numel() != 1:
        channels = input.shape[1] if input.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if input.dim() != weight.dim():  # (ATen's: the weight viewed to broadcast over the channels, dim 1)
        weight = aten.view.default(weight, [weight.numel() if i == 1 else 1 for i in range(input.dim())])
    return aten._prelu_kernel.default(input, weight)


def hardswish(input, inplace=False):
    return _in_place(input, _hardswish) if inplace else _hardswish(input)


@_in_float32_for_half
def _hardswish(x):
    return aten.div.Scalar(aten.mul.Tensor(_floating("hardswish_cpu", x), aten.hardtanh.default(aten.add.Scalar(x, 3), 0, 6)), 6)


def hardsigmoid(input, inplace=False):
    return (aten.hardsigmoid_ if inplace else aten.hardsigmoid).default(input)


def mish(input, inplace=False):
    return (aten.mish_ if inplace else aten.mish).default(input)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input, inplace=False):
    op = aten.elu_ if inplace else aten.elu
    return op.default(input, _SELU_ALPHA, _SELU_SCALE, 1.0)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    op = aten.elu_ if inplace else aten.elu
    return op.default(input, alpha, 1.0, 1.0 / alpha)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = wrap_dim(dim, input.dim())
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}")
    first, second = aten.split.Tensor(_floating("glu_cpu", input), input.shape[dim] // 2, dim)
    return aten.mul.Tensor(first, aten.sigmoid.default(second))


def softsign(input):
    return aten.div.Tensor(input, aten.add.Tensor(aten.abs.default(input), 1))  # (torch's `x.abs() + 1`: add.Tensor)


def tanhshrink(input):
    return aten.sub.Tensor(input, aten.tanh.default(input))


def _threshold(input, threshold, value, inplace=False):
    def apply(x):
        return aten.threshold.default(x, threshold, value)
    return _in_place(input, apply) if inplace else apply(input)


threshold = _threshold  # torch's F.threshold is F._threshold, the name its graphs print


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        warnings.warn("Implicit dimension choice for softmin has been deprecated. Change the call to include dim=X "
                      "as an argument.", stacklevel=_stacklevel)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return F.softmax(aten.neg.default(input), dim, dtype=dtype)


# ---------------------------------------------------------------- dropout over whole channels
def _feature_dropout(x, p, training, inplace):
    """ATen's feature_dropout: one Bernoulli draw per (sample, channel), so whole channels are zeroed."""
    if not training or p == 0.0 or x.numel() == 0:
        return x
    if p == 1.0:
        noise = aten.zeros.default([], dtype=x.dtype)
    else:
        noise = aten.empty.memory_format(list(x.shape[:2]) + [1] * (x.dim() - 2), dtype=x.dtype)
        aten.bernoulli_.float(noise, 1 - p)
        aten.div_.Scalar(noise, 1 - p)
    return aten.mul_.Tensor(x, noise) if inplace else aten.mul.Tensor(x, noise)


def _channel_dropout(input, p, training, inplace, nd, batched):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (nd + 1, nd + 2):
        note = (f"Note that dropout{nd}d exists to provide channel-wise dropout on inputs with {nd} spatial "
                f"dimension{'s' if nd > 1 else ''}, a channel dimension, and an optional batch dimension (i.e. "
                f"{nd + 1}D or {nd + 2}D inputs).")
        if nd == 1:
            raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. {note}")
        warnings.warn(f"dropout{nd}d: Received a {input.dim()}-D input to dropout{nd}d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this warning, "
                      f"please use dropout instead. {note}", stacklevel=3)
    if batched:
        return _feature_dropout(input, p, training, inplace)
    return aten.squeeze.dim(_feature_dropout(aten.unsqueeze.default(input, 0), p, training, inplace), 0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _channel_dropout(input, p, training, inplace, 1, input.dim() == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    if input.dim() == 3:  # torch keeps its historical reading of a 3-d input: (N, C, L), not an unbatched image
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.", stacklevel=2)
    return _channel_dropout(input, p, training, inplace, 2, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    return _channel_dropout(input, p, training, inplace, 3, input.dim() == 5)
