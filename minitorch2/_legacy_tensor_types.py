"""The legacy tensor types (torch.FloatTensor, torch.LongTensor, ...): constructors and isinstance checks
older scripts still use (`torch.LongTensor(n).zero_()`, `isinstance(x, torch.FloatTensor)`, `x.type(torch.
DoubleTensor)`).

Runtime library surface. Each type is a class whose metaclass answers isinstance by dtype and builds a
tensor as torch's does: no arguments, an empty tensor; ints or a Size, uninitialised memory of that shape;
a sequence or a numpy array, its data (cast to the type's dtype); a tensor or numpy array of the same dtype, a new
tensor on its memory.
"""
import array
import collections

import numpy as np

from . import _dtype, _factories
from ._tensor import Size, Tensor
from ._tensor_more import _LEGACY_NAMES

_CPP_NAMES = {  # the scalar type names torch's TensorOptions print in a dtype mismatch
    _dtype.float32: "float", _dtype.float64: "double", _dtype.float16: "c10::Half", _dtype.bfloat16: "c10::BFloat16", _dtype.int64: "long int",
    _dtype.int32: "int", _dtype.int16: "short int", _dtype.int8: "signed char", _dtype.uint8: "unsigned char",
    _dtype.bool_: "bool",
}


def _options(dtype):
    return (f"TensorOptions(dtype={_CPP_NAMES.get(dtype, dtype)}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


class _LegacyTensorType(type):
    __module__, __qualname__ = "torch", "tensortype"  # printed as torch prints the type of torch.FloatTensor
    is_legacy_tensor_type = True

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None):
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not cls.dtype:
                raise TypeError(f"expected {_options(cls.dtype)} (got {_options(args[0].dtype)})")
            return args[0].detach()
        if len(args) == 1 and isinstance(args[0], np.ndarray) and args[0].dtype == cls.dtype.np:
            return _factories.from_numpy(args[0])  # its memory, as torch's; another dtype is copied below
        if len(args) == 1 and isinstance(args[0], (list, tuple, np.ndarray)) and not isinstance(args[0], Size):
            return _factories.tensor(args[0], dtype=cls.dtype)
        if len(args) == 1 and isinstance(args[0], (range, collections.deque, array.array)):  # other sequences
            return _factories.tensor(list(args[0]), dtype=cls.dtype)
        if len(args) == 1 and isinstance(args[0], str):
            raise TypeError("new(): invalid data type 'str'")
        if len(args) == 1 and isinstance(args[0], dict):
            raise TypeError("new(): data must be a sequence (got dict)")
        sizes = tuple(args[0]) if len(args) == 1 and isinstance(args[0], Size) else (args or (0,))
        return _factories.empty(*sizes, dtype=cls.dtype)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_type(dtype, name):
    return _LegacyTensorType(name, (), {"dtype": dtype, "is_cuda": False, "is_sparse": False,
                                        "__module__": "torch"})


_TYPES = {name.split(".")[1]: _legacy_type(dtype, name.split(".")[1]) for dtype, name in _LEGACY_NAMES.items()}
FloatTensor, DoubleTensor, HalfTensor = _TYPES["FloatTensor"], _TYPES["DoubleTensor"], _TYPES["HalfTensor"]
BFloat16Tensor = _TYPES["BFloat16Tensor"]
LongTensor, IntTensor, ShortTensor = _TYPES["LongTensor"], _TYPES["IntTensor"], _TYPES["ShortTensor"]
CharTensor, ByteTensor, BoolTensor = _TYPES["CharTensor"], _TYPES["ByteTensor"], _TYPES["BoolTensor"]


def legacy_type(dtype):
    """The legacy type of a dtype (torch.Tensor(...) builds as the default dtype's)."""
    return next(kind for kind in _TYPES.values() if kind.dtype is dtype)
