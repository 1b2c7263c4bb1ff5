"""Random ops: uniform_, normal_, random_, bernoulli, randperm, multinomial, the fills exponential_, geometric_,
log_normal_ and cauchy_, and the random factories rand, randn, randint, normal (and their *_like forms).

Runtime layer. Each kernel asks a `Generator` (minitorch2/_random.py, the
PyTorch-exact mt19937) for numpy samples in C order and writes them into the
tensor, so `manual_seed(s)` followed by the same calls gives PyTorch's values
bit for bit.
"""
import math

import numpy as np

from .. import _dtype, _random
from .._out import _CPP_TYPE
from .._tensor import Tensor
from .memory import _dtype_title, _write, written_meta
from .meta_util import (broadcast_strides, fake_empty, memory_format_strides, new_tensor_shape, tensor_iterator_order,
                        with_strides)
from .nn_ops import scalar_type_name
from .pointwise_factories import _not_implemented
from .sorting import stable_order


def _gen(generator):
    return generator if generator is not None else _random.default_generator


# the ATen kernel that refuses a dtype its draws cannot fill: NotImplementedError naming it
_FLOAT_KERNELS = {"uniform": "check_uniform_bounds", "normal": "normal_kernel_cpu"}


def _check_float(self, name):
    _float_dtype(self.dtype, name)


def _draw(dtype, size, sample, *args):
    """`sample(size, numpy dtype, *args)`; for a complex dtype torch samples the parts, a float tensor of size
    (*size, 2) (view_as_real of the result; normal's std divided by sqrt(2))."""
    if not dtype.is_complex:
        return sample(size, dtype.np, *args)
    part = _dtype.from_numpy(np.finfo(dtype.np).dtype)
    if sample.__name__ == "normal":
        args = (args[0], args[1] / math.sqrt(2))
    return np.ascontiguousarray(sample((*size, 2), part.np, *args)).view(dtype.np).reshape(size)


def _fill_from(self, samples):
    return _write(self, samples.reshape(tuple(self.shape)))


def _walk_order(self, *inputs):
    """The dims outermost first, as TensorIterator walks self (and the inputs broadcast to it): a transposed or
    permuted tensor is filled in memory order, not in the order of its indices."""
    strides = [tuple(self.stride())] + [broadcast_strides(t, tuple(self.shape)) for t in inputs]
    return tensor_iterator_order(tuple(self.shape), strides)[::-1]


def _in_walk_order(self, flat_samples, order):
    """Samples drawn one after another along `order`, placed at their elements' indices."""
    return np.transpose(flat_samples.reshape([self.shape[d] for d in order]), np.argsort(order))


def _fill_walking(self, draw):
    """An in-place fill whose kernel draws one sample per element as TensorIterator walks self: `draw(n)` gives
    the n samples in that order."""
    order = _walk_order(self)
    return _write(self, _in_walk_order(self, draw(self.numel()), order))


def _uniform_kernel(self, from_=0.0, to=1.0, *, generator=None):
    _check_float(self, "uniform_")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_} > to={to}")
    return _fill_walking(self, lambda n: _draw(self.dtype, (n,), _gen(generator).uniform, from_, to))


def _normal_kernel(self, mean=0.0, std=1.0, *, generator=None):
    _check_float(self, "normal_")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    if self.is_contiguous() or self.dtype.is_complex:
        return _fill_from(self, _draw(self.dtype, tuple(self.shape), _gen(generator).normal, mean, std))
    # (ATen's vectorised fill needs contiguous memory; elsewhere one Box-Muller sample at a time)
    return _fill_walking(self, lambda n: _random.from_double(_gen(generator)._normal_scalar(n, float(mean), float(std)),
                                                             self.dtype.np))


def _random_from_kernel(self, from_, to=None, *, generator=None):
    if to is None:
        raise RuntimeError("random_ without an upper bound is not supported")
    if from_ >= to:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}")
    return _fill_walking(self, lambda n: _gen(generator).randint(from_, to, (n,), np.int64).astype(self.dtype.np))


def _random_kernel(self, *, generator=None):
    """random_() without bounds: [0, 2**mantissa] for floats, else [0, the dtype's max]."""
    return _fill_walking(self, lambda n: _gen(generator).random_((n,), self.dtype.np))


uniform_ = (_uniform_kernel, written_meta)
normal_ = (_normal_kernel, written_meta)
random_from = (_random_from_kernel, written_meta)
random_ = (_random_kernel, written_meta)


def _bernoulli_p_kernel(self, p=0.5, *, generator=None):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return _gen(generator).bernoulli_scalar(tuple(self.shape), self.dtype.np, p)


def _bernoulli_default_kernel(self, *, generator=None):
    probs = self._np
    if probs.size and (probs.min() < 0 or probs.max() > 1):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be "
                           "improved?  If so, please report an enhancement request to PyTorch.)")
    return _gen(generator).bernoulli_tensor(np.require(probs, None, "C"), self.dtype.np)  # (0-d stays 0-d)


def _bernoulli_inplace_kernel(self, p=0.5, *, generator=None):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return _fill_walking(self, lambda n: _gen(generator).bernoulli_scalar((n,), self.dtype.np, p))


def _bernoulli_tensor_inplace_kernel(self, p, *, generator=None):
    """bernoulli_(p) with a tensor of probabilities broadcast to self, drawn as TensorIterator walks both."""
    return _write(self, _bernoulli_tensor_kernel(self, p, generator=generator))


def _bernoulli_tensor_kernel(self, p, *, generator=None):
    """bernoulli.Tensor, the functional form (torch's empty_like(self).bernoulli_(p)): self's shape, drawn in its
    memory order."""
    probs = p._np
    if probs.size and (probs.min() < 0 or probs.max() > 1):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be "
                           "improved?  If so, please report an enhancement request to PyTorch.)")
    order = _walk_order(self, p)
    probs = np.broadcast_to(probs, tuple(self.shape)).transpose(order)
    samples = _gen(generator).bernoulli_tensor(np.ascontiguousarray(probs), self.dtype.np)
    return np.transpose(samples, np.argsort(order))


def _like_meta(self, *args, **kwargs):
    return fake_empty(self.shape, self.dtype)


bernoulli_p = (_bernoulli_p_kernel, _like_meta)
bernoulli_default = (_bernoulli_default_kernel, _like_meta)
bernoulli_inplace = (_bernoulli_inplace_kernel, written_meta)
bernoulli_tensor_inplace = (_bernoulli_tensor_inplace_kernel, written_meta)
bernoulli_tensor = (_bernoulli_tensor_kernel, _like_meta)


def _randperm_kernel(n, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    dtype = dtype or _dtype.int64
    most = {_dtype.float16: (2049, "2049"), _dtype.float32: (2 ** 24 + 1, "2^24+1"), _dtype.float64: (2 ** 53 + 1, "2^53+1")}
    if dtype in most and n > most[dtype][0]:  # (beyond, the dtype cannot hold each number)
        raise RuntimeError(f"n cannot be greater than {most[dtype][1]} for {_dtype_title(dtype)} type.")
    return _gen(generator).randperm(n, dtype.np)


def _randperm_meta(n, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    return fake_empty((n,), dtype or _dtype.int64)


randperm = (_randperm_kernel, _randperm_meta)




# ---------------------------------------------------------------- random factories
# Each draws exactly what `empty(...)` followed by the in-place op would, so values match PyTorch's.
def _float_dtype(dtype, name):
    dtype = dtype or _dtype.get_default_dtype()
    if not dtype.is_inexact:
        raise _not_implemented(_FLOAT_KERNELS[name.rstrip("_")], dtype)
    return dtype


def _rand_kernel(size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = _float_dtype(dtype, "uniform_")
    size = new_tensor_shape(size, dtype)
    return _draw(dtype, size, _gen(generator).uniform, 0.0, 1.0).reshape(size)


def _randn_kernel(size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = _float_dtype(dtype, "normal_")
    size = new_tensor_shape(size, dtype)
    return _draw(dtype, size, _gen(generator).normal, 0.0, 1.0).reshape(size)


def _normal_float_float_kernel(mean, std, size, *, generator=None, dtype=None, layout=None, device=None,
                               pin_memory=None):
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    return _gen(generator).normal(tuple(size), _float_dtype(dtype, "normal_").np, mean, std).reshape(tuple(size))


def _randint_values(low, high, size, dtype, generator):
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    size = new_tensor_shape(size, dtype)
    return _gen(generator).randint(low, high, tuple(size), np.int64).astype(dtype.np).reshape(tuple(size))


def _randint_low_kernel(low, high, size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    return _randint_values(low, high, size, dtype or _dtype.int64, generator)


def _randint_kernel(high, size, **options):
    return _randint_low_kernel(0, high, size, **options)


def _factory_meta(*args, dtype=None, default=None, **options):
    size = next(a for a in reversed(args) if isinstance(a, (list, tuple)))
    dtype = dtype or default or _dtype.get_default_dtype()
    return fake_empty(new_tensor_shape(size, dtype), dtype)


def _randint_meta(*args, dtype=None, **options):
    return _factory_meta(*args, dtype=dtype, default=_dtype.int64)


def _like_kernel(fill, *bounds):
    """rand_like and the rest as ATen's: an empty_like (by default in self's layout) that the in-place fill then
    draws into, in memory order."""
    def kernel(self, *args, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        strides = memory_format_strides(self.shape, memory_format, like=self)
        fresh = with_strides(np.empty(tuple(self.shape), (dtype or self.dtype).np), strides)
        return fill(fresh if isinstance(fresh, Tensor) else Tensor._from_numpy(fresh), *bounds, *args)

    return kernel


def _random_like_meta(self, *args, dtype=None, memory_format=None, **options):
    return fake_empty(self.shape, dtype or self.dtype, memory_format_strides(self.shape, memory_format, like=self))


rand = (_rand_kernel, _factory_meta)
randn = (_randn_kernel, _factory_meta)
normal_float_float = (_normal_float_float_kernel, _factory_meta)
randint = (_randint_kernel, _randint_meta)
randint_low = (_randint_low_kernel, _randint_meta)
rand_like = (_like_kernel(_uniform_kernel), _random_like_meta)
randn_like = (_like_kernel(_normal_kernel), _random_like_meta)
randint_like = (_like_kernel(_random_from_kernel, 0), _random_like_meta)
randint_like_low = (_like_kernel(_random_from_kernel), _random_like_meta)


# ---------------------------------------------------------------- functional forms (what functionalization records)
def _uniform_functional_kernel(self, from_=0.0, to=1.0, *, generator=None):
    _check_float(self, "uniform")
    return _gen(generator).uniform(tuple(self.shape), self.dtype.np, from_, to)


def _normal_functional_kernel(self, mean=0.0, std=1.0, *, generator=None):
    _check_float(self, "normal")
    return _gen(generator).normal(tuple(self.shape), self.dtype.np, mean, std)


uniform = (_uniform_functional_kernel, _like_meta)
normal_functional = (_normal_functional_kernel, _like_meta)


# ---------------------------------------------------------------- multinomial
# ATen's two CPU paths, drawing the same words in the same order, so a seed gives torch's samples:
# without replacement (or one sample), argmax/topk of p / q with q ~ Exp(1) drawn as exponential_ fills
# a tensor like self; with replacement, one double uniform per sample, looked up in each row's
# normalised running sum (the first bucket whose cumulative probability reaches it).
def _multinomial_check(self, num_samples, replacement):
    if not 1 <= self.dim() <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not self.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {scalar_type_name(self.dtype)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > self.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if self.shape[-1] > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    return tuple(self.shape[:-1]) + (num_samples,)


def _multinomial_by_exponential(probs, num_samples, generator):
    with np.errstate(invalid="ignore"):
        if not (probs.max(initial=-np.inf) < np.inf and probs.min(initial=np.inf) >= 0):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(probs.sum(axis=-1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    q = generator.exponential(probs.shape, probs.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = probs / q
    # the largest ratios first (argmax for one sample, topk for more), ties in index order
    return stable_order(ratio, -1, descending=True)[..., :num_samples]


def _multinomial_with_replacement(probs, num_samples, generator):
    rows = probs.reshape(-1, probs.shape[-1])
    accumulate = np.float32 if probs.dtype == np.float16 else probs.dtype  # ATen's cumulative sum type
    cumulative = np.empty(rows.shape, accumulate)
    for i, row in enumerate(rows):  # checked row by row, in ATen's order
        bad = np.nonzero(~(row >= 0) | ~np.isfinite(row))[0]
        if bad.size:
            value = row[bad[0]]
            reason = "probability entry < 0" if not value >= 0 else "probability entry = infinity or NaN"
            raise RuntimeError(f"invalid multinomial distribution (encountering {reason})")
        np.cumsum(row, dtype=accumulate, out=cumulative[i])
        total = cumulative[i, -1]
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cumulative[i] /= total
        cumulative[i, -1] = 1
    uniforms = generator.uniform((rows.shape[0], num_samples), np.float64)
    samples = [np.searchsorted(cumulative[i].astype(np.float64), uniforms[i], side="left") for i in range(len(rows))]
    return np.stack(samples).reshape(tuple(probs.shape[:-1]) + (num_samples,))


def _multinomial_kernel(self, num_samples, replacement=False, *, generator=None):
    _multinomial_check(self, num_samples, replacement)
    probs = np.ascontiguousarray(self._np)
    if not replacement or num_samples == 1:
        samples = _multinomial_by_exponential(probs, num_samples, _gen(generator))
    else:
        samples = _multinomial_with_replacement(probs, num_samples, _gen(generator))
    return np.ascontiguousarray(samples, dtype=np.int64)


def _multinomial_meta(self, num_samples, replacement=False, *, generator=None):
    return fake_empty(_multinomial_check(self, num_samples, replacement), _dtype.int64)


multinomial = (_multinomial_kernel, _multinomial_meta)


# ---------------------------------------------------------------- random in-place fills
def _continuous(name, dtype, words):
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} distribution is a continuous probability distribution. dtype must be a floating "
                           f"point but you specified {words}")


def _require_positive(name, what, value):
    if not value > 0:
        raise RuntimeError(f"{name} expects {what} > 0.0, but found {what}={value:g}")


def _exponential(dtype, lambd=1.0):
    _continuous("Exponential", dtype, _dtype_title(dtype))
    _require_positive("exponential_", "lambda", lambd)


def _geometric(dtype, p):
    if dtype is _dtype.bool_:
        raise _not_implemented("geometric_cpu", dtype)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")


def _log_normal(dtype, mean=1.0, std=2.0):
    if not dtype.is_floating_point:
        raise _not_implemented("log_normal_cpu", dtype)
    _require_positive("log_normal_", "std", std)


def _cauchy(dtype, median=0.0, sigma=1.0):
    _continuous("Cauchy", dtype, _CPP_TYPE[dtype.name])
    _require_positive("cauchy_", "sigma", sigma)


def _random_fill(check, draw):
    """An in-place fill from PyTorch's generator: one double per element in memory order (uniforms for exponential,
    geometric and cauchy; Box-Muller pairs for log_normal), transformed in double, cast (half through float)."""
    def kernel(self, *args, generator=None):
        check(self.dtype, *args)
        order = sorted(range(self.dim()), key=lambda d: -self.stride()[d])
        samples = draw(generator if generator is not None else _random.default_generator, self.numel(), *args)
        samples = np.transpose(samples.reshape([self.shape[d] for d in order]), np.argsort(order))
        return _write(self, samples.astype(_dtype.opmath(self.dtype).np))

    def meta(self, *args, generator=None):
        check(self.dtype, *args)
        self._bump_version()
        return self

    return kernel, meta


exponential_ = _random_fill(_exponential, lambda gen, n, lambd=1.0: gen.exponential((n,), np.float64, lambd))
geometric_ = _random_fill(_geometric, lambda gen, n, p: np.ceil(_random.libm(math.log, gen._uniform_f64(n))
                                                                  / math.log1p(-p)))
log_normal_ = _random_fill(_log_normal, lambda gen, n, mean=1.0, std=2.0:
                           _random.libm(math.exp, gen._normal_scalar(n, mean, std)))
cauchy_ = _random_fill(_cauchy, lambda gen, n, median=0.0, sigma=1.0:
                       _random._fma_f64(sigma, _random.libm(math.tan, np.pi * (gen._uniform_f64(n) - 0.5)), median))


def functional_fill(inplace):
    """The functional form functionalization puts in place of an in-place fill: a fresh copy, filled."""
    kernel, meta = inplace

    def fresh(self, *args, generator=None):
        return kernel(Tensor._from_numpy(np.array(self._np)), *args, generator=generator)

    def fresh_meta(self, *args, generator=None):
        return meta(fake_empty(self.shape, self.dtype), *args, generator=generator)

    return fresh, fresh_meta
