"""nn.functional's power-average pooling, lp_pool1d/2d/3d, written as torch's Python writes them.

Runtime layer, coverage surface (re-exported by nn/functional.py through _functional_rare.py). torch's functions are
Python over avg_pool, so Dynamo inlines them; the frontend inlines this module too (INLINED_PACKAGES), and its graphs
record what torch's record: x.pow(p), avg_pool, sign(avg) * relu(|avg|), .mul(kernel volume), .pow(1/p); max_pool of
|x| for p = ±inf.
"""
import math

import minitorch2

from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time

__all__ = ["lp_pool1d", "lp_pool2d", "lp_pool3d"]


def _sizes(value, n):
    return (value,) * n if isinstance(value, int) else tuple(value)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, max_pool, avg_pool, volume):
    if isinstance(norm_type, (int, float)):
        if norm_type == math.inf:
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -math.inf:
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (minitorch2.sign(out) * F.relu(minitorch2.abs(out))).mul(volume).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, F.max_pool1d, F.avg_pool1d, kernel_size)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _sizes(kernel_size, 2)
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, F.max_pool2d, F.avg_pool2d, kw * kh)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kd, kw, kh = _sizes(kernel_size, 3)
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, F.max_pool3d, F.avg_pool3d, kd * kw * kh)
