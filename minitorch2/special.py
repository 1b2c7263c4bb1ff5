"""torch.special: the special functions under their torch.special names.

Runtime layer, coverage surface (`import torch.special` gives this module under `python -m minitorch2 run`).
Most are other names of torch-level functions (expit is sigmoid, gammaln lgamma, psi digamma), as torch's
special_* ops are composites that call them, so a traced graph records the same aten op; erfc, i0, sinc, entr
and ndtri have rows of their own (table_extra.py); ndtr is the composite torch writes, (1 + erf(x/√2)) / 2.
"""
import math

from . import _functions as F
from ._aten.memory import _dtype_title
from ._functions_shape import _function_of, alias_of
from ._ops import ops
from ._out import CAST, out_variant

aten = ops.aten

__all__ = ["erf", "erfc", "erfinv", "expit", "logit", "xlogy", "log1p", "expm1", "exp2", "gammaln", "digamma", "psi",
           "i0", "sinc", "entr", "log_softmax", "softmax", "logsumexp", "round", "ndtr", "ndtri", "gammainc",
           "gammaincc", "multigammaln"]

erf, erfinv, logit, xlogy, log1p, expm1, exp2, digamma, logsumexp = (
    F.erf, F.erfinv, F.logit, F.xlogy, F.log1p, F.expm1, F.exp2, F.digamma, F.logsumexp)
expit = alias_of(F.sigmoid, "expit")
gammaln = alias_of(F.lgamma, "gammaln")
psi = alias_of(F.digamma, "psi")
erfc = _function_of(aten.erfc.default, CAST)
i0 = _function_of(aten.i0.default, CAST)
sinc = _function_of(aten.sinc.default, CAST)
entr = _function_of(aten.special_entr.default, CAST)
ndtri = _function_of(aten.special_ndtri.default, CAST)


def round(input, *, decimals=0):
    """torch.round, floating inputs only (special_round has no integer kernels)."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{'round_cpu' if decimals else 'round_vml_cpu'}\" not implemented for "
                                  f"'{_dtype_title(input.dtype)}'")
    return F.round(input, decimals=decimals)


def softmax(input, dim, *, dtype=None):
    return F.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return F.log_softmax(input, dim, dtype=dtype)


@out_variant(CAST)
def ndtr(input):
    """The standard normal CDF, as torch composes it: (1 + erf(x / √2)) * 0.5 (integers in the default float)."""
    scaled = aten.mul.Scalar(input, 1 / math.sqrt(2))
    return aten.mul.Scalar(aten.add.Scalar(aten.erf.default(scaled), 1), 0.5)


def gammainc(input, other):
    return F.igamma(input, other)


def gammaincc(input, other):
    return F.igammac(input, other)


def multigammaln(input, p):
    return F.mvlgamma(input, p)

