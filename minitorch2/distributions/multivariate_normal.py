"""torch.distributions.MultivariateNormal: the Gaussian over vectors, parameterized by a mean vector `loc` and one of
a covariance matrix, a precision matrix or the lower-triangular Cholesky factor `scale_tril` of the covariance.

Everything is computed from the Cholesky factor L: a sample is loc + L eps (eps standard normal, drawn as torch
draws it), log_prob needs |L^-1 (x - loc)|^2 (a triangular solve, so gradients reach only L's lower triangle, as
torch's) and the log-determinant sum(log diag L).
"""
import math

from .. import _functions, linalg
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, lazy_property


def _batch_mv(matrix, vector):
    return _functions.matmul(matrix, vector.unsqueeze(-1)).squeeze(-1)


class MultivariateNormal(Distribution):
    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        given, matrix = next((n, m) for n, m in (("scale_tril", scale_tril), ("covariance_matrix", covariance_matrix),
                                                 ("precision_matrix", precision_matrix)) if m is not None)
        if matrix.dim() < 2:
            raise ValueError(f"{given}{' matrix' if scale_tril is not None else ''} must be at least "
                             "two-dimensional, with optional leading batch dimensions")
        batch_shape = _functions.broadcast_shapes(tuple(matrix.shape[:-2]), tuple(loc.shape[:-1]))
        event_shape = Size(loc.shape[-1:])
        self.loc = loc.expand(*batch_shape, -1)
        setattr(self, given, matrix.expand(*batch_shape, -1, -1))
        super().__init__(Size(batch_shape), event_shape, validate_args=validate_args)  # validates before factoring
        self._unbroadcasted_scale_tril = (scale_tril if scale_tril is not None else linalg.cholesky(matrix)
                                          if covariance_matrix is not None else _precision_to_scale_tril(matrix))

    def expand(self, batch_shape, _instance=None):
        matrix_shape = Size(batch_shape) + self._event_shape + self._event_shape
        given = {name: self.__dict__[name].expand(matrix_shape) for name in self.arg_constraints
                 if name in self.__dict__ and name != "loc"}
        return self._expanded(MultivariateNormal, batch_shape, _instance, **given,
                              loc=self.loc.expand(Size(batch_shape) + self._event_shape),
                              _unbroadcasted_scale_tril=self._unbroadcasted_scale_tril)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    # the parameterizations not given, computed on first use as torch's lazy properties
    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return _functions.matmul(tril, tril.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return linalg.inv(_functions.matmul(tril, tril.mT)).expand(self._matrix_shape())

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        tril = self._unbroadcasted_scale_tril
        whitened = linalg.solve_triangular(tril.expand(*diff.shape, diff.shape[-1]), diff.unsqueeze(-1),
                                           upper=False).squeeze(-1)
        mahalanobis = whitened.pow(2).sum(-1)
        half_log_det = tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + mahalanobis) - half_log_det

    def entropy(self):
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        entropy = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)


def _precision_to_scale_tril(precision):
    """torch's: the Cholesky factor of P flipped, flipped back and transposed, is the inverse of the covariance's."""
    flipped = linalg.cholesky(_functions.flip(precision, (-2, -1)))
    inverse_tril = _functions.flip(flipped, (-2, -1)).transpose(-2, -1)
    return linalg.inv(inverse_tril)
