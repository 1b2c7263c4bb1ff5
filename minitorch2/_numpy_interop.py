"""torch.from_numpy and torch.tensor of an ndarray or a tensor: memory and layout as torch's.

Runtime layer, coverage surface (_factories.py's tensor, as_tensor and from_numpy call these). from_numpy (and
as_tensor of an array of its dtype) is a tensor over the array's own memory with the array's strides, so a write
through either is seen by the other: a slice `a[:, ::2]` stays strided, a transposed array transposed, an empty one
keeps numpy's zero strides; negative or misaligned strides are refused with torch's ValueError. torch.tensor copies,
in the layout torch's clone(memory_format=preserve_format) gives: a transposed array stays transposed, a strided one
becomes dense in its order.
"""
import numpy as np

from . import _dtype
from ._aten.meta_util import preserve_format_strides, with_strides
from ._tensor import Size, Tensor, contiguous_strides


def from_numpy(array):
    """A tensor over array's memory with array's strides, as torch's: a write through either shows in the other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    array = array.view(np.ndarray) if type(array) is not np.ndarray else array  # (a masked array: its data, as torch's)
    if array.dtype == _dtype.bfloat16.np:  # (torch reads no ml_dtypes array, though its tensors are bfloat16)
        raise TypeError("can't convert np.ndarray of type ml_dtypes.bfloat16. The only supported types are: float64, "
                        "float32, float16, int64, int32, int16, int8, uint8, and bool.")
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative strides "
                         "are not currently supported. (You can probably work around this by making a copy of your "
                         "array  with array.copy().) ")
    if any(s % array.itemsize for s in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. Copy the numpy array to "
                         "reallocate the memory.")
    stride = tuple(s // array.itemsize for s in array.strides)
    if array.size and array.flags.c_contiguous and stride == contiguous_strides(array.shape):
        return Tensor._from_numpy(array)
    span = 1 + sum((n - 1) * s for n, s in zip(array.shape, stride)) if array.size else 0
    t = object.__new__(Tensor)  # (its storage: the memory the array spans)
    t._init_from(array, np.lib.stride_tricks.as_strided(array, (span,), (array.itemsize,)), Size(array.shape), stride,
                 0, _dtype.from_numpy(array.dtype))
    return t


def preserved_copy(data, dtype):
    """torch.tensor(data) of an ndarray or a tensor: a copy in dtype (data's when None), laid out as data is."""
    source = data.detach() if isinstance(data, Tensor) else from_numpy(data)
    dtype = dtype or source.dtype
    if source._np is None:  # a fake tensor (a traced ndarray, torch.tensor(x) under compile): a fake copy
        return source.to(dtype).clone()
    copy = with_strides(source._np.astype(dtype.np), preserve_format_strides(source))
    return copy if isinstance(copy, Tensor) else Tensor._from_numpy(copy, dtype)
