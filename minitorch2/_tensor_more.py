"""Tensor's conveniences beyond what the pipeline computes with: the legacy type names (`x.type()` is
"torch.FloatTensor", `x.type("torch.LongTensor")` a converted copy), copy.deepcopy, format specs on a
one-element tensor (f"{loss:.3f}"), numpy ufuncs on a tensor giving a tensor back (np.sin(x)), and c10's grammar of
device strings with its errors (torch.device("cuda:0")).

Runtime layer, coverage surface. _tensor.py installs these methods on Tensor once the class is defined.
"""
import re

from . import _dtype
from ._dtype import dtype as _dtype_class

_LEGACY_NAMES = {
    _dtype.float32: "torch.FloatTensor", _dtype.float64: "torch.DoubleTensor", _dtype.float16: "torch.HalfTensor",
    _dtype.int64: "torch.LongTensor", _dtype.int32: "torch.IntTensor", _dtype.bool_: "torch.BoolTensor",
    _dtype.int16: "torch.ShortTensor", _dtype.int8: "torch.CharTensor", _dtype.uint8: "torch.ByteTensor",
}


class _Conveniences:
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
        if not isinstance(dtype, _dtype_class):  # torch takes no Python type here: x.type(float) is refused
            raise ValueError(f"invalid type: '{getattr(dtype, '__name__', dtype)}'")
        return self.to(dtype)


def install_conveniences(tensor_cls):
    for name, fn in vars(_Conveniences).items():
        if callable(fn):
            setattr(tensor_cls, name, fn)


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
