"""Factory kernels: empty, full, arange, *_like, scalar_tensor, lift_fresh.

Runtime layer. Factories take `dtype=None` to mean PyTorch's default for the call (the default float dtype, or int64
for integer `arange`/`full` values), and `device`/`layout`/`pin_memory` only for signature parity.
"""
import math

import numpy as np

from .. import _dtype
from .._sym import SymInt, is_symbolic
from .._tensor import Tensor
from . import range_values, scalar_arguments
from .memory import _dtype_title
from .meta_util import new_tensor_shape, fake_empty, memory_format_strides, with_strides




def _new(size, dtype):
    """(shape, dtype) for a fresh tensor, its size checked as ATen checks it; `dtype=None` is the default
    float dtype."""
    dtype = dtype or _dtype.get_default_dtype()
    return new_tensor_shape(size, dtype), dtype


def _allocated(np_allocate):
    """empty, zeros, ones: a fresh tensor of `size`, filled (or not) by numpy's allocator."""
    def kernel(size, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        shape, dtype = _new(size, dtype)
        return with_strides(np_allocate(shape, dtype.np), memory_format_strides(shape, memory_format))

    def meta(size, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        return fake_empty(*_new(size, dtype), memory_format_strides(size, memory_format))

    return kernel, meta


empty, zeros, ones = _allocated(np.empty), _allocated(np.zeros), _allocated(np.ones)


def _full_kernel(size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None):
    shape, dtype = _new(size, dtype or _dtype.scalar_dtype(fill_value))
    with np.errstate(over="ignore"):  # a float beyond float16's range is inf there, as in torch
        return np.full(shape, _dtype.checked_scalar(fill_value, dtype, half_overflows=math.prod(shape) != 1), dtype.np)


def _full_meta(size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None):
    shape, dtype = _new(size, dtype or _dtype.scalar_dtype(fill_value))
    _dtype.checked_scalar(fill_value, dtype, half_overflows=type(n := math.prod(shape)) is int and n != 1)
    return fake_empty(shape, dtype)


full = (_full_kernel, _full_meta)


def _scalar_tensor_kernel(s, *, dtype=None, layout=None, device=None, pin_memory=None):
    dtype = dtype or _dtype.get_default_dtype()
    with np.errstate(over="ignore"):
        return np.asarray(_dtype.checked_scalar(s, dtype), dtype.np)


def _scalar_tensor_meta(s, *, dtype=None, layout=None, device=None, pin_memory=None):
    _dtype.checked_scalar(s, dtype or _dtype.get_default_dtype())
    return fake_empty((), dtype or _dtype.get_default_dtype())


scalar_tensor = (_scalar_tensor_kernel, _scalar_tensor_meta)


def _fill_value(value, dtype, numel):  # full_like's value, checked as fill_'s (float16 saturates for one element only)
    half_overflows = type(numel) is int and numel != 1
    return value if isinstance(value, Tensor) else _dtype.checked_scalar(value, dtype, half_overflows=half_overflows)


def _like(np_fill):
    """empty_like, zeros_like, ...: the default memory format (preserve) keeps `self`'s layout."""

    def kernel(self, *args, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        target = dtype or self.dtype
        with np.errstate(over="ignore"):  # (full_like's value is checked as full's)
            result = np.full(self.shape, _fill_value(args[0], target, self.numel()) if args else np_fill, target.np)
        return with_strides(result, meta(self, *args, dtype=dtype, memory_format=memory_format).stride())

    def meta(self, *args, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        if args:
            _fill_value(args[0], dtype or self.dtype, self.numel())
        return fake_empty(self.shape, dtype or self.dtype, memory_format_strides(self.shape, memory_format, like=self))

    return kernel, meta


empty_like = _like(0)  # (its contents are unspecified: zeros serve)
zeros_like = _like(0)
ones_like = _like(1)
full_like = _like(0)


def _arange_dtype(values, dtype):
    if dtype is None:  # (bools too: arange(True, 4) is int64)
        integral = all(isinstance(v, (int, np.integer, SymInt)) for v in values)
        return _dtype.int64 if integral else _dtype.get_default_dtype()
    if dtype.is_complex or dtype is _dtype.bool_:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_dtype_title(dtype)}'")
    return dtype


def _arange_length(start, end, step, dtype):
    if any(map(is_symbolic, (start, end, step))) and all(isinstance(v, (int, SymInt)) for v in (start, end, step)):
        return (end - start + step - (1 if step > 0 else -1)) // step  # a size (dynamic shapes): no guard
    start, end, step = (float(v) if is_symbolic(v) else v for v in (start, end, step))  # a SymFloat: specialized
    if step == 0 or step != step:  # (a NaN step is "nonzero" in no sense, and ATen says so)
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {float(start):g} -> {float(end):g}")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is _dtype.int64 and not all(isinstance(v, (int, np.integer)) for v in (start, end, step)):
        return scalar_arguments.int64_arange_length(start, end, step)  # (float bounds asked for as int64s)
    if (size := max(int(math.ceil((end - start) / step)), 0)) >= 2 ** 63:
        raise RuntimeError("invalid size, possible overflow?")
    return size


def _arange_kernel(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
    out, n = _arange_dtype((start, end, step), dtype), _arange_length(start, end, step, dtype)
    if out.is_floating_point:  # (float16 and bfloat16 too: their vectorized blocks round as float32's do)
        return range_values.arange(float(start), float(step), n, out.np)
    return (int(start) + np.arange(n, dtype=np.int64) * int(step)).astype(out.np)  # (float bounds truncated)


def _arange_meta(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
    return fake_empty((_arange_length(start, end, step, dtype),), _arange_dtype((start, end, step), dtype))


arange = (_arange_kernel, _arange_meta)


arange_end = (lambda end, **options: _arange_kernel(0, end, 1, **options),
              lambda end, **options: _arange_meta(0, end, 1, **options))


lift_fresh = (lambda self: self, lambda self: self)  # (kernel and meta: the tensor itself)
