"""torch.special: the special functions under their torch.special names.

Runtime layer, coverage surface (`import torch.special` gives this module under `python -m minitorch2 run`).
Most are other names of torch-level functions (expit is sigmoid, gammaln lgamma, psi digamma), as torch's
special_* ops are composites that call them, so a traced graph records the same aten op; erfc, i0, sinc, entr
and ndtri have rows of their own (table_extra.py), as do the Bessel functions, erfcx, log_ndtr, xlog1py, zeta, the
incomplete gamma functions (igamma, igammac), mvlgamma and the orthogonal polynomials (_aten/special_more.py); ndtr
is the composite torch writes, (1 + erf(x/√2)) / 2. A binary function picks the overload torch's binding picks: a
Python number first or second is its Scalar overload (xlog1py.self_scalar, chebyshev_polynomial_t.n_scalar).
"""
import math

from . import _functions as F
from ._aten.memory import _dtype_title
from ._functions_shape import _function_of, alias_of
from ._ops import ops
from ._tensor import Tensor
from ._out import CAST, out_variant

aten = ops.aten
_UNARY = ["i0e", "i1", "i1e", "erfcx", "log_ndtr", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
          "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
          "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0", "airy_ai"]
_POLYNOMIALS = [f"{kind}_polynomial_{letter}" for kind, letters in (
    ("chebyshev", "tuvw"), ("shifted_chebyshev", "tuvw"), ("hermite", ("h", "he")), ("laguerre", "l"),
    ("legendre", "p")) for letter in letters]

__all__ = ["erf", "erfc", "erfinv", "expit", "logit", "xlogy", "log1p", "expm1", "exp2", "gammaln", "digamma", "psi",
           "i0", "sinc", "entr", "log_softmax", "softmax", "logsumexp", "round", "ndtr", "ndtri", "polygamma",
           "multigammaln", "gammainc", "gammaincc", "xlog1py", "zeta", *_UNARY, *_POLYNOMIALS]

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


globals().update({name: _function_of(getattr(aten, f"special_{name}").default, CAST) for name in _UNARY})


def _binary(packet, first="self", second="other"):
    """torch.special.<name>(a, b) over the overload a Python number picks."""
    @out_variant(CAST)
    def fn(input, other):
        if not isinstance(input, Tensor):
            return getattr(packet, f"{first}_scalar")(input, other)
        return packet.default(input, other) if isinstance(other, Tensor) else getattr(packet, f"{second}_scalar")(
            input, other)
    fn.__name__ = fn.__qualname__ = packet._opname if hasattr(packet, "_opname") else "special"
    return fn


xlog1py = _binary(aten.special_xlog1py)
zeta = _binary(aten.special_zeta)
globals().update({name: _binary(getattr(aten, f"special_{name}"), "x", "n") for name in _POLYNOMIALS})
gammainc = _function_of(aten.igamma.default, CAST)
gammaincc = _function_of(aten.igammac.default, CAST)
polygamma = F.polygamma


def multigammaln(input, p):
    return aten.mvlgamma.default(input, p)


from . import _c_spellings  # noqa: E402,F401  (reason: needs fft, linalg and special all defined)
