"""torch.distributions.utils: parameter broadcasting, probs <-> logits, lazily computed parameters."""
import numpy as np

from .. import _factories, _functions, autograd
from .._dtype import get_default_dtype
from .._tensor import Tensor
from ..nn import functional as F

_NUMBER = (int, float, bool)
euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant


def broadcast_all(*values):
    """The values as tensors of one shape; Python numbers take the dtype of the first tensor among them."""
    if not all(isinstance(v, (Tensor,) + _NUMBER) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    first = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = get_default_dtype() if first is None else first.dtype
    return _functions.broadcast_tensors(*(v if isinstance(v, Tensor) else _factories.tensor(v, dtype=dtype)
                                          for v in values))


def _standard_normal(shape, dtype, device):
    return _factories.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    return value if dim == 0 else value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def _finfo(dtype):
    return np.finfo(dtype.np)


def logits_to_probs(logits, is_binary=False):
    return _functions.sigmoid(logits) if is_binary else F.softmax(logits, dim=-1)


def clamp_probs(probs):
    eps = float(_finfo(probs.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    clamped = clamp_probs(probs)
    if is_binary:
        return _functions.log(clamped) - _functions.log1p(-clamped)
    return _functions.log(clamped)


class lazy_property:
    """A parameter computed from another on first read (probs from logits), then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__, self.__name__ = wrapped.__doc__, wrapped.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with autograd.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _tril_mask(n, diag):
    arange = _factories.arange(n)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The lower-triangular entries (on and below diagonal `diag`) of each matrix, in row order."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag=0):
    """tril_matrix_to_vec's inverse: the D x D lower-triangular matrices holding each vector in row order."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > float(_finfo(vec.dtype).eps):
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as the lower "
                         "triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag)] = vec
    return mat
