"""The optimizers' in-place fast paths: add_, sub_, mul_, div_, addcmul_, addcdiv_ and lerp_ computed in self's memory.

Runtime layer, counted apart from the lesson (it buys eager speed and, for add_/sub_ with alpha, ATen's last bit;
torch.optim's steps are its callers). An in-place row names one of these as its `into_self`; memory.inplace calls it
first and falls back to "compute the result, check it fits self, copy it in" when it answers False. Each one answers
True only where writing into self gives the bits of that fallback: self float32/float64 with memory behind it, the
other tensors of its dtype and shape (no broadcast, no casts), the kernel's operations in the kernel's order.
"""
import numpy as np

from .. import _dtype
from .._tensor import Tensor

FLOATING = (_dtype.float32, _dtype.float64)  # float16 math rounds through float32 in the kernels

_blas = None


def _writes_into_self(ufunc, self, other, alpha):
    """self OP= alpha * other by one numpy ufunc writing into self's memory: other a Python number (alpha 1) or a
    tensor of self's dtype and shape (numpy copies an operand that overlaps self first). A bool or complex alpha
    is the kernel's to check."""
    if self._np is None or self.dtype not in FLOATING or type(alpha) not in (int, float):
        return False
    if isinstance(other, Tensor):
        if other.dtype is not self.dtype or other._shape != self._shape or other._np is None:
            return False
        other = other._np
    elif type(other) not in (int, float) or alpha != 1:
        return False
    if alpha == 1 or not _axpy(ufunc, self._np, other, alpha):
        with np.errstate(all="ignore"):
            ufunc(self._np, other if alpha == 1 else np.multiply(other, alpha), out=self._np)
    return True


def _axpy(ufunc, target, other, alpha):
    """target += alpha * other (or -= for subtract) by BLAS's axpy: one pass, one rounding per element
    (a fused multiply-add, as ATen's vectorized add with alpha), where both are contiguous and apart."""
    if ufunc not in (np.add, np.subtract) or not (target.flags.c_contiguous and other.flags.c_contiguous) \
            or target.size == 0 or np.shares_memory(target, other):
        return False
    axpy = _scipy_blas().saxpy if target.dtype == np.float32 else _scipy_blas().daxpy
    flat = target.reshape(-1)
    result = axpy(other.reshape(-1), flat, a=alpha if ufunc is np.add else -alpha)
    if not np.shares_memory(result, flat):  # (BLAS worked on a copy: take its result)
        np.copyto(flat, result)
    return True


def _scipy_blas():
    """scipy.linalg.blas, imported on first use and kept: in the optimizers' hot path an import
    statement would cost a microsecond each time."""
    global _blas
    if _blas is None:
        # deferred: importing scipy.linalg takes about 0.2 s, and only in-place add/sub with alpha needs it
        from scipy.linalg import blas
        _blas = blas
    return _blas


def _ufunc_into_self(ufunc):
    def into_self(self, other, alpha=1):
        return _writes_into_self(ufunc, self, other, alpha)

    return into_self


add_into_self, sub_into_self = _ufunc_into_self(np.add), _ufunc_into_self(np.subtract)
mul_into_self, div_into_self = _ufunc_into_self(np.multiply), _ufunc_into_self(np.true_divide)


def _same_float_operands(self, *others):
    """self and the tensors `others` all of self's float32/float64 dtype and shape, with memory behind them."""
    if self._np is None or self.dtype not in FLOATING:
        return False
    return all(isinstance(t, Tensor) and t._np is not None and t.dtype is self.dtype and t._shape == self._shape
               for t in others)


def lerp_into_self(self, end, weight):
    """lerp_ for a Python number weight, in pointwise_arithmetic's lerp order."""
    if isinstance(weight, Tensor) or not _same_float_operands(self, end):
        return False
    difference = np.asarray(np.subtract(end._np, self._np))  # (asarray: 0-d operands give a scalar)
    if -0.5 < weight < 0.5:
        difference *= weight
        np.add(self._np, difference, out=self._np)
    else:
        difference *= 1 - weight
        np.subtract(end._np, difference, out=self._np)
    return True


def _addcmul_into_self(op):
    def into_self(self, tensor1, tensor2, *, value=1):
        """addcmul_ / addcdiv_: self + (value * tensor1) OP tensor2, as pointwise_arithmetic's kernel."""
        if not _same_float_operands(self, tensor1, tensor2):
            return False
        scaled = np.asarray(np.multiply(tensor1._np, value))  # (asarray: 0-d operands give a scalar)
        with np.errstate(all="ignore"):
            op(scaled, tensor2._np, out=scaled)
        np.add(self._np, scaled, out=self._np)
        return True

    return into_self


addcmul_into_self = _addcmul_into_self(np.multiply)
addcdiv_into_self = _addcmul_into_self(np.true_divide)
