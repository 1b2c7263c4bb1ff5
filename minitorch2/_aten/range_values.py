"""ATen's float ranges bit for bit: arange's and linspace's values as its CPU kernels round them.

Runtime layer, under the factories (factories.py). ATen's range kernels are compiled with fused multiply-adds and
run vectorized, so `torch.arange(0.3, 2, 0.1)` and `torch.linspace(0, 1, 40)` differ in the last bit from the
textbook `start + i * step` for about one value in ten; a student comparing against torch sees those bits.
"""
import math

import numpy as np

from .. import _random, _settings

GRAIN_SIZE = 32768  # ATen's at::internal::GRAIN_SIZE: a parallel loop splits a range into chunks no smaller


def fused_multiply_add(a, b, c):
    """a * b + c rounded once, as a hardware FMA: float32 through float64 (its product is exact there); float64
    by the error-free product and sums (Dekker's split, Knuth's two-sum)."""
    if np.result_type(a, b, c) == np.float32:
        total, residual = _two_sum(np.float64(a) * b.astype(np.float64), np.float64(c))
        return _round_to_odd(total, residual).astype(np.float32)
    product = a * b
    a_high, b_high = _split(a), _split(b)
    product_error = ((a_high * b_high - product) + a_high * (b - b_high) + (a - a_high) * b_high) + \
        (a - a_high) * (b - b_high)
    total, sum_error = _two_sum(product, c)
    correction, residual = _two_sum(product_error, sum_error)
    return total + _round_to_odd(correction, residual)


def _round_to_odd(value, residual):
    """value, moved one ulp toward the residual when that makes its last bit odd: a later rounding to fewer bits
    then breaks a tie the way the exact value would, rather than to even (Boldo and Melquiond)."""
    even = (np.asarray(value, np.float64).view(np.int64) & 1) == 0
    return np.where((residual != 0) & even, np.nextafter(value, np.copysign(np.inf, residual)), value)


def _two_sum(a, b):
    """a + b rounded, and its rounding error exactly (Knuth)."""
    total = a + b
    part = total - a
    return total, (a - (total - part)) + (b - part)


def _split(x):
    scaled = x * 134217729.0  # 2**27 + 1: the high half of a double's 53 bits
    return scaled - (scaled - x)


def arange(start, step, n, dtype):
    """ATen's float arange, bit for bit: values computed in double, each `start + step * i` one fused
    multiply-add, except inside its vectorized loop, which takes blocks of two SIMD vectors (AVX2's 32 bytes)
    and fills each vector from its first value rounded to the output type, `base + k * step`; the loop runs per
    thread's chunk of the range, the rest of each chunk one value at a time."""
    lanes = 32 // np.dtype(dtype).itemsize
    threads = max(1, min(_settings.get_num_threads(), -(-n // GRAIN_SIZE)))
    chunk = max(1, -(-n // threads))
    i = np.arange(n)
    within = i % chunk
    chunk_length = np.minimum(chunk, n - (i - within))
    in_block = within < chunk_length // (2 * lanes) * (2 * lanes)
    lane = np.where(in_block, within % lanes, 0)
    first = (i - lane).astype(np.float64)
    base = fused_multiply_add(np.float64(step), first, np.float64(start)).astype(dtype).astype(np.float64)
    blocked = fused_multiply_add(lane.astype(np.float64), np.float64(step), base)
    return np.where(in_block, blocked, fused_multiply_add(np.float64(step), i.astype(np.float64),
                                                          np.float64(start))).astype(dtype)


def logspace(start, end, steps, base, dtype):
    """ATen's logspace, bit for bit: the ends converted to the output type and subtracted there, the exponents in
    double from the nearer end (plain multiply and add: this kernel is not in the vectorized, contracted files),
    pow in double; one step is base ** start, start as given."""
    if steps == 1:
        exponents = np.full(1, start, np.float64)
    else:
        start, end = (dtype.type(int(v) if np.issubdtype(dtype, np.integer) else v) for v in (start, end))
        narrow = np.issubdtype(dtype, np.integer) and dtype.itemsize < 4  # (C++ subtracts those in int)
        step = np.float64(int(end) - int(start) if narrow else end - start) / (steps - 1)  # in the output type
        i = np.arange(steps)
        exponents = np.where(i < steps // 2, np.float64(start) + step * i, np.float64(end) - step * (steps - 1 - i))
    with np.errstate(over="ignore", invalid="ignore"):
        return _random.libm(math.pow, np.float64(base), exponents).astype(dtype)
