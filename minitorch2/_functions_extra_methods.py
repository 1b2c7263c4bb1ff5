"""The Tensor methods of _functions_extra.py that change a tensor where it stands: the in-place view ops (t_,
transpose_, squeeze_, unsqueeze_), set_ and resize_ (a tensor over other memory, or more of it), fill_diagonal_,
scatter_ with the deprecated reduce=, and dim_order.

Runtime layer, coverage surface (_functions_extra.tensor_methods() gathers them; _tensor_methods.py installs them).
An in-place view op computes the view as its out-of-place form does, then self adopts the view's geometry and
history, renamed to torch's in-place node (squeeze_(dim) is SqueezeBackward4). A fake tensor adopts the view's
metadata too, so the frontend's later ops see the new shape, and a dispatch mode on the stack that traces is told
(`view_adopted`): make_fx's tracer then takes the view's node for self, self's old node keeping a snapshot of its
old shape, as torch's functionalization turns t_ on an intermediate into t. (Dynamo breaks on them on graph inputs:
frontend/variables/tensor.py.) set_ and resize_ stay refused on fake tensors, as Dynamo breaks on them; but aot
traces a shrinking resize_ of an input, as torch's functionalization does.
"""
import math
import warnings

import numpy as np

from ._aten.meta_util import fastest_first
from ._dispatch import current_modes
from ._ops import ops
from ._out import EXACT, out_variant
from ._tensor import Size, Tensor, contiguous_strides
from .autograd._record import _node_class
from .autograd.grad_mode import is_grad_enabled

aten = ops.aten


def _refuse_fake(self, name):
    """set_ and resize_ on a fake tensor: Dynamo breaks on them, and so does the frontend (on NotImplementedError)."""
    if self._np is None:
        raise NotImplementedError(f"minitorch2: Tensor.{name} changes a tensor's shape in place; traced programs run "
                                  "it eagerly")


def _adopt(self, view):
    """self takes view's geometry and history: torch's in-place view ops (t_, squeeze_, ...) change the tensor."""
    if self.is_leaf and self.requires_grad and is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    modes = current_modes()
    before = _snapshot(self) if modes else None
    self._np, self._shape, self._stride, self._offset = view._np, view._shape, view._stride, view._offset
    if view._grad_fn is not None:
        self._grad_fn, self._output_nr, self._grad_fn_version = view._grad_fn, view._output_nr, None
        # torch's in-place forms have nodes of their own names: squeeze_(dim) is SqueezeBackward4, t_ TBackward1
        in_place_name = _IN_PLACE_NODE_NAMES.get(view._grad_fn.name())
        if in_place_name is not None:
            view._grad_fn.__class__, view._grad_fn._name = _node_class(in_place_name), in_place_name
    self._bump_version()
    for mode in modes:  # (a dispatch mode that traces, make_fx's, takes the view's node for self from now on)
        if hasattr(mode, "view_adopted"):
            mode.view_adopted(self, before, view)
    return self


def _snapshot(tensor):
    """A second tensor object with tensor's metadata as it is now: a traced node's value keeps its shape."""
    snapshot = object.__new__(type(tensor))
    for name in Tensor.__slots__:
        if name not in ("__weakref__", "__dict__") and hasattr(tensor, name):
            object.__setattr__(snapshot, name, getattr(tensor, name))
    snapshot.__dict__.update(tensor.__dict__)
    return snapshot


_IN_PLACE_NODE_NAMES = {"AsStridedBackward0": "AsStridedBackward1",
                        "SqueezeBackward0": "SqueezeBackward3", "SqueezeBackward1": "SqueezeBackward4",
                        "SqueezeBackward2": "SqueezeBackward5", "UnsqueezeBackward0": "UnsqueezeBackward1",
                        "TBackward0": "TBackward1", "TransposeBackward0": "TransposeBackward1"}


def _in_place_view(make):
    return lambda self, *args: _adopt(self, make(self, *args))


def t_(self):
    if self.dim() > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    return _adopt(self, aten.t.default(self))


def as_strided_(self, size, stride, storage_offset=None):
    return _adopt(self, aten.as_strided.default(self, size, stride, storage_offset))


def set_(self, source=None, storage_offset=0, size=None, stride=None):
    """self takes over memory: a tensor's (its storage, offset, sizes and strides) or a storage's window (the whole
    storage as one dim by default), as Triton's interpreter rebuilds each tensor argument of a kernel."""
    _refuse_fake(self, "set_")
    if isinstance(source, Tensor):
        source, storage_offset, size, stride = source.untyped_storage(), source.storage_offset(), source.shape, \
            source.stride()
    storage = np.zeros(0, self.dtype.np) if source is None else source._storage
    if storage.dtype != self.dtype.np:  # an untyped storage read in self's dtype
        storage = storage.view(self.dtype.np)
    size = (storage.size - storage_offset,) if size is None else size
    holder = object.__new__(Tensor)
    holder._init_from(storage, storage, Size(storage.shape), (1,), 0, self.dtype)
    view = Tensor._make_view(holder, size, contiguous_strides(size) if stride is None else stride, storage_offset)
    self._np, self._storage, self._shape, self._stride = view._np, storage, view._shape, view._stride
    self._offset = view._offset
    self._bump_version()
    return self


def resize_(self, *sizes, memory_format=None):
    """Contiguous strides over the storage, grown when needed (a copy: earlier views no longer share it). Traced by
    aot (a mode that follows in-place views), a shrinking resize_ of a fake tensor is as_strided_, as torch's
    functionalization records it; any other on a fake tensor is refused (Dynamo breaks on it)."""
    shape = tuple(sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else sizes)
    if self._np is None and math.prod(shape) <= self.numel() and any(hasattr(m, "view_adopted")
                                                                     for m in current_modes()):
        return _adopt(self, aten.as_strided.default(self, list(shape), list(contiguous_strides(shape))))
    _refuse_fake(self, "resize_")
    if any(size < 0 for size in shape):  # (ATen's storage size, counted from the negative size, overflows)
        raise RuntimeError("numel: integer multiplication overflow")
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if shape == tuple(self.shape):
        return self
    stride = contiguous_strides(shape)
    needed = self._offset + math.prod(shape)
    if self._np is not None:
        if needed > self._storage.size:
            self._storage = np.concatenate([self._storage, np.zeros(needed - self._storage.size, self.dtype.np)])
        self._np = np.ndarray(shape, self.dtype.np, buffer=self._storage, offset=self._offset * self.dtype.itemsize,
                              strides=tuple(s * self.dtype.itemsize for s in stride))
    self._shape, self._stride = Size(shape), stride
    return self


def fill_diagonal_(self, fill_value, wrap=False):
    """The diagonal as a strided view, filled; `wrap`: a tall matrix's starts again every ncols + 1 rows."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) > 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    rows, cols = self.shape[0], self.shape[1]
    step = sum(self.stride())
    aten.fill_.Scalar(aten.as_strided.default(self, [min(rows, cols)], [step], self._offset), fill_value)
    if wrap and self.dim() == 2 and rows > cols + 1:
        count = -(-self.numel() // (cols + 1)) - min(rows, cols)
        start = self._offset + self.stride(0) * (cols + 1)
        aten.fill_.Scalar(aten.as_strided.default(self, [count], [step], start), fill_value)
    return self


_warned = set()  # (what torch warns about once a process)


@out_variant(EXACT)
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """torch.scatter: its src and value overloads (value takes a number or a 0-d tensor's), and the deprecated reduce=
    computed on a copy."""
    if isinstance(value, Tensor) and value.dim():
        raise TypeError("scatter() received an invalid combination of arguments - got (Tensor, int, Tensor, "
                        "value=Tensor), but expected one of:")
    src = (value.item() if isinstance(value, Tensor) else value) if src is None else src
    if reduce is not None:
        return scatter_reduced_(input.clone(), dim, index, src, reduce)
    return (aten.scatter.src if isinstance(src, Tensor) else aten.scatter.value)(input, dim, index, src)


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    src = value if src is None else src
    if reduce is not None and isinstance(src, Tensor) and "scatter reduce" not in _warned:
        _warned.add("scatter reduce")
        warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
                      "future PyTorch release. Use torch.scatter_reduce instead for more reduction options.")
    if reduce is not None:
        return scatter_reduced_(self, dim, index, src, reduce)
    return (aten.scatter_.src if isinstance(src, Tensor) else aten.scatter_.value)(self, dim, index, src)


def scatter_reduced_(self, dim, index, src, reduce):
    """The deprecated reduce= of scatter and scatter_ ("add", "multiply"): scatter_reduce_ including self."""
    if not isinstance(src, Tensor):
        src = aten.full_like.default(index, src, dtype=self.dtype)
    return aten.scatter_reduce_.two(self, dim, index, src, {"add": "sum", "multiply": "prod"}[reduce])


def dim_order(self, *, ambiguity_check=False):
    """The dims outermost first: in order for a contiguous tensor, else torch's insertion sort by stride."""
    if ambiguity_check is True and (len(set(self.stride())) < self.dim() or 1 in self.shape):
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the given "
                           "memory formats.")
    if self.dim() < 2 or self.is_contiguous():
        return tuple(range(self.dim()))
    shape, stride = self.shape, self.stride()

    def ge(a, b):
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a, b):
        if stride[a] == 0 or stride[b] == 0:
            return 0
        if stride[a] == stride[b]:
            return 0 if ge(shape[b], shape[a]) else 1
        return -1 if ge(stride[b], stride[a]) else 1 if ge(stride[a], stride[b]) else 0

    return tuple(reversed(fastest_first(self.dim(), should_swap)))


def _no_accelerator(self, device=None):
    raise RuntimeError("Cannot access accelerator device when none is available.")
