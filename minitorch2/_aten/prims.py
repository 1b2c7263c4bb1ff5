"""Kernels of the three `prims` ops torch's inductor decompositions record: convert_element_type, iota, fma.

Runtime layer, beside the aten families. PyTorch's decompositions bottom out in its `prims` namespace; the
inductor-path graphs name three of them, so minitorch2 registers them as `ops.prims.*` (table.py) to record the same
graphs:

    prims.convert_element_type(a, dtype)   a copy of `a` in another dtype ("x.to(dtype)" in a decomposition)
    prims.iota(length, start=, step=, ...)  start, start+step, ... (the positions a scatter-as-where compares)
    prims.fma(a, b, c)                      a * b + c   (the softmax backward)

They never appear in an eager program; they exist for traced graphs and their lowerings (backend/lowering.py).
"""
import numpy as np

from .meta_util import broadcast_shapes, fake_empty, pointwise_strides, preserve_format_strides, with_strides


def _convert_element_type_kernel(a, dtype):
    result = np.array(a._np, dtype=dtype.np, copy=True, order="C")
    return with_strides(result, preserve_format_strides(a))


def _convert_element_type_meta(a, dtype):
    return fake_empty(a.shape, dtype, preserve_format_strides(a))


convert_element_type = (_convert_element_type_kernel, _convert_element_type_meta)


def _iota_kernel(length, *, start, step, dtype, device, requires_grad):
    return np.arange(start, start + length * step, step, dtype=dtype.np)[:length]


def _iota_meta(length, *, start, step, dtype, device, requires_grad):
    return fake_empty((int(length),), dtype)


iota = (_iota_kernel, _iota_meta)


def _fma_kernel(a, b, c):
    shape = broadcast_shapes(*(tuple(t.shape) for t in (a, b, c)))
    result = np.add(np.multiply(a._np, b._np), c._np).astype(a.dtype.np, copy=False)
    return with_strides(np.ascontiguousarray(np.broadcast_to(result, shape)), pointwise_strides(shape, (a, b, c)))


def _fma_meta(a, b, c):
    shape = broadcast_shapes(*(tuple(t.shape) for t in (a, b, c)))
    return fake_empty(shape, a.dtype, pointwise_strides(shape, (a, b, c)))


fma = (_fma_kernel, _fma_meta)
