"""float16 and bfloat16 samples from the CPU generator, bit for bit as torch 2.13's.

ATen samples the 16-bit floats in float32 and rounds: uniform_ rounds the float32 value (one that rounds up to the
upper bound becomes the lower one); normal_ is the float32 Box-Muller rounded, except that before a ragged tail's 16
fresh uniforms it draws uniforms for the whole blocks only; the one-at-a-time double samples (fewer than 16
elements, a non-contiguous tensor, the double-based fills) round through float32. random_() spans the dtype's
mantissa; randperm refuses a length its dtype cannot count to.
"""
import pytest
import torch
import torch.nn.functional as F

import minitorch2

HALVES = ["float16", "bfloat16"]


def _bits(t):
    return t.double().tolist()


def _samples(lib, dtype, n):
    dt = getattr(lib, dtype)
    lib.manual_seed(n)
    draws = [
        lib.randn(n, dtype=dt), lib.rand(n, dtype=dt), lib.empty(n, dtype=dt).normal_(2.5, 0.3),
        lib.empty(n, dtype=dt).uniform_(-1.5, 0.25), lib.empty(n, dtype=dt).uniform_(0.1, 0.7),
        lib.empty(2 * n, dtype=dt)[::2].normal_(), lib.empty(n, 3, dtype=dt).t().uniform_(-2, 2),
        lib.empty(n, dtype=dt).exponential_(1.5), lib.empty(n, dtype=dt).bernoulli_(0.3),
        lib.empty(n, dtype=dt).random_(0, 100), lib.empty(n, dtype=dt).random_(), lib.empty(n, dtype=dt).cauchy_(),
        lib.empty(n, dtype=dt).log_normal_(), lib.empty(n, dtype=dt).geometric_(0.2),
        lib.randint(0, 10, (n,), dtype=dt), lib.randn_like(lib.ones(n, 2, dtype=dt)),
        lib.normal(lib.zeros(n, dtype=dt), 2.0), lib.multinomial(lib.rand(n + 3, dtype=dt) + 0.1, 3),
        (F if lib is torch else minitorch2.nn.functional).dropout(lib.ones(n, dtype=dt), 0.3),
        lib.randn(n, dtype=dt),  # the generator's state after all of the above
    ]
    if n <= 257:
        draws.append(lib.randperm(n, dtype=dt))
    return [_bits(t) for t in draws]


@pytest.mark.parametrize("n", [1, 5, 16, 21, 37, 1000])
@pytest.mark.parametrize("dtype", HALVES)
def test_samples_of_16_bit_floats_are_torchs(dtype, n):
    assert _samples(minitorch2, dtype, n) == _samples(torch, dtype, n)


@pytest.mark.parametrize("dtype", HALVES)
def test_a_long_non_contiguous_normal_rounds_its_double_samples_through_float32(dtype):
    def draw(lib):  # (one double sample in a few thousand rounds otherwise straight to float16)
        lib.manual_seed(1)
        return _bits(lib.empty(2 * 40000, dtype=getattr(lib, dtype))[::2].normal_())
    assert draw(minitorch2) == draw(torch)


@pytest.mark.parametrize("n, dtype", [(2050, "float16"), (2 ** 24 + 2, "float32"), (2049, "float16"), (300, "bfloat16")])
def test_randperm_refuses_a_length_its_dtype_cannot_count_to(n, dtype):
    def outcome(lib):
        try:
            return lib.randperm(n, dtype=getattr(lib, dtype)).shape[0]
        except RuntimeError as e:
            return str(e)
    assert outcome(minitorch2) == outcome(torch)
