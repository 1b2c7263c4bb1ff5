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
from .fake_strides import copy_rule, fake_stride_rule
from .strided_symbols import symbolic_strides


class FakeTensorMode(TorchDispatchMode):
    """Inside this mode every op runs its meta function; real tensor inputs are faked first."""

    def __init__(self, allow_non_fake_inputs=True, shape_env=None):
        self.allow_non_fake_inputs = allow_non_fake_inputs
        self.shape_env = shape_env  # dynamic shapes: the ShapeEnv that gives fake inputs symbolic sizes
        self._memo = {}

    def from_tensor(self, tensor, static_shapes=None, source=None, dynamic_dims=None):
        """The fake of a real tensor. With a ShapeEnv (and static_shapes not True), the sizes of `dynamic_dims` ({dim:
        may share a symbol}; all by default) are symbols named from `source`; strides and offset: strided_symbols.py."""
        key = id(tensor)
        cached = self._memo.get(key)
        if cached is not None and cached[0]() is tensor:
            return cached[1]
        shape, stride, offset = tensor.shape, tensor.stride(), tensor.storage_offset()
        if self.shape_env is not None and not static_shapes:
            dims = dict.fromkeys(range(tensor.dim()), True) if dynamic_dims is None else dynamic_dims
            shape = [self.shape_env.create_symbol(size, f"{source}.size()[{d}]", dynamic=d in dims,
                                                  duck=dims.get(d, False)) for d, size in enumerate(shape)]
            stride = symbolic_strides(self.shape_env, source, tensor.shape, shape, stride, sizes_static=not dims)
            offset = self.shape_env.create_symbol(offset, f"{source}.storage_offset()", dynamic=bool(dims))
        fake = FakeTensor._make(shape, tensor.dtype, stride, self)
        fake._offset = offset
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
    if rule is not None and isinstance(out, FakeTensor) and (rule is copy_rule or not any(out is a for a in args)):
        stride = rule(out, *args, **kwargs)
        if stride is not None:
            out._stride = tuple(stride)
    return out
