"""Copies, fills, dtype conversions and the generic in-place wrapper.

Runtime layer. `copy_`, `fill_`, `zero_` write into a tensor's memory (through its numpy window, so views write into
their base) and bump the shared version counter. `inplace(functional)` turns an out-of-place kernel such as `add`
into `add_`: compute, check the result fits `self` (shape and dtype, with PyTorch's errors), write it back.
"""
import numpy as np

from .. import _dtype, _tensor_data
from .._dtype import can_cast
from .._tensor import Tensor
from .meta_util import broadcast_shapes, fake_empty, memory_format_strides, preserve_format_strides, with_strides


def _write(self, value):
    if self._np is not None:
        _tensor_data.copy_as_aten(self._np, value)
    self._bump_version()
    return self


def _check_fits(self, shape):
    """ATen's error for a result of another shape written into self."""
    if tuple(shape) != tuple(self.shape):
        raise RuntimeError(f"output with shape [{', '.join(map(str, self.shape))}] doesn't match the broadcast shape "
                           f"[{', '.join(map(str, shape))}]")


def _copy_kernel(self, src, non_blocking=False):
    if isinstance(src, Tensor):
        _check_fits(self, broadcast_shapes(tuple(self.shape), tuple(src.shape)))
        value = src._np
        if value is not None and self._np is not None and np.shares_memory(value, self._np):
            value = value.copy()
    else:
        value = src
    return _write(self, value)


def written_meta(self, *args, **kwargs):
    """The meta of an op that writes into self and returns it (copy_, index_put_, the random fills): self, one
    version later."""
    self._bump_version()
    return self


copy_ = (_copy_kernel, written_meta)


def _check_fill_value(value):
    if value.dim() != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} dimensions.")


def _fill_kernel(self, value):
    if isinstance(value, Tensor):
        _check_fill_value(value)
        value = value._np
    else:
        value = _dtype.checked_scalar(value, self.dtype, half_overflows=self.numel() != 1)
    return _write(self, value)


def _fill_meta(self, value):
    if not isinstance(value, Tensor):
        _dtype.checked_scalar(value, self.dtype, half_overflows=type(self.numel()) is int and self.numel() != 1)
    return written_meta(self)


fill_ = (_fill_kernel, _fill_meta)
zero_ = ((lambda self: _fill_kernel(self, 0)), (lambda self: _fill_meta(self, 0)))


def _to_copy_kernel(self, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False, memory_format=None):
    target = dtype or self.dtype
    _tensor_data.copy_as_aten(result := np.empty(tuple(self.shape), dtype=target.np), self._np)
    return with_strides(result, _to_copy_meta(self, dtype=dtype, memory_format=memory_format).stride())


def _to_copy_meta(self, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False, memory_format=None):
    return fake_empty(self.shape, dtype or self.dtype, memory_format_strides(self.shape, memory_format, like=self))


to_copy = clone = (_to_copy_kernel, _to_copy_meta)  # (clone is a _to_copy without a dtype)


def inplace(functional, into_self=None):
    """The in-place form of a pointwise (kernel, meta) pair: `self` receives the result. `into_self(self, *args,
    **kwargs)`, where given (the optimizers' add_, mul_, addcmul_, lerp_, ...: inplace_fast.py), computes the
    result in self's memory when it can and says whether it did."""
    kernel, meta = functional

    def check(self, result):
        _check_fits(self, result.shape)
        result_dtype = result.dtype if isinstance(result.dtype, _dtype.dtype) else _dtype.from_numpy(result.dtype)
        if not can_cast(result_dtype, self.dtype):
            raise RuntimeError(f"result type {_dtype_title(result_dtype)} can't be cast to the desired output type "
                               f"{_dtype_title(self.dtype)}")

    def inplace_kernel(self, *args, **kwargs):
        if into_self is not None and into_self(self, *args, **kwargs):
            self._bump_version()
            return self
        result = kernel(self, *args, **kwargs)
        check(self, result)
        return _write(self, result)

    def inplace_meta(self, *args, **kwargs):
        check(self, meta(self, *args, **kwargs))
        self._bump_version()
        return self

    return inplace_kernel, inplace_meta


def _dtype_title(d):
    """ATen's name for a dtype in error messages ('Float', 'Long', ...)."""
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
            "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "complex64": "ComplexFloat",
            "complex128": "ComplexDouble"}[d.name]


# ---------------------------------------------------------------- functional forms of copy_/fill_/zero_
def clone_preserve_strides(self):
    """ATen's clone_preserve_strides: a copy of `self`'s whole storage, viewed with `self`'s sizes, strides
    and storage offset (a plain contiguous clone when `self` overlaps itself, as an expanded tensor does)."""
    if any(st == 0 and n > 1 for n, st in zip(self.shape, self.stride())):
        return Tensor._from_numpy(np.array(self._np, order="C"))
    out = Tensor._make_view(Tensor._from_numpy(np.array(self._storage, copy=True)), self.shape, self.stride(),
                            self.storage_offset())
    out._base = None
    return out


def clone_preserve_strides_meta(self):
    if any(st == 0 and n > 1 for n, st in zip(self.shape, self.stride())):
        return fake_empty(self.shape, self.dtype)
    out = fake_empty(self.shape, self.dtype, self.stride())
    out._offset = self.storage_offset()
    return out


def _copy_functional_kernel(self, src, non_blocking=False):
    broadcast_shapes(tuple(self.shape), tuple(src.shape))
    out = clone_preserve_strides(self)
    _tensor_data.copy_as_aten(out._np, np.broadcast_to(src._np, tuple(self.shape)))
    return out


def _copy_functional_meta(self, src, non_blocking=False):
    broadcast_shapes(tuple(self.shape), tuple(src.shape))
    return clone_preserve_strides_meta(self)


def _like_self_meta(self, *args, **kwargs):
    return fake_empty(self.shape, self.dtype, preserve_format_strides(self))  # a clone of self, layout kept


def _like_self(kernel):
    def laid_out(self, *args, **kwargs):
        return with_strides(kernel(self, *args, **kwargs), preserve_format_strides(self))

    return laid_out, _like_self_meta


copy = (_copy_functional_kernel, _copy_functional_meta)  # copy_ into clone_preserve_strides(self), as ATen
fill = _like_self(lambda self, value: np.full(tuple(self.shape), _dtype.checked_scalar(  # (fill_'s check)
    value, self.dtype, half_overflows=self.numel() != 1), self.dtype.np))


def _fill_tensor_kernel(self, value):
    _check_fill_value(value)
    return with_strides(np.full(tuple(self.shape), value._np, self.dtype.np), preserve_format_strides(self))


def _fill_tensor_meta(self, value):
    _check_fill_value(value)
    return _like_self_meta(self)


fill_tensor = (_fill_tensor_kernel, _fill_tensor_meta)
zero = _like_self(lambda self: np.zeros(tuple(self.shape), self.dtype.np))
