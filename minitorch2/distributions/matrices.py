"""torch.distributions over matrices: LKJCholesky (Cholesky factors of correlation matrices, by the onion method) and
Wishart (positive-definite matrices, by Bartlett's decomposition).

Both draw Beta or Chi2 variates through ATen's gamma sampler (_samplers.py), then standard normals, as torch does:
the same draws as torch's after the same manual_seed (equal to the rounding of the matrix products). cholesky_solve,
which torch's formulas call, is written out here: a solve against L L^T.
"""
import math
import warnings

from .. import _factories, _functions, linalg
from .._functions_extra import mvlgamma
from .._tensor import Size
from . import constraints
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .gamma import Beta, Chi2
from .multivariate_normal import _precision_to_scale_tril
from .utils import _finfo, broadcast_all, lazy_property

_LOG_2 = math.log(2)


def _mvdigamma(x, p):
    return _functions.digamma(x.unsqueeze(-1) - _factories.arange(p, dtype=x.dtype).div(2)
                              .expand(tuple(x.shape) + (-1,))).sum(-1)


def _cholesky_solve(b, tril):
    """(L L^T)^-1 b, as torch.cholesky_solve(b, L)."""
    return linalg.solve(_functions.matmul(tril, tril.mT), b)


class LKJCholesky(Distribution):
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = _factories.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = _functions.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal_conc.unsqueeze(-1) - 0.5 * offset)
        super().__init__(self.concentration.size(), Size((dim, dim)), validate_args)

    def expand(self, batch_shape, _instance=None):
        batch_shape = Size(batch_shape)
        return self._expanded(LKJCholesky, batch_shape, _instance, dim=self.dim,
                              concentration=self.concentration.expand(batch_shape),
                              _beta=self._beta.expand(batch_shape + (self.dim,)))

    def sample(self, sample_shape=Size()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = _factories.randn(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        u_hypersphere[..., 0, :].fill_(0.0)
        w = _functions.sqrt(y) * u_hypersphere
        diag = _functions.clamp(1 - _functions.sum(w ** 2, dim=-1), min=float(_finfo(w.dtype).tiny)).sqrt()
        return w + _functions.diag_embed(diag)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - _factories.arange(2, self.dim + 1)
        unnormalized = _functions.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalize = 0.5 * dm1 * math.log(math.pi) + mvlgamma(alpha - 0.5, dm1) - _functions.lgamma(alpha) * dm1
        return unnormalized - normalize


class Wishart(ExponentialFamily):
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {"covariance_matrix": constraints.positive_definite, "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky, "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading batch dimensions")
        if isinstance(df, (int, float)):
            batch_shape = Size(param.shape[:-2])
            self.df = _factories.tensor(df, dtype=param.dtype)
        else:
            batch_shape = Size(_functions.broadcast_shapes(tuple(param.shape[:-2]), tuple(df.shape)))
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if bool(self.df.le(event_shape[-1] - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}.")
        name = "scale_tril" if scale_tril is not None else "covariance_matrix" if covariance_matrix is not None \
            else "precision_matrix"
        setattr(self, name, param.expand(batch_shape + (-1, -1)))
        if bool(self.df.lt(event_shape[-1]).any()):
            warnings.warn("Low df values detected. Singular samples are highly likely to occur for ndim - 1 < df < "
                          "ndim.", stacklevel=2)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self._dist_chi2 = self._chi2(batch_shape)

    def _chi2(self, batch_shape):
        dims = _factories.arange(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(df=self.df.unsqueeze(-1) - dims.expand(tuple(batch_shape) + (-1,)))

    def expand(self, batch_shape, _instance=None):
        batch_shape = Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        given = {n: self.__dict__[n].expand(cov_shape) for n in ("covariance_matrix", "scale_tril", "precision_matrix")
                 if n in self.__dict__}
        new = self._expanded(Wishart, batch_shape, _instance, df=self.df.expand(batch_shape),
                             _unbroadcasted_scale_tril=self._unbroadcasted_scale_tril.expand(cov_shape),
                             _batch_dims=[-(x + 1) for x in range(len(batch_shape))], **given)
        new._dist_chi2 = new._chi2(batch_shape)
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return (tril @ tril.transpose(-2, -1)).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        identity = _factories.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return _cholesky_solve(identity, self._unbroadcasted_scale_tril).expand(self._batch_shape + self._event_shape)

    @property
    def mean(self):
        return self.df.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        return self.df.view(self._batch_shape + (1, 1)) * (V.pow(2) + diag_V.unsqueeze(-1) * diag_V.unsqueeze(-2))

    def _bartlett_sampling(self, sample_shape=Size()):
        p = self._event_shape[-1]
        noise = self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=float(_finfo(self.df.dtype).eps))
        noise = noise.diag_embed(dim1=-2, dim2=-1)
        i, j = _functions.tril_indices(p, p, offset=-1)
        noise[..., i, j] = _factories.randn(Size(sample_shape) + self._batch_shape + (p * (p - 1) // 2,),
                                            dtype=noise.dtype)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=Size(), max_try_correction=None):
        """Bartlett's construction, then torch's correction loop. torch (2.x) starts that loop from the samples that
        *pass* the positive-definite check (it flags `support.check(sample)`, not its negation), so it warns and
        redraws them; this does the same, so that the draws, and the generator's state after them, are torch's."""
        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample_shape = Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if bool(is_singular.any()):
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = sample_new
                is_singular_new = ~self.support.check(sample_new)
                if self._batch_shape:
                    is_singular_new = is_singular_new.amax(self._batch_dims)
                is_singular[is_singular.clone()] = is_singular_new
                if not bool(is_singular.any()):
                    break
        return sample

    def _log_det_scale(self):
        p = self._event_shape[-1]
        return p * _LOG_2 / 2 + self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        trace = _cholesky_solve(value, self._unbroadcasted_scale_tril).diagonal(dim1=-2, dim2=-1).sum(dim=-1)
        return (-nu * self._log_det_scale() - mvlgamma(nu / 2, p) + (nu - p - 1) / 2 * linalg.slogdet(value).logabsdet
                - trace / 2)

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        return ((p + 1) * self._log_det_scale() + mvlgamma(nu / 2, p) - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p)
                + nu * p / 2)

    @property
    def _natural_params(self):
        return -self.precision_matrix / 2, (self.df - self._event_shape[-1] - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (-linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p) + mvlgamma(y + (p + 1) / 2, p)
