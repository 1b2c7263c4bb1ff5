"""torch.distributions.constraints: what a distribution's parameters and samples must satisfy.

`check(value)` returns a bool tensor (one entry per batch element); `Distribution.__init__` and
`_validate_sample` raise torch's ValueError when any entry is False. The repr of each constraint is
torch's (`GreaterThan(lower_bound=0.0)`), since it appears in those error messages.
"""
import numpy as np

from .. import _factories, linalg
from .. import _functions as F
from .._dtype import bool_ as _bool


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters (a support computed per instance): never checked."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete, self._event_dim = is_discrete, event_dim

    @property
    def is_discrete(self):
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self):
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        return _Dependent(is_discrete=self._is_discrete if is_discrete is NotImplemented else is_discrete,
                          event_dim=self._event_dim if event_dim is NotImplemented else event_dim)

    def check(self, x):
        raise ValueError("Cannot determine validity of dependent constraint")


class _DependentProperty(property, _Dependent):
    """A property that reads as a dependent constraint on the class and as its value on an instance."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        self._is_discrete, self._event_dim = is_discrete, event_dim

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _IndependentConstraint(Constraint):
    """A base constraint whose rightmost `reinterpreted_batch_ndims` dimensions become event dimensions."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint, self.reinterpreted_batch_ndims = base_constraint, reinterpreted_batch_ndims

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result, ndims = self.base_constraint.check(value), self.reinterpreted_batch_ndims
        if result.dim() < ndims:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        return result.reshape(result.shape[:result.dim() - ndims] + (-1,)).all(-1)

    def __repr__(self):
        return f"{type(self).__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Bounded(Constraint):
    """A constraint with bounds named by `_fields`, printed as `Name(lower_bound=..., upper_bound=...)`."""
    _fields = ()

    def __init__(self, *bounds):
        for name, bound in zip(self._fields, bounds):
            setattr(self, name, bound)

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)}" for name in self._fields)
        return f"{type(self).__name__[1:]}({fields})"


class _GreaterThan(_Bounded):
    _fields = ("lower_bound",)

    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_Bounded):
    _fields = ("upper_bound",)

    def check(self, value):
        return value < self.upper_bound


class _Interval(_Bounded):
    _fields = ("lower_bound", "upper_bound")

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerGreaterThan(_GreaterThan):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Real(Constraint):
    def check(self, value):
        return value == value  # False for NaNs


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return F.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _OneHot(Constraint):
    is_discrete, event_dim = True, 1

    def check(self, value):
        return ((value == 0) | (value == 1)).all(-1) & value.sum(-1).eq(1)


class _Multinomial(Constraint):
    """Nonnegative counts summing to at most upper_bound (torch's check, weaker than summing to it)."""
    is_discrete, event_dim = True, 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return (x >= 0).all(dim=-1) & (x.sum(dim=-1) <= self.upper_bound)


def _all_of_matrix(flags):
    return flags.reshape(flags.shape[:-2] + (-1,)).min(-1)[0]


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return _all_of_matrix(value.tril() == value)


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        return _all_of_matrix(value.tril() == value) & (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]


class _CorrCholesky(Constraint):
    """Lower Cholesky factors whose rows have unit length (factors of correlation matrices)."""
    event_dim = 2

    def check(self, value):
        tol = float(np.finfo(value.dtype.np).eps) * value.size(-1) * 10
        unit_rows = (linalg.norm(value.detach(), dim=-1) - 1.0).abs().le(tol).all(dim=-1)
        return _LowerCholesky().check(value) & unit_rows


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return _factories.full(value.shape[:-2], value.shape[-2] == value.shape[-1], dtype=_bool)


class _Symmetric(_Square):
    def check(self, value):
        square = super().check(value)
        return square if not bool(square.all()) else F.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        symmetric = super().check(value)
        return symmetric if not bool(symmetric.all()) else linalg.eigvalsh(value).ge(0).all(-1)


class _PositiveDefinite(_Symmetric):
    def check(self, value):
        symmetric = super().check(value)
        return symmetric if not bool(symmetric.all()) else linalg.cholesky_ex(value).info.eq(0)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
unit_interval = _Interval(0.0, 1.0)
greater_than, greater_than_eq, less_than = _GreaterThan, _GreaterThanEq, _LessThan
interval, half_open_interval, integer_interval = _Interval, _HalfOpenInterval, _IntegerInterval
simplex = _Simplex()
one_hot = _OneHot()
multinomial = _Multinomial
lower_triangular, lower_cholesky, corr_cholesky = _LowerTriangular(), _LowerCholesky(), _CorrCholesky()
square, symmetric = _Square(), _Symmetric()
positive_semidefinite, positive_definite = _PositiveSemidefinite(), _PositiveDefinite()


class MixtureSameFamilyConstraint(Constraint):
    """A component support checked per component: a value is valid where every component accepts it."""

    def __init__(self, base_constraint):
        self.base_constraint = base_constraint

    is_discrete = property(lambda self: self.base_constraint.is_discrete)
    event_dim = property(lambda self: self.base_constraint.event_dim)

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        return result.reshape(result.shape[:value.dim() - self.event_dim] + (-1,)).all(-1)

    def __repr__(self):
        return f"{self.__class__.__name__}({self.base_constraint!r})"


class _Cat(Constraint):
    """Constraints applied to consecutive slices of `lengths` along `dim` (CatTransform's domain)."""

    def __init__(self, cseq, dim=0, lengths=None):
        self.cseq = list(cseq)
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.cseq)
        self.dim = dim

    is_discrete = property(lambda self: any(c.is_discrete for c in self.cseq))
    event_dim = property(lambda self: max(c.event_dim for c in self.cseq))

    def check(self, value):
        checks, start = [], 0
        for constraint, length in zip(self.cseq, self.lengths):
            checks.append(constraint.check(value.narrow(self.dim, start, length)))
            start = start + length
        return F.cat(checks, self.dim)


class _Stack(Constraint):
    """One constraint per index along `dim` (StackTransform's domain)."""

    def __init__(self, cseq, dim=0):
        self.cseq, self.dim = list(cseq), dim

    is_discrete = property(lambda self: any(c.is_discrete for c in self.cseq))

    @property
    def event_dim(self):
        dim = max(c.event_dim for c in self.cseq)
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        slices = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return F.stack([c.check(v) for v, c in zip(slices, self.cseq)], self.dim)


cat, stack = _Cat, _Stack
