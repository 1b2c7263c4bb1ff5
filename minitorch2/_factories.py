"""Public factory functions: tensor, zeros, ones, full, arange, rand, randn, ...

Runtime layer, the user-facing half of the factories (the aten half is
minitorch2/_aten/factories.py). `tensor(data)` infers the dtype as PyTorch
does (bool < int64 < default float over nested Python lists); random
factories draw from the PyTorch-exact generator in minitorch2/_random.py.
"""
import numbers

import numpy as np

from . import _dtype
from ._ops import ops
from ._tensor import Tensor

aten = ops.aten


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)) and not (isinstance(s, Tensor) and s.dim() == 0):
            raise TypeError(f"expected a sequence of integers or a single integer, got '{s!r}'")
    return [int(s) for s in size]


def _infer_dtype(data):
    """PyTorch's dtype for nested Python data: any float -> default float, else any int -> int64, else bool."""
    kinds = set()

    def walk(x):
        if isinstance(x, Tensor):
            kinds.add(x.dtype)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, (bool, np.bool_)):
            kinds.add(_dtype.bool_)
        elif isinstance(x, (numbers.Integral,)):
            kinds.add(_dtype.int64)
        elif isinstance(x, numbers.Real):
            kinds.add(_dtype.get_default_dtype())
        elif isinstance(x, np.ndarray):
            kinds.add(_dtype.from_numpy(x.dtype))
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")

    walk(data)
    result = None
    for k in kinds:
        result = k if result is None else _dtype.promote_types(result, k)
    return result or _dtype.get_default_dtype()


def _to_nested(data):
    if isinstance(data, Tensor):
        return data.numpy(force=True)
    if isinstance(data, (list, tuple)):
        return [_to_nested(x) for x in data]
    return data


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    if isinstance(data, Tensor):
        array = data.numpy(force=True).copy()
        dtype = dtype or data.dtype
    elif isinstance(data, np.ndarray):
        dtype = dtype or _dtype.from_numpy(data.dtype)
        array = np.array(data, dtype=dtype.np)
    else:
        dtype = dtype or _infer_dtype(data)
        try:
            array = np.array(_to_nested(data), dtype=dtype.np)
        except ValueError as e:
            raise ValueError(f"expected sequence of equal-length lists: {e}") from None
    t = Tensor._from_numpy(np.array(array, copy=True, order="C"), dtype)
    if requires_grad:
        t.requires_grad_(True)
    return t


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, Tensor):
        return data.to(dtype)
    return tensor(data, dtype=dtype)


def from_numpy(array):
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy(array.dtype)
    if array.flags.c_contiguous:
        return Tensor._from_numpy(array)
    base = np.lib.stride_tricks.as_strided(array)  # keep numpy's strides: a view, no copy
    t = Tensor._from_numpy(np.ascontiguousarray(base)) if any(s < 0 for s in array.strides) else Tensor._from_numpy(base)
    return t


def _finish(t, requires_grad):
    if requires_grad:
        t.requires_grad_(True)
    return t


def zeros(*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    return _finish(aten.zeros.default(_size(size), dtype=dtype), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    return _finish(aten.ones.default(_size(size), dtype=dtype), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, memory_format=None, out=None):
    return _finish(aten.empty.memory_format(_size(size), dtype=dtype), requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return _finish(aten.full.default(_size((size,)), fill_value, dtype=dtype), requires_grad)


def _like(op, *args):
    def like(input, *extra, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None, pin_memory=False):
        return _finish(op(input, *extra, dtype=dtype), requires_grad)

    return like


zeros_like = _like(aten.zeros_like.default)
ones_like = _like(aten.ones_like.default)
empty_like = _like(aten.empty_like.default)
full_like = _like(aten.full_like.default)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    if end is None:
        start, end = 0, start
    start, end, step = (x.item() if isinstance(x, Tensor) else x for x in (start, end, step))
    return _finish(aten.arange.start_step(start, end, step, dtype=dtype), requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    return _finish(aten.linspace.default(start, end, steps, dtype=dtype), requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    return _finish(aten.eye.m(n, n if m is None else m, dtype=dtype), requires_grad)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    return _finish(aten.scalar_tensor.default(s, dtype=dtype), requires_grad)


# ---------------------------------------------------------------- random factories
def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    t = empty(*size, dtype=dtype)
    aten.uniform_.default(t, 0.0, 1.0, generator=generator)
    return _finish(t, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    t = empty(*size, dtype=dtype)
    aten.normal_.default(t, 0.0, 1.0, generator=generator)
    return _finish(t, requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False, layout=None,
            pin_memory=False, out=None):
    if size is None:
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    t = empty(*size, dtype=dtype or _dtype.int64)
    getattr(aten.random_, "from")(t, low, high, generator=generator)
    return t


def rand_like(input, *, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None):
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None):
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None):
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False, out=None):
    return aten.randperm.default(n, dtype=dtype or _dtype.int64, generator=generator)


def bernoulli(input, p=None, *, generator=None, out=None):
    if p is not None:
        return aten.bernoulli.p(input, p, generator=generator)
    return aten.bernoulli.default(input, generator=generator)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, out=None):
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        shape = (mean if isinstance(mean, Tensor) else std).shape
        noise = randn(*shape, generator=generator, dtype=(mean if isinstance(mean, Tensor) else std).dtype)
        return noise * std + mean
    t = empty(*size, dtype=dtype)
    aten.normal_.default(t, mean, std, generator=generator)
    return t


def multinomial(input, num_samples, replacement=False, *, generator=None):
    raise NotImplementedError("minitorch2 does not implement multinomial yet")
