"""Sparse COO tensors (torch.sparse_coo): the layout, its Tensor class, and the kernels ops run on it.

Runtime layer, coverage surface: no stage of the pipeline needs it; graph-convolution scripts (pytorch/examples'
gcn and gat) do. A COO tensor keeps `indices`, an int64 [ndim, nnz] tensor naming each stored element's
coordinates, and `values`, the nnz elements; every other element is zero. It is *uncoalesced* when made: indices
may repeat (their values add up) and come in any order, until `coalesce()` sorts them and sums the repeats.

The one idea to hold: as in PyTorch, a sparse tensor is a Tensor of another layout, and the dispatcher picks its
kernels by that layout (PyTorch's SparseCPU dispatch key). It has no strided memory (`_np is None`), so the
dispatcher's bottom step, which sends tensors without memory away from the numpy kernels, asks `any_sparse` and
hands the call to `run_kernel` here: a table from op name to kernel. The autograd layer above runs as for any op,
so `torch.mm(sparse, dense)` records an MmBackward0 whose formula (t, then mm) comes back here. An op the table
lacks raises PyTorch's NotImplementedError for the SparseCPU backend.

Kernels work on numpy; a result is a dense Tensor or a new SparseCOOTensor.
"""
import numpy as np

from . import _dtype
from ._aten.memory import _dtype_title as scalar_type_name
from ._tensor import Size, Tensor, layout, strided, wrap_dim
from ._tensor_str import THRESHOLD, _Formatter, _summarized, _tensor_str

sparse_coo = layout("torch.sparse_coo")


class SparseCOOTensor(Tensor):
    """A tensor of layout torch.sparse_coo: indices [ndim, nnz] (int64) and values [nnz]; no strided memory."""

    __slots__ = ("_index_tensor", "_value_tensor", "_coalesced")

    @classmethod
    def _make(cls, indices, values, shape, coalesced=False):
        """From numpy indices (int64, [ndim, nnz]) and values ([nnz]); `coalesced` says they are sorted and unique."""
        t = object.__new__(cls)
        shape = Size(shape)
        value_tensor = values if isinstance(values, Tensor) else Tensor._from_numpy(np.asarray(values))
        t._init_from(None, None, shape, (0,) * len(shape), 0, value_tensor.dtype)
        t._index_tensor = Tensor._from_numpy(np.ascontiguousarray(indices, dtype=np.int64).reshape(len(shape), -1))
        t._value_tensor = value_tensor
        t._coalesced = bool(coalesced)
        return t

    # ------------------------------------------------------------------ what torch reports about the layout
    is_sparse = property(lambda self: True)
    layout = property(lambda self: sparse_coo)

    def is_contiguous(self, memory_format=None):
        return False

    def contiguous(self, memory_format=None):
        raise RuntimeError("unsupported memory format option Contiguous")

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def numpy(self, *, force=False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def data_ptr(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    tolist = data_ptr

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self.to_dense().item()

    def type(self, dtype=None):
        if dtype is None:
            return Tensor.type(self).replace("torch.", "torch.sparse.", 1)
        return Tensor.type(self, dtype)

    # ------------------------------------------------------------------ COO accessors
    def _indices(self):
        return self._index_tensor

    def _values(self):
        return self._value_tensor

    def indices(self):
        if not self._coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self._index_tensor

    def values(self):
        if not self._coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
        return self._value_tensor

    def _nnz(self):
        return self._value_tensor.shape[0]

    def sparse_dim(self):
        return self.dim()

    def dense_dim(self):
        return 0

    def is_coalesced(self):
        return self._coalesced

    def coalesce(self):
        if self._coalesced:
            return self
        indices, values = _coalesced_arrays(self)
        return SparseCOOTensor._make(indices, values, self.shape, coalesced=True)

    def to_dense(self, dtype=None, *, masked_grad=None):
        array = np.zeros(self.shape, (dtype or self.dtype).np)
        np.add.at(array, tuple(self._index_tensor._np), self._value_tensor._np.astype(array.dtype))
        dense = Tensor._from_numpy(array, dtype or self.dtype)
        if not self.requires_grad:
            return dense
        # deferred: sparse/ records layout changes with the autograd layer, which imports the dispatcher, which
        # imports this module
        from .sparse import record_layout_change
        pattern = _with_values(self, Tensor._from_numpy(np.ones(self._nnz(), array.dtype))).detach().to_dense()
        return record_layout_change(dense, self, "ToDenseBackward0", lambda grad: grad * (pattern != 0))

    def to_sparse(self, *args, layout=None, **kwargs):
        return self

    def __repr__(self, *, tensor_contents=None):
        return sparse_repr(self)


def any_sparse(args):
    """Whether a tensor argument (or one in a list argument) is a SparseCOOTensor: the dispatcher's question."""
    for a in args:
        if isinstance(a, SparseCOOTensor):
            return True
        if isinstance(a, (list, tuple)) and any(isinstance(b, SparseCOOTensor) for b in a):
            return True
    return False


def run_kernel(op, args, kwargs):
    kernel = KERNELS.get(str(op))
    if kernel is None:
        raise NotImplementedError(
            f"Could not run '{op.name()}' with arguments from the 'SparseCPU' backend. This could be because the "
            "operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
            "using custom build).")
    return kernel(op, *args, **kwargs)


# ---------------------------------------------------------------- helpers
def _linear_positions(indices, shape):
    """Each stored element's row-major offset: the order coalesce sorts by."""
    return np.ravel_multi_index(tuple(indices), tuple(shape)) if len(shape) else np.zeros(indices.shape[1], np.int64)


def _coalesced_arrays(s):
    """(indices, values) sorted row-major with repeats summed in the order they were stored."""
    indices, values = s._index_tensor._np, s._value_tensor._np
    if values.shape[0] == 0:
        return indices, values
    positions = _linear_positions(indices, s.shape)
    order = np.argsort(positions, kind="stable")
    positions, values = positions[order], values[order]
    starts = np.flatnonzero(np.r_[True, positions[1:] != positions[:-1]])
    summed = np.add.reduceat(values, starts) if len(starts) != len(positions) else values
    unique = np.array(np.unravel_index(positions[starts], tuple(s.shape)), dtype=np.int64).reshape(s.dim(), -1)
    return unique, summed.astype(values.dtype)


def from_dense_array(array, dtype):
    """A coalesced COO tensor of a dense numpy array: its nonzero elements in row-major order."""
    nonzero = np.nonzero(array)
    indices = np.array(nonzero, dtype=np.int64).reshape(array.ndim, -1)
    return SparseCOOTensor._make(indices, Tensor._from_numpy(array[nonzero], dtype), array.shape, coalesced=True)


def _with_values(s, values, coalesced=None):
    """s's indices with new values (a Tensor)."""
    return SparseCOOTensor._make(s._index_tensor._np, values, s.shape, s._coalesced if coalesced is None else coalesced)


def _operand(value):
    """A Python number as the 0-d wrapped-number tensor torch makes of it."""
    if isinstance(value, Tensor):
        return value
    number = Tensor._from_numpy(np.asarray(value), _dtype.scalar_dtype(value))
    number._is_wrapped_number = True
    return number


def _binary_dtype(a, b):
    """The result dtype of a pointwise op of a tensor with a tensor or a wrapped Python number (torch's rule)."""
    if getattr(b, "_is_wrapped_number", False) and b.dim() == 0:
        if b.dtype.is_floating_point and not a.dtype.is_floating_point:
            return _dtype.get_default_dtype()
        return a.dtype if not (b.dtype is _dtype.int64 and a.dtype is _dtype.bool_) else _dtype.int64
    return _dtype.promote_types(a.dtype, b.dtype)


def _check_same_size(a, b, name):
    if tuple(a.shape) != tuple(b.shape):
        raise RuntimeError(f"{name}: expected sizes of 'self' and 'other' to match, but {list(a.shape)} != "
                           f"{list(b.shape)}")


# ---------------------------------------------------------------- kernels
def _transpose(op, s, dim0=0, dim1=1):
    if s.dim() < 2 and str(op) == "aten.t.default":
        return s
    dim0, dim1 = wrap_dim(dim0, s.dim()), wrap_dim(dim1, s.dim())
    order = list(range(s.dim()))
    order[dim0], order[dim1] = order[dim1], order[dim0]
    shape = [s.shape[d] for d in order]
    return SparseCOOTensor._make(s._index_tensor._np[order], s._value_tensor, shape, coalesced=dim0 == dim1 and
                                 s._coalesced)


def _sparse_dense_product(s, dense):
    """s @ dense for a 2-D sparse s: each stored (row, col, value) adds value * dense[col] to row, in storage order
    after coalescing (as ATen's CPU kernel accumulates)."""
    indices, values = _coalesced_arrays(s)
    product = np.zeros((s.shape[0], dense.shape[1]), dense.dtype.np)
    np.add.at(product, indices[0], values[:, None].astype(product.dtype) * dense._np[indices[1]])
    return product


def _mm(op, self, mat2):
    for name, t in (("self", self), ("mat2", mat2)):
        if t.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix")
    if self.shape[1] != mat2.shape[0] and isinstance(self, SparseCOOTensor):
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {self.shape[1]}, got {mat2.shape[0]}")
    if self.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({self.shape[0]}x{self.shape[1]} and "
                           f"{mat2.shape[0]}x{mat2.shape[1]})")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(self.dtype)} but found {scalar_type_name(mat2.dtype)}")
    if isinstance(self, SparseCOOTensor) and isinstance(mat2, SparseCOOTensor):
        dense = _sparse_dense_product(self, mat2.to_dense())
        return from_dense_array(dense, self.dtype)
    if isinstance(self, SparseCOOTensor):
        return Tensor._from_numpy(_sparse_dense_product(self, mat2), self.dtype)
    # dense @ sparse = (sparse.t() @ dense.t()).t()
    transposed = _sparse_dense_product(_transpose(op, mat2), Tensor._from_numpy(np.ascontiguousarray(self._np.T)))
    return Tensor._from_numpy(np.ascontiguousarray(transposed.T), self.dtype)


def _add(op, self, other, alpha=1):
    sign = -1 if str(op).startswith("aten.sub") else 1
    if isinstance(self, SparseCOOTensor) and not isinstance(other, SparseCOOTensor):
        raise RuntimeError(f"{op._opname}(sparse, dense) is not supported. Use {op._opname}(dense, sparse) instead.")
    scale = sign * alpha
    other = _operand(other)
    dtype = _binary_dtype(self, other)
    if not isinstance(self, SparseCOOTensor):
        if tuple(self.shape) != tuple(other.shape):
            raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has size "
                               f"{list(self.shape)} while other has size {list(other.shape)} (FYI: dense-sparse "
                               "addition does not currently support broadcasting)")
        result = self._np.astype(dtype.np, copy=True)
        np.add.at(result, tuple(other._index_tensor._np), (other._value_tensor._np * scale).astype(dtype.np))
        return Tensor._from_numpy(result, dtype)
    _check_same_size(self, other, "add")
    mine, theirs = self._value_tensor._np.astype(dtype.np), (other._value_tensor._np * scale).astype(dtype.np)
    if np.array_equal(self._index_tensor._np, other._index_tensor._np):  # the same entries: ATen adds the values
        return _with_values(self, Tensor._from_numpy(mine + theirs, dtype))
    indices = np.concatenate([self._index_tensor._np, other._index_tensor._np], axis=1)
    joined = SparseCOOTensor._make(indices, Tensor._from_numpy(np.concatenate([mine, theirs]), dtype), self.shape)
    return joined.coalesce() if self._coalesced and other._coalesced else joined


def _mul(op, self, other):
    self, other = _operand(self), _operand(other)
    if not isinstance(self, SparseCOOTensor):
        self, other = other, self
    dtype = _binary_dtype(self, other)
    values = self._value_tensor._np.astype(dtype.np)
    if isinstance(other, SparseCOOTensor):  # the elements stored in both
        if tuple(self.shape) != tuple(other.shape):
            raise RuntimeError("sparse_binary_op_intersection_cpu(): expects sparse inputs with equal dimensionality, "
                               "number of sparse dimensions, and shape of sparse dimensions")
        # ATen keeps self's entries (repeats too) found in other, each times other's summed value there
        other_indices, other_values = _coalesced_arrays(other)
        other_positions = _linear_positions(other_indices, other.shape)
        positions = _linear_positions(self._index_tensor._np, self.shape)
        at = np.minimum(np.searchsorted(other_positions, positions), max(len(other_positions) - 1, 0))
        found = other_positions[at] == positions if len(other_positions) else np.zeros(len(positions), bool)
        product = values[found] * other_values[at[found]].astype(dtype.np)
        return SparseCOOTensor._make(self._index_tensor._np[:, found], Tensor._from_numpy(product, dtype), self.shape,
                                     self._coalesced)
    if other.dim() == 0:
        return _with_values(self, Tensor._from_numpy(values * other._np.astype(dtype.np), dtype))
    _check_same_size(self, other, "mul")
    picked = other._np[tuple(self._index_tensor._np)].astype(dtype.np)
    return _with_values(self, Tensor._from_numpy(values * picked, dtype))


def _div(op, self, other, rounding_mode=None):
    other = _operand(other)
    if isinstance(other, SparseCOOTensor) or other.dim() != 0:
        raise RuntimeError("Sparse division requires a scalar or zero-dim dense tensor divisor (got shape "
                           f"{list(other.shape)} for divisor)")
    dtype = _binary_dtype(self, other)
    if rounding_mode is None and not dtype.is_floating_point:
        dtype = _dtype.get_default_dtype()
    quotient = np.true_divide(self._value_tensor._np, other._np) if rounding_mode is None else \
        np.floor_divide(self._value_tensor._np, other._np)
    return _with_values(self, Tensor._from_numpy(np.asarray(quotient).astype(dtype.np), dtype))


def _values_op(op, s, *args, **kwargs):
    """An op that maps zero to zero (neg, abs, relu, sqrt, ...): the same op on the stored values."""
    return _with_values(s, op(s._value_tensor, *args, **kwargs))


def _sum(op, s, dim=None, keepdim=False, *, dtype=None):
    values = s._value_tensor
    result_dtype = dtype or (values.dtype if values.dtype.is_floating_point else _dtype.int64)
    dims = sorted({wrap_dim(d, s.dim()) for d in (range(s.dim()) if not dim else dim)})
    if keepdim:
        raise NotImplementedError("minitorch2: sum of a sparse tensor with keepdim=True is not supported")
    if len(dims) == s.dim():
        return Tensor._from_numpy(np.asarray(values._np.sum(dtype=result_dtype.np)), result_dtype)
    kept = [d for d in range(s.dim()) if d not in dims]
    partial = SparseCOOTensor._make(s._index_tensor._np[kept], values._np.astype(result_dtype.np),
                                    [s.shape[d] for d in kept])
    return partial.coalesce()


def _to_copy(op, s, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
             memory_format=None):
    values = s._value_tensor._np if dtype is None else s._value_tensor._np.astype(dtype.np)
    result = _with_values(s, Tensor._from_numpy(values.copy(), dtype or s.dtype))
    return result.to_dense() if layout == strided else result


def _same(op, s):
    """detach, alias: the same indices and values in a new tensor."""
    return _with_values(s, s._value_tensor)


def _clone(op, s, *, memory_format=None):
    return SparseCOOTensor._make(s._index_tensor._np.copy(), s._value_tensor._np.copy(), s.shape, s._coalesced)


# The sparse layout's kernel table: aten op name -> kernel(op, *args, **kwargs). Ops missing here raise torch's
# SparseCPU NotImplementedError (view, as_strided, exp, comparisons, ...).
KERNELS = {
    "aten.mm.default": _mm,
    "aten.t.default": _transpose, "aten.transpose.int": _transpose,
    "aten.add.Tensor": _add, "aten.sub.Tensor": _add,
    "aten.mul.Tensor": _mul,
    "aten.div.Tensor": _div, "aten.div.Tensor_mode": _div,
    "aten.sum.default": _sum, "aten.sum.dim_IntList": _sum,
    "aten._to_copy.default": _to_copy,
    "aten.detach.default": _same, "aten.alias.default": _same, "aten.clone.default": _clone,
    **{f"aten.{name}": _values_op for name in (
        "neg.default", "abs.default", "relu.default", "sqrt.default", "sin.default", "tanh.default", "square.default",
        "pow.Tensor_Scalar", "sign.default", "floor.default", "ceil.default", "trunc.default", "round.default",
        "expm1.default", "log1p.default", "asin.default", "atan.default", "sinh.default")},
}


# ---------------------------------------------------------------- printing
def _body(t, indent):
    """A dense tensor's bracketed elements, laid out as torch prints them at `indent` columns (no suffixes)."""
    if t.numel() == 0:
        return f"[], size={tuple(t.shape)}"
    summarize = t.numel() > THRESHOLD
    formatter = _Formatter(_summarized(t._np) if summarize else t._np, t.dtype)
    return _tensor_str(t._np, indent, formatter, summarize)


def sparse_repr(s):
    """torch's form: `tensor(indices=tensor([[...]]),\\n       values=tensor([...]),\\n       size=(..), nnz=..,
    [dtype=..,] layout=torch.sparse_coo[, requires_grad=True | grad_fn=<...>])`."""
    indices_prefix, values_prefix = "tensor(indices=tensor(", "       values=tensor("
    suffixes = [f"size={tuple(s.shape)}", f"nnz={s._nnz()}"]
    if s.dtype not in (_dtype.get_default_dtype(), _dtype.int64, _dtype.bool_):
        suffixes.append(f"dtype={s.dtype}")
    suffixes.append("layout=torch.sparse_coo")
    if s.grad_fn is not None:
        suffixes.append(f"grad_fn=<{s.grad_fn.name().rsplit('::', 1)[-1]}>")
    elif s.requires_grad:
        suffixes.append("requires_grad=True")
    tail = ", ".join(suffixes)
    if s.grad_fn is not None:  # torch starts the grad_fn on a line of its own
        tail = ", ".join(suffixes[:-1]) + ",\n       " + suffixes[-1]
    return (indices_prefix + _body(s._index_tensor, len(indices_prefix)) + "),\n" + values_prefix
            + _body(s._value_tensor, len(values_prefix)) + "),\n       " + tail + ")")
