"""Kernels, meta functions and derivative formulas of the smaller pointwise ops scripts reach for beyond
more_ops.py: the inverse hyperbolic functions, deg2rad/rad2deg, fmax/fmin, logaddexp2, nextafter, gcd/lcm.

Runtime layer: (kernel, meta) pairs and formulas for table_more.py's rows (coverage surface, not the lesson).
Dtype rules and error messages follow ATen's: the float ops compute integer inputs in the default float dtype,
gcd/lcm take integers only.
"""
import math

import numpy as np

from .._ops import ops
from .._tensor import Tensor
from . import pointwise as pw
from .derivatives_util import _shape, sum_to
from .meta_util import fake_empty, preserve_format_strides, with_strides
from .pointwise_factories import _float_dtype, _not_implemented, binary, unary_float

aten = ops.aten

acosh = unary_float(np.arccosh)
asinh = unary_float(np.arcsinh)
atanh = unary_float(np.arctanh)


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
        if dtype.is_floating_point or dtype.name == "bool":
            raise _not_implemented(f"{name}_cpu", dtype)
        return fn(a, b)

    return binary(compute)


gcd = _integers_only("gcd", np.gcd)
lcm = _integers_only("lcm", np.lcm)
fmax = binary(lambda a, b, dtype: np.fmax(a, b))
fmin = binary(lambda a, b, dtype: np.fmin(a, b))


def _float_only(name, fn):
    def compute(a, b, dtype):
        if not dtype.is_floating_point:
            raise _not_implemented(f"{name}_cpu", dtype)
        return fn(a, b)

    return binary(compute)


logaddexp2 = _float_only("logaddexp2", np.logaddexp2)
nextafter = _float_only("nextafter", np.nextafter)


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
_TYPE_META_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
                    "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
                    "bool": "bool"}


def same_dtype_in_place(impl):
    """cumsum_/cumprod_: a `dtype` argument must be self's own (ATen checks it before computing)."""
    kernel, meta = impl

    def check(self, dtype):
        if dtype is not None and dtype is not self.dtype:
            raise RuntimeError(f"Bad in-place call: input tensor dtype {_TYPE_META_NAMES[self.dtype.name]} and "
                               f"output tensor dtype {_TYPE_META_NAMES[dtype.name]} should match")

    def checked_kernel(self, dim, dtype=None):
        check(self, dtype)
        return kernel(self, dim, dtype=dtype)

    def checked_meta(self, dim, dtype=None):
        check(self, dtype)
        return meta(self, dim, dtype=dtype)

    return checked_kernel, checked_meta


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
