"""all() as torch's decomposition tables write it: not (any (not self)), over the same dims.

Runtime layer, coverage surface: the decomposition column of table_more.py's all rows, which compile (inductor's table)
and run_decompositions() (export's) both apply, so their graphs record any.dim / any.dims between two logical_nots
as torch's do. any is core ATen and stays whole. A uint8 input gives uint8, as all() on uint8 does.
"""
from .. import _dtype
from .._ops import ops

aten = ops.aten


def _not_any_not(self, any_of_negation):
    result = aten.logical_not.default(any_of_negation(aten.logical_not.default(self)))
    return aten._to_copy.default(result, dtype=_dtype.uint8) if self.dtype == _dtype.uint8 else result


def all_default(self):
    return _not_any_not(self, aten.any.dims)


def all_dims(self, dim=None, keepdim=False):
    return _not_any_not(self, lambda x: aten.any.dims(x, dim, keepdim) if keepdim else aten.any.dims(x, dim))


def all_dim(self, dim, keepdim=False):
    return _not_any_not(self, lambda x: aten.any.dim(x, dim, keepdim) if keepdim else aten.any.dim(x, dim))
