"""Weight normalization as ATen's ops: torch._weight_norm, its fused op _weight_norm_interface (the weight and the
norms) and that op's backward _weight_norm_interface_backward, each with its kernel, meta function, derivative
formula and decomposition.

Runtime layer, coverage surface: rows of the op table (table_nn_more.py). nn.utils' weight_norm (both forms) calls
torch._weight_norm(v, g, dim), which Dynamo records whole; as ATen's composite, it runs the fused op where ATen's
does (dim first or last, no float16 tensor) and `v * (g / norm_except_dim(v))` otherwise. So aot_eager's graphs hold
`_weight_norm_interface(v, g, dim)` and, in the backward, `_weight_norm_interface_backward(grad, v, g, norms, dim)`
as torch's; the inductor decomposes the forward (torch._decomp's form: linalg_vector_norm, div, mul) and keeps the
backward whole. The kernels compute as the composite does, so values are those of the unfused form. For dim=-1
(nn.utils' dim=None) the composite's norm is `v.norm(2)`, ATen's norm.Scalar, also here with norm's own backward,
beside norm.ScalarOpt_dim, the norm over dims that pairwise_distance's composite calls.
"""
import numpy as np

from .. import _dtype
from .._ops import ops
from ..autograd.grad_mode import is_grad_enabled
from .meta_util import fake_empty
from .more_formulas import linalg_vector_norm as linalg_vector_norm_derivative
from .more_ops import linalg_vector_norm
from .table_row import REDUCTION

aten = ops.aten


def _other_dims(v, dim):
    return [d for d in range(v.dim()) if d != dim]


def _norm_dtype(g):
    """The norms' dtype: float32 for a bfloat16 g (ATen keeps them wider), else g's."""
    return _dtype.float32 if g.dtype is _dtype.bfloat16 else g.dtype


def _interface_kernel(v, g, dim=0):
    norms = linalg_vector_norm[0](v, 2, _other_dims(v, dim), True, dtype=_norm_dtype(g))
    return v._np * (g._np / norms.astype(g.dtype.np)), norms


def _interface_meta(v, g, dim=0):
    return fake_empty(tuple(v.shape), v.dtype), fake_empty(tuple(g.shape), _norm_dtype(g))


def _backward_kernel(grad_w, saved_v, saved_g, saved_norms, dim):
    """As ATen's CPU kernel, in the norms' dtype: grad_g = sum(grad_w * v) / norm, grad_v = a * grad_w - b * v with
    a = g / norm and b = a * grad_g / norm (per slice along `dim`)."""
    dtype = saved_norms.dtype.np
    v, g, norms, grad = (t._np.astype(dtype) for t in (saved_v, saved_g, saved_norms, grad_w))
    grad_g = np.sum(grad * v, axis=tuple(_other_dims(saved_v, dim)), keepdims=True) / norms
    a = g / norms
    grad_v = a * grad - a * grad_g / norms * v
    return grad_v.astype(saved_v.dtype.np), grad_g.reshape(saved_g.shape).astype(saved_g.dtype.np)


def _backward_meta(grad_w, saved_v, saved_g, saved_norms, dim):
    return fake_empty(tuple(saved_v.shape), saved_v.dtype), fake_empty(tuple(saved_g.shape), saved_g.dtype)


def interface_derivative(grads, v, g, result1, dim, needs_grad):
    """ATen's formula: the backward op, or with grad mode on (a double backward) its differentiable form."""
    grad = grads[0] if grads else None
    if grad is None:
        return None, None
    if not is_grad_enabled():
        return aten._weight_norm_interface_backward.default(grad.contiguous(), v, g, result1, dim)
    norms = result1
    per_dim_sums = aten.sum.dim_IntList(aten.mul.Tensor(grad, v), _other_dims(v, dim), True)
    grad_g = aten.div.Tensor(per_dim_sums, norms)
    grad_v = aten.mul.Tensor(aten.div.Tensor(g, norms),
                             aten.sub.Tensor(grad, aten.mul.Tensor(v, aten.div.Tensor(grad_g, norms))))
    return grad_v, aten.view.default(grad_g, list(g.shape))


def interface_decomposition(v, g, dim=0):
    """torch._decomp's: the norms (float32 for bfloat16), then v * (g / norms)."""
    norms = aten.linalg_vector_norm.default(v, 2, _other_dims(v, dim), True, dtype=_norm_dtype(g)) \
        if g.dtype is _dtype.bfloat16 else aten.linalg_vector_norm.default(v, 2, _other_dims(v, dim), True)
    scale = norms if norms.dtype is g.dtype else aten._to_copy.default(norms, dtype=g.dtype)
    return aten.mul.Tensor(v, aten.div.Tensor(g, scale)), norms


def weight_norm(v, g, dim=0):
    """torch._weight_norm: the fused op where ATen's composite takes it, else v * (g / the norm except dim), which
    for dim=-1 (nn.utils' dim=None: the whole tensor) is ATen's norm_except_dim's `v.norm(2)`: aten.norm.Scalar."""
    if _dtype.float16 not in (v.dtype, g.dtype) and dim in (0, v.dim() - 1):
        return aten._weight_norm_interface.default(v.contiguous(), g.contiguous(), dim)[0]
    norm = aten.norm.Scalar(v) if dim == -1 else aten.linalg_vector_norm.default(v, 2, _other_dims(v, dim), True)
    return aten.mul.Tensor(v, aten.div.Tensor(g, norm))


def norm_scalar_derivative(grad, self, result, p=2):
    """FunctionsManual's norm_backward as norm.Scalar's formula writes it for p=2: grad * (self / norm), the
    quotient zeroed where the norm is 0 (linalg_vector_norm's formula divides grad instead, then multiplies self)."""
    if p != 2:
        return linalg_vector_norm_derivative(grad, self, result, p)
    return aten.mul.Tensor(grad, aten.masked_fill_.Scalar(aten.div.Tensor(self, result), aten.eq.Scalar(result, 0), 0))


def norm_scalar_decomposition(self, p=2):
    """torch._refs.norm of a whole tensor: its vector norm."""
    return aten.linalg_vector_norm.default(self, p)


def _norm_over_dims(self, p, dim, keepdim=False):
    return linalg_vector_norm[0](self, 2 if p is None else p, dim, keepdim)


def _norm_over_dims_meta(self, p, dim, keepdim=False):
    return linalg_vector_norm[1](self, 2 if p is None else p, dim, keepdim)


def norm_over_dims_derivative(grad, self, result, p, dim, keepdim=False):
    return linalg_vector_norm_derivative(grad, self, result, 2 if p is None else p, dim, keepdim)


def norm_over_dims_decomposition(self, p, dim, keepdim=False):
    """torch._refs.norm over dims: the vector norm over them."""
    return aten.linalg_vector_norm.default(self, 2 if p is None else p, dim, keepdim)


def rows(op):
    return [
        # Tensor.norm(p, dim) as ATen's op, which its composites call (pairwise_distance, so triplet_margin_loss)
        op("norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor", REDUCTION,
           (_norm_over_dims, _norm_over_dims_meta), norm_over_dims_derivative, grad_fn="NormBackward1",
           decomposition=norm_over_dims_decomposition),
        # Tensor.norm(p) of a whole tensor as ATen's op (here only ATen's composites call it: norm_except_dim)
        op("norm.Scalar(Tensor self, Scalar p=2) -> Tensor", REDUCTION,
           (lambda self, p=2: linalg_vector_norm[0](self, p), lambda self, p=2: linalg_vector_norm[1](self, p)),
           norm_scalar_derivative, decomposition=norm_scalar_decomposition),
        op("_weight_norm_interface(Tensor v, Tensor g, int dim=0) -> (Tensor, Tensor)", (),
           (_interface_kernel, _interface_meta), interface_derivative, decomposition=interface_decomposition,
           grad_fn="WeightNormInterfaceBackward0", output_differentiability=(True, False)),
        op("_weight_norm_interface_backward(Tensor grad_w, Tensor saved_v, Tensor saved_g, Tensor saved_norms, "
           "int dim) -> (Tensor, Tensor)", (), (_backward_kernel, _backward_meta)),
    ]
