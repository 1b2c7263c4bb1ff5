"""torch.distributions.LowRankMultivariateNormal: a Gaussian over vectors whose covariance is W W^T + diag(D),
with W (cov_factor) of rank m much below the event size: log_prob and entropy go through the m x m
capacitance matrix I + W^T D^-1 W (Woodbury), never the full covariance.

A sample is loc + W eps_W + sqrt(D) eps_D with both standard normals drawn as torch draws them (bit for bit).
Triangular solves are linalg.solve_triangular, as torch's (so gradients reach only the lower triangles).
"""
import math

from .. import _factories, _functions, linalg
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .multivariate_normal import _batch_mv
from .utils import _standard_normal, lazy_property


def _with_identity_added(matrix):
    return matrix + _factories.eye(matrix.shape[-1], dtype=matrix.dtype)


def _capacitance_tril(W, D):
    return linalg.cholesky(_with_identity_added(_functions.matmul(W.mT / D.unsqueeze(-2), W)))


def _lowrank_logdet(D, capacitance_tril):
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _mahalanobis(tril, x):
    """|tril^-1 x|^2 over the last dimension, tril broadcast over x's batch."""
    whitened = linalg.solve_triangular(tril.expand(*x.shape, x.shape[-1]), x.unsqueeze(-1), upper=False).squeeze(-1)
    return whitened.pow(2).sum(-1)


class LowRankMultivariateNormal(Distribution):
    arg_constraints = {"loc": constraints.real_vector, "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional leading batch dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = _functions.broadcast_tensors(loc.unsqueeze(-1), cov_factor,
                                                                            cov_diag.unsqueeze(-1))
        except RuntimeError as error:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, "
                             f"cov_diag {cov_diag.shape}") from error
        self.loc, self.cov_diag = loc_[..., 0], cov_diag_[..., 0]
        self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag = cov_factor, cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        loc_shape = Size(batch_shape) + self.event_shape
        return self._expanded(LowRankMultivariateNormal, batch_shape, _instance, loc=self.loc.expand(loc_shape),
                              cov_diag=self.cov_diag.expand(loc_shape),
                              cov_factor=self.cov_factor.expand(loc_shape + self.cov_factor.shape[-1:]),
                              _unbroadcasted_cov_factor=self._unbroadcasted_cov_factor,
                              _unbroadcasted_cov_diag=self._unbroadcasted_cov_diag,
                              _capacitance_tril=self._capacitance_tril)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    def _full_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def variance(self):
        return (self._unbroadcasted_cov_factor.pow(2).sum(-1)
                + self._unbroadcasted_cov_diag).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self):
        root_diag = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled = self._unbroadcasted_cov_factor / root_diag
        inner = _with_identity_added(_functions.matmul(scaled, scaled.mT))
        return (root_diag * linalg.cholesky(inner)).expand(self._full_shape())

    @lazy_property
    def covariance_matrix(self):
        W = self._unbroadcasted_cov_factor
        return (_functions.matmul(W, W.mT)
                + _functions.diag_embed(self._unbroadcasted_cov_diag)).expand(self._full_shape())

    @lazy_property
    def precision_matrix(self):
        Wt_Dinv = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        A = linalg.solve_triangular(self._capacitance_tril, Wt_Dinv, upper=False)
        precision = _functions.diag_embed(self._unbroadcasted_cov_diag.reciprocal()) - _functions.matmul(A.mT, A)
        return precision.expand(self._full_shape())

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        eps_W = _standard_normal(shape[:-1] + self.cov_factor.shape[-1:], dtype=self.loc.dtype,
                                 device=self.loc.device)
        eps_D = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return (self.loc + _batch_mv(self._unbroadcasted_cov_factor, eps_W)
                + self._unbroadcasted_cov_diag.sqrt() * eps_D)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        diff = value - self.loc
        Wt_Dinv_x = _batch_mv(W.mT / D.unsqueeze(-2), diff)
        mahalanobis = (diff.pow(2) / D).sum(-1) - _mahalanobis(self._capacitance_tril, Wt_Dinv_x)
        log_det = _lowrank_logdet(D, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + log_det + mahalanobis)

    def entropy(self):
        log_det = _lowrank_logdet(self._unbroadcasted_cov_diag, self._capacitance_tril)
        H = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + log_det)
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
