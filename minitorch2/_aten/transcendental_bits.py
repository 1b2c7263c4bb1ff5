"""Float32 transcendentals as torch's CPU kernels round them: exp, log, sin, cos, tanh, expm1, log1p (and in
more_ops2.py tan, the inverse trigonometric ones, sinh, cosh, atanh, log2, log10).

Runtime layer, under the unary kernels (pointwise_unary.py) and the code generators' reference tanh. ATen's
vectorized kernels (SLEEF, MKL's VML) are within about an ulp of the exact value and usually round to the nearest
float32; numpy's own float32 loops differ from them in the last bit for up to 40% of elements, and a script that
prints `torch.exp(torch.log(x))` then shows 5.0000005 where torch shows 5.
"""
import numpy as np

from .._random import _fma_f32, _fma_f64


def rounded_from_double(ufunc):
    """ufunc computed in float64 and rounded, for float32 inputs: torch's CPU kernels (SLEEF, MKL) are nearer the
    correctly rounded value than numpy's float32 loops (exp(log(5)) is 5.0 in torch, 5.0000005 in numpy's float32;
    exp differs from torch's in 39% of elements that way, 1% this way)."""
    def compute(x):
        return ufunc(x.astype(np.float64)).astype(np.float32) if x.dtype == np.float32 else ufunc(x)

    return compute


TANH_ROUNDS_TO_ONE = np.float32(9.01084)  # from here on torch's float32 tanh is 1.0


def saturating_tanh(x):
    """tanh (eager's and the code generators'): rounded from double, and +-1 from 9.01084 on as torch's float32 tanh
    (the correctly rounded one reaches 1.0 a little later)."""
    result = rounded_from_double(np.tanh)(x)
    if result.dtype == np.float32:
        result = np.where(np.abs(x) >= TANH_ROUNDS_TO_ONE, np.copysign(np.float32(1), x), result)
    return result



def _fma(a, b, c):
    """a * b + c rounded once, as the compiler contracts it in ATen's float32 and float64 vector kernels."""
    if a.dtype == np.float32:
        return _fma_f32(a, b, np.float32(c))
    return _fma_f64(a, b, c) if a.dtype == np.float64 else a * b + c


def fused_tanh_backward(grad, out):
    """tanh's gradient as ATen's vectorized kernel computes it: grad * (1 - out * out) with `1 - out * out` one fma
    (a single rounding); its manual form (makemore's backprop exercise, `(1 - h**2) * dh`) then differs from
    autograd's in the last bit, as in torch."""
    return grad * np.conj(1 - out * out) if np.iscomplexobj(out) else grad * _fma(-out, out, 1.0)


def fused_silu_backward(grad, x):
    """silu's gradient as ATen's vectorized kernel: s = 1 / (1 + exp(-x)), grad * s * fma(x, 1 - s, 1) (its SLEEF exp
    still differs from the correctly rounded one now and then, a few elements in a hundred)."""
    s = 1 / (1 + rounded_from_double(np.exp)(-x))
    return grad * s * _fma(x, 1 - s, 1.0)
