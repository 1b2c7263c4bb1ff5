"""The helpers every derivative formula shares.

Runtime layer, beneath the formula modules (derivatives_pointwise.py, derivatives_reductions.py,
derivatives_linalg.py, derivatives_shape.py, derivatives_nn.py). The one to know is `sum_to`: a formula computes the
gradient of a broadcast result, and every formula ends by reducing it back to its input's shape (see derivatives.py
for why it comes last). The others read an operand's shape and options, scale by alpha and restore reduced dims, all
with registered ops so that tracing records them.
"""
from .._ops import ops
from .._tensor import Tensor, contiguous_format, strided
from .complex_ops import conj_of, for_input  # noqa: F401  (for the formulas: complex numbers, complex_ops.py)
from .composite_sizes import is_contiguous_or_false, reshape_geometry

aten = ops.aten


# ---------------------------------------------------------------- helpers
def sum_to(grad, shape):
    """Reduce a broadcast gradient back to `shape` (at::sum_to); None for a non-tensor operand."""
    if shape is None or grad is None:
        return None
    shape = tuple(shape)
    if grad.dim() == len(shape) and tuple(grad.shape) == shape:  # (lengths first: see meta_util.pointwise_strides)
        return grad
    if not shape:
        return aten.sum.default(grad)
    leading = grad.dim() - len(shape)
    dims = list(range(leading)) + [i + leading for i, s in enumerate(shape) if s == 1 and grad.shape[i + leading] != 1]
    if dims:
        grad = aten.sum.dim_IntList(grad, dims, True)
    if leading > 0:
        grad = aten.view.default(grad, list(shape))
    return grad


def _scale(grad, alpha):
    return grad if alpha == 1 else aten.mul.Scalar(grad, alpha)


def _restore_reduced_dims(grad, dims, keepdim, ndim):
    if keepdim or ndim == 0:
        return grad
    for d in sorted(dims):
        grad = aten.unsqueeze.default(grad, d)
    return grad


def _dims(dim, ndim):
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(ndim))
    dim = [dim] if isinstance(dim, int) else dim
    return sorted(d % ndim if ndim else 0 for d in dim)


def _reshape(grad, shape):
    """at::reshape (a formula's C++ calls it; torch.reshape's rule too): a view of `shape` as given where grad is
    contiguous, else of the inferred shape where the strides allow one, else a contiguous clone viewed as it."""
    if is_contiguous_or_false(grad):
        return aten.view.default(grad, list(shape))
    target, strides = reshape_geometry(grad, shape)
    if strides is not None:
        return aten.view.default(grad, target)
    return aten._unsafe_view.default(aten.clone.default(grad, memory_format=contiguous_format), target)


def zeros_like_grad(grad):
    """The gradient of an input whose value the output does not depend on (fills, random draws)."""
    return aten.zeros_like.default(grad)


def _pad(grads, n):
    """The engine hands a multi-output node only the leading gradients that arrived: pad with None."""
    return list(grads) + [None] * (n - len(grads))


def _options(t):
    """`t.options()` as the keyword arguments a factory call records."""
    return {"dtype": t.dtype, "layout": strided, "device": t.device}


def _shape(t):
    """A tensor operand's shape, None for a Python number (which gets no gradient)."""
    return tuple(t.shape) if isinstance(t, Tensor) else None


def _zero_like_scalar(value, like):
    """The 0-dim tensor C++ makes from a Scalar operand of `where` (at::scalar_tensor with `like`'s options)."""
    return aten.scalar_tensor.default(value, **_options(like))
