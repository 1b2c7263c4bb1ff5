"""Export's own decompositions: the ops torch's core ATen table (run_decompositions()' default) splits that
torch's inductor lowers whole, so the op table's rows, which serve the inductor path, carry no decomposition.

torch.export layer (coverage surface): exported_program.core_aten_decomposition_table() adds these to the rows'
decompositions of the ops outside the core set. Each records the ops torch's reference decomposition records,
in the same order (`value * tensor1` is `mul.Tensor(tensor1, value)`).
"""
from .._ops import ops

aten = ops.aten


def addcmul(self, tensor1, tensor2, *, value=1):
    return aten.add.Tensor(self, aten.mul.Tensor(aten.mul.Tensor(tensor1, value), tensor2))


def addcdiv(self, tensor1, tensor2, *, value=1):
    return aten.add.Tensor(self, aten.div.Tensor(aten.mul.Tensor(tensor1, value), tensor2))


def clamp_min(self, min):
    return aten.clamp.default(self, min)


def clamp_max(self, max):
    return aten.clamp.default(self, None, max)


def sum_default(self, *, dtype=None):
    return aten.sum.dim_IntList(self, [], dtype=dtype)


EXPORT_ONLY = {aten.addcmul.default: addcmul, aten.addcdiv.default: addcdiv, aten.clamp_min.default: clamp_min,
               aten.clamp_max.default: clamp_max, aten.sum.default: sum_default}

# Rows whose decomposition is inductor's alone (torch's core ATen table lacks it): export keeps these ops whole.
INDUCTOR_ONLY = ("var_mean.correction", "round.decimals", "linalg_vector_norm.default", "upsample_bilinear2d.default")
