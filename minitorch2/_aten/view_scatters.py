"""The inverses of views: ops that write a tensor into the window a view reads.

Runtime layer. Functionalization writes a mutated view back into its base with a view scatter (a copy of self with
the window replaced by src: slice_scatter, select_scatter, diagonal_scatter, as_strided_scatter); a view's backward
is the same write into zeros of the input's size (select_backward, slice_backward, diagonal_backward). Both take
the window from views.py's geometry functions, so it is exactly the one the view reads.
"""
import numpy as np

from .._tensor import Tensor
from .memory import clone_preserve_strides, clone_preserve_strides_meta
from .meta_util import fake_empty
from .overlap import assert_no_internal_overlap
from . import views


def _scatter_into_view(geometry):
    """`self` with the window `geometry(self, ...)` describes replaced by `src`."""

    def kernel(self, src, *args):
        out = clone_preserve_strides(self)
        window = Tensor._make_view(out, *geometry(out, *args))
        if tuple(window.shape) != tuple(src.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                               f"slice size = {list(window.shape)}")
        np.copyto(window._np, src._np.astype(self.dtype.np, copy=False))
        return out

    def meta(self, src, *args):
        return clone_preserve_strides_meta(self)
    return kernel, meta


slice_scatter = _scatter_into_view(views._slice)
select_scatter = _scatter_into_view(views._select)
diagonal_scatter = _scatter_into_view(views._diagonal)


def _as_strided_scatter_kernel(self, src, size, stride, storage_offset=None):
    out = clone_preserve_strides(self)
    offset = out.storage_offset() if storage_offset is None else storage_offset
    view = Tensor._make_view(out, size, stride, offset)
    # torch copies src into the window with copy_, which refuses a window repeating an element (an
    # expanded one); numpy would let the last write win
    assert_no_internal_overlap(view)
    np.copyto(view._np, src._np)
    return out


def _as_strided_scatter_meta(self, src, size, stride, storage_offset=None):
    return clone_preserve_strides_meta(self)


as_strided_scatter = (_as_strided_scatter_kernel, _as_strided_scatter_meta)


def _backward_into_zeros(geometry):
    """A view's backward: zeros of the input's size, the gradient written into the window `geometry` describes."""

    def kernel(grad_output, input_sizes, *args):
        out = Tensor._from_numpy(np.zeros(input_sizes, grad_output.dtype.np))
        np.copyto(Tensor._make_view(out, *geometry(out, *args))._np, grad_output._np)
        return out._np

    def meta(grad_output, input_sizes, *args):
        return fake_empty(input_sizes, grad_output.dtype)
    return kernel, meta


select_backward = _backward_into_zeros(views._select)
slice_backward = _backward_into_zeros(views._slice)
diagonal_backward = _backward_into_zeros(views._diagonal)
