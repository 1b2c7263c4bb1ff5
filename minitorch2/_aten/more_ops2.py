"""Kernels, meta functions and derivative formulas of the smaller pointwise ops scripts reach for beyond
more_ops.py: tan, the inverse trigonometric and the hyperbolic functions, log2/log10, exp2, atan2, fmod, lerp,
softplus, hardtanh, elu, cumsum/cumprod, round(decimals=), the bit shifts, deg2rad/rad2deg, fmax/fmin, logaddexp2,
nextafter, gcd/lcm.

Runtime layer: (kernel, meta) pairs and formulas for table_more.py's rows (coverage surface, not the lesson).
Dtype rules and error messages follow ATen's: the float ops compute integer inputs in the default float dtype,
gcd/lcm take integers only.
"""
import math

import numpy as np

from .. import _dtype
from .._dtype import result_type
from .._ops import ops
from .._tensor import Tensor
from . import pointwise as pw
from .derivatives_util import _shape, sum_to
from .meta_util import broadcast_shapes, fake_empty, fake_pointwise, pointwise_strides, preserve_format_strides
from .meta_util import with_strides, wrap_dim
from .pointwise_arithmetic import _check_int_division, _refused_in_meta
from .pointwise_factories import _ensure_array, _float_dtype, _laid_out, _not_implemented, _np, binary, unary_float
from .pointwise_unary import _float_kernel, rounded_from_double
from .reductions import sum_dtype

aten = ops.aten


def real_only(name, fn):
    """A binary numpy function ATen has no complex kernel for: its NotImplementedError, not numpy's TypeError."""
    def compute(a, b, *, dtype):
        if dtype.is_complex:
            raise _not_implemented(f"{name}_cpu", dtype)
        return fn(a, b)

    return compute


tan = unary_float(rounded_from_double(np.tan))
asin = unary_float(rounded_from_double(np.arcsin))
acos = unary_float(rounded_from_double(np.arccos))
atan = unary_float(rounded_from_double(np.arctan))
sinh = unary_float(rounded_from_double(np.sinh))
cosh = unary_float(rounded_from_double(np.cosh))
log2 = unary_float(rounded_from_double(np.log2))
log10 = unary_float(rounded_from_double(np.log10))
exp2 = unary_float(np.exp2)
atan2 = binary(real_only("atan2", np.arctan2), out="float")
acosh = unary_float(np.arccosh)
asinh = unary_float(np.arcsinh)
atanh = unary_float(rounded_from_double(np.arctanh))


def _scaled_by(factor):
    """deg2rad/rad2deg: ATen's mul by the constant (its layout too), integers first made the default float dtype."""
    mul_kernel, mul_meta = pw.mul

    def kernel(self):
        if not self.dtype.is_floating_point:
            values = self._np.astype(_float_dtype(self.dtype).np)
            self = with_strides(Tensor._from_numpy(values), preserve_format_strides(self))
        return mul_kernel(self, factor)

    def meta(self):
        if not self.dtype.is_floating_point:
            self = fake_empty(self.shape, _float_dtype(self.dtype), preserve_format_strides(self))
        return mul_meta(self, factor)

    return kernel, meta


deg2rad = _scaled_by(math.pi / 180)
rad2deg = _scaled_by(180 / math.pi)


def _integers_only(name, fn):
    def compute(a, b, dtype):
        if dtype.is_floating_point or dtype.is_complex or dtype.name == "bool":
            raise _not_implemented(f"{name}_cpu", dtype)
        return fn(a, b)

    return binary(compute)


def _euclid(a, b):
    """ATen's gcd: Euclid's loop over |a| and |b| with C's remainder, in the dtype, so |INT_MIN| stays negative
    and gcd(INT_MIN, 6) is -2 (numpy's gcd is 2)."""
    a, b = np.broadcast_arrays(np.abs(a), np.abs(b))
    while (going := a != 0).any():
        a, b = np.where(going, np.fmod(b, np.where(going, a, 1)), 0), np.where(going, a, b)
    return b


def _lcm(a, b):
    """ATen's lcm: |a / gcd * b| in C's int (or wider), wrapping, then the dtype (the gcd divides a exactly, so
    // is C's /)."""
    g, wide = _euclid(a, b), np.promote_types(a.dtype, np.int32)
    product = a.astype(wide) // np.where(g == 0, 1, g).astype(wide) * b.astype(wide)
    return np.where(g == 0, 0, np.abs(product)).astype(a.dtype)


gcd = _integers_only("gcd", _euclid)
lcm = _integers_only("lcm", _lcm)
fmax = binary(lambda a, b, dtype: np.where(a == b, a, np.fmax(a, b)))  # (of 0. and -0., ATen's keeps the first)
fmin = binary(lambda a, b, dtype: np.where(a == b, a, np.fmin(a, b)))


def _float_only(name, fn):
    def compute(a, b, dtype):
        if not dtype.is_floating_point:
            raise _not_implemented(f"{name}_cpu", dtype)
        return fn(a, b)

    return binary(compute)


logaddexp2 = _float_only("logaddexp2", np.logaddexp2)
nextafter = _float_only("nextafter", np.nextafter)


def _fmod(a, b, *, dtype):
    if dtype is _dtype.bool_ or dtype.is_complex:
        raise _not_implemented("fmod_cpu", dtype)
    if not dtype.is_floating_point:
        _check_int_division(a, b)
    return np.fmod(a, b)


fmod = _refused_in_meta(binary(_fmod), lambda: "fmod_cpu")


def _lerp_check(self, end, weight):
    """ATen's lerp: end (and a weight tensor of dims, where a 0-d one is a Scalar) of self's dtype, a floating one."""
    by_tensor = isinstance(weight, Tensor) and weight.dim() > 0
    for name, other in (("end", end), ("weight", weight if by_tensor else None)):
        if other is not None and other.dtype is not self.dtype:
            raise RuntimeError(f"expected dtype {_TYPE_META_NAMES[self.dtype.name]} for `{name}` but got dtype "
                               f"{_TYPE_META_NAMES[other.dtype.name]}")
    if not self.dtype.is_inexact:
        raise _not_implemented("lerp_kernel_tensor" if by_tensor else "lerp_kernel_scalar", self.dtype)


def _lerp_kernel():
    def kernel(self, end, weight):
        broadcast_shapes(*(tuple(t.shape) for t in (self, end, weight) if isinstance(t, Tensor)))  # torch's error
        _lerp_check(self, end, weight)
        # ATen's formula: stable from both ends (weight < 0.5 starts at self, otherwise at end). ATen's
        # vector loop evaluates it as one fma, numpy rounds the product first: the last bit of about one
        # result in ten differs from torch's (an exact fma emulation cost 4x on AdamW's step)
        dtype = result_type(self, end)
        compute = _dtype.opmath(dtype)  # ATen's opmath for half
        a, b = _np(self, compute), _np(end, compute)
        w = _np(weight, compute)
        with np.errstate(all="ignore"):
            if not isinstance(w, np.ndarray):
                result = a + w * (b - a) if abs(w) < 0.5 else b - (b - a) * (1 - w)
            else:
                result = np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))
        return _ensure_array(result, dtype)

    def meta(self, end, weight):
        _lerp_check(self, end, weight)
        return fake_pointwise(result_type(self, end), (self, end, weight))

    return _laid_out(kernel, meta)


lerp = _lerp_kernel()


def _softplus(x, beta=1, threshold=20):
    bx = x * beta
    return np.where(bx > threshold, x, np.log1p(np.exp(bx)) / beta)


def _softplus_backward(grad, x, beta, threshold):
    bx = x * beta
    z = np.exp(bx)
    return np.where(bx > threshold, grad, grad * z / (z + 1))


softplus = _float_kernel(_softplus)
softplus_backward = _float_kernel(_softplus_backward, nargs=2)


# ---------------------------------------------------------------- cumsum, cumprod
def _scan(np_fn):
    """cumsum / cumprod: integers accumulate in int64, as sum and prod do; floats in ATen's CPU accumulator type
    (halves in float32, float32 in float64: a float32 cumsum of 10**5 numbers would drift by 1e-5 otherwise).
    ATen's float cumsum adds to 0. (numpy's starts from the first element), so a run of -0. sums to 0."""
    def kernel(self, dim, *, dtype=None):
        out_dtype = meta(self, dim, dtype=dtype).dtype
        d = wrap_dim(dim, self.dim())
        if self.dim() == 0:
            return self._np.astype(out_dtype.np).copy()
        with np.errstate(all="ignore"):  # (floats past an integer dtype's range: ATen's conversion is silent)
            result = np_fn(self._np, axis=d, dtype=_SCAN_ACCUMULATOR.get(out_dtype.np, _dtype.opmath(out_dtype).np))
            if np_fn is np.cumsum and result.dtype in _dtype.NP_FLOATS:
                result += 0.0
            return np.ascontiguousarray(result, out_dtype.np)

    def meta(self, dim, *, dtype=None):
        wrap_dim(dim, self.dim())
        if sum_dtype(self, dtype) is _dtype.bool_ and self.dim() and self.numel():  # (no bool scan: copies pass)
            raise NotImplementedError(f'"{np_fn.__name__}_out_cpu" not implemented for \'Bool\'')
        return fake_empty(self.shape, sum_dtype(self, dtype))

    return kernel, meta


_SCAN_ACCUMULATOR = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}
cumsum, cumprod = _scan(np.cumsum), _scan(np.cumprod)


# ---------------------------------------------------------------- hardtanh and its backward
def _hardtanh_kernel():
    """hardtanh clamps integer tensors too (only bool is refused)."""

    def kernel(self, min_val=-1, max_val=1):
        if self.dtype is _dtype.bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        return _ensure_array(np.clip(self._np, min_val, max_val), self.dtype)

    def meta(self, min_val=-1, max_val=1):  # ATen: hardtanh_out into empty_like(self)
        return fake_empty(self.shape, self.dtype, preserve_format_strides(self))

    return _laid_out(kernel, meta)


def _hardtanh_backward(grad, x, min_val, max_val):
    return np.where((x > min_val) & (x < max_val), grad, np.zeros((), grad.dtype))


hardtanh = _hardtanh_kernel()
hardtanh_backward = _float_kernel(_hardtanh_backward, nargs=2)


# ---------------------------------------------------------------- elu and its backward
def _elu_compute(self):
    """elu computes in self's floating dtype (half in float32); other dtypes are refused as ATen's elu_cpu."""
    if not self.dtype.is_floating_point:
        raise _not_implemented("elu_cpu", self.dtype)
    return _dtype.opmath(self.dtype)


def _elu_kernel():
    def kernel(self, alpha=1, scale=1, input_scale=1):
        x = _np(self, _elu_compute(self))
        with np.errstate(all="ignore"):
            negative = np.expm1(x * np.asarray(input_scale, x.dtype)) * np.asarray(alpha * scale, x.dtype)
            # (ATen's kernel takes the negative branch below 0 only: elu(-0.) is -0. for any alpha)
            return _ensure_array(np.where(x < 0, negative, x * np.asarray(scale, x.dtype)), self.dtype)

    def meta(self, alpha=1, scale=1, input_scale=1):
        _elu_compute(self)
        return fake_empty(self.shape, self.dtype, pointwise_strides(self.shape, [self]))

    return _laid_out(kernel, meta)


def _elu_backward_kernel():
    """`self_or_result` is elu's input, or (is_result) its output, from which the slope is recovered:
    d/dx alpha*scale*expm1(x*input_scale) = input_scale * (out + alpha*scale) where x <= 0."""

    def check(alpha, scale, is_result):
        if is_result and alpha * scale < 0:
            raise RuntimeError("In-place elu backward calculation is triggered with a negative slope which is not "
                               "supported. This is caused by calling in-place forward function with a negative slope, "
                               "please call out-of-place version instead.")

    def kernel(grad_output, alpha, scale, input_scale, is_result, self_or_result):
        check(alpha, scale, is_result)
        dtype = result_type(grad_output, self_or_result)
        compute = _dtype.opmath(dtype)
        grad, x = _np(grad_output, compute), _np(self_or_result, compute)
        negcoef, poscoef, negiptcoef = (np.asarray(c, compute.np) for c in (alpha * scale, scale, input_scale))
        with np.errstate(all="ignore"):
            if is_result:
                negative = grad * negiptcoef * (x + negcoef)
            else:
                negative = grad * negiptcoef * negcoef * np.exp(x * negiptcoef)
            return _ensure_array(np.where(x <= 0, negative, grad * poscoef), dtype)

    def meta(grad_output, alpha, scale, input_scale, is_result, self_or_result):
        check(alpha, scale, is_result)
        return fake_pointwise(result_type(grad_output, self_or_result), [grad_output, self_or_result])

    return _laid_out(kernel, meta)


elu = _elu_kernel()
elu_backward = _elu_backward_kernel()


# ---------------------------------------------------------------- round(decimals=)
def _round_decimals_kernel(self, *, decimals):
    """ATen's round_decimals: nearbyint(x * 10**d) / 10**d, or for d < 0 nearbyint(x / 10**-d) * 10**-d,
    in the input's opmath type (float32 for half)."""
    if decimals == 0:
        return pw.round[0](self)
    if not self.dtype.is_floating_point:
        raise _not_implemented("round_cpu", self.dtype)
    compute = _dtype.opmath(self.dtype).np.type
    ten_pow = compute(10.0 ** (-decimals if decimals < 0 else decimals))  # (abs is the op here)
    x = self._np.astype(compute)
    with np.errstate(all="ignore"):
        out = np.rint(x / ten_pow) * ten_pow if decimals < 0 else np.rint(x * ten_pow) / ten_pow
    return _ensure_array(out.astype(self.dtype.np, copy=False), self.dtype)


def _round_decimals_meta(self, *, decimals):
    if decimals == 0:
        return pw.round[1](self)
    if not self.dtype.is_floating_point:
        raise _not_implemented("round_cpu", self.dtype)
    return fake_empty(self.shape, self.dtype, pointwise_strides(self.shape, [self]))


round_decimals = _laid_out(_round_decimals_kernel, _round_decimals_meta)


# ---------------------------------------------------------------- bit shifts
# (shift_*_values are also the numpy reference evaluator's lshift and rshift, backend/codegen/numpy_ref.py)
def shift_left_values(a, b):
    """ATen's: a negative count or one of the type's width or more gives 0; bits shifted out of the top are
    lost (the shift runs on the unsigned type, so signed values wrap rather than overflow)."""
    bits = a.dtype.itemsize * 8
    valid = (b >= 0) & (b < bits)
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    shifted = np.left_shift(a.astype(unsigned), np.where(valid, b, 0).astype(unsigned)).astype(a.dtype)
    return np.where(valid, shifted, np.zeros((), a.dtype))


def shift_right_values(a, b):
    """ATen's: a negative count or one past the widest shift (width - 1 for signed types, which keeps the
    sign bit) shifts by the widest: -1 or 0 for signed values, 0 for unsigned ones."""
    bits = a.dtype.itemsize * 8
    widest = bits - 1 if a.dtype.kind == "i" else bits
    count = np.where((b < 0) | (b > widest), widest, b)
    shifted = np.right_shift(a, np.minimum(count, bits - 1).astype(a.dtype))
    return np.where(count >= bits, np.zeros((), a.dtype), shifted)  # (numpy leaves a full-width shift undefined)


def _shift(name, fn):
    """<< and >> on integers (floats and bools are refused, as ATen's integral-only kernels do)."""
    def compute(a, b, *, dtype):
        if dtype.is_inexact or dtype is _dtype.bool_:  # (complex too)
            raise _not_implemented(f"{name}_cpu", dtype)
        # (np.array(...).astype wraps a Python int as a C cast does; np.asarray(-1, uint8) would refuse it)
        return fn(np.array(a).astype(dtype.np), np.array(b).astype(dtype.np))

    return compute


def _integral_binary(name, fn):
    """A shift: ATen's kernel shifts bools (as integers) and refuses floats (NotImplementedError); torch's meta, run as
    Dynamo traces, refuses both, and a float shift, as RuntimeError: a compiled `mask << 2` fails to trace."""
    kernel, meta = binary(_shift(name, fn))

    def checked_meta(self, other):
        integral = lambda t: not (t.dtype.is_inexact or t.dtype is _dtype.bool_)
        if isinstance(self, Tensor) and not integral(self):
            raise RuntimeError(f"{name}: Expected input tensor to have an integral dtype. Got {self.dtype}")
        if isinstance(other, Tensor) and not integral(other):
            raise RuntimeError(f"{name}: Expected shift value to have an integral dtype. Got {other.dtype}")
        if not isinstance(other, (Tensor, int)):
            raise RuntimeError(f"{name}: Expected shift value to be an int. Got {other}")
        return meta(self, other)

    return kernel, checked_meta


bitwise_left_shift = _integral_binary("lshift", shift_left_values)
bitwise_right_shift = _integral_binary("rshift", shift_right_values)


# ---------------------------------------------------------------- derivative formulas
def acosh_formula(grad, self):
    return aten.mul.Tensor(grad, aten.rsqrt.default(aten.sub.Scalar(aten.mul.Tensor(self, self), 1)))


def asinh_formula(grad, self):
    return aten.mul.Tensor(grad, aten.rsqrt.default(aten.add.Scalar(aten.mul.Tensor(self, self), 1)))


def atanh_formula(grad, self):
    return aten.mul.Tensor(grad, aten.reciprocal.default(aten.rsub.Scalar(aten.mul.Tensor(self, self), 1)))


def deg2rad_formula(grad):
    return aten.mul.Scalar(grad, math.pi / 180)


def rad2deg_formula(grad):
    return aten.mul.Scalar(grad, 180 / math.pi)


def _masked_pair(grad, self, other, self_wins, needs_grad):
    """fmax/fmin: self's gradient where it was chosen (it wins, or other is NaN), other's elsewhere."""
    chosen = aten.logical_or.default(self_wins, aten.isnan.default(other))
    self_grad = aten.masked_fill.Scalar(grad, aten.logical_not.default(chosen), 0) if needs_grad[0] else None
    other_grad = aten.masked_fill.Scalar(grad, chosen, 0) if needs_grad[1] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def fmax_formula(grad, self, other, needs_grad):
    return _masked_pair(grad, self, other, aten.ge.Tensor(self, other), needs_grad)


def fmin_formula(grad, self, other, needs_grad):
    return _masked_pair(grad, self, other, aten.le.Tensor(self, other), needs_grad)


def logaddexp2_formula(grad, self, other, needs_grad):
    def share(a, b):
        return aten.div.Tensor(grad, aten.add.Scalar(aten.pow.Scalar(2, aten.sub.Tensor(a, b)), 1))

    self_grad = share(other, self) if needs_grad[0] else None
    other_grad = share(self, other) if needs_grad[1] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


# ---------------------------------------------------------------- in-place kernels with checks of their own
_TYPE_META_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
                    "int64": "long int",
                    "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
                    "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def same_dtype_in_place(impl):
    """cumsum_/cumprod_: a `dtype` argument must be self's own (ATen checks it before computing); the scan is in
    self's dtype (so a bool one is refused, as the out= kernel refuses it)."""
    kernel, meta = impl

    def check(self, dtype):
        if dtype is not None and dtype is not self.dtype:
            raise RuntimeError(f"Bad in-place call: input tensor dtype {_TYPE_META_NAMES[self.dtype.name]} and "
                               f"output tensor dtype {_TYPE_META_NAMES[dtype.name]} should match")

    def checked_kernel(self, dim, dtype=None):
        check(self, dtype)
        return kernel(self, dim, dtype=self.dtype)

    def checked_meta(self, dim, dtype=None):
        check(self, dtype)
        return meta(self, dim, dtype=self.dtype)

    return checked_kernel, checked_meta


def no_derivative_formula(op_name):
    """A grad_fn whose backward raises as torch's NotImplemented node does (remainder.Scalar_Tensor's)."""
    def formula(grad):
        raise RuntimeError(f"derivative for {op_name} is not implemented")

    return formula


def not_implemented_formula(what):
    """A grad_fn whose backward raises, as torch's not_implemented(...) formulas do (nextafter, acosh_)."""
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")

    return formula


def nextafter_formula(grad, self, other, needs_grad):
    """torch's: self's gradient passes through where the step moved it (self != other); other gets zeros."""
    other_grad = aten.zeros_like.default(other) if needs_grad[1] else None
    self_grad = aten.masked_fill.Scalar(grad, aten.eq.Tensor(self, other), 0) if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), other_grad
