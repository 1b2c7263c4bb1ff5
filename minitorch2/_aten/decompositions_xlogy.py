"""xlogy as torch's decomposition tables write it (torch._refs.xlogy): `self * log(other)`, 0 where self is 0, NaN
where other is NaN.

Runtime layer, coverage surface: the decomposition column of table_more.py's xlogy.Tensor row, which compile
(inductor's table) and run_decompositions() (export's) apply, so their graphs record eq, log, mul, where and isnan as
torch's do (kl_div's `xlogy(target, target)` reaches it). Inputs torch's wrapper would first promote (integers,
mixed dtypes, halves computed in float32) keep the op whole.
"""
from .. import _dtype
from .._ops import ops

aten = ops.aten


def xlogy(self, other):
    if self.dtype is not other.dtype or not self.dtype.is_floating_point or self.dtype in _dtype.HALVES:
        return NotImplemented
    is_zero = aten.eq.Scalar(self, 0)
    product = aten.mul.Tensor(self, aten.log.default(other))
    rhs = aten.where.self(is_zero, aten.scalar_tensor.default(0, dtype=self.dtype), product)
    return aten.where.self(aten.isnan.default(other), aten.scalar_tensor.default(float("nan"), dtype=self.dtype), rhs)
