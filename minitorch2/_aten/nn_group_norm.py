"""GroupNorm as one op: native_group_norm and native_group_norm_backward, each with its kernel, meta function,
derivative formula and decomposition.

Runtime layer, coverage surface: rows of the op table (table_nn_more.py), called by nn.functional's group_norm, so
make_fx, aot_eager and export graphs keep GroupNorm whole as torch's do (`native_group_norm(input, weight, bias, N,
C, HxW, group, eps) -> (out, mean, rstd)`, mean and rstd shaped (N, group)); under the inductor backend the
decompositions below (torch's reference and torch._decomp's backward, op for op) expand it so compiled code fuses.

Kernels compute as ATen's CPU kernels: statistics accumulated wider (float64 here) and rounded once; a float16 or
bfloat16 input with float32 parameters ("mixed type") keeps its statistics in float32; results keep a
channels-last input's layout.
"""

import numpy as np

from .. import _dtype
from .._dispatch import state
from .._ops import ops
from .derivatives_nn import needs_grad
from .meta_util import fake_empty
from .nn_ops import fake_in_layout, in_layout, is_channels_last, require_float
from .norm_mixed_half import rstd_with_float32_overflows

aten, prims = ops.aten, ops.prims


def _check(input, weight, bias, n, c, hxw, group):
    """ATen's _check_group_norm_inputs and native_group_norm's size checks."""
    if c % group:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={group}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(t.shape)} and input of shape {list(input.shape)}")
    if input.numel() != n * c * hxw:
        raise RuntimeError(f"Expected the input to have {n * c * hxw} elements, but got {input.numel()}")
    if not input.is_contiguous(memory_format=_memory_format(input)):
        raise RuntimeError("Expected X.is_contiguous(memory_format) to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")


def _stat_dtype(input, weight, bias):
    """The statistics' dtype: the parameters' for a half input with float32 parameters (ATen's mixed type)."""
    param = weight if weight is not None else bias
    return param.dtype if param is not None and input.dtype in _dtype.HALVES else input.dtype


def _groups(t, n, c, hxw, group):
    """A tensor's values as (N, group, C/group * HxW) float64 rows, in logical NCHW order (no -1: N may be 0)."""
    return t._np.astype(np.float64).reshape(n, group, c // group * hxw)


# ---------------------------------------------------------------- forward
def _forward_kernel(input, weight, bias, n, c, hxw, group, eps):
    _check(input, weight, bias, n, c, hxw, group)
    require_float(input, "GroupNormKernelImpl")
    x = _groups(input, n, c, hxw, group)
    with np.errstate(all="ignore"):
        mean = x.mean(axis=2)
        var = np.square(x - mean[..., None]).mean(axis=2)
        rstd = rstd_with_float32_overflows(var, x.shape[2], mean, input.dtype, eps)
        out = ((x - mean[..., None]) * rstd[..., None]).reshape(n, c, hxw)
    if weight is not None:
        out = out * weight._np.astype(np.float64).reshape(1, c, 1)
    if bias is not None:
        out = out + bias._np.astype(np.float64).reshape(1, c, 1)
    stat = _stat_dtype(input, weight, bias).np
    out = in_layout(out.reshape(input.shape), input.dtype, is_channels_last(input))
    return out, mean.astype(stat), rstd.astype(stat)


def _forward_meta(input, weight, bias, n, c, hxw, group, eps):
    _check(input, weight, bias, n, c, hxw, group)
    stat = _stat_dtype(input, weight, bias)
    return (fake_in_layout(input.shape, input.dtype, is_channels_last(input)), fake_empty((n, group), stat),
            fake_empty((n, group), stat))


native_group_norm = (_forward_kernel, _forward_meta)


# ---------------------------------------------------------------- backward
def _backward_kernel(grad_out, input, mean, rstd, weight, n, c, hxw, group, output_mask):
    _check(input, weight, None, n, c, hxw, group)
    x, g = _groups(input, n, c, hxw, group), _groups(grad_out, n, c, hxw, group)
    mean, rstd = mean._np.astype(np.float64)[..., None], rstd._np.astype(np.float64)[..., None]
    x_hat = (x - mean) * rstd
    param_dtype = (weight if weight is not None else input).dtype
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        gw = g if weight is None else \
            (g.reshape(n, c, hxw) * weight._np.astype(np.float64).reshape(1, c, 1)).reshape(g.shape)
        with np.errstate(all="ignore"):
            dx = rstd * (gw - gw.mean(axis=2, keepdims=True) - x_hat * (gw * x_hat).mean(axis=2, keepdims=True))
        grad_input = in_layout(dx.reshape(input.shape), input.dtype, is_channels_last(input))
    if output_mask[1]:
        grad_weight = (g * x_hat).reshape(n, c, hxw).sum(axis=(0, 2)).astype(param_dtype.np)
    if output_mask[2]:
        grad_bias = g.reshape(n, c, hxw).sum(axis=(0, 2)).astype(param_dtype.np)
    return grad_input, grad_weight, grad_bias


def _backward_meta(grad_out, input, mean, rstd, weight, n, c, hxw, group, output_mask):
    _check(input, weight, None, n, c, hxw, group)
    param_dtype = (weight if weight is not None else input).dtype
    return (fake_in_layout(input.shape, input.dtype, is_channels_last(input)) if output_mask[0] else None,
            fake_empty((c,), param_dtype) if output_mask[1] else None,
            fake_empty((c,), param_dtype) if output_mask[2] else None)


native_group_norm_backward = (_backward_kernel, _backward_meta)


# ---------------------------------------------------------------- derivative (derivatives.yaml)
def derivative(grads, input, weight, bias, N, C, HxW, group, result1, result2):  # noqa: N803 (the schema's names)
    """native_group_norm's formula: one native_group_norm_backward, its grad and input made contiguous in the
    input's suggested memory format, as ATen's formula does on the CPU; gradients reaching both statistics (only
    callers of the op itself see them) add their share to the input's, as ATen's infinitely differentiable form."""
    grad, grad_mean, grad_rstd = tuple(grads) + (None,) * (3 - len(grads))
    d_input = d_weight = d_bias = None
    if grad is not None:
        layout = _memory_format(input)
        mask = [needs_grad(input), needs_grad(weight), needs_grad(bias)]
        # (create_graph: ATen switches to a differentiable composite; the op's decomposition is one)
        backward = aten.native_group_norm_backward.default
        backward = backward.decomposition if state.grad_enabled else backward
        d_input, d_weight, d_bias = backward(
            grad.contiguous(memory_format=layout), input.contiguous(memory_format=layout), result1, result2, weight,
            N, C, HxW, group, mask)
    if grad_mean is not None and grad_rstd is not None and needs_grad(input):
        # mean = sum(x) / D and rstd = (var + eps)^-1/2 over each group's D elements: d/dx are 1/D and
        # -rstd^3 (x - mean) / D
        x = input.reshape([N, group, C // group * HxW])  # (no -1: N may be 0)
        share = aten.sub.Tensor(aten.unsqueeze.default(grad_mean, -1), aten.mul.Tensor(
            aten.sub.Tensor(x, aten.unsqueeze.default(result1, -1)),
            aten.unsqueeze.default(aten.mul.Tensor(grad_rstd, aten.pow.Tensor_Scalar(result2, 3)), -1)))
        share = aten.div.Tensor(share, C // group * HxW).reshape(list(input.shape))
        d_input = share if d_input is None else aten.add.Tensor(d_input, share)
    return d_input, d_weight, d_bias


def _memory_format(t):
    from .. import channels_last, contiguous_format  # circular: the package imports the op table
    return channels_last if is_channels_last(t) else contiguous_format


# ---------------------------------------------------------------- decompositions (the inductor's)
def _unsqueezed(t, dims):
    for d in sorted(dims):
        t = aten.unsqueeze.default(t, d)
    return t


def native_group_norm_decomposition(input, weight, bias, n, c, hxw, group, eps):
    """torch._refs.native_group_norm, its CPU branch: with a weight, out = x * (rstd weight) + (bias - mean rstd
    weight), scale and shift per (sample, channel)."""
    computation = _dtype.opmath(input.dtype)
    x = prims.convert_element_type.default(input, computation) if computation != input.dtype else input
    groups = x.reshape([n, group, c // group, hxw])
    var, mean = aten.var_mean.correction(groups, [2, 3], correction=0, keepdim=True)
    rstd = aten.rsqrt.default(aten.add.Tensor(var, eps))
    if weight is not None:
        scale = aten.mul.Tensor(rstd, aten.view.default(weight, [1, group, c // group, 1]))
        shift = aten.mul.Tensor(aten.neg.default(mean), scale)
        if bias is not None:
            shift = aten.add.Tensor(shift, aten.view.default(bias, [1, group, c // group, 1]))
        scale, shift = (aten.as_strided.default(t.contiguous(), [n, c], [c, 1]) for t in (scale, shift))
        broadcast = list(range(2, input.dim()))
        scale, shift = _unsqueezed(scale, broadcast), _unsqueezed(shift, broadcast)
        out = aten.add.Tensor(aten.mul.Tensor(x, scale), shift)
    else:
        out = aten.view.default(aten.mul.Tensor(aten.sub.Tensor(groups, mean), rstd), list(input.shape))
        if bias is not None:
            out = aten.add.Tensor(out, _unsqueezed(bias, [0] + list(range(2, input.dim()))))
    if computation != input.dtype:
        out, mean, rstd = (prims.convert_element_type.default(t, input.dtype) for t in (out, mean, rstd))
    return out, aten.squeeze.dims(mean, [2, 3]), aten.squeeze.dims(rstd, [2, 3])


def native_group_norm_backward_decomposition(grad_output, input, mean, rstd, gamma, n, c, hxw, group, output_mask):
    """torch._decomp's native_group_norm_backward: per-channel sums ds = sum(grad x), db = sum(grad), then
    d_input = grad c1 + x c2 + c3 with c1 = rstd gamma, c2 = (db mean - ds) rstd^3 / (HxW C/group),
    c3 = -c2 mean - db rstd / (HxW C/group)."""
    mul, unsqueeze, view = aten.mul.Tensor, aten.unsqueeze.default, aten.view.default
    cpg = c // group
    ds = aten.sum.dim_IntList(view(mul(grad_output, input), [n, c, hxw]), [2])
    db = aten.sum.dim_IntList(view(grad_output, [n, c, hxw]), [2])
    d_input = d_gamma = d_bias = None
    if output_mask[0]:
        s = 1.0 / (hxw * cpg)
        if gamma is not None:
            ds_val, db_val = (aten.sum.dim_IntList(view(mul(t, unsqueeze(gamma, 0)), [n, group, cpg]), [2])
                              for t in (ds, db))
            c1 = mul(unsqueeze(rstd, -1), view(gamma, [1, group, cpg]))
        else:
            ds_val, db_val = (aten.sum.dim_IntList(view(t, [n, group, cpg]), [2]) for t in (ds, db))
            c1 = mul(unsqueeze(rstd, -1), aten.ones.default([1, group, cpg]))
        c2 = mul(mul(mul(mul(aten.sub.Tensor(mul(db_val, mean), ds_val), rstd), rstd), rstd), s)
        c3 = aten.sub.Tensor(mul(aten.neg.default(c2), mean), mul(mul(db_val, rstd), s))
        c1 = unsqueeze(c1, -1)
        c2, c3 = (unsqueeze(unsqueeze(t, -1), -1) for t in (c2, c3))
        d_input = aten.add.Tensor(aten.add.Tensor(mul(grad_output.reshape([n, group, cpg, hxw]), c1),
                                                  mul(input.reshape([n, group, cpg, hxw]), c2)), c3)
        d_input = d_input.reshape(list(input.shape))
    if output_mask[1]:
        centred = aten.sub.Tensor(view(ds, [n, group, cpg]), mul(view(db, [n, group, cpg]), unsqueeze(mean, -1)))
        d_gamma = view(aten.sum.dim_IntList(mul(centred, unsqueeze(rstd, -1)), [0]), [c])
    if output_mask[2]:
        d_bias = aten.sum.dim_IntList(db, [0])
    return d_input, d_gamma, d_bias
