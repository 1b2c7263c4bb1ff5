"""Tensor: numpy memory viewed through PyTorch's (shape, stride, storage_offset).

Runtime layer, the value every other layer computes with. A tensor is a strided window onto a flat numpy buffer, its
*storage*:

    storage  [a0 a1 a2 a3 a4 a5]          one 1-D numpy array, shared by views
    x        shape (2, 3) stride (3, 1) offset 0
    x.t()    shape (3, 2) stride (1, 3) offset 0   (same storage, no copy)
    x[1]     shape (3,)   stride (1,)   offset 3

`_np` is the numpy ndarray for that window, built once when the tensor is made, so kernels work on plain numpy.
Views share the storage and a version counter: an in-place op on any of them bumps the counter that autograd checks.
A FakeTensor (below; its mode is minitorch2/_subclasses/fake_tensor.py) has the same metadata and no memory at all
(`_np is None`).

Operations are not implemented here: every method below calls an `OpOverload` (through minitorch2/_functions.py),
which goes through the dispatcher.
"""
import math

import numpy as np

from . import _dtype, _inference_tensors
from ._sym import is_symbolic, sym_max
from ._tensor_more import StorageConveniences, install_conveniences, parse_device_string
from ._tensor_str import tensor_repr


class Size(tuple):
    """torch.Size: a tuple of ints that prints as `torch.Size([2, 3])`."""

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    def numel(self):
        return math.prod(self)

    def __getitem__(self, item):
        result = tuple.__getitem__(self, item)
        return Size(result) if isinstance(item, slice) else result

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))


class device:
    __slots__ = ("type", "index")

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, str):  # "cpu", "cuda:0": named freely, as torch's; only the CPU holds tensors
            type, index = parse_device_string(type, index)
        self.type = type
        self.index = index

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and other.type == self.type

    def __hash__(self):
        return hash(self.type)


CPU = device("cpu")


_STRIDE_CACHE = {}


class memory_format(str):
    """torch.memory_format: equal to its name string, printed as torch prints it (torch.contiguous_format)."""
    __slots__ = ()

    def __repr__(self):
        return str.__str__(self)


class layout(str):
    """torch.layout: minitorch2 has the dense one only, torch.strided, printed as torch prints it."""
    __slots__ = ()

    def __repr__(self):
        return str.__str__(self)


strided = layout("torch.strided")
contiguous_format = memory_format("torch.contiguous_format")
preserve_format = memory_format("torch.preserve_format")
channels_last = memory_format("torch.channels_last")
channels_last_3d = memory_format("torch.channels_last_3d")
CHANNELS_LAST_ORDERS = {channels_last: (1, 3, 2, 0), channels_last_3d: (1, 4, 3, 2, 0)}  # (dims innermost first)


def view_strides_of_dense(shape):
    """A view of a dense tensor with elements as `shape`: each stride the product of the sizes after it (no
    max(size, 1): no size is 0, so a symbolic size needs no guard), as ATen's computeStride gives."""
    return tuple(math.prod(shape[d + 1:]) for d in range(len(shape)))


def contiguous_strides(shape):
    shape = tuple(shape)
    symbolic = any(map(is_symbolic, shape))  # symbolic sizes (dynamic shapes) are not hashable: no cache
    cached = None if symbolic else _STRIDE_CACHE.get(shape)
    if cached is not None:
        return cached
    strides, running = [], 1
    for size in reversed(shape):
        strides.append(running)
        running *= sym_max(size, 1)  # (on a symbol: `Max(1, n)`, which is n where n >= 1 is known; no guard)
    result = tuple(reversed(strides))
    if not symbolic and len(_STRIDE_CACHE) < 4096:
        _STRIDE_CACHE[shape] = result
    return result


class _VersionCounter:
    # shared by a tensor and its views; `inference`: made in inference mode (minitorch2/_inference_tensors.py)
    __slots__ = ("value", "inference")
    dispatch_state = None  # the dispatcher's thread-local state, set by _dispatch.py (which imports this module)

    def __init__(self):
        self.value = 0
        self.inference = self.dispatch_state.inference_mode


class Tensor:
    __slots__ = (
        "_np", "_storage", "_shape", "_stride", "_offset", "dtype", "_version_counter",
        "_requires_grad", "_grad", "_grad_fn", "_output_nr", "_base", "_retains_grad", "_backward_hooks",
        "_grad_fn_version", "_view_ops", "_accumulator", "_is_wrapped_number", "__weakref__", "__dict__",
    )

    _replays_views = False  # see FakeTensor

    def __new__(cls, *args, **kwargs):
        return object.__new__(cls)

    def __init__(self, *args, **kwargs):
        # torch.Tensor(...) is the legacy type of the default dtype: sizes, data, or another tensor's memory
        if self.__class__ is Tensor:
            from ._legacy_tensor_types import legacy_type  # (they sit above Tensor)

            of_tensor = len(args) == 1 and isinstance(args[0], Tensor)  # (its memory, whatever its dtype)
            src = legacy_type(args[0].dtype if of_tensor else _dtype.get_default_dtype())(*args, **kwargs)
            self._init_from(src._np, src._storage, src._shape, src._stride, src._offset, src.dtype, src._version_counter)

    # ------------------------------------------------------------------ construction
    def _init_from(self, array, storage, shape, stride, offset, dtype, version_counter=None):
        self._np = array
        self._storage = storage
        self._shape = shape
        self._stride = stride
        self._offset = offset
        self.dtype = dtype
        self._version_counter = version_counter or _VersionCounter()
        self._requires_grad = False
        self._grad = None
        self._grad_fn = None
        self._output_nr = 0
        self._base = None
        self._retains_grad = False
        self._backward_hooks = None
        # autograd's bookkeeping for views and leaves (autograd/view_history.py, autograd/graph.py):
        self._grad_fn_version = None  # a view's version when its grad_fn was made
        self._view_ops = None  # the view ops that made a view of a fake tensor from its base, to replay
        self._accumulator = None  # a weakref to a leaf's AccumulateGrad node
        self._is_wrapped_number = False

    @classmethod
    def _from_numpy(cls, array, dtype=None):
        """Wrap a freshly computed numpy array (the result of a kernel), without copying when possible."""
        if not isinstance(array, np.ndarray):
            array = np.asarray(array)
        if dtype is None:
            dtype = _dtype.from_numpy(array.dtype)
        elif array.dtype != dtype.np:
            array = array.astype(dtype.np)
        t = object.__new__(cls)
        shape = Size(array.shape)
        if array.flags.c_contiguous:
            stride = contiguous_strides(shape)
            storage = array.reshape(-1)
        else:
            array, stride, storage = _dense_layout(array)
        t._init_from(array, storage, shape, stride, 0, dtype)
        return t

    @classmethod
    def _make_view(cls, base, shape, stride, offset, dtype=None):
        """A tensor sharing `base`'s storage and version counter (its bytes read as `dtype`: view.dtype)."""
        t = object.__new__(Tensor if base._np is not None else type(base))
        shape, stride, dtype = Size(shape), tuple(stride), dtype or base.dtype
        array = None
        if base._storage is not None and base._np is not None:
            itemsize = dtype.itemsize
            if 0 in shape:  # no element to share; numpy refuses offsets past the end of the buffer
                array = np.ndarray(shape, dtype.np, strides=tuple(s * itemsize for s in stride))
            else:
                array = np.ndarray(shape, dtype.np, buffer=base._storage, offset=offset * itemsize,
                                   strides=tuple(s * itemsize for s in stride))
        t._init_from(array, base._storage, shape, stride, offset, dtype, base._version_counter)
        t._base = base._base if base._base is not None else base
        if isinstance(t, FakeTensor):
            t.fake_mode = base.fake_mode
        return t

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self):
        return self._shape

    def size(self, dim=None):
        return self._shape if dim is None else self._shape[wrap_dim(dim, self.dim())]

    def stride(self, dim=None):
        return self._stride if dim is None else self._stride[wrap_dim(dim, self.dim())]

    def storage_offset(self):
        return self._offset

    def dim(self):
        return len(self._shape)

    ndim = property(dim)

    def numel(self):
        return math.prod(self._shape)

    nelement = numel

    @property
    def device(self):
        return CPU

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_contiguous(self, memory_format=None):
        """Dense with strides decreasing along the dims, or a channels-last order's; in torch's order of checks."""
        order = CHANNELS_LAST_ORDERS.get(memory_format)
        if order and self.dim() != len(order) or not order and self.numel() < 2:  # (numel first: torch's guards)
            return not order
        order = order or range(self.dim() - 1, -1, -1)
        expected = 1
        for d in order:
            if self._shape[d] == 1:
                continue
            if self._stride[d] != expected:
                return False
            expected *= self._shape[d]
        return True

    @property
    def _version(self):
        return self._version_counter.value

    def _bump_version(self):
        self._version_counter.value += 1
        _inference_tensors.check_write(self._version_counter)

    def untyped_storage(self):
        return _StorageRef(self)

    # ------------------------------------------------------------------ autograd state
    @property
    def grad_fn(self):
        """The node that made this tensor. A view whose base was modified in place since reads the base's
        new history: torch regenerates its grad_fn (an AsStridedBackward0) when asked, and so do we."""
        made_at = self._grad_fn_version
        if made_at is not None and made_at != self._version and self._base is not None and self._grad_fn is not None:
            # deferred: autograd sits above Tensor and imports it
            from .autograd.view_history import refresh_view_history

            refresh_view_history(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node):
        self._grad_fn = node

    @property
    def requires_grad(self):  # (a view made under no_grad has no grad_fn, yet requires grad as its base does)
        return self._requires_grad or self._grad_fn is not None or (self._base is not None and self._base.requires_grad)

    @requires_grad.setter
    def requires_grad(self, value):
        if self._grad_fn is not None:
            if value:
                return
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                "in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
            )
        if value and not self.dtype.is_inexact:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        _inference_tensors.check_requires_grad(self, value)
        self._requires_grad = bool(value)

    @property
    def is_leaf(self):
        return self._grad_fn is None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        # deferred: autograd sits above Tensor and imports it
        from .autograd import backward

        backward([self], None if gradient is None else [gradient], retain_graph, create_graph, inputs=inputs)

    @property
    def data(self):
        t = Tensor._make_view(self, self._shape, self._stride, self._offset)
        t._base = None
        t._version_counter = _VersionCounter()
        return t

    @data.setter
    def data(self, other):
        self._np, self._storage, self._shape = other._np, other._storage, other._shape
        self._stride, self._offset, self.dtype = other._stride, other._offset, other.dtype

    # ------------------------------------------------------------------ conversion
    def numpy(self, *, force=False):
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self.dtype is _dtype.bfloat16:  # (numpy has no bfloat16: torch refuses; ours is ml_dtypes')
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self._np  # (FakeTensor and the sparse tensor, which have no array, override this method)

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        if self._np is None and self.is_floating_point():  # traced (AOT): a float of unknown value
            from ._ops import ops  # (deferred: the op registry is built on this module)
            return ops.aten._local_scalar_dense.default(self)
        if self._np is None:
            raise DataDependentOutputException("Cannot call item() on a FakeTensor: its value is unknown "
                                               "(data-dependent)")
        return self._np.reshape(()).item()

    __array_priority__ = 1000  # numpy defers to us: np.float64(2.5) * t is t.__rmul__, a Tensor, as torch's

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self):
        if self.numel() != 1:
            how = "no values" if self.numel() == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {how} is ambiguous")
        return bool(self.item())

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        return tensor_repr(self)


install_conveniences(Tensor)  # conversions, device queries, legacy names, deepcopy, pickling, hooks (_tensor_more.py)


class _FakeStorage:
    """Identity of a fake tensor's memory: views share it."""

    def __init__(self, nbytes=0):
        self.nbytes = nbytes


class DataDependentOutputException(RuntimeError):
    """A FakeTensor asked for a value it does not have (`item()`, `tolist()`, `bool()`)."""


class DynamicOutputShapeException(RuntimeError):
    """An op whose output shape depends on the data (`nonzero`, a boolean mask): a FakeTensor cannot run it."""


class FakeTensor(Tensor):
    """A tensor with metadata and no memory (`_np is None`): ops on it run their meta functions (the
    dispatcher's run_kernel; FakeTensorMode in _subclasses/fake_tensor.py fakes real inputs too)."""

    __slots__ = ("fake_mode",)  # the FakeTensorMode that made it (None for one a meta function made outside any)
    # autograd remembers the view ops that made a view of a fake tensor and replays them where it would
    # use as_strided on real memory (CopySlices, a view's regenerated grad_fn), as torch does for tensors
    # handled in Python (its FakeTensor and FunctionalTensor): the traced graphs hold select, slice, ...
    _replays_views = True

    @classmethod
    def _make(cls, shape, dtype, stride=None, fake_mode=None):
        t = object.__new__(cls)
        shape = Size(shape)
        t._init_from(None, _FakeStorage(), shape, contiguous_strides(shape) if stride is None else tuple(stride), 0, dtype,
                     _VersionCounter())
        t.fake_mode = fake_mode
        return t

    def __repr__(self):
        dtype = f", dtype={self.dtype}" if self.dtype is not _dtype.float32 else ""
        return f"FakeTensor(..., size={tuple(self.shape)}{dtype}" + (", requires_grad=True)" if self.requires_grad else ")")

    def numpy(self, *, force=False):
        raise DataDependentOutputException("FakeTensor has no data: it carries shapes and dtypes only")


class _StorageRef(StorageConveniences):
    """What `untyped_storage()` returns: its size in bytes (as_strided's bounds check), and (_tensor_more.py) whether
    two tensors share memory."""

    def __init__(self, tensor):
        self._storage = tensor._storage

    def nbytes(self):
        return self._storage.nbytes if isinstance(self._storage, np.ndarray) else 0


def wrap_dim(dim, ndim, wrap_scalar=True):
    if ndim == 0 and not wrap_scalar:  # (unbind: a 0-d tensor has no dim 0 to take apart)
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def _dense_layout(array):
    """Torch strides for a non-C-contiguous kernel result, keeping a dense permuted layout as TensorIterator does."""
    order = sorted(range(array.ndim), key=lambda d: (-abs(array.strides[d]), d))
    permuted = array.transpose(order)
    if not permuted.flags.c_contiguous or any(s < 0 for s in array.strides):
        array = np.ascontiguousarray(array)
        return array, contiguous_strides(array.shape), array.reshape(-1)
    perm_strides = contiguous_strides(permuted.shape)
    stride = [0] * array.ndim
    for pos, d in enumerate(order):
        stride[d] = perm_strides[pos]
    return array, tuple(stride), permuted.reshape(-1)
