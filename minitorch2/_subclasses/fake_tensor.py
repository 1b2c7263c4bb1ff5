"""FakeTensor and FakeTensorMode: tensors with metadata and no memory.

Runtime layer, used by the frontend (example values of graph nodes) and by `autograd` (tracing joint graphs without
running kernels). A FakeTensor has a shape, dtype, strides and storage offset but `_np is None`; any op that sees one
runs its meta function instead of its kernel (with PyTorch's fake strides where those differ from its eager ones:
fake_strides.py), so a whole model can be traced at the cost of shape arithmetic. Views of a FakeTensor share a fake
storage object, so aliasing is still visible. The class itself is defined beside Tensor (minitorch2/_tensor.py), below
the meta functions that make FakeTensors; this module, where torch has it, holds the mode.
"""
import weakref

from .._tensor import DataDependentOutputException, DynamicOutputShapeException, FakeTensor, Tensor  # noqa: F401
from ..autograd.graph import DelayedError
from ..utils import _pytree as pytree
from ..utils._python_dispatch import TorchDispatchMode
from .._aten.meta_util import strides_in_order
from .fake_strides import fake_stride_rule


class FakeTensorMode(TorchDispatchMode):
    """Inside this mode every op runs its meta function; real tensor inputs are faked first."""

    def __init__(self, allow_non_fake_inputs=True, shape_env=None):
        self.allow_non_fake_inputs = allow_non_fake_inputs
        self.shape_env = shape_env  # dynamic shapes: the ShapeEnv that gives fake inputs symbolic sizes
        self._memo = {}

    def from_tensor(self, tensor, static_shapes=None, source=None, dynamic_dims=None):
        """The fake of a real tensor. With a ShapeEnv (and static_shapes not True), the sizes of
        `dynamic_dims` ({dim: may share a symbol with an equal size}; all dims by default) become symbols
        named from `source` (`L['x']`), when the tensor is contiguous; a strided one keeps static sizes."""
        key = id(tensor)
        cached = self._memo.get(key)
        if cached is not None and cached[0]() is tensor:
            return cached[1]
        shape, stride = tensor.shape, tensor.stride()
        if self.shape_env is not None and not static_shapes and tensor.is_contiguous():
            dims = dict.fromkeys(range(tensor.dim()), True) if dynamic_dims is None else dynamic_dims
            shape = [self.shape_env.create_symbol(size, f"{source}.size()[{d}]", dynamic=d in dims,
                                                  duck=dims.get(d, False)) for d, size in enumerate(shape)]
            # in the real strides' order, as PyTorch's fake keeps a size-1 dim's (nonzero's (n, 1): strides (1, n))
            # (a stride of 0, an empty tensor's from numpy, stays 0, as torch keeps strides of 0 and 1 constant)
            stride = [0 if real == 0 else s for real, s in zip(stride, strides_in_order(
                shape, sorted(range(len(shape)), key=lambda d: (stride[d], -d))))]
        fake = FakeTensor._make(shape, tensor.dtype, stride, self)
        fake._offset = tensor.storage_offset()
        fake.item_memo = getattr(tensor, "item_memo", None)  # a frontend float input's symbol (Dynamo's item_memo)
        # a non-leaf stays one (so in-place ops on it are allowed), its history not recorded, as PyTorch's
        # meta converter makes it
        if tensor.requires_grad and not tensor.is_leaf:
            fake.grad_fn = DelayedError("the history of a fake tensor made from a non-leaf was not recorded")
        else:
            fake._requires_grad = tensor.requires_grad
        # weakly: a fake (kept in graphs' node.meta) must not keep the real tensor alive
        self._memo[key] = (weakref.ref(tensor, lambda _, memo=self._memo: memo.pop(key, None)), fake)
        return fake

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        args = tuple(self._fakeify(a) for a in args)
        kwargs = {k: self._fakeify(v) for k, v in kwargs.items()}
        if func.meta is None:
            raise NotImplementedError(f"{func} has no meta function, so it cannot run on FakeTensors")
        out = run_meta(func, args, kwargs)
        for t in pytree.tree_leaves(out):
            if isinstance(t, FakeTensor):
                t.fake_mode = self
        return out

    def _fakeify(self, value):
        if isinstance(value, Tensor) and not isinstance(value, FakeTensor):
            if not self.allow_non_fake_inputs:
                raise RuntimeError("FakeTensorMode received a real tensor; call fake_mode.from_tensor() first")
            return self.from_tensor(value, static_shapes=True)  # a constant made while tracing: no source to guard
        return type(value)(self._fakeify(v) for v in value) if isinstance(value, (list, tuple)) else value


def run_meta(func, args, kwargs):
    """What an op does to FakeTensors (inside a FakeTensorMode or not): its meta function, a fresh
    single output then taking the strides PyTorch's fake tensor has (fake_strides.py says where and why)."""
    out = func.meta(*args, **kwargs)
    rule = fake_stride_rule(func)
    if rule is not None and isinstance(out, FakeTensor) and not any(out is a for a in args):
        stride = rule(out, *args, **kwargs)
        if stride is not None:
            out._stride = tuple(stride)
    return out
