"""The torch-level matrix products: mm, bmm, addmm, dot, mv, outer and matmul.

Runtime layer, between user code and the op registry (gathered into the `minitorch2` namespace by _functions.py). All
but one call their aten op directly; `matmul` is composed of dot/mv/mm/bmm and views exactly as PyTorch composes it (see
its docstring), so that traced graphs record the same ops.
"""
import math

from ._aten.composite_sizes import folds_without_copy, refs_broadcast_shapes
from ._aten.meta_util import broadcast_shapes
from ._dispatch import current_modes
from ._functions_pointwise import mul
from ._functions_shape import _function_of, alias_of, expand, reshape, squeeze, t, transpose, unsqueeze, view
from ._ops import ops
from ._out import CAST, DOT, EXACT, MV, out_variant
from ._python_dispatcher import python_dispatcher_enabled
from ._tensor import Tensor

aten = ops.aten


# ---------------------------------------------------------------- matrix products
mm = _function_of(aten.mm.default, EXACT)
bmm = _function_of(aten.bmm.default, EXACT)
addmm = _function_of(aten.addmm.default, EXACT)
dot = _function_of(aten.dot.default, DOT)
mv = _function_of(aten.mv.default, MV)


@out_variant(CAST, name="mul")
def outer(input, vec2):
    for name, vector in (("self", input), ("vec2", vec2)):
        if vector.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {vector.dim()}-D")
    return mul(reshape(input, [input.shape[0], 1]), vec2)


ger = alias_of(outer, "ger")


@out_variant(EXACT)
def matmul(input, other):
    """torch.matmul, composed of dot/mv/mm/bmm and views as PyTorch composes it, so traces record the
    same ops: the larger operand's batch folds into mm rows when that needs no copy (or when the smaller
    operand requires grad, so its gradient is one mm); otherwise bmm over the expanded batches.

    As in PyTorch there are two variants: eager runs ATen's C++ `_matmul_impl`; with the Python dispatcher enabled (AOT
    tracing) torch._decomp's `matmul` runs. They differ in three details, marked `traced` below."""
    for position, (name, value) in enumerate((("input", input), ("other", other))):
        if not isinstance(value, Tensor):
            raise TypeError(f"matmul(): argument '{name}' (position {position + 1}) must be Tensor, not {type(value).__name__}")
    a, b = input.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return dot(input, other)
    if a == 2 and b == 1:
        return mv(input, other)
    if a == 1 and b == 2:  # eager ATen squeezes in place (squeeze_: a SqueezeBackward4); traces record squeeze
        product = mm(unsqueeze(input, 0), other)
        traced = python_dispatcher_enabled() or current_modes() or product._np is None
        return squeeze(product, 0) if traced else product.squeeze_(0)
    if a == 2 and b == 2:
        return mm(input, other)
    traced = python_dispatcher_enabled()
    return _folded_matmul(input, other) if _should_fold(input, other, traced) else _batched_matmul(input, other, traced)


def _should_fold(tensor1, tensor2, traced):
    if tensor1.dim() >= tensor2.dim():
        t1, t2 = tensor1, tensor2
    else:  # eager looks at the transposed larger operand (a recorded transpose); the decomposition does not
        t1, t2 = (tensor2 if traced else transpose(tensor2, -2, -1)), tensor1
    if not (t1.dim() >= 3 and t2.dim() <= 2):
        return False
    if t2.requires_grad:
        return True
    if tensor1.dim() == 2:
        return False
    if traced:
        return folds_without_copy(t1)  # (the decomposition's questions, asked without guards)
    if t1.numel() == 0:
        return True
    shape, stride = t1.shape, t1.stride()  # eager: the batch dims flatten into rows without a copy
    return all(stride[i] == stride[i + 1] * shape[i + 1] for i in range(t1.dim() - 2))


def _folded_matmul(tensor1, tensor2):
    transposed = tensor2.dim() > tensor1.dim()
    t1 = transpose(tensor2, -2, -1) if transposed else tensor1
    t2 = tensor2 if not transposed else (t(tensor1) if tensor1.dim() == 2 else tensor1)
    output_shape = list(t1.shape[:-1])
    folded = reshape(t1, [math.prod(output_shape), t1.shape[-1]])
    if t2.dim() == 2:
        output = aten._unsafe_view.default(mm(folded, t2), output_shape + [t2.shape[1]])
        return transpose(output, -2, -1).contiguous() if transposed else output
    return aten._unsafe_view.default(mv(folded, t2), output_shape)


def _batched_matmul(tensor1, tensor2, traced):
    a, b = tensor1.dim(), tensor2.dim()
    n = tensor1.shape[-2] if a > 1 else 1
    m1 = tensor1.shape[-1]
    m2 = tensor2.shape[-2] if b > 1 else tensor2.shape[-1]
    p = tensor2.shape[-1] if b > 1 else 1
    batch1, batch2 = tuple(tensor1.shape[:-2]), tuple(tensor2.shape[:-2])
    if a == 3 and b == 3 and batch1[0] != batch2[0]:  # a batch of one folds instead (traced: if it requires grad)
        if batch1[0] == 1 and (tensor1.requires_grad or not traced):
            return matmul(squeeze(tensor1, 0), tensor2)
        if batch2[0] == 1 and (tensor2.requires_grad or not traced):
            return matmul(tensor1, squeeze(tensor2, 0))
    batch = refs_broadcast_shapes(batch1, batch2) if traced else list(broadcast_shapes(batch1, batch2))
    nbatch = math.prod(batch)
    tensor1_expanded = reshape(expand(tensor1, batch + [n, m1]), [nbatch, n, m1])
    if b == 1:
        tensor2_expanded = unsqueeze(reshape(expand(tensor2, batch + [m2]), [nbatch, m2]), 2)
    else:
        tensor2_expanded = reshape(expand(tensor2, batch + [m2, p]), [nbatch, m2, p])
    output_shape = batch + ([n] if a > 1 else []) + ([p] if b > 1 else [])
    out = bmm(tensor1_expanded, tensor2_expanded)
    if b == 1:
        out = squeeze(out, -1)
    return view(out, output_shape) if traced else aten._unsafe_view.default(out, output_shape)
