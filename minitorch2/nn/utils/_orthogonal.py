"""nn.utils.parametrizations.orthogonal (as torch's): a weight kept orthogonal by parametrizing it.

Runtime layer, coverage surface. The weight (a matrix, or a batch of them; a wide one handled transposed) is the
image of an unconstrained tensor under one of three maps: `matrix_exp` and `cayley` of the skew-symmetric matrix
built from its lower triangle, or `householder`, a product of the reflectors stored below its diagonal. With
`use_trivialization=True` (the default) the result is multiplied by a `base` buffer, the registered weight made
orthogonal by a QR decomposition (completed with random columns when it is not square), and the stored tensor
starts as -I, which every map sends to the identity. Real tensors only.
"""
from enum import Enum, auto

from ... import _factories, _functions
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ..modules.module import Module
from . import parametrize


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def householder_product(reflectors, tau):
    """The first k columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T, v_i column i of `reflectors` below the
    diagonal with a 1 on it (linalg.householder_product), from differentiable ops."""
    n, k = reflectors.shape[-2], reflectors.shape[-1]
    rows = _factories.arange(n)
    q = _factories.eye(n, dtype=reflectors.dtype).expand(*reflectors.shape[:-2], n, n)
    for i in range(k):
        v = reflectors[..., :, i] * (rows > i).to(reflectors.dtype) + (rows == i).to(reflectors.dtype)
        q = q - tau[..., i, None, None] * ((q @ v.unsqueeze(-1)) @ v.unsqueeze(-2))
    return q[..., :, :k]


def _is_orthogonal(q):
    n, k = q.shape[-2], q.shape[-1]
    eps = 10.0 * n * (1.1920928955078125e-07 if q.element_size() == 4 else 2.220446049250313e-16)
    return bool((q.mT @ q).sub(_factories.eye(k, dtype=q.dtype)).abs().le(eps).all())


def _make_orthogonal(a):
    """The Q of a = QR with R's diagonal non-negative (a tall)."""
    q, r = _linalg().qr(a)
    return q * r.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X, n, k = X.mT, k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                X = _cat_zero_columns(X, n - k)
            A = X - X.mT
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = _functions.matrix_exp(A)  # (torch.matrix_exp, as torch's: the name Dynamo records)
            else:
                identity = _factories.eye(n, dtype=A.dtype)
                Q = _linalg().solve(identity.add(A, alpha=-0.5), identity.add(A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            Q = householder_product(A, 2.0 / (1.0 + (A * A).sum(dim=-2)))
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def right_inverse(self, Q):
        with no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        if n < k:
            Q, n, k = Q.mT, k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError("It is not possible to assign to the matrix exponential "
                                          "or the Cayley parametrizations when use_trivialization=False.")
            raise NotImplementedError("minitorch2: orthogonal(use_trivialization=False) with householder needs "
                                      "torch.geqrf, which minitorch2 does not have")
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            extra = _factories.randn(*(tuple(Q.shape[:-2]) + (n, n - k)), dtype=Q.dtype)
            Q = _make_orthogonal(_cat(Q, extra))
        self.base = Q
        neg_identity = Q_init.new_zeros(Q_init.shape)
        neg_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_identity


def _cat(a, b):
    return _functions.cat([a, b], dim=-1)


def _linalg():
    from ... import linalg  # circular: torch.linalg is set up after nn
    return linalg


def _cat_zero_columns(x, count):
    return _cat(x, x.new_zeros(x.shape[-2], count).expand(*x.shape[:-2], -1, -1))


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
