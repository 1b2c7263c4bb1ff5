"""Pointwise kernels and their meta functions.

Runtime layer: the elementwise rows of the op table. Each kernel takes the op's arguments (Tensors and Python
scalars), decides the result dtype with PyTorch's promotion rules (minitorch2/_dtype.py), converts tensor operands to
it and calls a numpy ufunc; Python scalars stay "weak" so they never widen a tensor's dtype, exactly as in PyTorch.
The matching meta function computes the broadcast shape, the same dtype and TensorIterator's output strides.

The kernels live in three modules, read in this order:

- pointwise_factories.py: operand conversion and the kernel factories (`unary_float`, `unary_same`, `unary_bool`,
  `binary`);
- pointwise_arithmetic.py: arithmetic, comparisons, logical and bitwise ops, where, clamp, masked_fill, addcmul and
  addcdiv;
- pointwise_unary.py: unary math, activations and their backwards.

This module gathers their (kernel, meta) pairs under the names the op table reads (`pw.add`).
"""
from .pointwise_arithmetic import (
    add, sub, rsub, mul, div, remainder, maximum, minimum, eq, ne, lt, le, gt, ge, logical_and, logical_or,
    logical_xor, bitwise_and, bitwise_or, bitwise_xor, div_mode, pow_, pow_scalar, where, clamp, clamp_min, clamp_max,
    masked_fill, addcmul, addcdiv,
)
from .pointwise_unary import (
    sin, cos, exp, expm1, log, log1p, sqrt, rsqrt, tanh, sigmoid, erf, reciprocal, neg, relu, sign, floor,
    ceil, trunc, round, bitwise_not, logical_not, isnan, isinf, isfinite, gelu, gelu_backward, silu, silu_backward,
    sigmoid_backward, tanh_backward, leaky_relu, leaky_relu_backward, threshold_backward,
    threshold,
)
from .complex_ops import abs  # (pointwise_unary's, and |z| of a complex z into its real dtype: complex_ops.py)
