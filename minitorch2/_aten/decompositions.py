"""Decompositions: ops written in terms of simpler registered ops (as torch._decomp).

Runtime layer, the fifth column of the op table. Each function computes its
op from more primitive aten ops, as PyTorch's decomposition of the same op
does; the AOT layer (`autograd/`) applies them while tracing to reduce a
graph to a smaller core op set, and tests check each against the op it
replaces. An op whose row has no decomposition is itself part of the core set.
"""
import math

from .._ops import ops
from .meta_util import wrap_dim

aten = ops.aten


def t(self):
    """A 2-d transpose is a permute; fewer dims give an alias, as in PyTorch's decomposition."""
    return aten.permute.default(self, [1, 0]) if self.dim() == 2 else aten.alias.default(self)


def transpose(self, dim0, dim1):
    dim0, dim1 = wrap_dim(dim0, self.dim()), wrap_dim(dim1, self.dim())
    if dim0 == dim1 or self.dim() <= 1:
        return aten.alias.default(self)
    dims = list(range(self.dim()))
    dims[dim0], dims[dim1] = dim1, dim0
    return aten.permute.default(self, dims)


def detach(self):
    """An alias: in a traced graph there is no autograd left to detach from."""
    return aten.alias.default(self)


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    out = aten.mm.default(mat1, mat2)
    if alpha != 1:
        out = aten.mul.Scalar(out, alpha)
    if beta == 0:
        return out
    bias = self if beta == 1 else aten.mul.Scalar(self, beta)
    return aten.add.Tensor(out, bias)


def silu(self):
    return aten.mul.Tensor(self, aten.sigmoid.default(self))


def silu_backward(grad_output, self):
    sigmoid = aten.sigmoid.default(self)
    return aten.mul.Tensor(grad_output, aten.mul.Tensor(sigmoid, aten.add.Scalar(
        aten.mul.Tensor(self, aten.rsub.Scalar(sigmoid, 1)), 1)))


def sigmoid_backward(grad_output, output):
    return aten.mul.Tensor(grad_output, aten.mul.Tensor(aten.rsub.Scalar(output, 1), output))


def tanh_backward(grad_output, output):
    return aten.mul.Tensor(grad_output, aten.rsub.Scalar(aten.mul.Tensor(output, output), 1))


def threshold_backward(grad_output, self, threshold):
    return aten.where.self(aten.le.Scalar(self, threshold), aten.scalar_tensor.default(0, dtype=grad_output.dtype),
                           grad_output)


def gelu(self, *, approximate="none"):
    if approximate == "tanh":
        inner = aten.mul.Scalar(aten.add.Tensor(self, aten.mul.Scalar(aten.pow.Tensor_Scalar(self, 3), 0.044715)),
                                math.sqrt(2 / math.pi))
        return aten.mul.Tensor(aten.mul.Scalar(self, 0.5), aten.add.Scalar(aten.tanh.default(inner), 1))
    cdf = aten.mul.Scalar(aten.add.Scalar(aten.erf.default(aten.mul.Scalar(self, 1 / math.sqrt(2))), 1), 0.5)
    return aten.mul.Tensor(self, cdf)


def _softmax(self, dim, half_to_float):
    self = self.contiguous()  # eager softmax returns a contiguous tensor, so must this
    shifted = aten.sub.Tensor(self, aten.amax.default(self, [dim], True))
    unnormalized = aten.exp.default(shifted)
    return aten.div.Tensor(unnormalized, aten.sum.dim_IntList(unnormalized, [dim], True))


def _log_softmax(self, dim, half_to_float):
    self = self.contiguous()
    shifted = aten.sub.Tensor(self, aten.amax.default(self, [dim], True))
    return aten.sub.Tensor(shifted, aten.log.default(aten.sum.dim_IntList(aten.exp.default(shifted), [dim], True)))


def _softmax_backward_data(grad_output, output, dim, input_dtype):
    product = aten.mul.Tensor(grad_output, output)
    return aten.sub.Tensor(product, aten.mul.Tensor(output, aten.sum.dim_IntList(product, [dim], True)))


def _log_softmax_backward_data(grad_output, output, dim, input_dtype):
    summed = aten.sum.dim_IntList(grad_output, [dim], True)
    return aten.sub.Tensor(grad_output, aten.mul.Tensor(aten.exp.default(output), summed))


def mse_loss(self, target, reduction=1):
    loss = aten.pow.Tensor_Scalar(aten.sub.Tensor(self, target), 2)
    if reduction == 1:
        return aten.mean.default(loss)
    if reduction == 2:
        return aten.sum.default(loss)
    return loss


def clamp_min(self, min):
    return aten.clamp.default(self, min)


def clamp_max(self, max):
    return aten.clamp.default(self, None, max)


def leaky_relu(self, negative_slope=0.01):
    return aten.where.self(aten.gt.Scalar(self, 0), self, aten.mul.Scalar(self, negative_slope))


def hardtanh(self, min_val=-1, max_val=1):
    return aten.clamp.default(self, min_val, max_val)


def var_mean(self, dim=None, *, correction=None, keepdim=False):
    return (aten.var.correction(self, dim, correction=correction, keepdim=keepdim),
            aten.mean.dim(self, dim if dim is not None else [], keepdim))


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    dims = list(range(input.dim() - len(normalized_shape), input.dim()))
    var, mean = var_mean(input, dims, correction=0, keepdim=True)
    rstd = aten.rsqrt.default(aten.add.Scalar(var, eps))
    out = aten.mul.Tensor(aten.sub.Tensor(input, mean), rstd)
    if weight is not None:
        out = aten.mul.Tensor(out, weight)
    if bias is not None:
        out = aten.add.Tensor(out, bias)
    return out, mean, rstd
