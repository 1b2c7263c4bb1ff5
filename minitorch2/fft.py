"""torch.fft: the discrete Fourier transforms over the three aten ops of _aten/fft_ops.py.

Coverage surface. Each function is written as ATen's SpectralOps.cpp writes it, so traced graphs record torch's
ops: the input promoted (integers to the default float dtype; to complex where the transform needs it), cut or
zero-padded to the signal sizes asked for (slice, constant_pad_nd), then one _fft_c2c, _fft_r2c or _fft_c2r with the
normalization mode `norm` names for its direction ("backward", the default, scales the inverse by 1/n; "forward" the
forward; "ortho" both by 1/sqrt(n)). An inverse transform of a real input is the conjugate of its forward transform.
"""
from . import _dtype
from ._tensor import wrap_dim
from ._functions_complex import conj
from ._functions_common_math import roll
from ._ops import ops

aten = ops.aten

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _norm_mode(norm, forward):
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise ValueError(f"Invalid normalization mode: {norm}")


def _promoted(input, require_complex=False):
    """promote_tensor_fft: integers compute in the default float dtype; complex where the transform needs it."""
    dtype = input.dtype if input.dtype.is_inexact else _dtype.get_default_dtype()
    if require_complex:
        dtype = _dtype.to_complex(dtype)
    return input if dtype is input.dtype else input.to(dtype)


def _resized(x, dims, sizes):
    """resize_fft_input: each dim cut to its size (a slice) or zero-padded at its end (one constant_pad_nd)."""
    pads, padded = [0] * (2 * x.dim()), False
    for d, size in zip(dims, sizes):
        if x.shape[d] < size:
            pads[len(pads) - 2 * d - 1], padded = size - x.shape[d], True
        if x.shape[d] > size:
            x = aten.slice.Tensor(x, d, 0, size)
    return aten.constant_pad_nd.default(x, pads) if padded else x


def _check_n(n, name):
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


# ---------------------------------------------------------------- one dimension
def _c2c(name, input, n, dim, norm, forward):
    dim = wrap_dim(dim, input.dim())
    _check_n(n, name)
    x = input if n is None else _resized(input, [dim], [n])
    return aten._fft_c2c.default(x, [dim], _norm_mode(norm, forward), forward)


def _r2c(name, input, n, dim, norm, forward, onesided):
    if input.dtype.is_complex:
        raise RuntimeError(f"{name} expects a real input tensor, but got {_dtype_name(input.dtype)}")
    input = _promoted(input)
    dim = wrap_dim(dim, input.dim())
    _check_n(n, name)
    x = input if n is None else _resized(input, [dim], [n])
    result = aten._fft_r2c.default(x, [dim], _norm_mode(norm, forward), onesided)
    return result if forward else conj(result)


def _c2r(name, input, n, dim, norm, forward):
    input = _promoted(input, require_complex=True)
    dim = wrap_dim(dim, input.dim())
    _check_n(n, name)
    n = 2 * (input.shape[dim] - 1) if n is None else n
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    x = _resized(input, [dim], [n // 2 + 1])
    if forward:
        x = conj(x)
    return aten._fft_c2r.default(x, [dim], _norm_mode(norm, forward), n)


def _dtype_name(dtype):
    return {"complex64": "ComplexFloat", "complex128": "ComplexDouble"}[dtype.name]


def fft(input, n=None, dim=-1, norm=None):
    if input.dtype.is_complex:
        return _c2c("fft", input, n, dim, norm, True)
    return _r2c("fft", input, n, dim, norm, True, False)


def ifft(input, n=None, dim=-1, norm=None):
    if input.dtype.is_complex:
        return _c2c("ifft", input, n, dim, norm, False)
    return _r2c("ifft", input, n, dim, norm, False, False)


def rfft(input, n=None, dim=-1, norm=None):
    return _r2c("rfft", input, n, dim, norm, True, True)


def irfft(input, n=None, dim=-1, norm=None):
    return _c2r("irfft", input, n, dim, norm, False)


def hfft(input, n=None, dim=-1, norm=None):
    return _c2r("hfft", input, n, dim, norm, True)


def ihfft(input, n=None, dim=-1, norm=None):
    return _r2c("ihfft", input, n, dim, norm, False, True)


# ---------------------------------------------------------------- several dimensions
def _canonical(input, s, dim):
    """fft_nd_canonicalize: the dims transformed and the signal size along each."""
    if dim is not None:
        dim = [wrap_dim(d, input.dim()) for d in ([dim] if isinstance(dim, int) else dim)]
        if len(set(dim)) != len(dim):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = list(s)
        if dim is not None and len(dim) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > input.dim():
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {input.dim()} dimensions.")
        dim = dim if dim is not None else list(range(input.dim() - len(s), input.dim()))
        s = [input.shape[d] if size == -1 else size for d, size in zip(dim, s)]
        for size in s:
            if size <= 0:
                raise RuntimeError(f"Invalid number of data points ({size}) specified")
    else:
        dim = dim if dim is not None else list(range(input.dim()))
        s = [input.shape[d] for d in dim]
    return dim, s


def _c2c_n(input, s, dim, norm, forward):
    input = _promoted(input, require_complex=True)
    dim, s = _canonical(input, s, dim)
    return aten._fft_c2c.default(_resized(input, dim, s), dim, _norm_mode(norm, forward), forward)


def _r2c_n(name, input, s, dim, norm):
    if input.dtype.is_complex:
        raise RuntimeError(f"{name} expects a real-valued input tensor, but got {_dtype_name(input.dtype)}")
    input = _promoted(input)
    dim, s = _canonical(input, s, dim)
    return aten._fft_r2c.default(_resized(input, dim, s), dim, _norm_mode(norm, True), True)


def _c2r_n(input, s, dim, norm):
    given = s is not None
    dim, s = _canonical(input, s, dim)
    last_dim_size = s[-1] if given else 2 * (input.shape[dim[-1]] - 1)
    if last_dim_size < 1:
        raise RuntimeError(f"Invalid number of data points ({last_dim_size}) specified")
    s[-1] = last_dim_size // 2 + 1
    x = _resized(_promoted(input, require_complex=True), dim, s)
    return aten._fft_c2r.default(x, dim, _norm_mode(norm, False), last_dim_size)


def fftn(input, s=None, dim=None, norm=None):
    return _c2c_n(input, s, dim, norm, True)


def ifftn(input, s=None, dim=None, norm=None):
    return _c2c_n(input, s, dim, norm, False)


def rfftn(input, s=None, dim=None, norm=None):
    return _r2c_n("rfftn", input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):
    return _c2r_n(input, s, dim, norm)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    return fftn(input, s, dim, norm)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return ifftn(input, s, dim, norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return _r2c_n("rfft2", input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return irfftn(input, s, dim, norm)


# ---------------------------------------------------------------- frequencies and shifts
def fftfreq(n, d=1.0, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    """The sample frequencies [0, 1, ..., n//2 ... -1] / (d * n), as ATen's: an arange whose upper part counts up
    from -(n // 2), scaled."""
    result = aten.arange.default(n, dtype=dtype or _dtype.get_default_dtype())
    upper = aten.slice.Tensor(result, 0, (n + 1) // 2)
    aten.copy_.default(upper, aten.arange.start(-(n // 2), 0, dtype=result.dtype))
    return aten.mul_.Scalar(result, 1.0 / (n * d)).requires_grad_(requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    result = aten.arange.default(n // 2 + 1, dtype=dtype or _dtype.get_default_dtype())
    return aten.mul_.Scalar(result, 1.0 / (n * d)).requires_grad_(requires_grad)


def _shift_dims(input, dim):
    if dim is None:
        return list(range(input.dim()))
    return [dim] if isinstance(dim, int) else list(dim)


def fftshift(input, dim=None):
    dims = _shift_dims(input, dim)
    return roll(input, [input.shape[d] // 2 for d in dims], dims)


def ifftshift(input, dim=None):
    dims = _shift_dims(input, dim)
    return roll(input, [(input.shape[d] + 1) // 2 for d in dims], dims)


__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2",
           "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
