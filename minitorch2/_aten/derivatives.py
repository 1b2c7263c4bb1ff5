"""Derivative formulas: the autograd half of the op table.

Runtime layer, read by the autograd layer (minitorch2/autograd/_record.py). Each function is the formula PyTorch's
derivatives.yaml gives for one op, written with registered ops so that a tracing mode records the backward as aten
ops: relu's backward is `threshold_backward`, a full `sum`'s is `expand`. Parameter names say what to save (schema
argument names, `result`, `<arg>_shape`, ...); the op calls inside each formula are in the order PyTorch's generated
code makes them, because traced backward graphs are compared against PyTorch's op by op. Three rules give that order:

- the generated code computes the inputs' gradients in the alphabetical order of their derivatives.yaml keys (`mat2`
  before `self`, `other` before `self`), not in argument order;
- within one C++ expression the compiler's evaluation order shows: the operands of an operator and the arguments of
  most calls come right to left (`grad * (self / other)` makes the division first), the object of a method call before
  its arguments; where a trace shows otherwise, the formula follows the trace;
- reducing a broadcast gradient back to its input's shape (`sum_to`) is not part of the formula: the engine's
  validate_outputs does it after the whole node ran, input by input in argument order. Formulas here end with it (ours
  validates too, but a summed-then-cast gradient of a mixed-dtype broadcast then records sum, view, _to_copy where
  torch records _to_copy, sum, view).

The formulas live in three modules, with the helpers they share in derivatives_util.py (`sum_to`):
derivatives_pointwise.py (arithmetic, unary math, activations, clamp, where, masked_fill), derivatives_reductions.py
and derivatives_linalg.py (matrix products); shape and nn ops have theirs in derivatives_shape.py and
derivatives_nn.py. This module gathers the first three under the names the op table reads (`d.add_tensor`), with the
helpers its rows call directly.
"""
from .derivatives_pointwise import (
    add_tensor, add_scalar, sub_tensor, rsub_tensor, rsub_scalar, mul_tensor, mul_scalar, div_tensor, div_scalar,
    neg, pow_tensor_scalar, pow_tensor_tensor, pow_scalar, maximum, minimum, addcmul, addcdiv, remainder_tensor, exp,
    log, log1p, expm1, sin, cos, sqrt, rsqrt, reciprocal, tanh, sigmoid, erf, abs, zero_grad, relu, threshold,
    gelu, gelu_backward, silu, leaky_relu, tanh_backward, sigmoid_backward,
    threshold_backward, clamp, clamp_min, clamp_max, where, masked_fill_scalar, masked_fill_tensor, clamp_tensor,
    leaky_relu_backward, leaky_relu_inplace,
)
from .derivatives_reductions import (
    sum_default, sum_dim, mean_default, mean_dim, amax, max_default, max_dim, var_correction, std_correction,
    var_mean,
)
from .derivatives_linalg import mm, addmm, bmm, dot, mv
from .derivatives_util import _pad, aten, sum_to
