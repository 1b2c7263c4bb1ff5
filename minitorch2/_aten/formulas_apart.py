"""Derivative formulas of table_apart.py's indexing ops: take, index_copy, index_fill and scatter_reduce.

Runtime layer, coverage surface, read by the autograd layer through the op table as derivatives_shape.py's formulas
are (parameter names say what a node saves; op calls come in the order PyTorch's generated code makes them). Their
kernels and decompositions are in indexing_reduce.py.
"""
from .. import _dtype
from .._ops import ops

aten = ops.aten


def take(grad, self_shape, index):
    """torch's take_backward, zeros(self).put_(index, grad, accumulate=True), with put as its decomposition
    records it: an accumulating index_put into the flattened zeros, viewed back."""
    flat = aten.view.default(aten.new_zeros.default(grad, list(self_shape)), [-1])
    values = aten.view.default(grad, list(index.shape))
    return aten.view.default(aten.index_put.default(flat, [index], values, True), list(self_shape)), None


def index_copy(grad, dim, index, source_shape):
    self_grad = aten.index_fill.int_Scalar(grad, dim, index, 0)
    if len(source_shape) > 0:
        source_grad = aten.expand.default(aten.index_select.default(grad, dim, index), list(source_shape))
    else:
        source_grad = aten.squeeze.default(aten.index_select.default(grad, dim, aten.squeeze.default(index)))
    return self_grad, None, source_grad


def index_fill_scalar(grad, dim, index):
    return aten.index_fill.int_Scalar(grad, dim, index, 0), None


def index_fill_tensor(grad, dim, index):
    """value's gradient: the sum of grad over the filled positions, each counted once however often the index
    repeats it (torch selects at the unique indices; a mask of the filled positions gives the same sum)."""
    filled = aten.index_fill.int_Scalar(aten.zeros_like.default(grad, dtype=_dtype.bool_), dim, index, True)
    value_grad = aten.sum.default(aten.where.self(filled, grad, aten.scalar_tensor.default(0, dtype=grad.dtype)))
    return aten.index_fill.int_Scalar(grad, dim, index, 0), None, value_grad


def scatter_reduce(grad, self, dim, index, src, reduce, result, include_self=True):
    """torch's scatter_reduce_backward: (self's gradient, None, src's gradient)."""
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    self_grad, src_grad = _SCATTER_REDUCE_BACKWARD[reduce](grad, self, dim, index, src, include_self, result)
    if not include_self:  # the positions scattered to never read self
        self_grad = aten.scatter.value(self_grad, dim, index, 0)
    return self_grad, None, src_grad


def _scatter_sum_backward(grad, self, dim, index, src, include_self, result):
    return grad, aten.gather.default(grad, dim, index)


def _scatter_mean_backward(grad, self, dim, index, src, include_self, result):
    counts = aten.ones_like.default(grad) if include_self else aten.zeros_like.default(grad)
    counts = aten.scatter_add.default(counts, dim, index, aten.ones_like.default(src))
    counts = aten.masked_fill.Scalar(counts, aten.eq.Scalar(counts, 0), 1)
    return (aten.div.Tensor(grad, counts),
            aten.div.Tensor(aten.gather.default(grad, dim, index), aten.gather.default(counts, dim, index)))


def _scatter_prod_backward(grad, self, dim, index, src, include_self, result):
    """The product of the others at each position, computed without dividing by a zero: self's from the
    product with its zeros replaced by 1, src's from the product with its single zero replaced by 1 (a
    position holding two zeros has a zero gradient everywhere)."""
    masked_self = aten.masked_fill.Scalar(self, aten.eq.Scalar(self, 0), 1)
    masked_self_result = aten.scatter_reduce.two(masked_self, dim, index, src, "prod", include_self=include_self)
    self_grad = aten.div.Tensor(aten.mul.Tensor(grad, masked_self_result), masked_self)
    src_zero = aten.eq.Scalar(src, 0)
    zeros_per_position = aten.scatter_add.default(aten.zeros_like.default(self), dim, index,
                                                  aten._to_copy.default(src_zero, dtype=self.dtype))
    single_zero = aten.bitwise_and.Tensor(src_zero, aten.eq.Scalar(aten.gather.default(zeros_per_position, dim,
                                                                                       index), 1))
    masked_src_result = aten.scatter_reduce.two(self, dim, index, aten.masked_fill.Scalar(src, single_zero, 1),
                                                "prod", include_self=include_self)
    src_grad = aten.where.self(single_zero, aten.gather.default(aten.mul.Tensor(grad, masked_src_result), dim, index),
                               aten.div.Tensor(aten.gather.default(aten.mul.Tensor(grad, result), dim, index),
                                               aten.masked_fill.Scalar(src, src_zero, 1)))
    return self_grad, src_grad


def _scatter_extremum_backward(grad, self, dim, index, src, include_self, result):
    """amax / amin: the gradient is shared evenly among the values equal to the result (self counting
    among them even when include_self is False, as torch's formula counts it)."""
    value = aten.gather.default(result, dim, index)
    self_is_result = aten._to_copy.default(aten.eq.Tensor(self, result), dtype=self.dtype)
    src_is_result = aten._to_copy.default(aten.eq.Tensor(src, value), dtype=self.dtype)
    ties = aten.scatter_add.default(self_is_result, dim, index, src_is_result)
    shared = aten.div.Tensor(grad, ties)
    self_grad = aten.mul.Tensor(aten.eq.Tensor(self, result), shared)
    shared_at_src = aten.gather.default(shared, dim, index)  # (before the comparison, in torch's order)
    return self_grad, aten.mul.Tensor(aten.eq.Tensor(src, value), shared_at_src)


_SCATTER_REDUCE_BACKWARD = {"sum": _scatter_sum_backward, "mean": _scatter_mean_backward,
                            "prod": _scatter_prod_backward, "amax": _scatter_extremum_backward,
                            "amin": _scatter_extremum_backward}
