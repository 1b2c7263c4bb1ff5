"""The convolutions' `padding` and `padding_mode` as torch.nn's: the checks of their arguments (ValueError); the
`_reversed_padding_repeated_twice` torch keeps, by which a "reflect", "replicate" or "circular" convolution pads
its input (F.pad) before convolving with no padding of its own; and F.conv*'s padding="same" or "valid".

Runtime layer, coverage surface: conv.py's _ConvNd calls the first two when it is built, nn.functional's
convolutions string_padding() when they run.
"""
import functools
import warnings

from ..._ops import ops

aten = ops.aten
PADDING_STRINGS = {"same", "valid"}
PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def check_padding(padding, stride, padding_mode):
    if isinstance(padding, str):
        if padding not in PADDING_STRINGS:
            raise ValueError(f"Invalid padding string {padding!r}, should be one of {PADDING_STRINGS}")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {PADDING_MODES}, but got padding_mode='{padding_mode}'")


def reversed_padding_repeated_twice(padding, kernel_size, dilation):
    """F.pad's widths, last dim first: each dim's padding twice; for "same", the total split with the extra on the
    right; for "valid", none."""
    if not isinstance(padding, str):
        return tuple(p for p in reversed(padding) for _ in range(2))
    widths = [0, 0] * len(kernel_size)
    if padding == "same":
        for i, (d, k) in enumerate(zip(reversed(dilation), reversed(kernel_size))):
            widths[2 * i], widths[2 * i + 1] = d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2
    return widths



def string_padding(input, weight, padding, stride, dilation):
    """(input, padding) for F.conv*'s padding="valid" (none) or "same" (each dim's total d * (k - 1) split evenly; an
    odd one, from an even kernel, pads its extra element on the right of the input first, as ATen's)."""
    if padding == "valid":
        return input, [0] * len(stride)
    if padding != "same":  # (ATen's errors here, RuntimeError; the modules' checks above are Python's, ValueError)
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    if any(t % 2 for t in total):
        _warn_once_of_the_padded_copy()
        input = aten.constant_pad_nd.default(input, [p for t in reversed(total) for p in (0, t % 2)])
    return input, [t // 2 for t in total]


@functools.cache  # (TORCH_WARN_ONCE: once a process, whatever the warning filters)
def _warn_once_of_the_padded_copy():
    warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
                  "the input be created (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                  "Convolution.cpp:1101.)", stacklevel=5)
