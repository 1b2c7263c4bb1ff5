"""Kernels and meta functions of the commonly used ops beyond the pipeline's core set: the math ones.

Runtime layer: (kernel, meta) pairs for the rows of table_more.py. Pointwise special functions (lgamma, digamma,
erfinv, polygamma, logit, xlogy, hypot, logaddexp, nan_to_num, heaviside), reductions (prod, logsumexp,
linalg_vector_norm, nansum, count_nonzero, std_mean, trace), baddbmm, addmm_'s shape check, cdist, roll, linspace and eye. Each follows ATen's dtype rules and
error messages. The ops that move elements or compute indices are in more_index_ops.py,
the selections along one dim in selection_ops.py.
"""
import math

import numpy as np
import scipy.special

from .. import _dtype
from .._dtype import result_type
from . import linalg, range_values
from .complex_ops import REAL_OF as _REAL_OF
from .memory import _dtype_title
from .meta_util import broadcast_shapes, c_order, fake_empty, pointwise_strides, reduced_shape, reduction_dims, wrap_dim
from .reductions import _contiguous_out, sum_dtype
from .pointwise_factories import (
    _ensure_array, _float_dtype, _laid_out, _np, _not_implemented, binary, unary_bool, unary_float, unary_same,
)


# ---------------------------------------------------------------- pointwise
def _digamma(x):
    """scipy's digamma(-0.) is nan; ATen's digamma(±0) is ∓inf (C++ and SciPy's own convention)."""
    return np.where(x == 0, np.copysign(np.inf, -x), scipy.special.digamma(x)).astype(x.dtype, copy=False)


def _lgamma(x):
    """scipy's gammaln of a subnormal is inf; lgamma(x) there is -log|x| to the last bit, as C's lgamma gives."""
    with np.errstate(divide="ignore"):
        subnormal = (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny) if x.dtype.kind == "f" else False
        return np.where(np.isneginf(x), np.inf, np.where(subnormal, -np.log(np.abs(x)), scipy.special.gammaln(x))
                        ).astype(x.dtype, copy=False)


def _frac(x):
    if x.dtype not in _dtype.NP_FLOATS:
        raise _not_implemented("frac_cpu", _dtype.from_numpy(x.dtype))
    return x - np.trunc(x)


def _erfinv(x):
    """scipy's erfinv(-0.) is 0.; ATen's keeps the sign of a zero."""
    return np.where(x == 0, x, scipy.special.erfinv(x)).astype(x.dtype, copy=False)


erfinv = unary_float(_erfinv)
lgamma = unary_float(_lgamma)
digamma = unary_float(_digamma)
frac = unary_same(_frac)
signbit = unary_bool(np.signbit)


def _float_only(name, fn):
    """A binary op ATen computes for floating dtypes only (hypot, logaddexp)."""
    def compute(a, b, dtype):
        if not dtype.is_floating_point:
            raise _not_implemented(f"{name}_cpu", dtype)
        return fn(a, b)

    return binary(compute)


def _logaddexp(a, b):
    return np.logaddexp(a, b)


hypot = _float_only("hypot", np.hypot)
logaddexp = _float_only("logaddexp", _logaddexp)


def _xlogy(x, y, dtype):
    with np.errstate(all="ignore"):  # (a Python number rounded to the result's type first, as ATen's operands are)
        x, y = np.asarray(x, dtype.np), np.asarray(y, dtype.np)
        return np.where(np.isnan(y), np.nan, np.where(x == 0, 0, x * np.log(y)))


xlogy = binary(_xlogy, out="float")


def _trigamma(x):
    """ATen's trigamma (its series, not scipy's: the two differ in the last digits)."""
    x = x.astype(np.float64)
    reflect = x < 0.5
    result = np.where(reflect, -(np.pi ** 2) / np.sin(np.pi * x) ** 2, 0.0)
    x = np.where(reflect, 1 - x, x)
    for _ in range(6):
        result, x = result + 1 / (x * x), x + 1
    ixx = 1 / (x * x)
    result = result + (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x
    return np.where(reflect, -result, result)


def _polygamma(n, x):
    if n == 0:
        return _digamma(x)
    if n == 1:
        return _trigamma(x)
    return (1.0 if n % 2 else -1.0) * math.factorial(n) * scipy.special.zeta(n + 1, x)


def _polygamma_kernel(n, self):
    dtype = _float_dtype(self.dtype)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    x = _np(self, dtype)
    with np.errstate(all="ignore"):
        out = _polygamma(n, x)
    return _ensure_array(out, dtype)


def _polygamma_meta(n, self):
    return fake_empty(self.shape, _float_dtype(self.dtype), pointwise_strides(self.shape, [self]))


polygamma = _laid_out(_polygamma_kernel, _polygamma_meta)


def _logit_kernel(self, eps=None):
    dtype = _float_dtype(self.dtype)
    x = _np(self, dtype)
    with np.errstate(all="ignore"):
        eps = None if eps is None else x.dtype.type(eps)  # (read in x's type: -1e-65 is -0., which clamps)
        if eps is not None and not eps < 0:  # (ATen's clamp, lower bound first; a negative eps clamps nothing)
            x = np.where(x < eps, eps, np.where(x > 1 - eps, 1 - eps, x)).astype(x.dtype)
        return _ensure_array(np.log(x / (1 - x)), dtype)


def _same_shape_float_meta(self, *args, **kwargs):
    return fake_empty(self.shape, _float_dtype(self.dtype), pointwise_strides(self.shape, [self]))


logit = _laid_out(_logit_kernel, _same_shape_float_meta)


def _logit_backward_kernel(grad_output, self, eps=None):
    dtype = result_type(grad_output, self)
    g, x = _np(grad_output, dtype), _np(self, dtype)
    with np.errstate(all="ignore"):
        slope = g / (x * (1 - x))
        if eps is None:
            out = np.where((x < 0) | (x > 1), np.nan, slope)
        else:
            out = np.where((x < eps) | (x > 1 - eps), 0, slope)
    return _ensure_array(out, dtype)


def _logit_backward_meta(grad_output, self, eps=None):
    shape = broadcast_shapes(tuple(grad_output.shape), tuple(self.shape))
    return fake_empty(shape, result_type(grad_output, self), pointwise_strides(shape, [grad_output, self]))


logit_backward = _laid_out(_logit_backward_kernel, _logit_backward_meta)


def _nan_to_num_kernel(self, nan=None, posinf=None, neginf=None):
    """Of a complex tensor, the real and imaginary parts each."""
    x = self._np
    if x.dtype.kind == "c":
        out = np.empty_like(x)
        out.real, out.imag = (_nan_to_num_of(part, nan, posinf, neginf) for part in (x.real, x.imag))
        return out
    return _ensure_array(_nan_to_num_of(x, nan, posinf, neginf), self.dtype) if x.dtype in _dtype.NP_FLOATS else \
        x.copy()


def _nan_to_num_of(x, nan, posinf, neginf):
    info = np.finfo(x.dtype)
    with np.errstate(all="ignore"):
        out = np.where(np.isnan(x), 0.0 if nan is None else nan, x)
        out = np.where(np.isposinf(x), info.max if posinf is None else posinf, out)
        return np.where(np.isneginf(x), info.min if neginf is None else neginf, out)


def _same_meta(self, *args, **kwargs):
    return fake_empty(self.shape, self.dtype, pointwise_strides(self.shape, [self]))


nan_to_num = _laid_out(_nan_to_num_kernel, _same_meta)


def _check_heaviside(self, values):
    if self.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def _heaviside_kernel(self, values):
    _check_heaviside(self, values)
    x, v = np.broadcast_arrays(self._np, values._np)
    return _ensure_array(np.where(x == 0, v, (x > 0).astype(x.dtype)), self.dtype)


def _heaviside_meta(self, values):
    _check_heaviside(self, values)
    shape = broadcast_shapes(tuple(self.shape), tuple(values.shape))
    return fake_empty(shape, self.dtype, pointwise_strides(shape, [self, values]))


heaviside = _laid_out(_heaviside_kernel, _heaviside_meta)


# ---------------------------------------------------------------- reductions
def _prod_dims(self, dim):
    """The axes prod reduces: all, or the one `dim` (none of a 0-d tensor, whose one dim is itself)."""
    if dim is None:
        return tuple(range(self.dim()))
    dim = wrap_dim(dim, self.dim())
    return (dim,) if self.dim() else ()


def _prod_kernel(self, dim=None, keepdim=False, *, dtype=None):
    out_dtype = sum_dtype(self, dtype)
    dims = _prod_dims(self, dim)
    x = self._np.astype(out_dtype.np, copy=False)
    if out_dtype in _dtype.HALVES and x.size and dims:  # ATen multiplies half in half, in order (numpy: in float)
        with np.errstate(all="ignore"):  # (inf * 0 is nan, silently, as torch's)
            if dim is None:
                return np.multiply.accumulate(x.reshape(-1))[-1].reshape((1,) * self.dim() if keepdim else ())
            product = np.take(np.multiply.accumulate(x, axis=dims[0]), [-1], axis=dims[0])
        return product if keepdim else np.squeeze(product, dims[0])
    return np.asarray(np.prod(x, axis=dims, keepdims=keepdim, dtype=x.dtype))  # (numpy: small ints in int64)


def _prod_meta(self, dim=None, keepdim=False, *, dtype=None):
    dims = _prod_dims(self, dim)
    return fake_empty(reduced_shape(self.shape, dims, keepdim), sum_dtype(self, dtype))


prod_dim = prod_default = _contiguous_out((_prod_kernel, _prod_meta))


def _logsumexp_kernel(self, dim, keepdim=False):
    """A complex tensor's shift is the largest real part, as ATen's."""
    dtype = self.dtype if self.dtype.is_inexact else _dtype.get_default_dtype()
    dims = reduction_dims(dim, self.dim())
    x = self._np.astype(dtype.np, copy=False)
    if x.size == 0:
        return np.asarray(np.full(reduced_shape(self.shape, dims, keepdim), -np.inf, dtype.np))
    m = np.max(x.real, axis=dims, keepdims=True)
    m = np.where(np.isinf(m), 0, m)
    with np.errstate(all="ignore"):
        total = np.sum(np.exp(x - m), axis=dims, keepdims=True, dtype=_dtype.opmath(dtype).np)  # (halves: in float)
        out = np.log(total.astype(dtype.np)) + m
    return np.asarray(out if keepdim else np.squeeze(out, axis=dims), dtype.np)


def _logsumexp_meta(self, dim, keepdim=False):
    dtype = self.dtype if self.dtype.is_inexact else _dtype.get_default_dtype()
    return fake_empty(reduced_shape(self.shape, reduction_dims(dim, self.dim()), keepdim), dtype)


logsumexp = _contiguous_out((_logsumexp_kernel, _logsumexp_meta))


def _checked_norm(self, ord, dim, dtype):
    """The result's dtype and the reduced dims, after ATen's checks in its order: the input's dtype, an empty
    reduction of an order without identity, dtype=, then the dims."""
    if not self.dtype.is_inexact:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {_dtype_title(self.dtype)}")
    if ord < 0 or math.isinf(ord):
        _check_norm_identity(self, ord, dim)
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got {_dtype_title(dtype)}")
    if dtype is not None and _dtype.promote_types(self.dtype, dtype) is not dtype:
        raise RuntimeError(f"linalg.vector_norm: the dtype of the input ({_dtype_title(self.dtype)}) should be "
                           f"convertible without narrowing to the specified dtype ({_dtype_title(dtype)})")
    dtype = dtype or self.dtype  # (a complex tensor's norm is real)
    return _REAL_OF.get(dtype, dtype), reduction_dims(dim, self.dim())


def _check_norm_identity(self, ord, dim):
    dims = [dim] if isinstance(dim, int) else list(dim or ())
    if self.numel() == 0 and not dims:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the "
                           "operation does not have an identity")
    for d in dims:
        if (tuple(self.shape) or (1,))[wrap_dim(d, self.dim())] == 0:  # (torch's words, its missing space too)
            raise RuntimeError(f"linalg.vector_norm cannot compute the {ord} norm on the dimension {d}because this "
                               "dimension is empty and the operation does not have an identity")


def _vector_norm_kernel(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    out_dtype, dims = _checked_norm(self, ord, dim, dtype)
    computed_in = _dtype.COMPLEX_OF[out_dtype] if self.dtype.is_complex else _dtype.opmath(out_dtype)
    x = np.abs(self._np.astype(computed_in.np))
    with np.errstate(all="ignore"):
        if ord == math.inf:
            out = np.max(x, axis=dims, keepdims=keepdim)
        elif ord == -math.inf:
            out = np.min(x, axis=dims, keepdims=keepdim)
        elif ord == 0:
            out = np.sum(x != 0, axis=dims, keepdims=keepdim).astype(x.dtype)
        elif ord == 1:
            out = np.sum(x, axis=dims, keepdims=keepdim)
        elif ord == 2:
            out = np.sqrt(np.sum(x * x, axis=dims, keepdims=keepdim))
        else:
            out = np.sum(x ** ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)
    return c_order(np.asarray(out, out_dtype.np))


def _vector_norm_meta(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    out_dtype, dims = _checked_norm(self, ord, dim, dtype)
    return fake_empty(reduced_shape(self.shape, dims, keepdim), out_dtype)


linalg_vector_norm = (_vector_norm_kernel, _vector_norm_meta)


def _nansum_kernel(self, dim=None, keepdim=False, *, dtype=None):
    out_dtype = sum_dtype(self, dtype)
    dims = reduction_dims(dim, self.dim())
    acc = _dtype.opmath(out_dtype).np
    return c_order(np.asarray(np.nansum(self._np.astype(acc), axis=dims, keepdims=keepdim), out_dtype.np))


def _nansum_meta(self, dim=None, keepdim=False, *, dtype=None):
    dims = reduction_dims(dim, self.dim())
    return fake_empty(reduced_shape(self.shape, dims, keepdim), sum_dtype(self, dtype))


nansum = (_nansum_kernel, _nansum_meta)


def _count_nonzero_kernel(self, dim=None):
    dims = reduction_dims(dim, self.dim())
    return c_order(np.asarray(np.count_nonzero(self._np, axis=dims), np.int64))


def _count_nonzero_meta(self, dim=None):
    return fake_empty(reduced_shape(self.shape, reduction_dims(dim, self.dim()), False), _dtype.int64)


count_nonzero = (_count_nonzero_kernel, _count_nonzero_meta)


def _trace_check(self):
    if self.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.dim()}")


def _trace_kernel(self):
    _trace_check(self)
    out_dtype = sum_dtype(self, None)
    return np.asarray(np.trace(self._np, dtype=out_dtype.np), out_dtype.np)


def _trace_meta(self):
    _trace_check(self)
    return fake_empty((), sum_dtype(self, None))


trace = (_trace_kernel, _trace_meta)


def _std_mean_kernel(self, dim=None, *, correction=None, keepdim=False):
    """In double, as var's kernel (ATen's CPU kernel accumulates float32 in double); a complex tensor's std is real."""
    std_meta, _ = _std_mean_meta(self, dim)  # its dtype check
    dims = reduction_dims(dim, self.dim())
    x = self._np.astype(np.promote_types(self._np.dtype, np.float64))
    with np.errstate(all="ignore"):
        std = np.sqrt(np.var(x, axis=dims, ddof=1 if correction is None else correction, keepdims=keepdim))
        mean = np.mean(x, axis=dims, keepdims=keepdim)
    return c_order(np.asarray(std, std_meta.dtype.np)), c_order(np.asarray(mean, self.dtype.np))


def _std_mean_meta(self, dim=None, *, correction=None, keepdim=False):
    if not self.dtype.is_inexact:  # (when traced too: a compiled graph would compute)
        raise RuntimeError("std_mean only support floating point and complex dtypes")
    shape = reduced_shape(self.shape, reduction_dims(dim, self.dim()), keepdim)
    return fake_empty(shape, _REAL_OF.get(self.dtype, self.dtype)), fake_empty(shape, self.dtype)


std_mean = (_std_mean_kernel, _std_mean_meta)


# ---------------------------------------------------------------- matrices: baddbmm, addmm_'s shape check, cdist
baddbmm = linalg._add_product(linalg._bmm_shape, "baddbmm")


def _check_addmm_(self, mat1, mat2):
    shape = [mat1.shape[0], mat2.shape[-1]] if mat1.dim() == 2 and mat2.dim() == 2 else None
    if shape is not None and list(self.shape) != shape:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size {shape} "
                           "should match")


def _addmm_checked(impl):
    """addmm_: self must already have the product's shape (addmm broadcasts it; the in-place form refuses)."""
    kernel, meta = impl

    def checked(run):
        def call(self, mat1, mat2, **kwargs):
            _check_addmm_(self, mat1, mat2)
            return run(self, mat1, mat2, **kwargs)

        return call

    return checked(kernel), checked(meta)


addmm_checked = _addmm_checked(linalg.addmm)


def _cdist_check(x1, x2, p):
    if x1.dim() < 2 or x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if not x1.dtype.is_floating_point:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X1 got: {_dtype_title(x1.dtype)}")
    batch = broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
    return list(batch) + [x1.shape[-2], x2.shape[-2]]


def _pairwise(x1, x2):
    """(batch..., r1, r2, m) absolute differences of every row pair."""
    return np.abs(x1[..., :, None, :] - x2[..., None, :, :])


def _cdist_kernel(x1, x2, p, compute_mode=None):
    shape = _cdist_check(x1, x2, p)
    diff = _pairwise(x1._np, x2._np)
    with np.errstate(all="ignore"):
        if p == 0:
            out = np.sum(diff != 0, -1).astype(diff.dtype)
        elif math.isinf(p):
            out = np.max(diff, -1, initial=0)
        else:
            out = np.sum(diff ** p, -1) ** (1.0 / p)
    return np.ascontiguousarray(np.broadcast_to(out, shape), x1.dtype.np)


cdist_forward = (_cdist_kernel, lambda x1, x2, p, compute_mode=None: fake_empty(_cdist_check(x1, x2, p), x1.dtype))


def _cdist_backward_kernel(grad, x1, x2, p, cdist):
    a, b = np.broadcast_arrays(x1._np[..., :, None, :], x2._np[..., None, :, :])
    diff, dist, g = a - b, cdist._np[..., None], grad._np[..., None]
    with np.errstate(all="ignore"):
        if p == 0:
            slope = np.zeros_like(diff)
        elif p == 1:
            slope = np.sign(diff)
        elif math.isinf(p):
            slope = np.sign(diff) * (np.abs(diff) == dist)
        else:
            slope = diff * np.abs(diff) ** (p - 2) / dist ** (p - 1)
        slope = np.where(dist == 0, 0, slope)
    out = np.sum(g * slope, -2)
    return np.ascontiguousarray(np.broadcast_to(out, x1._np.shape), x1.dtype.np)


cdist_backward = (_cdist_backward_kernel, lambda grad, x1, x2, p, cdist: fake_empty(x1.shape, x1.dtype))


# ---------------------------------------------------------------- roll, linspace, eye
def _roll_kernel(self, shifts, dims=()):
    if not dims:
        return np.roll(self._np.reshape(-1), shifts).reshape(self.shape)
    return c_order(np.roll(self._np, shifts, axis=tuple(wrap_dim(d, self.dim()) for d in dims)))


roll = (_roll_kernel, lambda self, shifts, dims=(): fake_empty(self.shape, self.dtype))


def _linspace_kernel(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    out = dtype or _dtype.get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if out is _dtype.bool_:
        raise _not_implemented("linspace_cpu", out)
    if steps == 1:
        return np.full((1,), start, out.np)
    # ATen computes in the output's own float type (integer outputs step in double), each value one fused
    # multiply-add from the nearer end (its compiler contracts them; float16's operators round at each step)
    compute = out.np if out.is_floating_point else np.dtype(np.float64)
    if not out.is_floating_point:
        start, end = int(start), int(end)  # ATen converts the ends to the output type first
    start, end = compute.type(start), compute.type(end)
    step = (end - start) / compute.type(steps - 1)
    idx = np.arange(steps)
    half = steps // 2
    from_start, from_end = idx.astype(compute), (steps - 1 - idx).astype(compute)
    if compute in (np.float16, _dtype.bfloat16.np):
        values = np.where(idx < half, start + step * from_start, end - step * from_end)
    else:
        values = np.where(idx < half, range_values.fused_multiply_add(step, from_start, start),
                          range_values.fused_multiply_add(-step, from_end, end))
    return values.astype(out.np)


def _linspace_meta(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    return fake_empty((steps,), dtype or _dtype.get_default_dtype())


linspace = (_linspace_kernel, _linspace_meta)


def _eye_kernel(n, m=None, *, dtype=None, layout=None, device=None, pin_memory=None):
    return np.eye(*_eye_shape(n, m), dtype=(dtype or _dtype.get_default_dtype()).np)


def _eye_meta(n, m=None, *, dtype=None, layout=None, device=None, pin_memory=None):
    return fake_empty(_eye_shape(n, m), dtype or _dtype.get_default_dtype())


def _eye_shape(n, m):
    m = n if m is None else m
    for name, size in (("n", n), ("m", m)):
        if size < 0:  # (ATen's check; numpy's would be a ValueError)
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return n, m


eye = (_eye_kernel, _eye_meta)
