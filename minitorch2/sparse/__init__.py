"""torch.sparse, torch.sparse_coo_tensor, torch.spmm, and the Tensor methods that move between layouts.

Runtime layer, coverage surface (the tensor class and its kernels: minitorch2/_sparse_coo.py). Gradients cross a
change of layout through a node of their own (`_LayoutBackward`, named as torch's): values -> sparse tensor
(SparseCooTensorWithDimsAndTensorsBackward0), dense -> sparse (ToSparseBackward1), sparse -> dense
(ToDenseBackward0). Where torch would hand a sparse gradient on, these hand the dense one (same values): the
only tensors that receive gradients here are strided ones, since a sparse leaf that requires grad is refused.
"""
import warnings

import numpy as np

from .. import _dtype
from .._dispatch import state
from .._factories import tensor as make_tensor
from .._functions_linalg import mm
from .._functions_reductions import sum as dense_sum
from .._sparse_coo import SparseCOOTensor, from_dense_array, sparse_coo
from .._tensor import Tensor
from ..autograd.graph import Node, gradient_edge, tensor_metadata

__all__ = ["addmm", "check_sparse_tensor_invariants", "mm", "sparse_coo", "sparse_coo_tensor", "spmm", "sum"]

_INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur when operating on a "
    "sparse tensor which violates the invariants, but checks incur performance overhead. To silence this warning, "
    "explicitly opt in or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)")


class check_sparse_tensor_invariants:
    """Whether sparse_coo_tensor checks its indices against its size (off unless asked), as a switch and a
    context manager."""

    _enabled = None  # None: never said, which sparse_coo_tensor warns about once

    def __init__(self, enable=True):
        self.enable_on_enter, self.saved = enable, None

    @staticmethod
    def is_enabled():
        return bool(check_sparse_tensor_invariants._enabled)

    @staticmethod
    def enable():
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable():
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self):
        self.saved = check_sparse_tensor_invariants._enabled
        check_sparse_tensor_invariants._enabled = self.enable_on_enter

    def __exit__(self, *exc):
        check_sparse_tensor_invariants._enabled = self.saved


_warned = []  # torch warns once per process


class _LayoutBackward(Node):
    """The grad_fn of a change of layout: the gradient for the one input, by `to_input(grad)` on a dense grad."""

    def __init__(self, name, source, to_input):
        super().__init__()
        self._name, self.to_input = name, to_input
        self.next_functions = (gradient_edge(source),)
        self.input_metadata = (tensor_metadata(source),)

    def apply(self, grads):
        grad = grads[0]
        return [self.to_input(grad.to_dense() if isinstance(grad, SparseCOOTensor) else grad)]


def record_layout_change(result, source, name, to_input=lambda grad: grad):
    """Connect `result` to `source`'s history when the gradient should flow, as the dispatcher's autograd layer
    does for an op."""
    if state.grad_enabled and source.requires_grad and result.dtype.is_floating_point:
        result.grad_fn = _LayoutBackward(name, source, to_input)
    return result


def _index_tensor(indices):
    if isinstance(indices, Tensor):
        if indices.dtype.is_floating_point or indices.dtype is _dtype.bool_:
            raise RuntimeError("indices must be an int64 tensor")
        return indices.detach().to(_dtype.int64)
    return make_tensor(np.asarray(indices), dtype=_dtype.int64)


def _check_bounds(indices, size):
    for dim, row in enumerate(indices):
        if row.size and row.min() < 0:
            raise RuntimeError(f"found negative index {int(row.min())} for dim {dim}")
        if row.size and row.max() >= size[dim]:
            raise RuntimeError(f"size is inconsistent with indices: for dim {dim}, size is {size[dim]} but found "
                               f"index {int(row.max())}")


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False, requires_grad=False,
                      check_invariants=None, is_coalesced=None):
    """torch.sparse_coo_tensor: indices [ndim, nnz] (converted to int64), values [nnz], a size (inferred from the
    largest index when not given). The result is uncoalesced unless `is_coalesced=True` says otherwise."""
    if check_invariants is None and check_sparse_tensor_invariants._enabled is None and not _warned:
        _warned.append(True)
        warnings.warn(_INVARIANTS_WARNING, UserWarning, stacklevel=2)
    index_tensor = _index_tensor(indices)
    values = values if isinstance(values, Tensor) else make_tensor(values, dtype=dtype)
    if dtype is not None and values.dtype is not dtype:
        values = values.to(dtype)
    if index_tensor.dim() != 2:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
                           f"{len(size) if size is not None else index_tensor.dim()}, sparse_dim = "
                           f"{index_tensor.shape[0] if index_tensor.dim() else 1}, dense_dim = 0")
    index_array = index_tensor.numpy()
    if size is None:
        size = [int(row.max()) + 1 if row.size else 0 for row in index_array]
    size = list(size)
    if len(size) != index_tensor.shape[0] or values.dim() != 1:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {index_tensor.shape[0]}, dense_dim = {max(values.dim() - 1, 0)}")
    if index_tensor.shape[1] != values.shape[0]:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {index_tensor.shape[1]},"
                           f" nnz from values: {values.shape[0]}")
    if check_invariants or (check_invariants is None and check_sparse_tensor_invariants.is_enabled()):
        _check_bounds(index_array, size)
    if requires_grad:
        raise NotImplementedError("minitorch2: a sparse leaf tensor that requires grad is not supported (its .grad "
                                  "would be sparse); make its values require grad instead")
    result = SparseCOOTensor._make(index_array, values.detach(), size, coalesced=bool(is_coalesced))
    rows = tuple(make_tensor(row) for row in index_array)
    return record_layout_change(result, values, "SparseCooTensorWithDimsAndTensorsBackward0", lambda grad: grad[rows])


def spmm(input, mat2):
    """torch.spmm: mm for a sparse first operand."""
    return mm(input, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """torch.sparse.addmm: beta * mat + alpha * (mat1 @ mat2), mat1 sparse."""
    return mat * beta + mm(mat1, mat2) * alpha


def sum(input, dim=None, dtype=None):
    """torch.sparse.sum: all elements (a dense 0-d tensor), or over `dim` (a coalesced sparse tensor, dense when no
    dim is left)."""
    if dim is None:
        return dense_sum(input, dtype=dtype)
    return dense_sum(input, [dim] if isinstance(dim, int) else list(dim), dtype=dtype)


# ---------------------------------------------------------------- Tensor methods on a strided tensor
def _to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
    if layout not in (None, sparse_coo) or args and args[0] not in (None, self.dim()) or dense_dim:
        raise NotImplementedError("minitorch2: only the sparse COO layout over all dims is supported by to_sparse")
    result = from_dense_array(self.numpy(force=True), self.dtype)
    return record_layout_change(result, self, "ToSparseBackward1")


def _not_sparse(name):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"{name} expected sparse coordinate tensor layout but got Strided")

    return method


def tensor_methods():
    """The layout methods of a strided tensor (a SparseCOOTensor overrides them all)."""
    methods = {name: _not_sparse(name) for name in (
        "is_coalesced", "coalesce", "indices", "values", "_indices", "_values", "_nnz")}
    methods.update(to_sparse=_to_sparse, to_dense=lambda self, dtype=None, *, masked_grad=None: self if dtype in (
        None, self.dtype) else self.to(dtype), sparse_dim=lambda self: 0, dense_dim=lambda self: self.dim())
    return methods

