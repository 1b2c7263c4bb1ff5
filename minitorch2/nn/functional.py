"""nn.functional (as torch.nn.functional): the functional forms of the layers.

Runtime layer, between nn modules and the aten registry. Each function makes the same aten calls PyTorch's makes on
the CPU, so eager values, random streams and traced graphs line up: `linear` is `t` + `addmm` (with `view`s around it
for 3-d and higher inputs), `dropout` is `bernoulli_` + `div_` + `mul`, and `adaptive_avg_pool2d` to 1x1 is a `mean`.
Argument checks raise PyTorch's error classes with its messages. The losses live in _losses.py (coverage surface),
interpolate in _interpolate.py, pooling and attention in _functional_apart.py, cosine_similarity, one_hot and the
other functions beyond the core set in _functional_more.py.
"""
import math
import warnings

from .. import _dtype, _functions, amp
from .._aten.composite_sizes import is_contiguous_or_false
from .._ops import ops
from .._python_dispatcher import python_dispatcher_enabled
from .._unsupported import module_getattr
from ._functional_extra import affine_grid, ctc_loss, embedding_bag, embedding_renorm_, grid_sample  # noqa: F401
from ._functional_more import *  # noqa: F401,F403  (the layers beyond the core set, and their losses)
from ._functional_rare import *  # noqa: F401,F403
from ._functional_apart import (  # noqa: F401  (pooling, attention, normalize: the coverage surface's)
    _canonical_mask, _in_projection_packed, _none_or_dtype, adaptive_avg_pool2d, avg_pool2d, max_pool2d,
    multi_head_attention_forward, normalize, scaled_dot_product_attention)
from ._interpolate import interpolate  # noqa: F401
from .modules.conv_padding import string_padding
from ._losses import (_reduction, _scalar_type_name, binary_cross_entropy, binary_cross_entropy_with_logits,  # noqa
                      cross_entropy, l1_loss, mse_loss, nll_loss)  # (nn.functional names, defined with the losses)

aten = ops.aten


def _per_dim(value, nd=2):
    """A conv or pooling argument as a list of one value per spatial dim."""
    return [value] * nd if isinstance(value, int) else list(value)


# ---------------------------------------------------------------- linear and convolution
def linear(input, weight, bias=None):
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.dim()}D and "
                           f"{weight.dim()}D")
    if input.shape[-1] != weight.shape[-1]:
        rows, cols = math.prod(input.shape[:-1]), input.shape[-1]
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{cols} and "
                           f"{weight.shape[-1]}x{weight.shape[0]})")
    input, weight, bias = amp._policy.composite_in_lower_precision(input, weight, bias)  # (autocast: linear)
    if input.dim() == 2 and bias is not None:
        return aten.addmm.default(bias, input, aten.t.default(weight))
    if bias is not None and (bias.dim() == 1 or aten.squeeze.default(bias).dim() == 1) and is_contiguous_or_false(
            bias) and is_contiguous_or_false(input):  # (c10's check: no guards)
        flat = aten.view.default(input, [math.prod(input.shape[:-1]), input.shape[-1]])  # no -1: ATen multiplies it out
        out = aten.addmm.default(bias, flat, aten.t.default(weight))
        return aten.view.default(out, list(input.shape[:-1]) + [out.shape[1]])
    out = _functions.matmul(input, aten.t.default(weight))
    if bias is not None:
        out = aten.add.Tensor(out, bias)
    return out


def _conv(input, weight, bias, stride, padding, dilation, groups, nd):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to conv{nd}d, but got input "
                           f"of size: [{', '.join(map(str, input.shape))}]")
    unbatched = input.dim() == nd + 1
    if unbatched:
        input = aten.unsqueeze.default(input, 0)
    stride, dilation = _per_dim(stride, nd), _per_dim(dilation, nd)
    if isinstance(padding, str):  # ("same" or "valid": nn/modules/conv_padding.py)
        input, padding = string_padding(input, weight, padding, stride, dilation)
    else:
        padding = _per_dim(padding, nd)
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size [{', '.join(map(str, weight.shape))}], expected "
                           f"input[{', '.join(map(str, input.shape))}] to have {weight.shape[1] * groups} channels, "
                           f"but got {input.shape[1]} channels instead")
    out = aten.convolution.default(input, weight, bias, stride, padding, dilation, False, [0] * nd, groups)
    return aten.squeeze.dim(out, 0) if unbatched else out


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


# ---------------------------------------------------------------- normalization
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    if training:
        count = math.prod(input.shape) // input.shape[1] if input.dim() > 1 else 1
        if count == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    return aten.native_batch_norm.default(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    # (the shapes are checked by native_layer_norm's kernel or meta, as ATen's: no size comparison traced here)
    return aten.native_layer_norm.default(input, normalized_shape, weight, bias, eps)[0]


# ---------------------------------------------------------------- dropout and embedding
def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not inplace and python_dispatcher_enabled():
        # What aot tracing runs: aten.dropout's Python decomposition (torch._decomp's `dropout`), not the C++
        # kernel below, so its graphs hold native_dropout, or a clone when dropout is off.
        if training and p != 0.0:
            return aten.native_dropout.default(input, p, training)[0]
        return aten.clone.default(input)
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return aten.mul.Tensor(input, aten.zeros_like.default(input))
    noise = aten.empty_like.default(input)
    aten.bernoulli_.float(noise, 1 - p)
    aten.div_.Scalar(noise, 1 - p)
    return aten.mul_.Tensor(input, noise) if inplace else aten.mul.Tensor(input, noise)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is None:
        padding_idx = -1
    elif not -weight.shape[0] <= padding_idx < weight.shape[0]:
        raise AssertionError("Padding_idx must be within num_embeddings")
    elif padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        embedding_renorm_(weight, input, max_norm, norm_type)
    if input.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
                           f"Int; but got {input.type()} instead (while checking arguments for embedding)")
    return aten.embedding.default(weight, input, padding_idx, scale_grad_by_freq, sparse)


# ---------------------------------------------------------------- activations
def relu(input, inplace=False):
    return aten.relu_.default(input) if inplace else aten.relu.default(input)


relu_ = _functions.relu_  # (torch's F.relu_ is torch.relu_)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return aten.gelu.default(input, approximate=approximate)


def silu(input, inplace=False):
    return aten.silu.default(input)


def sigmoid(input):
    return aten.sigmoid.default(input)


def tanh(input):
    return aten.tanh.default(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    op = aten.leaky_relu_ if inplace else aten.leaky_relu
    return op.default(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    return aten.leaky_relu_.default(input, negative_slope)


def logsigmoid(input):
    return aten.log_sigmoid_forward.default(input)[0]


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return (aten.hardtanh_ if inplace else aten.hardtanh).default(input, min_val, max_val)


def relu6(input, inplace=False):
    """hardtanh(input, 0, 6): torch's relu6 is that composite, so traces record hardtanh."""
    return hardtanh(input, 0.0, 6.0, inplace)


def elu(input, alpha=1.0, inplace=False):
    return aten.elu_.default(input, alpha) if inplace else aten.elu.default(input, alpha)


def elu_(input, alpha=1.0):
    return aten.elu_.default(input, alpha)


def softplus(input, beta=1.0, threshold=20.0):
    return aten.softplus.default(input, beta, threshold)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return _softmax_op(aten._softmax.default, input, dim, dtype, _stacklevel)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return _softmax_op(aten._log_softmax.default, input, dim, dtype, _stacklevel)


def _softmax_op(op, input, dim, dtype, stacklevel):
    """dim=None is torch's legacy implicit dim, with its warning: 0 for a 0-, 1- or 3-d input, 1 otherwise."""
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {op._opname.lstrip('_')} has been deprecated. Change the call "
                      "to include dim=X as an argument.", stacklevel=stacklevel)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    if dtype is not None:
        input = input.to(dtype)
    return op(input, dim, False)


__getattr__ = module_getattr("minitorch2.nn.functional", "torch.nn.functional")  # a missing name: one line under `run`
