"""nn.init (as torch.nn.init): parameter initialisation schemes.

Runtime layer. Each scheme computes its bound or standard deviation exactly as
PyTorch does and fills the tensor with the same in-place random op
(`uniform_`, `normal_`), under no_grad; since the generator is PyTorch's, a
freshly built model has bit-identical parameters after the same
`manual_seed`.
"""
import math
import warnings

import numpy as np

from .. import _factories, _functions
from ..autograd.grad_mode import no_grad


def calculate_gain(nonlinearity, param=None):
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    fan_in = tensor.shape[1]
    fan_out = tensor.shape[0]
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return fan_in * receptive, fan_out * receptive


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return tensor.copy_(_factories.eye(*tensor.shape, dtype=tensor.dtype))


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0, std, generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """PyTorch 2.13's two samplers, so the random stream is consumed identically: rejection of
    normal samples outside [a, b] when the interval holds enough mass, otherwise rejection of
    uniform candidates in [a, b] against the normal density."""
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            lo, hi = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                redrawn = _factories.empty_like(result).normal_(mean, std, generator=generator)
                result = _functions.where(mask, redrawn, result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates, accept = _factories.empty_like(tensor), _factories.empty_like(tensor)

        def log_pdf_minus_peak(x):
            return x.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        pending = accept.uniform_(generator=generator).log().gt(log_pdf_minus_peak(candidates))
        result = tensor
        while pending.any():
            candidates.uniform_(a, b, generator=generator)
            result = _functions.where(pending, candidates, result)
            pending = _functions.where(pending, accept.uniform_(generator=generator).log().gt(log_pdf_minus_peak(candidates)), pending)
        if result is not tensor:
            tensor.copy_(result)
        return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """torch's scheme and random draws: a normal (rows, numel / rows) matrix (transposed when wide), its QR's Q
    with each column's sign set by R's diagonal, scaled by gain. QR runs in numpy (LAPACK's geqrf, as torch's)."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    with no_grad():
        flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator).numpy()
        flattened = flattened.T if rows < cols else flattened
        q, r = np.linalg.qr(flattened)
        q = q * np.sign(np.diag(r))
        q = np.ascontiguousarray(q.T if rows < cols else q)
        tensor.view(q.shape).copy_(_factories.tensor(q, dtype=tensor.dtype))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Normal values, then in each column ceil(sparsity * rows) rows zeroed, picked by a randperm of the rows."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = int(math.ceil(sparsity * rows))
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[_factories.randperm(rows)[:zeros], col] = 0
    return tensor


def dirac_(tensor, groups=1):
    """Zeros with a 1 at the spatial centre of (out, in) channel pair (d, d) of each group: convolving with it
    keeps the input's channels."""
    if tensor.dim() not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.shape[0] % groups:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = tensor.shape[0] // groups
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, tensor.shape[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def _deprecated_alias(new):
    """The pre-0.4 name (without the trailing underscore): warns, then does what `new` does, as torch's."""
    old_name = new.__name__[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new.__name__}`.", FutureWarning,
                      stacklevel=2)
        return new(*args, **kwargs)
    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


uniform, normal, constant, eye, dirac = map(_deprecated_alias, (uniform_, normal_, constant_, eye_, dirac_))
xavier_uniform, xavier_normal = _deprecated_alias(xavier_uniform_), _deprecated_alias(xavier_normal_)
kaiming_uniform, kaiming_normal = _deprecated_alias(kaiming_uniform_), _deprecated_alias(kaiming_normal_)
orthogonal, sparse = _deprecated_alias(orthogonal_), _deprecated_alias(sparse_)
