"""Derivative formulas of the pointwise ops: arithmetic, unary math, activations, clamp, where and masked_fill.

Runtime layer, read by the autograd layer through the op table (table.py reads them as `d.<name>` via derivatives.py,
whose docstring gives the rules for the order of the op calls inside a formula). Binary formulas take `needs_grad` and
return one gradient per input, each reduced to its input's shape with `sum_to`; activations differentiate to their
`*_backward` ops, whose own formulas (double backward) are here too.
"""
import math

from .._ops import ops
from .._tensor import contiguous_format, preserve_format
from .derivatives_util import _scale, _shape, _zero_like_scalar, conj_of, for_input, sum_to

aten = ops.aten


# ---------------------------------------------------------------- arithmetic
def add_tensor(grad, self_shape, other_shape, self_dtype, other_dtype, needs_grad, alpha=1):  # (dtypes: handle_r_to_c)
    other = for_input(_scale(grad, conj_of(alpha)), other_dtype) if needs_grad[1] else None
    self = for_input(grad, self_dtype) if needs_grad[0] else None
    return sum_to(self, self_shape), sum_to(other, other_shape)


def add_scalar(grad):
    return grad


def sub_tensor(grad, self_shape, other_shape, self_dtype, other_dtype, needs_grad, alpha=1):
    other = for_input(_scale(aten.neg.default(grad), conj_of(alpha)), other_dtype) if needs_grad[1] else None
    self = for_input(grad, self_dtype) if needs_grad[0] else None
    return sum_to(self, self_shape), sum_to(other, other_shape)


def rsub_tensor(grad, self_shape, other_shape, self_dtype, other_dtype, needs_grad, alpha=1):
    other = for_input(grad, other_dtype) if needs_grad[1] else None
    self = for_input(_scale(aten.neg.default(grad), conj_of(alpha)), self_dtype) if needs_grad[0] else None
    return sum_to(self, self_shape), sum_to(other, other_shape)


def rsub_scalar(grad, alpha=1):
    return _scale(aten.neg.default(grad), alpha)


def mul_tensor(grad, other, self, needs_grad):  # (complex: grad * other.conj(), a real input's part real)
    other_grad = for_input(aten.mul.Tensor(grad, conj_of(self)), other) if needs_grad[1] else None
    self_grad = for_input(aten.mul.Tensor(grad, conj_of(other)), self) if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def mul_scalar(grad, other):
    return aten.mul.Scalar(grad, conj_of(other))


def div_tensor(grad, other, self, needs_grad):
    other_grad = None
    if needs_grad[1]:  # -grad * ((self / other) / other)
        quotient = aten.div.Tensor(aten.div.Tensor(self, other), other)
        other_grad = for_input(aten.mul.Tensor(aten.neg.default(grad), conj_of(quotient)), other)
    self_grad = for_input(aten.div.Tensor(grad, conj_of(other)), self) if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def div_scalar(grad, other):
    return aten.div.Scalar(grad, conj_of(other))


def neg(grad):
    return aten.neg.default(grad)


def pow_tensor_scalar(grad, self, exponent):
    if exponent == 0:
        return aten.zeros_like.default(self, memory_format=contiguous_format)
    exponent = float(exponent)  # the formula computes in double: pow(self, 1.0), not pow(self, 1)
    return aten.mul.Tensor(grad, conj_of(aten.mul.Scalar(aten.pow.Tensor_Scalar(self, exponent - 1), exponent)))


def pow_tensor_tensor(grad, self, exponent, result, needs_grad):
    """ATen's pow_backward_exponent and pow_backward_self: 0 ** e has a zero gradient, as does x ** 0."""
    exp_grad = self_grad = None
    if needs_grad[1]:
        nonnegative = aten.ge.Scalar(exponent, 0)
        at_zero = aten.logical_and.default(aten.eq.Scalar(self, 0), nonnegative)
        log_term = aten.mul.Tensor(result, aten.log.default(self))
        exp_grad = aten.mul.Tensor(grad, aten.where.self(at_zero, _zero_like_scalar(0.0, grad), log_term))
    if needs_grad[0]:
        power = aten.mul.Tensor(grad, aten.mul.Tensor(exponent, aten.pow.Tensor_Tensor(self, aten.sub.Scalar(exponent, 1))))
        zero = _zero_like_scalar(0.0, grad)
        self_grad = aten.where.self(aten.eq.Scalar(exponent, 0.0), zero, power)
    return sum_to(self_grad, _shape(self)), sum_to(exp_grad, _shape(exponent))


def pow_scalar(grad, self, exponent, result):
    return aten.mul.Tensor(grad, aten.mul.Scalar(result, math.log(self)))


def maximum(grad, self, other, needs_grad):
    return _max_min_backward(grad, self, other, needs_grad, aten.gt.Tensor, aten.lt.Tensor)


def minimum(grad, self, other, needs_grad):
    return _max_min_backward(grad, self, other, needs_grad, aten.lt.Tensor, aten.gt.Tensor)


def _max_min_backward(grad, self, other, needs_grad, self_wins, other_wins):
    # at::where(self == other, grad / 2, grad).masked_fill_(self < other, 0) and its mirror, `other` first;
    # the in-place masked_fill_ is recorded functionalized, as PyTorch's trace shows it
    def share(loses):
        half = aten.div.Scalar(grad, 2)
        return aten.masked_fill.Scalar(aten.where.self(aten.eq.Tensor(self, other), half, grad), loses(self, other), 0)

    other_grad = share(self_wins) if needs_grad[1] else None
    self_grad = share(other_wins) if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


def addcmul(grad, self_shape, tensor1, tensor2, needs_grad, value=1):
    g1 = aten.mul.Tensor(grad, aten.mul.Scalar(tensor2, value)) if needs_grad[1] else None
    g2 = aten.mul.Tensor(grad, aten.mul.Scalar(tensor1, value)) if needs_grad[2] else None
    self_grad = grad if needs_grad[0] else None
    return sum_to(self_grad, self_shape), sum_to(g1, _shape(tensor1)), sum_to(g2, _shape(tensor2))


def addcdiv(grad, self_shape, tensor1, tensor2, needs_grad, value=1):
    g1 = g2 = None
    if needs_grad[1]:  # grad * (value / tensor2), where C++ writes Scalar / Tensor as empty_like(t).fill_(s).div_(t)
        filled = aten.fill.Scalar(aten.empty_like.default(tensor2, memory_format=preserve_format), value)
        g1 = aten.mul.Tensor(grad, aten.div.Tensor(filled, tensor2))
    if needs_grad[2]:  # -grad * (value * tensor1 / (tensor2 * tensor2))
        square = aten.mul.Tensor(tensor2, tensor2)
        quotient = aten.div.Tensor(aten.mul.Scalar(tensor1, value), square)
        g2 = aten.mul.Tensor(aten.neg.default(grad), quotient)
    self_grad = grad if needs_grad[0] else None
    return sum_to(self_grad, self_shape), sum_to(g1, _shape(tensor1)), sum_to(g2, _shape(tensor2))


def remainder_tensor(grad, self, other, needs_grad):
    return _rounded_division_backward(grad, self, other, needs_grad, "floor")


def _rounded_division_backward(grad, self, other, needs_grad, rounding_mode):
    other_grad = None
    if needs_grad[1]:  # -grad * self.div(other, rounding_mode=...)
        quotient = aten.div.Tensor_mode(self, other, rounding_mode=rounding_mode)
        other_grad = aten.mul.Tensor(aten.neg.default(grad), quotient)
    self_grad = grad if needs_grad[0] else None
    return sum_to(self_grad, _shape(self)), sum_to(other_grad, _shape(other))


# ---------------------------------------------------------------- unary math
def exp(grad, result):
    return aten.mul.Tensor(grad, conj_of(result))


def log(grad, self):
    return aten.div.Tensor(grad, conj_of(self))


def log1p(grad, self):
    return aten.div.Tensor(grad, conj_of(aten.add.Scalar(self, 1)))


def expm1(grad, result):
    return aten.mul.Tensor(grad, conj_of(aten.add.Scalar(result, 1)))


def sin(grad, self):
    return aten.mul.Tensor(grad, conj_of(aten.cos.default(self)))


def cos(grad, self):
    return aten.mul.Tensor(grad, conj_of(aten.neg.default(aten.sin.default(self))))


def sqrt(grad, result):
    return aten.div.Tensor(grad, conj_of(aten.mul.Scalar(result, 2)))


def rsqrt(grad, result):
    return aten.mul.Tensor(grad, conj_of(aten.mul.Scalar(aten.pow.Tensor_Scalar(result, 3), -0.5)))


def reciprocal(grad, result):
    return aten.mul.Tensor(grad, conj_of(aten.neg.default(aten.mul.Tensor(result, result))))


def tanh(grad, result):
    return aten.tanh_backward.default(grad, result)


def sigmoid(grad, result):
    return aten.sigmoid_backward.default(grad, result)


def erf(grad, self):
    # 2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad
    return aten.mul.Tensor(aten.mul.Scalar(aten.exp.default(aten.neg.default(aten.pow.Tensor_Scalar(self, 2))),
                                           2 / math.sqrt(math.pi)), grad)


def abs(grad, self):
    return aten.mul.Tensor(grad, aten.sgn.default(self))


def zero_grad(grad, self):
    return aten.zeros_like.default(grad)


def relu(grad, result):
    return aten.threshold_backward.default(grad, result, 0)


def threshold(grad, self, threshold):
    return aten.threshold_backward.default(grad, self, threshold)


def gelu(grad, self, approximate="none"):
    return aten.gelu_backward.default(grad, self, approximate=approximate)  # (the schema drops the default "none")


def gelu_backward(grad, grad_output, self, approximate="none"):
    """Double backward of gelu: d/dx of gelu'(x) times grad_output (ATen's gelu_double_backward)."""
    grad_output_grad = gelu(grad, self, approximate)
    x_sq = aten.mul.Tensor(self, self)
    if approximate == "tanh":
        beta, kappa = math.sqrt(2.0 / math.pi), 0.044715
        h = aten.mul.Scalar(aten.add.Scalar(aten.mul.Scalar(x_sq, 3 * kappa), 1), beta)  # d(inner)/dx
        t = aten.tanh.default(aten.mul.Scalar(aten.add.Tensor(self, aten.mul.Scalar(aten.mul.Tensor(x_sq, self), kappa)), beta))
        sech_sq = aten.rsub.Scalar(aten.mul.Tensor(t, t), 1)
        # gelu'(x) = (1 + t) / 2 + x (1 - t^2) h / 2, differentiated once more:
        second = aten.mul.Tensor(sech_sq, aten.sub.Tensor(
            aten.add.Tensor(h, aten.mul.Scalar(x_sq, 3 * kappa * beta)),
            aten.mul.Tensor(aten.mul.Tensor(self, t), aten.mul.Tensor(h, h))))
    else:
        pdf = aten.mul.Scalar(aten.exp.default(aten.mul.Scalar(x_sq, -0.5)), 1 / math.sqrt(2 * math.pi))
        second = aten.mul.Tensor(pdf, aten.rsub.Scalar(x_sq, 2))  # 2 pdf - x^2 pdf
    return grad_output_grad, aten.mul.Tensor(aten.mul.Tensor(grad, grad_output), second)


def silu(grad, self):
    return aten.silu_backward.default(grad, self)


def leaky_relu(grad, self, negative_slope=0.01):
    return aten.leaky_relu_backward.default(grad, self, negative_slope, False)


def tanh_backward(grads, grad_output, output):
    g = grads[0]
    gg = aten.tanh_backward.default(g, output)
    go = aten.mul.Tensor(aten.mul.Scalar(aten.mul.Tensor(output, g), -2), grad_output)
    return gg, go


def sigmoid_backward(grads, grad_output, output):
    g = grads[0]
    gg = aten.sigmoid_backward.default(g, output)
    go = aten.mul.Tensor(aten.mul.Tensor(g, grad_output), aten.sub.Tensor(aten.mul.Scalar(output, -2), -1))
    return gg, go


def threshold_backward(grad, self, threshold):
    return aten.threshold_backward.default(grad, self, threshold), aten.zeros_like.default(grad)


def clamp(grad, self, min=None, max=None):
    """ATen's clamp_backward: where(self >= min & self <= max, grad, scalar_tensor(0.))."""
    if min is None and max is None:
        return grad
    zero = _zero_like_scalar(0.0, grad)  # the last argument of where(...) is evaluated first
    return aten.where.self(_within(self, min, max, aten.ge.Scalar, aten.le.Scalar), grad, zero)


def _within(self, min, max, ge, le):
    """The mask of self's elements inside [min, max], either bound possibly absent."""
    if min is not None and max is not None:
        return aten.logical_and.default(ge(self, min), le(self, max))
    return ge(self, min) if min is not None else le(self, max)


def clamp_min(grad, self, min):
    return clamp(grad, self, min=min)


def clamp_max(grad, self, max):
    return clamp(grad, self, max=max)


def where(grad, condition, self_shape, other_shape, needs_grad):
    # where(condition, 0, grad) wraps the Scalar 0 into a tensor of grad's type first
    other_grad = aten.where.self(condition, _zero_like_scalar(0, grad), grad) if needs_grad[2] else None
    self_grad = aten.where.self(condition, grad, _zero_like_scalar(0, grad)) if needs_grad[1] else None
    return None, sum_to(self_grad, self_shape), sum_to(other_grad, other_shape)


def masked_fill_scalar(grad, mask):
    return aten.masked_fill.Scalar(grad, mask, 0), None


def masked_fill_tensor(grad, mask):
    return aten.masked_fill.Scalar(grad, mask, 0), None, aten.sum.default(aten.where.self(mask, grad, 0.0))


def clamp_tensor(grad, self, needs_grad, min=None, max=None):
    """ATen's clamp_backward_min_max (derivatives.yaml key "min, max", so it runs first: min and max get
    the gradient where they won), then clamp_backward for self."""
    min_grad = max_grad = None
    if (min is not None and needs_grad[1]) or (max is not None and needs_grad[2]):
        zero = _zero_like_scalar(0.0, grad)
        if min is not None and max is not None:
            if needs_grad[1]:
                min_grad = aten.where.self(aten.logical_and.default(aten.lt.Tensor(self, min), aten.lt.Tensor(min, max)),
                                           grad, zero)
            if needs_grad[2]:
                max_grad = aten.where.self(aten.logical_or.default(aten.gt.Tensor(self, max), aten.lt.Tensor(max, min)),
                                           grad, zero)
        elif min is not None:
            min_grad = aten.where.self(aten.lt.Tensor(self, min), grad, zero)
        else:
            max_grad = aten.where.self(aten.gt.Tensor(self, max), grad, zero)
    self_grad = None
    if needs_grad[0]:
        zero = _zero_like_scalar(0.0, grad)
        self_grad = aten.where.self(_within(self, min, max, aten.ge.Tensor, aten.le.Tensor), grad, zero)
    return (sum_to(self_grad, _shape(self)), sum_to(min_grad, None if min is None else min.shape),
            sum_to(max_grad, None if max is None else max.shape))


def leaky_relu_backward(grad, self, negative_slope, self_is_result):
    return aten.leaky_relu_backward.default(grad, self, negative_slope, False), aten.zeros_like.default(grad)


def leaky_relu_inplace(grad, result, negative_slope=0.01):
    """leaky_relu_: self is overwritten; a positive slope keeps the sign, so the output decides the branch."""
    if negative_slope < 0:
        raise RuntimeError(
            "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
            "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
            "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting "
            "in-place leakRelu backward calculation with negative slope")
    return aten.leaky_relu_backward.default(grad, result, negative_slope, True)
