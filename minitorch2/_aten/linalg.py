"""Matrix products: mm, bmm, addmm, dot, mv, outer (and the kernel maker baddbmm shares, in more_ops.py).

Runtime layer. numpy's BLAS does the work; these functions add PyTorch's shape checks and messages (`mat1 and mat2
shapes cannot be multiplied (2x3 and 4x5)`) and dtype rules (operands must have the same dtype; no implicit
promotion in ATen's matmul kernels).
"""
import numpy as np

from .. import _dtype
from .._out import _CPP_TYPE
from .meta_util import fake_empty
from .views import _expand


def _check_same_dtype(name, *tensors, empty_result=False):
    first = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype is not first:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_CPP_TYPE[first.name]} != "
                               f"{_CPP_TYPE[t.dtype.name]}")
    if first is _dtype.bool_ and not empty_result:  # (empty operands never reach the typed kernel)
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")


def _matmul(a, b, keep_half=True):
    """np.matmul, with half operands multiplied in float32 as ATen's CPU kernels accumulate them."""
    compute = _dtype.opmath(a.dtype).np
    product = np.matmul(a._np.astype(compute, copy=False), b._np.astype(compute, copy=False))
    return product.astype(a.dtype.np, copy=False) if keep_half else product


def _mm_shape(a, b, name="mm"):
    if a.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if b.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )
    return (a.shape[0], b.shape[1])


def _product(shape_of, name, check_meta_dtype=True):
    """mm / bmm: shapes checked, then the operands' dtypes (empty operands never reach the typed kernel)."""
    def kernel(self, mat2):
        shape_of(self, mat2)
        _check_same_dtype(name, self, mat2, empty_result=self.numel() == 0 or mat2.numel() == 0)
        return _matmul(self, mat2)

    def meta(self, mat2):
        shape = shape_of(self, mat2)
        if check_meta_dtype:
            _check_same_dtype(name, self, mat2, empty_result=self.numel() == 0 or mat2.numel() == 0)
        return fake_empty(shape, self.dtype)

    return kernel, meta


def _bmm_shape(a, b):
    if a.dim() != 3 or b.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.dim() != 3 else "batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] "
            f"but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    return (a.shape[0], a.shape[1], b.shape[2])


mm = _product(_mm_shape, "addmm_impl_cpu_")
bmm = _product(_bmm_shape, "bmm", check_meta_dtype=False)


def _add_product(shape_of, name):
    """addmm / baddbmm: beta * self + alpha * (a @ b), self expanded to the product's shape (expand's errors where
    it cannot be); half operands multiply in float32 and round once at the end."""
    def kernel(self, a, b, *, beta=1, alpha=1):
        shape = shape_of(a, b)
        _check_same_dtype(name, a, b, self)
        _expand(self, shape)
        product = _matmul(a, b, keep_half=False)
        if alpha != 1:
            product = product * np.asarray(alpha, product.dtype)
        if beta == 0:
            return np.ascontiguousarray(np.broadcast_to(product, shape)).astype(a.dtype.np, copy=False)
        bias = self._np if beta == 1 else self._np * np.asarray(beta, product.dtype)
        return np.add(bias, product, dtype=product.dtype).astype(a.dtype.np, copy=False)

    def meta(self, a, b, *, beta=1, alpha=1):
        shape = shape_of(a, b)
        _expand(self, shape)
        return fake_empty(shape, a.dtype)

    return kernel, meta


addmm = _add_product(_mm_shape, "addmm_impl_cpu_")


def _check_dot(self, tensor):
    """dot's checks, shared by its kernel and meta (so a traced dot refuses what eager refuses)."""
    if self.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.dim()}D and {tensor.dim()}D tensors")
    if self.shape[0] != tensor.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{self.shape[0]}] and src [{tensor.shape[0]}] to have the "
            "same number of elements, but got {0} and {1} elements respectively".format(self.shape[0], tensor.shape[0])
        )
    _check_same_dtype("dot", self, tensor)


def _dot_kernel(self, tensor):
    _check_dot(self, tensor)
    return np.asarray(_matmul(self, tensor))


def _dot_meta(self, tensor):
    _check_dot(self, tensor)
    return fake_empty((), self.dtype)


dot = (_dot_kernel, _dot_meta)


def _check_mv(self, vec):
    _check_same_dtype("addmv_impl_cpu", self, vec, empty_result=self.numel() == 0)
    if self.dim() != 2 or vec.dim() != 1 or self.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({self.shape[0] if self.dim() else 0}), mat ({'x'.join(map(str, self.shape))}), "
            f"vec ({vec.shape[0] if vec.dim() else 0})"
        )


def _mv_kernel(self, vec):
    _check_mv(self, vec)
    return _matmul(self, vec)


def _mv_meta(self, vec):
    _check_mv(self, vec)
    return fake_empty((self.shape[0],), self.dtype)


mv = (_mv_kernel, _mv_meta)
