"""view.dtype: Tensor.view(dtype), the same bytes read as another dtype (a bit reinterpretation, never a copy).

Runtime layer, coverage surface: a row of table_extra.py. As ATen's view_dtype: an element size like self's keeps
the sizes and strides; a smaller one multiplies the last dim (which must have stride 1), the other strides and the
offset by the ratio; a larger one divides them (each must divide). The output shares self's storage and version
counter but is not a differentiable view: it never requires grad (derivatives.yaml marks it non-differentiable).
"""
from .._tensor import Tensor
from .memory import _dtype_title


def _name(dtype):
    return "BFloat16" if dtype.name == "bfloat16" else _dtype_title(dtype)


def _geometry(self, dtype):
    """(shape, stride, storage offset) in elements of dtype."""
    old, new = self.dtype.itemsize, dtype.itemsize
    shape, stride, offset = list(self.shape), list(self.stride()), self.storage_offset()
    if old == new:
        return shape, stride, offset
    what = f"to view {_name(self.dtype)} as {_name(dtype)} (different element sizes)"
    if self.dim() == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    if stride[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {stride[-1]}")
    if old > new:
        ratio = old // new
        return shape[:-1] + [shape[-1] * ratio], [s * ratio for s in stride[:-1]] + [1], offset * ratio
    ratio = new // old
    if shape[-1] % ratio:
        raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {shape[-1]}")
    if offset % ratio:
        raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset}")
    for dim, s in enumerate(stride[:-1]):
        if s % ratio:
            raise RuntimeError(f"self.stride({dim}) must be divisible by {ratio} {what}, but got {s}")
    return shape[:-1] + [shape[-1] // ratio], [s // ratio for s in stride[:-1]] + [1], offset // ratio


def _view_dtype(self, dtype):
    out = Tensor._make_view(self, *_geometry(self, dtype), dtype=dtype)
    out._base = None  # (not a differentiable view: autograd never tracks through it)
    return out


view_dtype = (_view_dtype, _view_dtype)  # a view touches no data: one function is kernel and meta
