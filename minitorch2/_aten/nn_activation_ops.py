"""hardsigmoid, mish, prelu, rrelu, softshrink and hardshrink kept whole, as ATen's ops: hardsigmoid /
hardsigmoid_backward, mish / mish_backward, _prelu_kernel / _prelu_kernel_backward, rrelu_with_noise_functional /
rrelu_with_noise_backward, softshrink / softshrink_backward, hardshrink / hardshrink_backward, with their kernels,
metas, derivative formulas and decompositions.

Runtime layer, coverage surface: rows of the op table (table_nn_apart.py) that no stage of the pipeline needs.
They exist so that a traced graph (and an eager grad_fn) records what torch's records: each F.* function reaches
one ATen op whose derivative is one backward op, and only a backend that decomposes (the inductor's table) sees the
pointwise math, spelled as torch's decompositions spell it. Kernels compute half inputs in float32 (ATen's opmath).
"""
import numpy as np

from .. import _dtype, _random
from .._ops import ops
from ..autograd.grad_mode import is_grad_enabled
from .derivatives_util import sum_to
from .meta_util import broadcast_shapes, fake_empty, pointwise_strides, with_strides
from .more_ops2 import no_derivative_formula
from .nn_ops import compute_dtype, require_float
from .pointwise_factories import _not_implemented
from .pointwise_unary import _float_kernel
from .scalar_arguments import read_scalar

aten = ops.aten


# ---------------------------------------------------------------- hardsigmoid
def _hardsigmoid(x):
    return np.minimum(np.maximum(x + 3, 0), 6) / 6


def _hardsigmoid_backward(grad, x):
    one_sixth = x.dtype.type(np.float32(1 / 6))  # (ATen's kernel: a float constant, in double too)
    return np.where((x > -3) & (x < 3), grad * one_sixth, 0)


hardsigmoid = _float_kernel(_hardsigmoid)
hardsigmoid_backward = _float_kernel(_hardsigmoid_backward, nargs=2)


def hardsigmoid_formula(grad, self):
    return aten.hardsigmoid_backward.default(grad, self)


hardsigmoid_backward_formula = no_derivative_formula("aten::hardsigmoid_backward")  # (torch has none either)


def hardsigmoid_decomposition(self):
    return aten.div.Scalar(aten.clamp_max.default(aten.clamp_min.default(aten.add.Scalar(self, 3), 0), 6), 6)


def hardsigmoid_backward_decomposition(grad_output, self):
    inside = aten.bitwise_and.Tensor(aten.gt.Scalar(self, -3.0), aten.lt.Scalar(self, 3.0))
    zero = aten.scalar_tensor.default(0.0, dtype=grad_output.dtype)
    return aten.where.self(inside, aten.mul.Scalar(grad_output, 1.0 / 6.0), zero)


# ---------------------------------------------------------------- mish
def _mish(x):
    return x * np.tanh(np.log1p(np.exp(x)))  # (ATen's kernel: no softplus threshold)


def _mish_backward(grad, x):
    tanh_softplus = np.tanh(np.log1p(np.exp(x)))
    sigmoid = 1 / (1 + np.exp(-x))
    return grad * (tanh_softplus + x * sigmoid * (1 - tanh_softplus * tanh_softplus))


mish = _float_kernel(_mish)
mish_backward = _float_kernel(_mish_backward, nargs=2)


def mish_formula(grad, self):
    """mish_backward, an op without a derivative, unless the backward itself is recorded (create_graph): then
    ATen's differentiable spelling of the same product."""
    if not is_grad_enabled():
        return aten.mish_backward.default(grad, self)
    return _mish_backward_math(grad, self)


mish_backward_formula = no_derivative_formula("aten::mish_backward")


def mish_decomposition(self):
    return aten.mul.Tensor(self, aten.tanh.default(aten.softplus.default(self, 1, 20)))


def mish_backward_decomposition(grad_output, self):
    return _mish_backward_math(grad_output, self)


def _mish_backward_math(grad_output, self):
    tanh_softplus = aten.tanh.default(aten.softplus.default(self, 1, 20))
    sigmoid = aten.sigmoid.default(self)
    bend = aten.rsub.Scalar(aten.mul.Tensor(tanh_softplus, tanh_softplus), 1)
    out = aten.mul.Tensor(aten.mul.Tensor(self, sigmoid), bend)
    return aten.mul.Tensor(grad_output, aten.add.Tensor(tanh_softplus, out))


# ---------------------------------------------------------------- prelu
def _prelu(x, weight):
    return np.where(x > 0, x, weight * x)


prelu_kernel = _float_kernel(_prelu, nargs=2)


def _prelu_backward_kernel(grad_output, self, weight):
    dtype = compute_dtype(self.dtype)
    g, x, w = (t._np.astype(dtype) for t in (grad_output, self, weight))
    shape = np.broadcast_shapes(g.shape, x.shape, w.shape)
    positive = x > 0
    input_grad = np.broadcast_to(np.where(positive, g, w * g), shape)
    weight_grad = np.broadcast_to(np.where(positive, 0, x * g), shape)
    strides = _prelu_backward_meta(grad_output, self, weight)[0].stride()
    return tuple(with_strides(t.astype(self.dtype.np), strides) for t in (input_grad, weight_grad))


def _prelu_backward_meta(grad_output, self, weight):
    """Both gradients laid out as ATen's kernel iterates: self's layout leads, then the weight's, the grad's."""
    shape = broadcast_shapes(tuple(grad_output.shape), tuple(self.shape), tuple(weight.shape))
    strides = pointwise_strides(shape, [self, weight, grad_output])
    return fake_empty(shape, self.dtype, strides), fake_empty(shape, self.dtype, strides)


prelu_backward_kernel = (_prelu_backward_kernel, _prelu_backward_meta)


def prelu_formula(grad, self, weight):
    """The kernel's backward gives both gradients at the broadcast shape; the weight's is summed to its own."""
    input_grad, weight_grad = aten._prelu_kernel_backward.default(grad, self, weight)
    return sum_to(input_grad, self.shape), sum_to(weight_grad, weight.shape)


def prelu_backward_formula(grads, grad_output, self, weight):
    """ATen's double backward of prelu: (grad_output's, self's, weight's), from the two incoming gradients."""
    grad_input, grad_weight = grads
    zero = aten.scalar_tensor.default(0.0, dtype=self.dtype)
    non_negative = aten.ge.Scalar(self, 0)
    if grad_input is None:
        grad_grad_output = aten.where.self(non_negative, zero, aten.mul.Tensor(grad_weight, self))
    else:
        slope_part = aten.mul.Tensor(grad_input, weight)
        if grad_weight is not None:
            slope_part = aten.add.Tensor(slope_part, aten.mul.Tensor(grad_weight, self))
        grad_grad_output = aten.where.self(non_negative, grad_input, slope_part)
    grad_self = None if grad_weight is None else aten.where.self(
        non_negative, zero, aten.mul.Tensor(grad_output, grad_weight))
    grad_weight_out = None if grad_input is None else aten.where.self(
        non_negative, zero, aten.mul.Tensor(grad_output, grad_input))
    return (sum_to(grad_grad_output, grad_output.shape), sum_to(grad_self, self.shape),
            sum_to(grad_weight_out, weight.shape))


def prelu_decomposition(self, weight):
    return aten.where.self(aten.gt.Scalar(self, 0), self, aten.mul.Tensor(weight, self))


def prelu_backward_decomposition(grad_output, self, weight):
    positive = aten.gt.Scalar(self, 0)
    zero = aten.scalar_tensor.default(0.0, dtype=self.dtype)
    input_grad = aten.where.self(positive, grad_output, aten.mul.Tensor(weight, grad_output))
    return input_grad, aten.where.self(positive, zero, aten.mul.Tensor(self, grad_output))


# ---------------------------------------------------------------- rrelu
def _rrelu_slopes(self, lower, upper, generator):
    """The slopes in training: uniform(lower, upper) for each element <= 0, one double per such element in memory
    order from the generator, as ATen's CPU kernel draws them (bounds rounded to the input's dtype first); 1
    elsewhere."""
    values = np.ascontiguousarray(self._np).reshape(-1)
    kind = np.float32 if values.dtype != np.float64 else np.float64
    low, high = float(kind(lower)), float(kind(upper))
    negative = values <= 0
    noise = np.ones(values.shape, kind)
    draws = (generator or _random.default_generator)._uniform_f64(int(negative.sum()))
    noise[negative] = (draws * (high - low) + low).astype(kind)
    return noise.astype(values.dtype).reshape(self.shape)


def _rrelu_kernel(self, noise, lower=0.125, upper=1 / 3, training=False, generator=None):
    """(output, noise_out): in training self times freshly drawn slopes (which become the noise); otherwise
    leaky_relu with the slopes' mean, the noise passed through."""
    require_float(self, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    if training:
        if self.dtype is _dtype.float16:  # (ATen's training kernel has no half version; eval is leaky_relu's)
            raise _not_implemented("rrelu_with_noise_out_cpu", self.dtype)
        read_scalar(lower, self.dtype), read_scalar(upper, self.dtype)
        slopes = _rrelu_slopes(self, lower, upper, generator)
        return np.ascontiguousarray(self._np * slopes), slopes
    x = self._np.astype(compute_dtype(self.dtype))
    slope = read_scalar((lower + upper) / 2, self.dtype)  # (leaky_relu's negative_slope, read as ATen reads it)
    out = np.where(x > 0, x, x * x.dtype.type(slope))
    return np.ascontiguousarray(out.astype(self.dtype.np)), np.array(noise._np)


def _rrelu_meta(self, noise, lower=0.125, upper=1 / 3, training=False, generator=None):
    require_float(self, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    return fake_empty(self.shape, self.dtype), fake_empty(noise.shape, noise.dtype, noise.stride())


rrelu_with_noise_functional = (_rrelu_kernel, _rrelu_meta)


def _rrelu_backward(grad, x, noise, lower, upper, training, self_is_result):
    if training and upper - lower > 1e-6:
        return grad * noise
    return np.where(x > 0, grad, grad * x.dtype.type((lower + upper) / 2))


rrelu_with_noise_backward = _float_kernel(_rrelu_backward, nargs=3)


def rrelu_formula(grads, self, lower, upper, training, result1, generator=None):
    """The first output's gradient, by the slopes the forward used (its second output)."""
    grad = grads[0]
    if grad is None:
        return None, None
    return aten.rrelu_with_noise_backward.default(grad, self, result1, lower, upper, training, False), None


def rrelu_backward_formula(grad, self, noise, lower, upper, training, self_is_result):
    return aten.rrelu_with_noise_backward.default(grad, self, noise, lower, upper, training, False), None, None


def rrelu_backward_decomposition(grad_output, self, noise, lower, upper, training, self_is_result):
    """torch's: the gradient times the slopes in training, leaky_relu's backward with their mean otherwise."""
    if training:
        return aten.mul.Tensor(grad_output, noise)
    return aten.leaky_relu_backward.default(grad_output, self, (lower + upper) / 2, self_is_result)


# ---------------------------------------------------------------- softshrink and hardshrink
def _lambd(lambd, dtype, opmath):
    """The threshold as ATen's kernel reads it: in float for softshrink's half inputs (opmath), else in the input's
    own dtype, so a float16 threshold of 0.3 is 0.30005."""
    return np.dtype(compute_dtype(dtype) if opmath else dtype.np).type(lambd)


def _inside(x, lambd):
    return (x >= -lambd) & (x <= lambd)


def _pointwise(kernel):
    """kernel(*arrays in the computation type, *scalars) -> the op's (kernel, meta), laid out as ATen's
    TensorIterator lays out its operands (the tensors come first in the signature)."""
    def tensors_of(args):
        return [a for a in args if hasattr(a, "dtype") and hasattr(a, "shape")]

    def meta(*args):
        tensors = tensors_of(args)
        require_float(tensors[-1], {"softshrink": "softshrink_check"}.get(kernel.__name__, f"{kernel.__name__}_cpu"))
        shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
        return fake_empty(shape, tensors[-1].dtype, pointwise_strides(shape, tensors))

    def run(*args):
        out = meta(*args)
        tensors = tensors_of(args)
        with np.errstate(all="ignore"):
            values = kernel(*(t._np for t in tensors), tensors[-1].dtype, *args[len(tensors):])
        return with_strides(np.broadcast_to(values, out.shape).astype(out.dtype.np), out.stride())

    return run, meta


@_pointwise
def softshrink(x, dtype, lambd=0.5):
    x = x.astype(compute_dtype(dtype))
    lambd = _lambd(lambd, dtype, opmath=True)
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, x * 0))  # (x * 0: -0. and nan stay)


@_pointwise
def hardshrink(x, dtype, lambd=0.5):
    return np.where(_inside(x, _lambd(lambd, dtype, opmath=False)), 0, x)


@_pointwise
def shrink_backward(grad, x, dtype, lambd):
    return np.where(_inside(x, _lambd(lambd, dtype, opmath=False)), 0, grad)


def softshrink_formula(grad, self, lambd=0.5):
    return aten.softshrink_backward.default(grad, self, lambd)


def hardshrink_formula(grad, self, lambd=0.5):
    return aten.hardshrink_backward.default(grad, self, lambd)


def softshrink_backward_formula(grad, grad_output, self, lambd):
    """Differentiable in the gradient (the same op again) and zero in the input, as derivatives.yaml says."""
    return aten.softshrink_backward.default(grad, self, lambd), aten.zeros_like.default(grad)


def hardshrink_backward_formula(grad, grad_out, self, lambd):
    return aten.hardshrink_backward.default(grad, self, lambd), aten.zeros_like.default(grad)


def softshrink_decomposition(self, lambd=0.5):
    outside = aten.gt.Scalar(aten.abs.default(self), lambd)
    shrunk = aten.sub.Tensor(self, aten.mul.Tensor(aten.sign.default(self), lambd))
    return aten.where.self(outside, shrunk, aten.mul.Tensor(self, 0))


def hardshrink_decomposition(self, lambd=0.5):
    zero = aten.scalar_tensor.default(0, dtype=self.dtype)
    return aten.where.self(aten.le.Scalar(aten.abs.default(self), lambd), zero, self)


def shrink_backward_decomposition(grad_out, self, lambd):
    inside = aten.bitwise_and.Tensor(aten.ge.Scalar(self, -lambd), aten.le.Scalar(self, lambd))
    return aten.where.self(inside, aten.scalar_tensor.default(0, dtype=grad_out.dtype), grad_out)
