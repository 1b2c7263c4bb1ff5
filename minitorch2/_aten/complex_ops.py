"""Complex numbers: the views between a complex tensor and its real parts, and the ops only complex tensors need.

Runtime layer, coverage surface (the rows are in table_complex.py; no stage of the pipeline needs complex numbers,
which user programs bring: rotary embeddings, torch.fft). numpy holds complex64/complex128 natively, so most ops
(mul, exp, sum, matmul, reshape) need nothing here; what does:

- view_as_real / view_as_complex are true views: the same storage read as the other dtype (a complex64 element is
  two float32s), strides and storage offset doubled or halved as ATen's computeStrideForViewAsReal/Complex do, so a
  write through one is seen in the other;
- _conj is torch's lazy conjugation, materialized: the result holds the conjugated values in memory of its own and
  remembers that torch's would carry the conjugate bit (is_conj(); torch.view_as_real refuses it as torch does, while
  .real and .imag read it, as torch's do through the bit). Unlike torch's, a write into it does not reach the tensor
  it conjugates;
- abs, angle, complex, polar: the ops whose result dtype is the other one of the pair (complex64 <-> float32); sgn.

The derivative formulas follow torch's convention for complex gradients (the conjugate Wirtinger derivative, so a
real loss's gradient for a complex input z = x + iy is dL/dx + i dL/dy), each as derivatives.yaml writes it.
"""
import warnings

import numpy as np

from .. import _dtype
from .._arg_parser import CONJUGATES_MADE
from .._ops import ops
from .._tensor import FakeTensor, Size, Tensor, contiguous_format
from .memory import _dtype_title
from .meta_util import fake_empty, fake_pointwise, pointwise_strides
from .pointwise_unary import abs as real_abs, sign

aten = ops.aten
# the floating dtype of a complex one's parts
REAL_OF = {complex_: real for real, complex_ in _dtype.COMPLEX_OF.items()}


# ---------------------------------------------------------------- the views between complex and real
def _reinterpreted_view(base, dtype, shape, stride, offset):
    """A view of `base`'s storage read as `dtype` (whose itemsize is twice or half base's)."""
    storage = base._storage
    array = None
    if base._np is not None:
        flat = storage[:storage.size - storage.size % 2] if dtype.itemsize > base.dtype.itemsize else storage
        storage = flat.view(dtype.np)
        itemsize = dtype.itemsize
        array = np.ndarray(shape, dtype.np, buffer=storage, offset=offset * itemsize,
                           strides=tuple(s * itemsize for s in stride)) if 0 not in shape else np.empty(shape, dtype.np)
    t = object.__new__(type(base))
    t._init_from(array, storage, Size(shape), tuple(stride), offset, dtype, base._version_counter)
    t._base = base._base if base._base is not None else base
    if isinstance(t, FakeTensor):
        t.fake_mode = base.fake_mode
    return t


def _view_as_real(self):
    if not self.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return _reinterpreted_view(self, REAL_OF[self.dtype], (*self.shape, 2),
                               (*(2 * s for s in self.stride()), 1), 2 * self.storage_offset())


def _view_as_complex(self):
    if self.dtype is _dtype.float16:
        _dtype.to_complex(self.dtype)  # (refused: complex32)
    if self.dtype not in _dtype.COMPLEX_OF:
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a tensor "
                           f"of scalar type: {_dtype_title(self.dtype)}")
    if self.dim() == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if self.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    stride = self.stride()
    if stride[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in stride[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _reinterpreted_view(self, _dtype.COMPLEX_OF[self.dtype], self.shape[:-1],
                               tuple(s // 2 for s in stride[:-1]), self.storage_offset() // 2)


view_as_real = (_view_as_real, _view_as_real)  # (a view touches no data: one function is kernel and meta)
view_as_complex = (_view_as_complex, _view_as_complex)


# ---------------------------------------------------------------- conjugation
def is_conj(t):
    return t.__dict__.get("_is_conj", False)


def _marked(out):
    out._is_conj = True
    CONJUGATES_MADE[0] = True  # (from now on the argument checks look for marked tensors: _arg_parser.py)
    return out


def _conj_kernel(self):
    return _marked(Tensor._from_numpy(np.conj(self._np)))


def _conj_meta(self):
    return _marked(fake_empty(self.shape, self.dtype, self.stride()))


conj = (_conj_kernel, _conj_meta)


def _unary_kernel(fn, dtype_of):
    def kernel(self):
        with np.errstate(all="ignore"):
            return np.asarray(fn(self._np), dtype_of(self.dtype).np)

    def meta(self):
        return fake_empty(self.shape, dtype_of(self.dtype), pointwise_strides(self.shape, [self]))

    return kernel, meta


conj_physical = _unary_kernel(np.conj, lambda d: d)


# ---------------------------------------------------------------- ops between the complex and the real dtypes
def _real_of(dtype):
    return REAL_OF.get(dtype, dtype)


def complex_aware(impl, complex_fn, dtype_of=_real_of):
    """A unary op's (kernel, meta) pair that, given a complex tensor, computes `complex_fn` into the dtype
    `dtype_of` gives (abs: |z| is a float32 for a complex64 z) and leaves real tensors to `impl`."""
    kernel, meta = impl
    complex_kernel, complex_meta = _unary_kernel(complex_fn, dtype_of)
    return ((lambda self, *args: complex_kernel(self) if self.dtype.is_complex else kernel(self, *args)),
            (lambda self, *args: complex_meta(self) if self.dtype.is_complex else meta(self, *args)))


def _angle_of(values):
    """torch.angle: the argument of a complex number; of a real one 0 or pi (nan stays nan)."""
    if values.dtype.kind == "c":
        return np.angle(values)
    return np.where(np.isnan(values), values, np.where(values < 0, np.pi, 0.0))


angle = _unary_kernel(_angle_of, lambda d: _real_of(d) if d.is_inexact else _dtype.get_default_dtype())


def sgn_of_complex(values):
    """sgn: z / |z|, 0 at 0."""
    with np.errstate(all="ignore"):
        magnitude = np.abs(values)
        return np.where(magnitude == 0, 0, values / np.where(magnitude == 0, 1, magnitude))


abs = complex_aware(real_abs, np.abs)
sgn = complex_aware(sign, sgn_of_complex, dtype_of=lambda d: d)


def _check_parts(first, second):
    if first.dtype not in _dtype.COMPLEX_OF or second.dtype not in _dtype.COMPLEX_OF:
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_dtype_title(first.dtype)} and {_dtype_title(second.dtype)}")
    if first.dtype is not second.dtype:
        raise RuntimeError(f"Expected object of scalar type {_dtype_title(first.dtype)} but got scalar type "
                           f"{_dtype_title(second.dtype)} for second argument")


def _from_parts(compute):
    def kernel(a, b):
        _check_parts(a, b)
        return np.asarray(compute(a._np, b._np), _dtype.COMPLEX_OF[a.dtype].np)

    def meta(a, b):
        _check_parts(a, b)
        return fake_pointwise(_dtype.COMPLEX_OF[a.dtype], (a, b))

    return kernel, meta


def _complex(real, imag):
    """The parts set as given (real + 1j * imag would make 1j * inf nan+infj, and -0. + 0. 0.), as torch's."""
    real, imag = np.broadcast_arrays(real, imag)
    out = np.empty(real.shape, np.result_type(real.dtype, np.complex64))
    out.real, out.imag = real, imag
    return out


def _polar(abs, angle):
    return _complex(abs * np.cos(angle), abs * np.sin(angle))


complex_ = _from_parts(_complex)
polar = _from_parts(_polar)


# ---------------------------------------------------------------- derivative formulas (derivatives.yaml's)
def conj_of(t):
    """t.conj() inside a formula: an identity for a real tensor, as torch's conj() is."""
    if isinstance(t, (complex, np.complexfloating)):  # (a Scalar argument: mul.Scalar's gradient is grad * conj(other))
        return t.conjugate()
    if not isinstance(t, Tensor) or not t.dtype.is_complex:
        return t
    return aten._conj.default(t)


def real_part(t):
    """at::real: a view of the real parts of a complex tensor (view_as_real, then select of the last dim, counted
    from the front as ATen's), a real one itself."""
    return aten.select.int(aten.view_as_real.default(t), t.dim(), 0) if t.dtype.is_complex else t


def imag_part(t):
    return aten.select.int(aten.view_as_real.default(t), t.dim(), 1)


def for_input(grad, input):
    """handle_r_to_c: a real input's (a tensor, or its dtype) gradient is the real part of the complex one the formula
    computed."""
    dtype = getattr(input, "dtype", input)
    real_input = isinstance(dtype, _dtype.dtype) and not dtype.is_complex
    return real_part(grad) if real_input and grad.dtype.is_complex else grad


def _contiguous(t):
    return t if t.is_contiguous() else aten.clone.default(t, memory_format=contiguous_format)


def d_view_as_real(grad):
    return aten.view_as_complex.default(_contiguous(grad))


def d_view_as_complex(grad):
    if is_conj(grad):  # (resolve_conj: a clone that is no longer marked)
        grad = aten.clone.default(grad)
    return aten.view_as_real.default(_contiguous(grad))


def d_conj(grad):
    return aten._conj.default(grad) if grad.dtype.is_complex else grad


def d_conj_physical(grad):
    return aten.conj_physical.default(grad)


def d_complex(grad, needs_grad):
    return (real_part(grad) if needs_grad[0] else None), (imag_part(grad) if needs_grad[1] else None)


def d_polar(grad, result, needs_grad):
    """polar_backward: d|z| = Re(conj(grad) * sgn(result)), d angle = Re(conj(grad) * result * 1j)."""
    grad_conj = conj_of(grad)
    grad_abs = real_part(aten.mul.Tensor(grad_conj, aten.sgn.default(result))) if needs_grad[0] else None
    grad_angle = real_part(aten.mul.Tensor(grad_conj, aten.mul.Scalar(result, 1j))) if needs_grad[1] else None
    return grad_abs, grad_angle


def d_sgn(grad, self, result):
    """sgn_backward: zero for a real input; for a complex one (grad - sgn^2 * conj(grad)) / (2|z|), zero at 0."""
    if not self.dtype.is_complex:
        return aten.zeros_like.default(grad)
    magnitude = aten.abs.default(self)
    numerator = aten.sub.Tensor(grad, aten.mul.Tensor(aten.mul.Tensor(result, result), conj_of(grad)))
    ratio = aten.div.Tensor(numerator, aten.mul.Scalar(magnitude, 2.0))
    return aten.where.self(aten.eq.Scalar(magnitude, 0.0), aten.zeros.default([], dtype=self.dtype), ratio)


def sgn_decomposition(self):
    """torch's: sign for real numbers; z / |z| (0 where |z| is 0) for complex ones."""
    if not self.dtype.is_complex:
        return aten.sign.default(self)
    magnitude = aten.abs.default(self)
    return aten.where.self(aten.eq.Scalar(magnitude, 0), aten.zeros.default([], dtype=self.dtype),
                           aten.div.Tensor(self, magnitude))


def d_angle(grad, self):
    """angle_backward: zero for a real input; for a complex one grad * z / |z|^2 * 1j, zero where z is 0."""
    if not self.dtype.is_complex:
        return aten.zeros_like.default(self)
    ratio = aten.div.Tensor(aten.mul.Tensor(grad, self), aten.pow.Tensor_Scalar(aten.abs.default(self), 2))
    return aten.where.self(aten.eq.Scalar(self, 0.0), aten.zeros.default([], dtype=self.dtype),
                           aten.mul.Scalar(ratio, 1j))


# ---------------------------------------------------------------- compiled graphs
def touches_complex(node):
    """Does an FX node read or make a complex tensor? (The inductor backend runs those by their eager kernels, and
    says so as torch's does.)"""
    vals = [node.meta.get("val")] + [getattr(a, "meta", {}).get("val") for a in node.all_input_nodes]
    if not any(isinstance(v, Tensor) and v.dtype.is_complex for v in vals):
        return False
    warnings.warn("Torchinductor does not support code generation for complex operators. Performance may be worse "
                  "than eager.", UserWarning, stacklevel=2)
    return True
