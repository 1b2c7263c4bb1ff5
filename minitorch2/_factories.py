"""Public factory functions: tensor, zeros, ones, full, arange, rand, randn, ...

Runtime layer, the user-facing half of the factories (the aten half is minitorch2/_aten/factories.py).
`tensor(data)` infers the dtype as PyTorch does (bool < int64 < default float over nested Python lists); random
factories draw from the PyTorch-exact generator in minitorch2/_random.py.
"""
import array
import collections
import numbers
import warnings

import numpy as np

from . import _arg_parser, _dtype
from ._ops import ops
from ._out import ANY, ARANGE_RESIZED, FACTORY, out_variant
from ._sym import SymInt
from ._tensor_data import checked_values, data_array
from ._tensor import CPU, Tensor, device
from ._numpy_interop import from_numpy, preserved_copy

aten = ops.aten


def _size(size, name=None):
    sizes = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    if not sizes or not all(type(s) is int for s in sizes) or name == "full" and sizes is size:
        sizes = _arg_parser.size_list(name, size)  # (torch's refusals, or its readings of other kinds of ints)
    return [s if isinstance(s, SymInt) else int(s) for s in sizes]


def _infer_dtype(data):
    """PyTorch's dtype for nested Python data: complex, else float (the defaults), else int64, else bool."""
    kinds = set()

    def walk(x):
        if isinstance(x, Tensor):
            kinds.add(x.dtype)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, (np.ndarray, np.generic)):  # a numpy scalar keeps its dtype
            kinds.add(_dtype.from_numpy(x.dtype))
        elif isinstance(x, bool):
            kinds.add(_dtype.bool_)
        elif isinstance(x, numbers.Integral):
            kinds.add(_dtype.int64)
        elif isinstance(x, numbers.Real) and not isinstance(x, numbers.Rational):  # (a Fraction is refused)
            kinds.add(_dtype.get_default_dtype())
        elif isinstance(x, numbers.Complex) and not isinstance(x, numbers.Rational):
            kinds.add(_dtype.to_complex(_dtype.get_default_dtype()))
        elif isinstance(x, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")

    walk(data)
    result = None
    for k in kinds:
        result = k if result is None else _dtype.promote_types(result, k)
    return result or _dtype.get_default_dtype()


def _to_nested(data):
    if isinstance(data, Tensor):  # (an element of a sequence: a one-element tensor is its number, as in torch's)
        if data.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._np.reshape(())[()]
    if isinstance(data, (list, tuple, range, collections.deque, array.array)):  # any sequence, as torch's
        return [_to_nested(x) for x in data]
    return data


_COPY_CONSTRUCT = ("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                   "sourceTensor.detach().clone().requires_grad_(True), rather than {}.")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    dtype = _dtype.as_dtype(dtype)
    if isinstance(data, Tensor):
        warnings.warn(_COPY_CONSTRUCT.format("torch.tensor(sourceTensor)"), stacklevel=2)
    if isinstance(data, (Tensor, np.ndarray)):
        copy = preserved_copy(data, dtype)
    else:
        copy = Tensor._from_numpy(np.array(_from_data(_to_nested(data), dtype)[0], order="C"))
    # lift_fresh marks a tensor built from Python data (an identity eagerly); a tracer records the data as a
    # constant and copies it (lift_fresh_copy), as PyTorch's does
    t = aten.lift_fresh.default(copy)
    return _finish(t, requires_grad)


def _from_data(data, dtype):
    """Nested Python data as a numpy array of dtype (inferred when None); what torch's tensor() refuses (ragged nesting,
    strings, None, ints beyond int64, values an integer dtype cannot hold) refused as it does (_tensor_data.py)."""
    raw = data_array(data, dtype)
    dtype = dtype or _infer_dtype(data)
    raw = checked_values(raw, dtype, data)
    with np.errstate(over="ignore"):  # a float beyond float32's range is inf there, as in torch
        return raw.astype(dtype.np), dtype


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and _dtype.as_dtype(dtype) in (None, _dtype.from_numpy(data.dtype)):
        return from_numpy(data)  # (shares the array's memory, as torch's)
    return tensor(data, dtype=dtype)


def _finish(t, requires_grad):
    if requires_grad and not t.dtype.is_inexact:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return t.requires_grad_(True) if requires_grad else t


def _device(name):
    """The device a factory call names: tensors live on the CPU only."""
    if isinstance(name, int) or str(name).partition(":")[0] == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    result = name if isinstance(name, device) else device(name)
    if result.type != "cpu":
        raise NotImplementedError(f"minitorch2 creates tensors on the CPU only, not on device '{result}'")
    return result


def _options(dtype, layout, device, pin_memory, memory_format=None, *, from_tensor=False):
    """The keyword arguments PyTorch's Python bindings hand a factory op, so traced graphs read as PyTorch's: dtype,
    layout and memory_format when given; the device always for a new tensor (the default device, cpu, when none is
    named) and only when named for the *_like and new_* ops, whose tensor decides it otherwise; pin_memory always."""
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                           "allocator is available on this system.")
    options = {name: value for name, value in (("dtype", dtype), ("layout", layout)) if value is not None}
    if device is not None or not from_tensor:
        options["device"] = _device(CPU if device is None else device)
    options["pin_memory"] = False
    if memory_format is not None:
        options["memory_format"] = memory_format
    return options


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def zeros(*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    return _finish(aten.zeros.default(_size(size, "zeros"), **_options(dtype, layout, device, pin_memory)),
                   requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def ones(*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    return _finish(aten.ones.default(_size(size, "ones"), **_options(dtype, layout, device, pin_memory)), requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def empty(*sizes, size=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False,
          memory_format=None):
    options, sizes = _options(dtype, layout, device, pin_memory, memory_format), sizes if size is None else (size,)
    return _finish(aten.empty.memory_format(_size(sizes, "empty"), **options), requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def full(size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory)
    return _finish(aten.full.default(_size((size,), "full"), _number(fill_value), **options), requires_grad)


def _like(op):
    def like(input, *extra, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None,
             pin_memory=False):
        options = _options(dtype, layout, device, pin_memory, memory_format, from_tensor=True)
        return _finish(op(input, *extra, **options), requires_grad)

    like.__name__ = like.__qualname__ = op._opname  # (a compiled graph names the node after it: zeros_like)
    return like


zeros_like = _like(aten.zeros_like.default)
ones_like = _like(aten.ones_like.default)
empty_like = _like(aten.empty_like.default)
full_like = _like(aten.full_like.default)
rand_like = _like(aten.rand_like.default)
randn_like = _like(aten.randn_like.default)


def _number(value):  # (a NumPy scalar too: np.int8(-128) would wrap in arange's arithmetic)
    return value.item() if isinstance(value, (Tensor, np.generic)) else value


_NO_STEP = object()


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY, resize_warning=ARANGE_RESIZED)
def arange(start, end=None, step=_NO_STEP, *, dtype=None, device=None, requires_grad=False, layout=None,
           pin_memory=False):
    """arange(end), arange(start, end) and arange(start, end, step) are three aten overloads, as in PyTorch."""
    options = _options(dtype, layout, device, pin_memory)
    if end is None and step is _NO_STEP:
        result = aten.arange.default(_number(start), **options)
    elif step is _NO_STEP:
        result = aten.arange.start(_number(start), _number(end), **options)
    else:
        start, end = (0, start) if end is None else (start, end)
        result = aten.arange.start_step(_number(start), _number(end), _number(step), **options)
    return _finish(result, requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory)
    steps = _arg_parser.linspace_steps(start, end, steps)
    return _finish(aten.linspace.default(start, end, steps, **options), requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory)
    result = aten.eye.default(n, **options) if m is None else aten.eye.m(n, m, **options)
    return _finish(result, requires_grad)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    return _finish(aten.scalar_tensor.default(s, **_options(dtype, layout, device, pin_memory)), requires_grad)


# ---------------------------------------------------------------- random factories
def _with_generator(op, generator_op, generator, *args, **options):
    """PyTorch's Python bindings pick the `.generator` overload only when a generator is passed."""
    return op(*args, **options) if generator is None else generator_op(*args, generator=generator, **options)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory)
    return _finish(_with_generator(aten.rand.default, aten.rand.generator, generator, _size(size, "rand"), **options),
                   requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory)
    size = _size(size, "randn")
    return _finish(_with_generator(aten.randn.default, aten.randn.generator, generator, size, **options), requires_grad)


# the random factories beyond rand and randn, with the coverage surface (minitorch2/__init__.py takes them from here)
from ._factories_random import bernoulli, normal, randint, randint_like, randperm  # noqa: E402,F401
