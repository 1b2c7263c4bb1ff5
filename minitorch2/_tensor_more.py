"""Tensor's conveniences beyond what the pipeline computes with: conversions to Python numbers, lists and numpy
arrays (float(t), int(t), t.tolist(), np.asarray(t)), the element sizes and data_ptr, what a script asks of a
tensor's device and layout (is_cuda, layout, ...), the legacy type names (`x.type()` is
"torch.FloatTensor", `x.type("torch.LongTensor")` a converted copy), copy.deepcopy and pickling, format specs on a
one-element tensor (f"{loss:.3f}"), numpy ufuncs on a tensor giving a tensor
back (np.sin(x)), the registration of gradient hooks and retain_grad (the eager engine runs what they leave on the
tensor and its grad_fn), requires_grad_ and `.grad` with torch's checks of what is assigned and its warning on a
non-leaf, c10's grammar of device strings with its errors (torch.device("cuda:0")), and what a
script asks of `untyped_storage()` (data_ptr, ==, copy_).

Runtime layer, coverage surface. _tensor.py installs these methods on Tensor once the class is defined.
"""
import re
import warnings
import weakref

import numpy as np

from . import _dtype
from ._dtype import dtype as _dtype_class
from .utils.hooks import RemovableHandle

_LEGACY_NAMES = {
    _dtype.float32: "torch.FloatTensor", _dtype.float64: "torch.DoubleTensor", _dtype.float16: "torch.HalfTensor",
    _dtype.bfloat16: "torch.BFloat16Tensor",
    _dtype.int64: "torch.LongTensor", _dtype.int32: "torch.IntTensor", _dtype.bool_: "torch.BoolTensor",
    _dtype.int16: "torch.ShortTensor", _dtype.int8: "torch.CharTensor", _dtype.uint8: "torch.ByteTensor",
}


_warned_float = False  # (torch warns about float() of a tensor that requires grad once a process)
_NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, "
    "use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the "
    "leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")


class _Conveniences:
    # every tensor lives in CPU memory, dense and unquantized (read-only, as torch's)
    is_cpu = property(lambda self: True)
    is_cuda = is_xpu = is_mps = is_meta = is_sparse = is_sparse_csr = is_quantized = is_mkldnn = is_nested = property(
        lambda self: False)

    @property
    def layout(self):
        return "torch.strided"

    def requires_grad_(self, requires_grad=True):
        if requires_grad and not self.dtype.is_inexact and self._grad_fn is None:  # (torch's words here: no complex)
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self):
        """What backward() accumulated; read unset on a non-leaf that does not retain it, torch's warning."""
        if self._grad is None and self._grad_fn is not None and not self._retains_grad:
            warnings.warn(_NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        from ._out import _CPP_TYPE, _SCALAR_TYPE  # (_out.py imports _tensor.py, which imports this module)
        from ._tensor import Tensor  # (_tensor.py imports this module)
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}")
        if value is not None and tuple(value.shape) != tuple(self.shape):
            raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
                               f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size")
        if value is not None and value.dtype is not self.dtype:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{_CPP_TYPE[value.dtype.name]}' to a tensor with "
                f"grad_dtype '{_SCALAR_TYPE[self.dtype.name]}'. The gradient must match the tensor's grad_dtype "
                "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, "
                "or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                "gradient may break downstream systems that assume they match.")
        self._grad = value

    def is_complex(self):
        return self.dtype.is_complex

    def data_ptr(self):
        if self._np is None:
            return 0
        return self._storage.ctypes.data + self._offset * self.dtype.itemsize

    def _is_view(self):
        return self._base is not None

    def element_size(self):
        return self.dtype.itemsize

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.numel() * self.dtype.itemsize

    def tolist(self):
        return self._np.astype(_dtype.opmath(self.dtype).np).tolist()  # (bfloat16 elements as Python floats)

    def __array__(self, dtype=None, copy=None):  # (bfloat16 too: the kernels read tensors as arrays; torch refuses)
        a = self._np if self.dtype is _dtype.bfloat16 and not self.requires_grad else self.numpy()
        return a if dtype is None else a.astype(dtype)

    def _one_element(self):
        """float(t)/int(t) want one element, with torch's ValueError (item() raises RuntimeError)."""
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __float__(self):
        if self.requires_grad and not _warned_float:  # (int(), item() and formatting do not warn)
            globals()["_warned_float"] = True
            warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                          "Consider using tensor.detach() first.", stacklevel=2)
        return float(self._one_element())

    def __int__(self):
        return int(self._one_element())

    def __complex__(self):
        return complex(self._one_element())

    def __index__(self):
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __format__(self, spec):
        if self.dim() == 0 and self._np is not None:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = self.detach().clone()
        new = type(self)._from_tensor_like(self, new) if hasattr(type(self), "_from_tensor_like") else new
        new.requires_grad = self.requires_grad
        if self.grad is not None:
            new.grad = self.grad.clone()
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):  # pickle (torch.save, multiprocessing): the values and requires_grad
        return (_rebuild, (self._np.copy(), self.requires_grad))

    def __array_wrap__(self, array):  # (torch's one-argument form: numpy 2 warns about it for torch's tensors too)
        """A numpy ufunc on a tensor returns a tensor, as torch's (a bool result as uint8, as torch's)."""
        return type(self)._from_numpy(array.astype("uint8") if array.dtype == bool else array)

    def type(self, dtype=None, non_blocking=False):
        """The legacy type name, or a copy converted to a dtype or a legacy name ("torch.LongTensor")."""
        if dtype is None:
            return _LEGACY_NAMES.get(self.dtype, "torch.Tensor")
        if isinstance(dtype, str):
            by_name = {name: d for d, name in _LEGACY_NAMES.items()}
            if dtype not in by_name:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = by_name[dtype]
        if getattr(dtype, "is_legacy_tensor_type", False):  # x.type(torch.DoubleTensor)
            dtype = dtype.dtype
        if not isinstance(dtype, (_dtype_class, type)):
            raise TypeError("dtype must be a type, str, or dtype object")
        if not isinstance(dtype, _dtype_class):  # torch takes no Python type here: x.type(float) is refused
            raise ValueError(f"invalid type: '{getattr(dtype, '__name__', dtype)}'")
        return self.to(dtype)

    def retain_grad(self):
        if self.grad_fn is None:
            if not self.requires_grad:  # (a view made under no_grad takes its base's)
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        self._retains_grad = True
        self.grad_fn._retained[self._output_nr] = weakref.ref(self)

    @property
    def retains_grad(self):
        return self._retains_grad

    def register_hook(self, hook):
        """hook(grad) runs when the gradient for this tensor is computed (the engine's pre-hooks of its grad_fn,
        or a leaf's AccumulateGrad); a tensor it returns replaces the gradient."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            hooks = self.grad_fn._pre_hooks.setdefault(self._output_nr, [])
        else:
            if self._backward_hooks is None:
                self._backward_hooks = []
            hooks = self._backward_hooks
        hooks.append(hook)
        return _HookHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """hook(tensor) runs after a leaf's .grad has been accumulated in a backward (an optimizer step fused into
        the backward, as torch's tutorial does it)."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        hooks = self.__dict__.setdefault("_post_accumulate_grad_hooks", [])
        hooks.append(hook)
        return _HookHandle(hooks, hook)


class StorageConveniences:
    """untyped_storage()'s questions beyond its size: where it lives, whether two are one, a copy between two."""

    def data_ptr(self):
        return self._storage.ctypes.data if isinstance(self._storage, np.ndarray) else id(self._storage)

    def cpu(self):  # already in host memory (Triton's interpreter moves its arguments' storages to the host)
        return self

    def copy_(self, source):
        self._storage.view(np.uint8)[:] = source._storage.view(np.uint8)

    def __eq__(self, other):
        return isinstance(other, StorageConveniences) and other._storage is self._storage


def _rebuild(array, requires_grad):
    from ._tensor import Tensor  # (_tensor.py imports this module)
    t = Tensor._from_numpy(array)
    t.requires_grad = requires_grad
    return t


def install_conveniences(tensor_cls):
    for name, fn in vars(_Conveniences).items():
        if callable(fn) or isinstance(fn, property):
            setattr(tensor_cls, name, fn)


class _HookHandle(RemovableHandle):
    """A RemovableHandle (an id, a context manager) over a tensor's or grad_fn's list of hooks."""

    def __init__(self, hooks, hook):
        super().__init__({}, hook)
        self._hooks, self._hook = hooks, hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


def parse_device_string(text, index):
    """(type, index) of "cpu" or "cpu:0", refused with c10's errors ("float32x" is no device)."""
    m = re.fullmatch(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?", text)
    if not m:
        raise RuntimeError(f"Invalid device string: '{text}'")
    if m.group(1) not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: {text}")
    return m.group(1), int(m.group(2)) if m.group(2) is not None else index
