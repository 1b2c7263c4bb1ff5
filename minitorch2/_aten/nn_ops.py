"""Neural-network kernels: softmax, the nll loss, embedding, dropout (and their backward ops).

Runtime layer: the nn rows of the op table (table.py), next to nn_norm.py and nn_conv.py. nn.functional calls these
ops eagerly and traced graphs record them by name, so each is the ATen op of the same schema: same extra outputs,
shapes, strides, dtypes and errors.

The one idea a reader must hold: these are *fused* ops whose backward is another fused op (`_softmax` ->
`_softmax_backward_data`, `nll_loss_forward` -> `nll_loss_backward`, `native_dropout` -> `native_dropout_backward`).
What a forward returns besides its result (nll's `total_weight`, dropout's `mask`) is exactly what its backward
needs; the formulas that connect them live in derivatives_nn.py. Kernels read `t._np`, return numpy arrays and check
their arguments with the meta functions' shape rules, so real and fake tensors fail alike.
"""
import numpy as np

from .. import _dtype, _random
from .._tensor import contiguous_strides
from .memory import _dtype_title as scalar_type_name  # ATen's name for a dtype in messages ('Float', 'Long', ...)
from .meta_util import channels_last_strides, fake_empty, fake_pointwise, pointwise_strides, wrap_dim


# ---------------------------------------------------------------- shared helpers
def sizes(shape):
    """A shape as ATen prints it in messages: [2, 3, 4]."""
    return "[" + ", ".join(str(s) for s in shape) + "]"


def require_float(t, kernel_name):
    """ATen's dtype dispatch error for a kernel compiled only for floating types."""
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'{scalar_type_name(t.dtype)}\'')


def compute_dtype(dtype):
    """The numpy dtype to compute in: float16 computes in float32, as ATen's CPU opmath does."""
    return _dtype.opmath(dtype).np.type


def contiguous(array, dtype):
    return np.asarray(array, dtype=dtype.np, order="C")


def is_channels_last(t):
    """c10's is_channels_last_strides_2d: do a 4-d tensor's strides say NHWC?"""
    if t.dim() != 4 or t.stride()[1] == 0:
        return False
    shape, strides = t.shape, t.stride()
    smallest = 0
    for d in (1, 3, 2, 0):
        if shape[d] == 0 or strides[d] < smallest:
            return False
        if d == 0 and smallest == strides[1]:  # ambiguous layouts fall back to NCHW
            return False
        smallest = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return True


def fake_in_layout(shape, dtype, channels_last):
    """in_layout's twin for meta functions: an empty fake tensor, NCHW-contiguous or channels-last."""
    return fake_empty(shape, dtype, channels_last_strides(shape) if channels_last else contiguous_strides(shape))


def in_layout(array, dtype, channels_last):
    """A result array laid out as PyTorch lays it out: NCHW-contiguous or channels-last."""
    if not channels_last:
        return contiguous(array, dtype)
    nhwc = np.ascontiguousarray(array.transpose(0, 2, 3, 1), dtype=dtype.np)
    return nhwc.transpose(0, 3, 1, 2)


def memory_order(shape, strides):
    """Dims from outermost to innermost in memory (how TensorIterator walks a dense tensor)."""
    return sorted(range(len(shape)), key=lambda d: (-strides[d] if shape[d] != 1 else 0, d))


def with_strides(array, dtype, strides):
    """A result array laid out in the memory order that `strides` (dense) describe."""
    order = memory_order(array.shape, strides)
    dense = np.require(array.transpose(order), dtype.np, "C")  # (np.ascontiguousarray makes a 0-d array 1-d)
    return dense.transpose(np.argsort(order))


def pointwise_result(array, dtype, tensors):
    """A pointwise result laid out as TensorIterator lays it out for these operands."""
    return with_strides(array, dtype, pointwise_strides(array.shape, tensors))


# ---------------------------------------------------------------- softmax, log_softmax
# The numpy forms below reuse their first temporary for every later step (out=, in-place): each array of
# a (4096, 1024) softmax costs a page-faulting allocation and a pass over memory.
def _softmax_np(x, axis, half=None):
    e = np.asarray(np.subtract(x, np.max(x, axis=axis, keepdims=True)))  # (asarray: 0-d gives a scalar)
    np.exp(e, out=e)
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


def _log_softmax_np(x, axis, half=None):  # half: ATen's last-dim kernel keeps a row's sum and its log in it
    shifted = np.asarray(np.subtract(x, np.max(x, axis=axis, keepdims=True)))
    total = np.sum(np.exp(shifted), axis=axis, keepdims=True)
    shifted -= np.log(total if half is None else total.astype(half))
    return shifted


def _softmax_family(np_fn, name):
    def check(self, dim, half_to_float):
        if half_to_float:
            raise RuntimeError("softmax with half to float conversion is not supported on CPU")
        d = wrap_dim(dim, self.dim())
        if not self.dtype.is_floating_point and self.numel():  # (ATen returns an empty input before dispatch)
            kernel = f"{name}_lastdim_kernel_impl" if d == self.dim() - 1 or self.dim() == 0 else f"{name}_kernel_impl"
            require_float(self, kernel)
        return d if self.dim() else None

    def kernel(self, dim, half_to_float):
        axis = check(self, dim, half_to_float)
        if self.numel() == 0:
            return np.empty(self.shape, self.dtype.np)
        half = self.dtype.np if self.dtype in _dtype.HALVES and axis == self.dim() - 1 else None
        with np.errstate(all="ignore"):
            return contiguous(np_fn(self._np.astype(compute_dtype(self.dtype), copy=False), axis, half), self.dtype)

    def meta(self, dim, half_to_float):
        check(self, dim, half_to_float)
        return fake_empty(self.shape, self.dtype)

    return kernel, meta


softmax = _softmax_family(_softmax_np, "softmax")
log_softmax = _softmax_family(_log_softmax_np, "log_softmax")


def _softmax_backward_family(np_fn):
    def check(grad_output, output, dim, input_dtype):
        if tuple(grad_output.shape) != tuple(output.shape):
            raise RuntimeError("Expected tensor for argument #1 'grad' to have the same size as tensor for argument #2 "
                               f"'output'; but {sizes(grad_output.shape)} does not equal {sizes(output.shape)} "
                               "(while checking arguments for softmax_backward)")
        if input_dtype is not grad_output.dtype:
            raise RuntimeError(f"expected scalar type {scalar_type_name(grad_output.dtype)} but found "
                               f"{scalar_type_name(input_dtype)}")
        d = wrap_dim(dim, grad_output.dim())
        return d if grad_output.dim() else None

    def kernel(grad_output, output, dim, input_dtype):
        axis = check(grad_output, output, dim, input_dtype)
        dtype = compute_dtype(grad_output.dtype)
        with np.errstate(all="ignore"):
            result = np_fn(grad_output._np.astype(dtype, copy=False), output._np.astype(dtype, copy=False), axis)
        return contiguous(result, grad_output.dtype)

    def meta(grad_output, output, dim, input_dtype):
        check(grad_output, output, dim, input_dtype)
        return fake_empty(grad_output.shape, grad_output.dtype)

    return kernel, meta


def _softmax_backward_np(g, y, axis):  # y * (g - sum(g * y))
    result = np.asarray(np.multiply(g, y))
    np.subtract(g, np.sum(result, axis=axis, keepdims=True), out=result)
    result *= y
    return result


def _log_softmax_backward_np(g, y, axis):  # g - exp(y) * sum(g)
    result = np.asarray(np.exp(y))
    result *= np.sum(g, axis=axis, keepdims=True)
    np.subtract(g, result, out=result)
    return result


softmax_backward_data = _softmax_backward_family(_softmax_backward_np)
log_softmax_backward_data = _softmax_backward_family(_log_softmax_backward_np)


# ---------------------------------------------------------------- nll_loss
_MEAN, _SUM, _NONE = 1, 2, 0


def _nll_check(self, target, weight):
    """The shape rules of nll_loss_forward's meta function; returns n_classes."""
    if not 1 <= self.dim() <= 2:
        raise RuntimeError("input tensor should be 1D or 2D")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    no_batch_dim = self.dim() == 1 and target.dim() == 0
    if not (no_batch_dim or (target.dim() and self.shape[0] == target.shape[0])):
        raise RuntimeError(f"size mismatch (got input: {sizes(self.shape)}, target: {sizes(target.shape)})")
    n_classes = self.shape[-1]
    if weight is not None and not (weight.dim() == 1 and weight.numel() == n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but got "
                           f"weight tensor of shape: {sizes(weight.shape)}")
    return n_classes


def _nll_dtypes(self, target, weight, name):
    if target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {scalar_type_name(target.dtype)}")
    require_float(self, name)
    if weight is not None and weight.dtype is not self.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(self.dtype)} but found "
                           f"{scalar_type_name(weight.dtype)}")


def _nll_targets(target, weight, n_classes, ignore_index, dtype):
    """Per-sample class (0 where ignored) and weight (0 where ignored); IndexError for a bad target."""
    t = target._np.reshape(-1).astype(np.int64)
    valid = t != ignore_index
    bad = t[valid & ((t < 0) | (t >= n_classes))]
    if bad.size:
        raise IndexError(f"Target {bad[0]} is out of bounds.")
    classes = np.where(valid, t, 0)
    w = weight._np[classes].astype(dtype) if weight is not None else np.ones(t.shape, dtype)
    return classes, np.where(valid, w, dtype(0)), valid


def _nll_forward_kernel(self, target, weight, reduction, ignore_index):
    n_classes = _nll_check(self, target, weight)
    _nll_dtypes(self, target, weight, "nll_loss_out_frame")
    dtype = self.dtype.np.type
    classes, w, valid = _nll_targets(target, weight, n_classes, ignore_index, dtype)
    picked = self._np.reshape(-1, n_classes)[np.arange(classes.size), classes]
    losses = np.where(valid, -picked * w, dtype(0))
    if reduction == _NONE and self.dim() == 2:
        return contiguous(losses, self.dtype), np.zeros((), dtype)
    total_weight = np.sum(w, dtype=np.float64)
    total = np.sum(losses, dtype=np.float64)
    if reduction == _MEAN:
        with np.errstate(all="ignore"):
            total = total / total_weight
    return np.asarray(total, dtype), np.asarray(total_weight, dtype)


def _nll_forward_meta(self, target, weight, reduction, ignore_index):
    _nll_check(self, target, weight)
    _nll_dtypes(self, target, weight, "nll_loss_out_frame")
    out_shape = (self.shape[0],) if reduction == _NONE and self.dim() == 2 else ()
    return fake_empty(out_shape, self.dtype), fake_empty((), self.dtype)


nll_loss_forward = (_nll_forward_kernel, _nll_forward_meta)


def _nll_backward_check(grad_output, self, target, weight, reduction, total_weight):
    _nll_check(self, target, weight)
    if total_weight.numel() != 1:
        raise RuntimeError(f"expected total_weight to be a  single element tensor, got: {sizes(total_weight.shape)} "
                           f"({total_weight.numel()} elements)")
    if reduction == _NONE and self.dim() == 2:
        n = self.shape[0]
        if grad_output.dim() != 1 or grad_output.shape[0] != n:
            got = grad_output.shape[0] if grad_output.dim() else 1
            raise RuntimeError(f"Expected a tensor of dimension 1 and tensor.size[0] == {n} but got: dimension "
                               f"{grad_output.dim()} and tensor.size[0] = {got}")
    elif grad_output.dim() > 1 or grad_output.numel() != 1:
        raise RuntimeError(f"Expected a single element grad_output tensor, but got: {sizes(grad_output.shape)}")


def _nll_backward_kernel(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    _nll_backward_check(grad_output, self, target, weight, reduction, total_weight)
    _nll_dtypes(self, target, weight, "nll_loss_backward_out_frame")
    n_classes = self.shape[-1]
    dtype = self.dtype.np.type
    classes, w, valid = _nll_targets(target, weight, n_classes, ignore_index, dtype)
    g = grad_output._np.astype(dtype).reshape(-1)
    if reduction == _MEAN:
        with np.errstate(all="ignore"):
            g = g / total_weight._np.astype(dtype).reshape(-1)
    grad = -g * w if weight is not None else np.broadcast_to(-g, w.shape)
    grad_input = np.zeros((classes.size, n_classes), dtype)
    rows = np.nonzero(valid)[0]
    grad_input[rows, classes[rows]] = grad[rows]
    return grad_input.reshape(self.shape)


def _nll_backward_meta(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    _nll_backward_check(grad_output, self, target, weight, reduction, total_weight)
    return fake_empty(self.shape, self.dtype)


nll_loss_backward = (_nll_backward_kernel, _nll_backward_meta)


# ---------------------------------------------------------------- embedding
def _embedding_check(weight, indices):
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if indices.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
                           f"Int; but got {indices.type()} instead (while checking arguments for embedding)")


def _embedding_kernel(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    _embedding_check(weight, indices)
    idx = indices._np.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    return contiguous(weight._np[idx], weight.dtype)


def _embedding_meta(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    _embedding_check(weight, indices)
    return fake_empty(tuple(indices.shape) + (weight.shape[1],), weight.dtype)


embedding = (_embedding_kernel, _embedding_meta)


def _embedding_backward_kernel(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    dim = grad_output.shape[-1]
    idx = indices._np.reshape(-1).astype(np.int64)
    grad = grad_output._np.reshape(idx.size, dim)
    if scale_grad_by_freq:
        counts = np.bincount(idx, minlength=num_weights)
        grad = grad * (1.0 / counts[idx]).astype(grad.dtype)[:, None]
    keep = idx != padding_idx
    grad_weight = np.zeros((num_weights, dim), grad_output.dtype.np)
    np.add.at(grad_weight, idx[keep], grad[keep])  # in index order, as ATen accumulates
    return grad_weight


def _embedding_backward_meta(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    return fake_empty((num_weights, grad_output.shape[-1]), grad_output.dtype)


embedding_dense_backward = (_embedding_backward_kernel, _embedding_backward_meta)


# ---------------------------------------------------------------- dropout
def _native_dropout_kernel(input, p, train):
    strides = pointwise_strides(input.shape, [input])  # empty_like(input): the input's own layout
    if train is not None and not train:
        ones = np.ones(input.shape, np.bool_)
        return with_strides(input._np.copy(), input.dtype, strides), with_strides(ones, _dtype.bool_, strides)
    keep = 1.0 - p
    if not 0 <= keep <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={keep:g}")
    # ATen draws `empty_like(input).bernoulli_(1 - p)`: one sample per element, in memory order
    order = memory_order(input.shape, strides)
    samples = _random.default_generator.bernoulli_scalar(tuple(input.shape[d] for d in order), np.bool_, keep)
    mask = samples.transpose(np.argsort(order))
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {scalar_type_name(input.dtype)}")
    dtype = compute_dtype(input.dtype)
    out = (input._np.astype(dtype) * mask.astype(dtype)) * dtype(1.0 / keep if keep != 0 else 0.0)
    return with_strides(out, input.dtype, strides), mask


def _native_dropout_meta(input, p, train):
    strides = pointwise_strides(input.shape, [input])
    return fake_empty(input.shape, input.dtype, strides), fake_empty(input.shape, _dtype.bool_, strides)


native_dropout = (_native_dropout_kernel, _native_dropout_meta)


def _dropout_backward_kernel(grad_output, mask, scale):
    dtype = compute_dtype(grad_output.dtype)
    result = (grad_output._np.astype(dtype) * mask._np.astype(dtype)) * dtype(scale)
    return pointwise_result(result, grad_output.dtype, [grad_output, mask])


def _dropout_backward_meta(grad_output, mask, scale):
    return fake_pointwise(grad_output.dtype, [grad_output, mask])


native_dropout_backward = (_dropout_backward_kernel, _dropout_backward_meta)
