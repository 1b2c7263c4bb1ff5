"""Philox4x32-10, the counter-based generator torch's Inductor computes random numbers with inside its kernels.

Runtime layer, under the backend's random ops (backend/lowering_random.py) and the kernel of prims.inductor_random
(minitorch2/_aten/inductor_prims.py). Eager random ops draw from the mt19937 stream of a Generator (_random.py);
compiled ones do not: a compiled graph draws one int64 seed per random op from the default generator, and the
element at flat position i of that op's result is then a pure function of (seed, i), so every element can be computed
on its own, in any order, by any thread. The functions here are that function, for whole arrays of positions:

    philox4x32(seed, offsets)   the four 32-bit words of block `offset` of the stream keyed by the seed's low 32 bits
    uniform(seed, offsets)      word 0 as a float in [0, 1): its low 31 bits times 4.6566127342e-10 (ATen's
                                uint32_to_uniform_float)
    normal(seed, offsets)       Box-Muller on words 0 and 1: sqrt(-2 log u1) cos(2 pi u2) with u = 1 - uniform
    randint(seed, offsets, low, high)   low + (words 0 and 1 as one uint64) mod (high - low)

These are the values of torch's C++ helpers normalized_rand_cpu / randn_cpu / randint64_cpu (torch/csrc/inductor/cpp_prefix.h over
ATen/core/PhiloxRNGEngine.h), bit for bit: the seed is truncated to uint32 (the helpers' parameter type), the
offset is the counter's low word, and Box-Muller takes the float logarithm of the C library (logf) and the rest in
double. numpy's float32 log differs from glibc's logf in the last bit for about a third of inputs, and rounding a
double log misses for a few in a thousand, so the logarithm here is the C library's own, called per element.
"""
import ctypes
import ctypes.util

import numpy as np

_MULTIPLIERS = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)
_ROUNDS = 10
_UNIFORM_SCALE = np.float32(4.6566127342e-10)  # the largest scale with 0x7FFFFFFF * scale < 1 in float32


def philox4x32(seed, offsets):
    """Philox4x32-10 on counters (offset, 0, 0, 0) under the key (seed mod 2**32, 0): four uint32 arrays."""
    c0 = np.asarray(offsets, np.int64).astype(np.uint32)
    c1, c2, c3 = (np.zeros_like(c0) for _ in range(3))
    key = [int(seed) & 0xFFFFFFFF, 0]
    for round_ in range(_ROUNDS):
        # 32 x 32 -> 64-bit products: their high and low words
        product0, product1 = c0.astype(np.uint64) * _MULTIPLIERS[0], c2.astype(np.uint64) * _MULTIPLIERS[1]
        c0, c1, c2, c3 = (_high(product1) ^ c1 ^ np.uint32(key[0]), product1.astype(np.uint32),
                          _high(product0) ^ c3 ^ np.uint32(key[1]), product0.astype(np.uint32))
        key = [(k + step) & 0xFFFFFFFF for k, step in zip(key, _KEY_STEPS)]
    return c0, c1, c2, c3


def _high(product):
    return (product >> np.uint64(32)).astype(np.uint32)


def _to_uniform(word):
    return (word & np.uint32(0x7FFFFFFF)).astype(np.float32) * _UNIFORM_SCALE


def uniform(seed, offsets):
    """torch.rand's compiled values: float32 in [0, 1)."""
    return _to_uniform(philox4x32(seed, offsets)[0])


def normal(seed, offsets):
    """torch.randn's compiled values: float32, Box-Muller on the first two words (1 - u keeps log away from 0)."""
    words = philox4x32(seed, offsets)
    u1, u2 = np.float32(1) - _to_uniform(words[0]), np.float32(1) - _to_uniform(words[1])
    radius = np.sqrt(-2.0 * _logf(u1).astype(np.float64))
    return (radius * np.cos(2.0 * np.pi * u2.astype(np.float64))).astype(np.float32)


def randint(seed, offsets, low, high):
    """torch.randint's compiled values: int64 in [low, high)."""
    words = philox4x32(seed, offsets)
    wide = words[0].astype(np.uint64) | (words[1].astype(np.uint64) << np.uint64(32))
    return (wide % np.uint64(high - low)).astype(np.int64) + np.int64(low)


def _load_logf():
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.logf.restype, libm.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    return libm.logf


_libm_logf = _load_logf()


def _logf(values):
    """The C library's float32 log of each element (what std::log(float) calls in torch's compiled kernels)."""
    return np.fromiter(map(_libm_logf, values.ravel().tolist()), np.float32, values.size).reshape(values.shape)
