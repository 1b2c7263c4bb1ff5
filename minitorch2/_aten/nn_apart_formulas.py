"""Derivative formulas and decompositions of table_nn_apart.py's ops: mse_loss, log_sigmoid, the binary cross
entropies, pooling and upsampling (the nn op families no stage of the pipeline needs).

Runtime layer, coverage surface, read by the autograd layer through the op table as derivatives_nn.py's formulas are
(parameter names say what a node saves: `result1` is the op's second output, `self_shape` only a shape). The
decompositions, named `<op>_decomposition`, follow torch's own op for op, as decompositions_nn.py's do.
"""
from .. import _dtype
from .._ops import ops
from .decompositions_nn import MEAN, SUM
from .derivatives_nn import first, needs_grad
from .derivatives_util import sum_to

aten = ops.aten


# ---------------------------------------------------------------- derivative formulas
def mse_loss(grad, self, target, reduction=1):
    self_grad = target_grad = None
    if needs_grad(self):
        self_grad = sum_to(aten.mse_loss_backward.default(grad, self, target, reduction), self.shape)
    if needs_grad(target):
        target_grad = sum_to(aten.mse_loss_backward.default(grad, target, self, reduction), target.shape)
    return self_grad, target_grad


def _mse_double_backward(grad, input, reduction):
    grad_input = aten.mul.Scalar(grad, 2)
    return aten.div_.Scalar(grad_input, input.numel()) if reduction == 1 else grad_input


def mse_loss_backward(grad, grad_output, self, target, reduction):
    grad_output_grad = self_grad = target_grad = None
    if needs_grad(grad_output):
        grad_output_grad = sum_to(aten.mse_loss_backward.default(grad, self, target, reduction), grad_output.shape)
    if needs_grad(self):
        self_grad = _mse_double_backward(aten.mul.Tensor(grad, grad_output), self, reduction)
    if needs_grad(target):
        target_grad = aten.neg.default(_mse_double_backward(aten.mul.Tensor(grad, grad_output), target, reduction))
    return grad_output_grad, self_grad, target_grad


def binary_cross_entropy_with_logits(grad, self, target, weight=None, pos_weight=None, reduction=1):
    self_grad = target_grad = None
    if needs_grad(self):
        self_grad = sum_to(_bce_logits_backward(grad, self, target, weight, pos_weight, reduction), self.shape)
    if needs_grad(target):
        target_grad = _bce_logits_target_backward(grad, self, target, weight, pos_weight, reduction)
    return self_grad, target_grad, None, None


def _bce_logits_backward(grad, input, target, weight, pos_weight, reduction):
    if pos_weight is not None:
        t = aten.mul.Tensor(pos_weight, target)
        scaled = aten.sub.Tensor(aten.add.Scalar(t, 1), target)
        grad_input = aten.sub.Tensor(aten.mul.Tensor(scaled, aten.sigmoid.default(input)), t)
    else:
        grad_input = aten.sub.Tensor(aten.sigmoid.default(input), target)
    grad_input = aten.mul.Tensor(grad_input, grad)
    if weight is not None:
        grad_input = aten.mul.Tensor(grad_input, weight)
    return aten.div_.Scalar(grad_input, input.numel()) if reduction == 1 else grad_input


def _bce_logits_target_backward(grad, input, target, weight, pos_weight, reduction):
    if pos_weight is not None:
        # log_sigmoid(x) as -softplus(-x): minitorch2 has no log_sigmoid_forward op (PyTorch records that one)
        log_sigmoid_neg = aten.neg.default(aten.softplus.default(input))
        log_sigmoid = aten.neg.default(aten.softplus.default(aten.neg.default(input)))
        grad_target = aten.sub.Tensor(log_sigmoid_neg, aten.mul.Tensor(log_sigmoid, pos_weight))
        grad_target = aten.mul.Tensor(grad_target, grad)
    else:
        grad_target = aten.mul.Tensor(aten.neg.default(input), grad)
    if weight is not None:
        grad_target = aten.mul.Tensor(grad_target, weight)
    return aten.div_.Scalar(grad_target, target.numel()) if reduction == 1 else grad_target



def log_sigmoid_forward(grads, self, result1):
    grad = first(grads)
    return None if grad is None else aten.log_sigmoid_backward.default(grad, self, result1)


def log_sigmoid_backward(grad, grad_output, self, buffer):
    """(grad_output's gradient, self's: torch's log_sigmoid_double_backward, grad * (sigmoid - 1) * sigmoid)."""
    sig = aten.sigmoid.default(self)
    grad_self = aten.mul.Tensor(aten.mul.Tensor(aten.mul.Tensor(grad, grad_output), aten.sub.Tensor(sig, 1)), sig)
    return aten.log_sigmoid_backward.default(grad, self, buffer), grad_self, None


def binary_cross_entropy(grad, self, target, weight=None, reduction=1, needs_grad=(True, True, False)):
    grad_self = grad_target = None
    if needs_grad[0]:
        grad_self = aten.binary_cross_entropy_backward.default(grad, self, target, weight, reduction)
    if needs_grad[1]:  # torch's binary_cross_entropy_target_backward: -logit(self) * grad (* weight) (/ numel)
        logit = aten.log.default(aten.div.Tensor(self, aten.rsub.Scalar(self, 1)))
        grad_target = aten.mul.Tensor(aten.neg.default(logit), grad)
        if weight is not None:
            grad_target = aten.mul.Tensor(grad_target, weight)
        if reduction == 1:
            grad_target = aten.div.Scalar(grad_target, target.numel())
    return grad_self, grad_target, None


# ---------------------------------------------------------------- upsampling
def upsample_nearest1d(grad, self_shape, output_size, scales=None):
    return aten.upsample_nearest1d_backward.default(grad, output_size, list(self_shape), scales)


def upsample_nearest2d(grad, self_shape, output_size, scales_h=None, scales_w=None):
    return aten.upsample_nearest2d_backward.default(grad, output_size, list(self_shape), scales_h, scales_w)


def upsample_linear1d(grad, self_shape, output_size, align_corners, scales=None):
    return aten.upsample_linear1d_backward.default(grad, output_size, list(self_shape), align_corners, scales)


def upsample_bilinear2d(grad, self_shape, output_size, align_corners, scales_h=None, scales_w=None):
    return aten.upsample_bilinear2d_backward.default(grad, output_size, list(self_shape), align_corners, scales_h,
                                                     scales_w)


def upsample_nearest2d_backward(grad, output_size, scales_h=None, scales_w=None):
    """The backward of a scatter-add is the gather it undoes: upsample the gradient again."""
    return aten.upsample_nearest2d.default(grad, output_size, scales_h, scales_w)


def upsample_bilinear2d_backward(grad, output_size, align_corners, scales_h=None, scales_w=None):
    return aten.upsample_bilinear2d.default(grad, output_size, align_corners, scales_h, scales_w)


def upsample_nearest3d(grad, self_shape, output_size, scales_d=None, scales_h=None, scales_w=None):
    return aten.upsample_nearest3d_backward.default(grad, output_size, list(self_shape), scales_d, scales_h, scales_w)


def upsample_nearest3d_backward(grad, output_size, scales_d=None, scales_h=None, scales_w=None):
    return aten.upsample_nearest3d.default(grad, output_size, scales_d, scales_h, scales_w)


def upsample_nearest_exact1d(grad, self_shape, output_size, scales=None):
    return aten._upsample_nearest_exact1d_backward.default(grad, output_size, list(self_shape), scales)


def upsample_nearest_exact1d_backward(grad, output_size, scales=None):
    return aten._upsample_nearest_exact1d.default(grad, output_size, scales)


def upsample_nearest_exact2d(grad, self_shape, output_size, scales_h=None, scales_w=None):
    return aten._upsample_nearest_exact2d_backward.default(grad, output_size, list(self_shape), scales_h, scales_w)


def upsample_nearest_exact2d_backward(grad, output_size, scales_h=None, scales_w=None):
    return aten._upsample_nearest_exact2d.default(grad, output_size, scales_h, scales_w)


def upsample_nearest_exact3d(grad, self_shape, output_size, scales_d=None, scales_h=None, scales_w=None):
    return aten._upsample_nearest_exact3d_backward.default(grad, output_size, list(self_shape), scales_d, scales_h,
                                                           scales_w)


def upsample_nearest_exact3d_backward(grad, output_size, scales_d=None, scales_h=None, scales_w=None):
    return aten._upsample_nearest_exact3d.default(grad, output_size, scales_d, scales_h, scales_w)


def upsample_trilinear3d(grad, self_shape, output_size, align_corners, scales_d=None, scales_h=None, scales_w=None):
    return aten.upsample_trilinear3d_backward.default(grad, output_size, list(self_shape), align_corners, scales_d,
                                                      scales_h, scales_w)


def upsample_trilinear3d_backward(grad, output_size, align_corners, scales_d=None, scales_h=None, scales_w=None):
    return aten.upsample_trilinear3d.default(grad, output_size, align_corners, scales_d, scales_h, scales_w)


def _filtered_formulas(forward_name, backward_name):
    """A 2-d filter's derivative (its backward op) and its backward op's derivative (the filter again: linear)."""
    def derivative(grad, self_shape, output_size, align_corners, scales_h=None, scales_w=None):
        return getattr(aten, backward_name).default(grad, output_size, list(self_shape), align_corners, scales_h,
                                                    scales_w)

    def backward_derivative(grad, output_size, align_corners, scales_h=None, scales_w=None):
        return getattr(aten, forward_name).default(grad, output_size, align_corners, scales_h, scales_w)

    return derivative, backward_derivative


upsample_bicubic2d, upsample_bicubic2d_backward = _filtered_formulas("upsample_bicubic2d",
                                                                     "upsample_bicubic2d_backward")
upsample_bilinear2d_aa, upsample_bilinear2d_aa_backward = _filtered_formulas("_upsample_bilinear2d_aa",
                                                                             "_upsample_bilinear2d_aa_backward")
upsample_bicubic2d_aa, upsample_bicubic2d_aa_backward = _filtered_formulas("_upsample_bicubic2d_aa",
                                                                           "_upsample_bicubic2d_aa_backward")
upsample_lanczos2d_aa, upsample_lanczos2d_aa_backward = _filtered_formulas("_upsample_lanczos2d_aa",
                                                                           "_upsample_lanczos2d_aa_backward")


# ---------------------------------------------------------------- pooling
def max_pool2d_with_indices(grads, self, kernel_size, stride, padding, dilation, ceil_mode, result1):
    grad = first(grads)
    if grad is None:
        return None
    return aten.max_pool2d_with_indices_backward.default(grad, self, kernel_size, stride, _pair(padding),
                                                         _pair(dilation), ceil_mode, result1)


def max_pool2d_with_indices_backward(grad, grad_output, self, indices):
    grad_output_grad = None
    if needs_grad(grad_output):
        flat = aten.view.default(grad, list(grad.shape[:-2]) + [-1])
        picked = aten.gather.default(flat, -1, aten.view.default(indices, list(indices.shape[:-2]) + [-1]))
        grad_output_grad = aten.view.default(picked, list(indices.shape))
    return grad_output_grad, aten.zeros_like.default(self), None


def avg_pool2d(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    return aten.avg_pool2d_backward.default(grad, self, kernel_size, stride, _pair(padding), ceil_mode,
                                            count_include_pad, divisor_override)


def avg_pool2d_backward(grad, grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    grad_output_grad = None
    if needs_grad(grad_output):
        grad_output_grad = aten.avg_pool2d.default(grad, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                                   divisor_override)
    return grad_output_grad, aten.zeros_like.default(self)


def adaptive_avg_pool2d(grad, self):
    return aten._adaptive_avg_pool2d_backward.default(grad, self)


def adaptive_avg_pool2d_backward(grad, grad_output_shape, self):
    output_size = list(grad_output_shape[-2:])
    return aten._adaptive_avg_pool2d.default(grad, output_size), aten.zeros_like.default(self)


def _pair(value):
    """An `int[2]` argument that arrived as a bare int (a schema default) as ATen passes it on: [v, v]."""
    return [value, value] if isinstance(value, int) else value



# ---------------------------------------------------------------- decompositions
def _reduced(loss, reduction):
    if reduction == MEAN:
        return aten.mean.default(loss)
    if reduction == SUM:
        return aten.sum.default(loss)
    return loss


def mse_loss_decomposition(self, target, reduction=MEAN):
    return _reduced(aten.pow.Tensor_Scalar(aten.sub.Tensor(self, target), 2), reduction)


def mse_loss_backward_decomposition(grad_output, self, target, reduction):
    norm = 2.0 / self.numel() if reduction == MEAN else 2.0
    return aten.mul.Tensor(aten.mul.Tensor(aten.sub.Tensor(self, target), norm), grad_output)


def log_sigmoid_forward_decomposition(self):
    """(min(0, x) - log1p(z), z) with z = exp(-|x|): the CPU buffer is z, as torch's decomposition keeps it."""
    smaller = aten.minimum.default(aten.new_zeros.default(self, []), self)
    z = aten.exp.default(aten.neg.default(aten.abs.default(self)))
    return aten.sub.Tensor(smaller, aten.log1p.default(z)), z


def log_sigmoid_backward_decomposition(grad_output, self, buffer):
    negative = aten.lt.Scalar(self, 0)
    max_deriv = aten.where.self(negative, aten.scalar_tensor.default(1, dtype=_dtype.int64),
                                aten.scalar_tensor.default(0, dtype=_dtype.int64))
    sign = aten.where.self(negative, aten.scalar_tensor.default(1, dtype=_dtype.int64),
                           aten.scalar_tensor.default(-1, dtype=_dtype.int64))
    z = buffer if buffer.numel() > 0 else aten.exp.default(aten.neg.default(aten.abs.default(self)))
    ratio = aten.div.Tensor(z, aten.add.Tensor(z, 1))
    return aten.mul.Tensor(grad_output, aten.sub.Tensor(max_deriv, aten.mul.Tensor(sign, ratio)))


def binary_cross_entropy_decomposition(self, target, weight=None, reduction=1):
    """(target - 1) * max(log1p(-x), -100) - target * max(log(x), -100); the [0, 1] check is the eager
    kernel's alone (torch's decomposition cannot express it either)."""
    floor = aten.full.default([], -100.0, dtype=self.dtype)
    log_complement = aten.maximum.default(aten.log1p.default(aten.neg.default(self)), floor)
    loss = aten.sub.Tensor(aten.mul.Tensor(aten.sub.Tensor(target, 1), log_complement),
                           aten.mul.Tensor(target, aten.maximum.default(aten.log.default(self), floor)))
    if weight is not None:
        loss = aten.mul.Tensor(loss, weight)
    return _reduced(loss, reduction)


def binary_cross_entropy_backward_decomposition(grad_output, self, target, weight=None, reduction=1):
    denominator = aten.clamp.default(aten.mul.Tensor(self, aten.rsub.Scalar(self, 1)), 1e-12)
    result = aten.div.Tensor(aten.mul.Tensor(grad_output, aten.sub.Tensor(self, target)), denominator)
    if weight is not None:
        result = aten.mul.Tensor(result, weight)
    return aten.div.Scalar(result, self.numel()) if reduction == 1 else result


def binary_cross_entropy_with_logits_decomposition(self, target, weight=None, pos_weight=None, reduction=MEAN):
    """(1 - target) * x - log_weight * log(sigmoid(x)), log_weight = (pos_weight - 1) * target + 1."""
    log_weight = None
    if pos_weight is not None:
        log_weight = aten.add.Tensor(aten.mul.Tensor(aten.sub.Tensor(pos_weight, 1), target), 1)
    loss = aten.mul.Tensor(aten.sub.Tensor(1, target), self)
    log_sigmoid = log_sigmoid_forward_decomposition(self)[0]
    loss = aten.sub.Tensor(loss, log_sigmoid if log_weight is None else aten.mul.Tensor(log_weight, log_sigmoid))
    if weight is not None:
        loss = aten.mul.Tensor(loss, weight)
    if loss.dtype is not target.dtype:
        loss = aten._to_copy.default(loss, dtype=target.dtype)
    return _reduced(loss, reduction)



def scaled_dot_product_flash_attention_for_cpu(grads, query, key, value, dropout_p, is_causal, result0, result1,
                                               attn_mask=None, scale=None):
    """The fused backward, from the output and its logsumexp (the mask gets no gradient, as in torch)."""
    grad = first(grads)
    if grad is None:
        return None
    grads = aten._scaled_dot_product_flash_attention_for_cpu_backward.default(
        grad, query, key, value, result0, result1, dropout_p, is_causal, attn_mask=attn_mask, scale=scale)
    return (*grads, None)


def safe_softmax_decomposition(self, dim, dtype=None):
    """softmax, then zeros for the rows of nothing but -inf (all(), as torch's decomposition writes it)."""
    source = self if dtype is None else aten._to_copy.default(self, dtype=dtype)
    out = aten._softmax.default(source, dim, False)
    all_masked = aten.all.dim(aten.eq.Scalar(self, float("-inf")), dim, True)
    return aten.where.self(all_masked, aten.zeros_like.default(out), out)
