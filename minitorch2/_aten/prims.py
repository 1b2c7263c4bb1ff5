"""Kernels of the three `prims` ops torch's graphs record: convert_element_type, iota, fma.

Runtime layer, beside the aten families. PyTorch's decompositions bottom out in its `prims` namespace; minitorch2
registers the three its graphs name as `ops.prims.*` (table.py) to record the same graphs:

    prims.convert_element_type(a, dtype)   a copy of `a` in another dtype ("x.to(dtype)" in a decomposition)
    prims.iota(length, start=, step=, ...)  start, start+step, ... (the positions a scatter-as-where compares)
    prims.fma(a, b, c)                      a * b + c, b a tensor or a number (softmax backward, Dynamo's addcmul_)

Only traced graphs record them (the frontend's too: x.addcmul_(t1, t2, value=v)); backend/lowering.py lowers them.
"""
import numpy as np

from .._dtype import result_type
from .derivatives_util import aten, sum_to
from .meta_util import fake_empty, fake_pointwise, preserve_format_strides, with_strides
from .pointwise_factories import _ensure_array, _laid_out, _np


def _convert_element_type_kernel(a, dtype):
    return with_strides(np.array(a._np, dtype=dtype.np, copy=True, order="C"), preserve_format_strides(a))


def _convert_element_type_meta(a, dtype):
    return fake_empty(a.shape, dtype, preserve_format_strides(a))


convert_element_type = (_convert_element_type_kernel, _convert_element_type_meta)


def _iota_kernel(length, *, start, step, dtype, device, requires_grad):
    return np.arange(start, start + length * step, step, dtype=dtype.np)[:length]


def _iota_meta(length, *, start, step, dtype, device, requires_grad):
    return fake_empty((length,), dtype)


iota = (_iota_kernel, _iota_meta)


def _fma_kernel(a, b, c):
    dtype = result_type(a, b, c)  # b may be a Python number (Dynamo passes addcmul_'s value), promoted as torch's
    return _ensure_array(np.add(np.multiply(_np(a, dtype), _np(b, dtype)), _np(c, dtype)), dtype)


def _fma_meta(a, b, c):
    return fake_pointwise(result_type(a, b, c), (a, b, c))


fma = _laid_out(_fma_kernel, _fma_meta)


def fma_formula(grad, a, b, a_shape, b_shape, c_shape, needs_grad):
    """torch's inductor_prims formula: grad * b, grad * a, grad (c not saved: Dynamo's addcmul_ writes into it)"""
    a_grad = sum_to(aten.mul.Tensor(grad, b), a_shape) if needs_grad[0] else None
    b_grad = sum_to(aten.mul.Tensor(grad, a), b_shape) if needs_grad[1] else None
    return a_grad, b_grad, sum_to(grad, c_shape) if needs_grad[2] else None
