"""Derivative formulas of the neural-network ops (the nn half of derivatives.yaml).

Runtime layer, read by the autograd layer (minitorch2/autograd/_record.py) through the nn rows of the op table. As
in derivatives.py, parameter names say what a node saves (`result1` is the op's second output, `weight_shape` only a
shape), and each formula calls registered aten ops, so a tracing mode records the same backward ops PyTorch records,
in the same order: `_softmax` -> `_softmax_backward_data`, `convolution` -> `convolution_backward`,
`native_batch_norm` -> `native_batch_norm_backward`, ...

The one idea a reader must hold: a fused op's formula is almost always a single call of its fused backward op, which
takes an `output_mask` saying which input gradients to compute. PyTorch fills that mask from the inputs that need a
gradient (`grad_input_mask`); here `needs_grad(t)` reads the same fact from the saved inputs' `requires_grad`, so
traced graphs carry the same mask (e.g. `[True, True, False]` for a convolution without bias).

Formulas for multi-output ops receive `grads`, one entry per output that received a gradient; `first(grads)` is the
result's.
"""
from .._dispatch import state
from .._ops import ops

aten = ops.aten


def first(grads):
    return grads[0] if grads else None


def needs_grad(t):
    """Stand-in for PyTorch's grad_input_mask entry of an input."""
    return t is not None and t.requires_grad


def not_implemented(name):
    """The formula of an op whose double backward minitorch2 lacks: the node exists (with PyTorch's name) and
    fails only if a gradient actually reaches it."""
    def formula(grads):
        raise NotImplementedError(f"minitorch2 does not implement the derivative of {name} (double backward)")

    return formula


# ---------------------------------------------------------------- softmax
def softmax(grad, result, dim, self_dtype):
    return aten._softmax_backward_data.default(grad, result, dim, self_dtype)


def log_softmax(grad, result, dim, self_dtype):
    return aten._log_softmax_backward_data.default(grad, result, dim, self_dtype)


def softmax_backward_data(grad, grad_output, output, dim, input_dtype):
    grad_output_grad = output_grad = None
    if needs_grad(grad_output):
        grad_output_grad = aten._softmax_backward_data.default(grad, output, dim, input_dtype)
    if needs_grad(output):
        output_grad = _softmax_double_backward(grad, grad_output, dim, output)
    return grad_output_grad, output_grad


def _softmax_double_backward(grad, grad_output, dim, output):
    # grad_output * grad - (output * grad_output).sum(dim) * grad - grad_output * (output * grad).sum(dim),
    # with the operands evaluated right to left, as the C++ expression is
    third = aten.mul.Tensor(grad_output, aten.sum.dim_IntList(aten.mul.Tensor(output, grad), [dim], True))
    second = aten.mul.Tensor(aten.sum.dim_IntList(aten.mul.Tensor(output, grad_output), [dim], True), grad)
    first_term = aten.mul.Tensor(grad_output, grad)
    return aten.sub.Tensor(aten.sub.Tensor(first_term, second), third)


def log_softmax_backward_data(grad, grad_output, output, dim):
    grad_output_grad = output_grad = None
    if needs_grad(grad_output):
        total = aten.sum.dim_IntList(aten.mul.Tensor(grad, aten.exp.default(output)), [dim], True)
        grad_output_grad = aten.sub.Tensor(grad, total)
    if needs_grad(output):
        exp = aten.exp.default(output)
        minus_sum = aten.neg.default(aten.sum.dim_IntList(grad_output, [dim], True))
        output_grad = aten.mul.Tensor(aten.mul.Tensor(minus_sum, exp), grad)
    return grad_output_grad, output_grad


# ---------------------------------------------------------------- losses
def nll_loss_forward(grads, self, target, weight, reduction, ignore_index, result1):
    grad = first(grads)
    if grad is None:
        return None, None, None
    return aten.nll_loss_backward.default(grad, self, target, weight, reduction, ignore_index, result1), None, None


def nll_loss_backward(grad, grad_output, target, weight, reduction, ignore_index):
    grad_output_grad = None
    if needs_grad(grad_output):
        grad_output_grad = aten.nll_loss_forward.default(grad, target, weight, reduction, ignore_index)[0]
    return grad_output_grad, aten.zeros_like.default(grad), None, None, None


# ---------------------------------------------------------------- normalization
def native_layer_norm(grads, input, normalized_shape, weight, bias, result1, result2):
    grad = first(grads)
    if grad is None:
        return None, None, None
    mask = [needs_grad(input), needs_grad(weight), needs_grad(bias)]
    return aten.native_layer_norm_backward.default(grad, input, normalized_shape, result1, result2, weight, bias, mask)


def _batch_norm_backward(grad, input, weight, bias, running_mean, running_var, save_mean, save_invstd, train, eps):
    mask = [needs_grad(input), needs_grad(weight), needs_grad(bias)]
    return aten.native_batch_norm_backward.default(grad, input, weight, running_mean, running_var, save_mean,
                                                   save_invstd, train, eps, mask)


def native_batch_norm(grads, input, weight, bias, running_mean, running_var, training, eps, result1, result2):
    """Also the formula of _native_batch_norm_legit and _native_batch_norm_legit_functional."""
    grad = first(grads)
    if grad is None:
        return None, None, None, None, None
    grads = _batch_norm_backward(grad, input, weight, bias, running_mean, running_var, result1, result2, training, eps)
    return tuple(grads) + (None, None)


def batch_norm_no_training(grads, input, weight, bias, running_mean, running_var, eps, result1, result2):
    return native_batch_norm(grads, input, weight, bias, running_mean, running_var, False, eps, result1, result2)


def batch_norm_no_stats(grads, input, weight, bias, training, eps, result1, result2):
    grad = first(grads)
    if grad is None:
        return None, None, None
    return _batch_norm_backward(grad, input, weight, bias, None, None, result1, result2, training, eps)


# ---------------------------------------------------------------- convolution
def convolution(grad, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    # `bias` is saved only for its requires_grad (the mask); its values are never read
    mask = [needs_grad(input), needs_grad(weight), needs_grad(bias)]
    bias_sizes = list(bias.shape) if bias is not None else None
    return aten.convolution_backward.default(grad, input, weight, bias_sizes, stride, padding, dilation, transposed,
                                             output_padding, groups, mask)


# ---------------------------------------------------------------- embedding
def embedding(grad, weight_shape, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if sparse:
        raise NotImplementedError("minitorch2 has no sparse tensors: embedding(..., sparse=True) cannot be differentiated")
    return aten.embedding_dense_backward.default(grad, indices, weight_shape[0], padding_idx, scale_grad_by_freq), None


def embedding_dense_backward(grad, indices, padding_idx):
    grad_weight = aten.index_select.default(grad, 0, aten.view.default(indices, [-1]))
    if padding_idx >= 0:
        padding = aten.view.default(aten.eq.Scalar(indices, padding_idx), [-1, 1])
        grad_weight = aten.masked_fill_.Scalar(grad_weight, padding, 0)
    return aten.view.default(grad_weight, list(indices.shape) + [-1]), None


# ---------------------------------------------------------------- dropout
def _dropout_scale(p, train):
    # derivatives.yaml uses scale 1 when `train` is None, although the forward then trains; kept as PyTorch has it
    return 1.0 if train is None or not train else 0.0 if p == 1 else 1.0 / (1.0 - p)


def native_dropout(grads, result1, p, train):
    grad = first(grads)
    if grad is None:
        return None
    scale = _dropout_scale(p, train)
    if state.grad_enabled:  # create_graph: PyTorch switches to a formula that is itself differentiable
        return aten.mul.Tensor(grad, aten.mul.Scalar(aten._to_copy.default(result1, dtype=grad.dtype), scale))
    return aten.native_dropout_backward.default(grad, result1, scale)


def native_dropout_backward(grad, grad_output_dtype, mask, scale):
    return aten.mul.Tensor(grad, aten.mul.Scalar(aten._to_copy.default(mask, dtype=grad_output_dtype), scale)), None
