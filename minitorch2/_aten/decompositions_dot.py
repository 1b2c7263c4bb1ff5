"""dot as torch's decomposition tables write it (torch._refs.dot): `(self * tensor).sum()`.

Runtime layer, coverage surface: the decomposition column of table.py's dot row, which compile (inductor's table)
and run_decompositions() (export's) apply, so their graphs record mul and sum as torch's do (nlp-tutorial's
Seq2Seq attention scores with torch.dot). Inputs torch's wrapper would compute in float32 (halves), conjugated
complex ones and those dot refuses keep the op whole, which raises eager's error or computes as eager does.
"""
from .. import _dtype
from .._ops import ops

aten = ops.aten


def dot(self, tensor):
    if (self.dim() != 1 or tensor.dim() != 1 or self.shape[0] != tensor.shape[0] or self.dtype is not tensor.dtype
            or self.dtype in (_dtype.float16, _dtype.bfloat16) or self.dtype.is_complex):
        return NotImplemented
    return aten.sum.default(aten.mul.Tensor(self, tensor))
