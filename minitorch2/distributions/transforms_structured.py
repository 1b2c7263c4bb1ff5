"""torch.distributions.transforms over structured values: CorrCholeskyTransform (vectors onto Cholesky factors
of correlation matrices), PositiveDefiniteTransform, and CatTransform/StackTransform (a transform per slice).
transforms.py holds the elementwise ones; both are exported together as torch.distributions.transforms."""
import math

from .. import _factories, _functions, linalg
from ..nn import functional as F
from . import constraints
from .transforms import LowerCholeskyTransform, Transform
from .utils import _finfo, _sum_rightmost, tril_matrix_to_vec, vec_to_tril_matrix


class CorrCholeskyTransform(Transform):
    """Each row of the lower triangle of tanh(x) is broken like a (signed) stick into a unit-length row."""
    domain, codomain, bijective = constraints.real_vector, constraints.corr_cholesky, True

    def __eq__(self, other):
        return isinstance(other, CorrCholeskyTransform)

    __hash__ = object.__hash__

    def _call(self, x):
        x = _functions.tanh(x)
        eps = float(_finfo(x.dtype).eps)
        r = vec_to_tril_matrix(x.clamp(min=-1 + eps, max=1 - eps), diag=-1)
        z1m_cumprod_sqrt = (1 - r ** 2).sqrt().cumprod(-1)
        r = r + _factories.eye(r.shape[-1], dtype=r.dtype)
        return r * F.pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        y_cumsum = 1 - _functions.cumsum(y * y, dim=-1)
        y_cumsum_shifted = F.pad(y_cumsum[..., :-1], [1, 0], value=1)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(y_cumsum_shifted, diag=-1).sqrt()
        return (t.log1p() - t.neg().log1p()) / 2

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        stick_breaking_logdet = 0.5 * tril_matrix_to_vec(y1m_cumsum, diag=-2).log().sum(-1)
        tanh_logdet = -2 * (x + F.softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return tuple(shape[:-1]) + (d, d)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        return tuple(shape[:-2]) + (shape[-1] * (shape[-1] - 1) // 2,)


class PositiveDefiniteTransform(Transform):
    """L L^T of the lower-Cholesky image of x (not bijective onto all of x's space)."""
    domain, codomain = constraints.independent(constraints.real, 2), constraints.positive_definite

    def __eq__(self, other):
        return isinstance(other, PositiveDefiniteTransform)

    __hash__ = object.__hash__

    def _call(self, x):
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(linalg.cholesky(y))


def _check_dim(value, dim, size, what, name):
    if not (-value.dim() <= dim < value.dim()):
        raise AssertionError(f"dim {dim} out of range for {name} with {value.dim()} dimensions")
    if value.size(dim) != size:
        raise AssertionError(f"{name}.size({dim}) = {value.size(dim)} must equal {what} {size}")


class CatTransform(Transform):
    """transforms[i] applied to the i-th slice (lengths[i] long) along dim, the results concatenated."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.transforms)
        self.dim = dim

    event_dim = property(lambda self: max(t.event_dim for t in self.transforms))
    length = property(lambda self: sum(self.lengths))
    bijective = property(lambda self: all(t.bijective for t in self.transforms))
    domain = constraints.dependent_property(lambda self: constraints.cat([t.domain for t in self.transforms],
                                                                         self.dim, self.lengths))
    codomain = constraints.dependent_property(lambda self: constraints.cat([t.codomain for t in self.transforms],
                                                                           self.dim, self.lengths))

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else \
            CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _slices(self, value):
        start = 0
        for length in self.lengths:
            yield value.narrow(self.dim, start, length)
            start = start + length

    def _call(self, x):
        _check_dim(x, self.dim, self.length, "length", "x")
        return _functions.cat([t(s) for t, s in zip(self.transforms, self._slices(x))], dim=self.dim)

    def _inverse(self, y):
        _check_dim(y, self.dim, self.length, "length", "y")
        return _functions.cat([t.inv(s) for t, s in zip(self.transforms, self._slices(y))], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        _check_dim(x, self.dim, self.length, "length", "x")
        _check_dim(y, self.dim, self.length, "length", "y")
        terms = []
        for t, xs, ys in zip(self.transforms, self._slices(x), self._slices(y)):
            term = t.log_abs_det_jacobian(xs, ys)
            terms.append(_sum_rightmost(term, self.event_dim - t.event_dim) if t.event_dim < self.event_dim else term)
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        return _functions.cat(terms, dim=dim) if dim < 0 else sum(terms)


class StackTransform(Transform):
    """transforms[i] applied to index i along dim, the results stacked."""

    def __init__(self, tseq, dim=0, cache_size=0):
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms, self.dim = list(tseq), dim

    bijective = property(lambda self: all(t.bijective for t in self.transforms))
    domain = constraints.dependent_property(lambda self: constraints.stack([t.domain for t in self.transforms],
                                                                           self.dim))
    codomain = constraints.dependent_property(lambda self: constraints.stack(
        [t.codomain for t in self.transforms], self.dim))

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _call(self, x):
        _check_dim(x, self.dim, len(self.transforms), "length", "x")
        return _functions.stack([t(s) for s, t in zip(self._slice(x), self.transforms)], dim=self.dim)

    def _inverse(self, y):
        _check_dim(y, self.dim, len(self.transforms), "length", "y")
        return _functions.stack([t.inv(s) for s, t in zip(self._slice(y), self.transforms)], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        return _functions.stack([t.log_abs_det_jacobian(xs, ys) for xs, ys, t in
                                 zip(self._slice(x), self._slice(y), self.transforms)], dim=self.dim)
