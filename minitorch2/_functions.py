"""The torch-level functions (`minitorch2.relu`, `minitorch2.sum`, `minitorch2.matmul`, ...).

Runtime layer, between user code and the op registry. Each function parses a PyTorch-style call (optional dims,
keyword arguments, Python scalars), picks the aten overload PyTorch would dispatch to, and calls it. One that only
calls one overload with the arguments as given is made from it in one line (`mm = _function_of(aten.mm.default,
EXACT)`: the schema binds the arguments, EXACT is its out= rule, _out.py). Composites PyTorch writes at this level
(`matmul`, `reshape`, `flatten`, `softmax` with a dtype, ...) are written the same way here, so traced graphs record
the same aten ops. They live in eight modules, grouped as torch's documentation groups them:

- _functions_pointwise.py: arithmetic, unary math, clamp, where, masked_fill, comparisons, logical and bitwise ops;
- _functions_reductions.py: sum, mean, max/min, var/std, any/all, softmax;
- _functions_sorting.py: sort, argsort, topk and multinomial;
- _functions_linalg.py: the matrix products and matmul;
- _functions_shape.py: views, joining and splitting, indexing, and the argument helpers the others build on;
- _functions_common.py: the commonly used ones beyond those (norm, median, unique, atan2, prod, roll, ...);
- _functions_shape_more.py: the shape functions beyond the core set (diff, tile, meshgrid, tensordot, ...);
- _functions_extra.py: the rest (tensor_split, kron, cov, quantile, windows, torch.det/svd, ...).

This module gathers them into one namespace: `minitorch2/__init__.py` re-exports every public name here, and Tensor
methods (_tensor_methods.py) call them as `F.<name>`.
"""
from ._functions_pointwise import (
    add, sub, subtract, rsub, mul, multiply, div, divide, true_divide, floor_divide, remainder, scalar_tensor_like,
    pow, neg, negative, maximum, minimum, addcmul, addcdiv, abs, absolute, exp, expm1, log, log1p, sin, cos,
    sqrt, rsqrt, reciprocal, tanh, sigmoid, erf, relu, sign, sgn, floor, ceil, trunc, round, logical_not,
    bitwise_not, isnan, isinf, isfinite, relu_, clamp, clip, clamp_min, clamp_max, where, masked_fill, eq, ne, lt,
    le, gt, ge, greater, greater_equal, less, less_equal, not_equal, logical_and, logical_or, logical_xor,
    equal, square,
)
from ._functions_common_math import allclose, isclose
from ._functions_reductions import (
    sum, mean, amax, amin, max, min, argmax, argmin, var, std, var_mean, cumsum, any, all, softmax, log_softmax,
)
from ._functions_sorting import sort, argsort, topk, multinomial
from ._functions_linalg import mm, bmm, addmm, dot, mv, outer, ger, matmul
from ._functions_common import (
    norm, cumprod, trace, nansum, nanmean, count_nonzero, std_mean, median, kthvalue, cummax, cummin, frac, erfinv,
    lgamma, digamma, logit, nan_to_num, logaddexp, hypot, heaviside, signbit, arccos, arcsin, arctan, arctan2, fix,
    polygamma, xlogy, float_power, masked_select, bincount, argwhere, unique, isin, searchsorted, bucketize,
    tril_indices, triu_indices, cdist, abs_, bitwise_and, bitwise_or, bitwise_xor,
)
from ._functions_shape_more import (
    diff, tile, repeat_interleave, meshgrid, tensordot, inner, moveaxis, take_along_dim, atleast_1d, atleast_2d,
    atleast_3d, hstack, vstack, column_stack, dstack, diag, tril, triu, flip, rot90, diag_embed, diagonal_copy, narrow, unflatten,
    movedim,
)
from ._functions_einsum import einsum  # noqa: E402
from ._functions_common import *  # noqa: E402,F401,F403  (its __all__: the names of issue 20)
from ._functions_shape import (
    reshape, view, flatten, squeeze, unsqueeze, permute, transpose, swapaxes, swapdims, t, expand,
    select, diagonal, as_strided, as_strided_scatter, cat, concat, concatenate, stack, split, chunk, unbind, gather,
    scatter, scatter_add, index_select, index_add,
    nonzero, clone, detach, numel, is_tensor, is_floating_point, broadcast_tensors, broadcast_to, result_type, scatter_reduce, take,
    index_put, index_copy, index_fill,
)
from ._functions_extra import *  # noqa: E402,F401,F403
from ._functions_complex import *  # noqa: E402,F401,F403  (its __all__: complex numbers)
