"""The strides a FakeTensor reports where PyTorch's fake tensors differ from its eager kernels.

Runtime layer, read by fake_tensor.run_meta (every op on FakeTensors). In minitorch2 an eager kernel and its meta
function agree on strides, and both agree with ATen's C++ kernels. PyTorch's fake (and meta) tensors do not always
use those kernels: `view` and `_unsafe_view` go through torch._refs' reshape algorithm (split_dim, collapse_view and
squeeze prims), and the elementwise ops through torch._refs and the prims' output-stride rule (PyTorch's fast path
for add/sub/mul/div is only taken with symbolic shapes). Shapes and the order of the dims that matter agree; what
differs is mostly the stride of a size-1 dim. Few things read that, but mm's backward does: it asks whether an input
was column-major (stride[0] == 1 and stride[1] == size[0]) and picks its ops by the answer, so an aot trace records
PyTorch's ops only if it sees PyTorch's fake strides.

The one idea: a fake op first runs its meta function (shape, dtype, errors), then, where a rule below applies, its
output takes the strides PyTorch's fake tensor would have. `FAKE_STRIDE_RULES` lists exact ops; out-of-place ops
tagged pointwise share `_elementwise_rule`. Not covered: ops PyTorch decomposes into several refs for their meta
(`_COMPOSED_POINTWISE`, and _log_softmax) keep their eager strides.

With symbolic sizes every comparison a rule makes is a guard, so each asks torch's questions in torch's order
(the reshape algorithm's, is_contiguous's `numel < 2` first, the fast path's per-operand checks); the convolution's
and the reductions' rules only ask them (torch's fake convolution selects a backend by sizes; its fake reductions
make their outputs with empty_strided, which asks whether each size is 0) and leave the meta's strides. Where torch's
fake output spells its sizes otherwise, the rule gives the output torch's spelling: a view's are the split and
collapsed input's, relu's backward's are its input's (later questions are asked of those expressions).
"""
import math

from .._dtype import bool_, float32
from .._settings import get_num_threads
from .._sym import is_symbolic, sym_max
from .._aten.meta_util import channels_last_strides, fastest_first
from .._tensor import FakeTensor, Size, Tensor, channels_last as channels_last_format, contiguous_strides


def _numel(shape):
    return Size(shape).numel()


def _is_dense_in_order(shape, stride, dims):
    """Dense with `dims` laid out innermost first (a size-1 dim may have any stride)."""
    expected = 1
    for d in dims:
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def is_contiguous(shape, stride):
    """torch._prims_common's is_contiguous: numel() < 2 first, then dense in order, where a stride that is not the
    product of the sizes inside it is asked again against the product of their max(size, 1) (the strides
    make_contiguous_strides_for writes): with symbolic sizes, a guard such as `s27 != max(1, s27 - s27//2)`."""
    if _numel(shape) < 2:
        return True
    expected = expected_max = 1
    for size, step in reversed(list(zip(shape, stride))):
        if size == 1:
            continue
        if step != expected and step != expected_max:
            return False
        expected_max *= sym_max(size, 1)
        expected *= size
    return True


def is_channels_last(shape, stride):
    """Dense in (C, W, H, N) order: the NHWC layout of a 4-D tensor."""
    return len(shape) == 4 and _is_dense_in_order(shape, stride, (1, 3, 2, 0))


# ---------------------------------------------------------------- view and _unsafe_view
def reshape_view_strides(out, a, *args, **kwargs):
    """Strides of `a` viewed as `out`'s shape by torch._refs' reshape algorithm (view, _unsafe_view), or None where
    it finds no view. It builds the new dims left to right, flattening old dims until their product is a
    multiple of the wanted length and splitting off the rest, then squeezes leftover size-1 dims."""
    shape, stride, new_shape = list(a.shape), list(a.stride()), list(out.shape)
    if _numel(shape) == 0:
        return contiguous_strides(new_shape)
    if not shape:
        return tuple(1 for _ in new_shape)
    if not new_shape:
        return ()
    if is_contiguous(shape, stride):  # (symbolic sizes too: torch's guards come from the algorithm below)
        if len(new_shape) == 1 and len(shape) > 1:
            return _sized(out, [_numel(shape)], (1,))
        if len(new_shape) == 2 and len(shape) == 1:
            return (new_shape[1], 1)
    if len(shape) == len(new_shape) and new_shape == shape:  # (the wanted length first, as torch asks it)
        return _sized(out, shape, stride)
    bool(_numel(shape) == _numel(new_shape))  # (torch checks it here: with symbolic sizes, a guard)
    idx = 0
    for length in new_shape:
        if idx >= len(shape):  # a trailing unsqueeze, made by splitting the last dim as (size, 1)
            _split_dim(shape, stride, len(shape) - 1, shape[-1])
            idx += 1
            continue
        if length == shape[idx]:
            idx += 1
            continue
        accum, end = shape[idx], idx
        while accum % length != 0:
            end += 1
            accum *= shape[end]
        if end != idx and not _collapse(shape, stride, idx, end):
            return None
        if accum != length:
            _split_dim(shape, stride, idx, length)
        idx += 1
    del shape[idx:], stride[idx:]  # the squeezed tail: all of size 1
    return _sized(out, shape, stride)


def _sized(out, shape, stride):
    """The strides, `out` taking the sizes as the algorithm spells them: torch's view returns the split and collapsed
    input (`[s//2, s//(s//2), 3]` for view(s//2, 2, -1) of an (s, 3) tensor), so later questions ask of those."""
    out._shape = Size(shape)
    return tuple(stride)


def _split_dim(shape, stride, dim, outer):
    inner = shape[dim] // outer
    shape[dim:dim + 1] = [outer, inner]
    stride[dim:dim + 1] = [stride[dim] * inner, stride[dim]]


def _collapse(shape, stride, start, end):
    """Merge dims start..end in place as prims.collapse_view does; False where no view can."""
    for i in range(end - 1, start - 1, -1):
        if not (shape[i] == 1 or shape[i + 1] == 1 or stride[i] == stride[i + 1] * shape[i + 1]):
            return False
    new_stride = stride[end]  # the last dim's stride even when its size is 1, as the prim does
    for i in range(end - 1, start - 1, -1):
        if shape[i] != 1:
            new_stride = min(new_stride, stride[i])
    shape[start:end + 1] = [_numel(shape[start:end + 1])]
    stride[start:end + 1] = [new_stride]
    return True


# ---------------------------------------------------------------- elementwise ops
def _expanded(t, shape):
    """(shape, strides) of t broadcast to shape as prims.broadcast_in_dim lays it out; t itself where
    it already has that shape (torch._refs only expands operands that need it)."""
    t_shape, t_stride = tuple(t.shape), t.stride()
    if len(t_shape) == len(shape) and t_shape == tuple(shape):  # (lengths first: see meta_util.pointwise_strides)
        return t_shape, tuple(t_stride)
    lead = len(shape) - len(t_shape)
    strides = []
    for i, size in enumerate(shape):
        j = i - lead
        if j >= 0:
            strides.append(t_stride[j] if t_shape[j] == size else 0)
        elif size != 1:
            strides.append(0)
        else:  # a new leading dim of size 1
            strides.append(t_stride[0] * t_shape[0] if t_shape else 1)
    return tuple(shape), tuple(strides)


def _elementwise_rule(out, *args, **kwargs):
    """Output strides of torch._refs' elementwise ops for their operands (tensors and Python scalars) broadcast to
    `out`'s shape: dense, its dims in the order of prims' compute_elementwise_output_logical_to_physical_perm
    (torch.empty_permuted), even for one dense operand. 0-d tensors do not vote, like CPU scalars in PyTorch."""
    shape, operands = tuple(out.shape), [*args, *kwargs.values()]
    layouts = [_expanded(t, shape) for t in operands if isinstance(t, Tensor) and t.dim() > 0]
    perm = _output_perm(shape, layouts) if layouts and len(shape) > 1 else list(range(len(shape)))
    result, running = [0] * len(shape), 1
    for d in reversed(perm):
        result[d] = running
        running *= shape[d]
    return tuple(result)


def _output_perm(shape, layouts):
    """prims' logical-to-physical permutation of operands' (shape, strides): outermost dim first. An operand's
    contiguity is asked of its own sizes (an operand not expanded keeps its spelling of them)."""
    ndim, strides = len(shape), [st for _, st in layouts]
    contiguous = all(is_contiguous(*layout) for layout in layouts)
    channels_last = all(is_channels_last(*layout) for layout in layouts)
    if contiguous and not channels_last:
        return list(range(ndim))
    if channels_last and not contiguous:
        return [0, *range(2, ndim), 1]

    def should_swap(a, b):
        for st in strides:
            sa, sb = st[a], st[b]
            if sa == 0 or sb == 0:
                continue
            if sa == sb:
                if shape[b] >= shape[a]:
                    continue
                return 1
            return -1 if sb >= sa else 1
        return 0

    return list(reversed(fastest_first(ndim, should_swap)))


def _fast_binary_rule(out, *args, **kwargs):
    """add/sub/mul/div on an operand with symbolic sizes: torch's fake tensor takes its fast path (fake_impls'
    fast_binary_impl). Where an operand has the output's shape, the output is contiguous if every tensor operand
    is, else channels-last if every one is; otherwise the elementwise rule. Its contiguity checks, in its order,
    are where torch records guards such as `numel >= 2` of an operand."""
    shape = tuple(out.shape)
    tensors = [a for a in args if isinstance(a, Tensor)]
    if not any(map(is_symbolic, [n for t in tensors for n in (*t.shape, *t.stride())])) or not any(
            t.dim() == len(shape) and tuple(t.shape) == shape for t in tensors):
        return _elementwise_rule(out, *args, **kwargs)
    contiguous = channels_last = True
    for t in tensors:
        contiguous = contiguous and is_contiguous(tuple(t.shape), t.stride())
        channels_last = channels_last and t.is_contiguous(memory_format=channels_last_format)
    if contiguous:
        return contiguous_strides(shape)
    return channels_last_strides(shape) if channels_last else _elementwise_rule(out, *args, **kwargs)


# ---------------------------------------------------------------- convolution
def _conv_rule(out, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """torch's fake convolution asks ATen to select a backend; the mkldnn heuristic (ConvParams::use_mkldnn) reads
    the sizes of a float32 input in this order, so symbolic sizes record its guards (`batch < 16`, `2*h*w <=
    20480`). The meta function's strides stand (None)."""
    if transposed or input.dtype is not float32:
        return None
    kernel = (1, *weight.shape[2:]) if weight.dim() == 3 else tuple(weight.shape[2:])  # conv1d runs as 2-d
    bool((any(s != 1 for s in stride) or any(d != 1 for d in dilation) or input.shape[0] >= 16 or kernel[-1] != 1
          or kernel[-2] != 1 or get_num_threads() > 1) and (
        groups > 1 or (kernel[-1] > 3 and kernel[-2] > 3) or input.shape[0] > 1 or math.prod(input.shape[:4]) > 20480))
    return None


# ---------------------------------------------------------------- reductions
def _keeps_dtype(out, a, kwargs):
    return kwargs.get("dtype") is None and out.dtype == a.dtype


def _reduction_rule(out, a, *args, **kwargs):
    """torch's fake reductions of this family run torch._refs' _reduction (where the dtype stays): its output is made
    by empty_strided, whose computeStorageNbytes (c10) asks of each size in order whether it is 0, and with keepdim
    broadcast_in_dim then asks of each size whether it is 1. The meta function's strides stand (None)."""
    if not _keeps_dtype(out, a, kwargs):
        return None  # (torch converts the input first: other questions, not asked here)
    for size in out.shape:  # (a reduced dim is 1 here: asks nothing)
        if size == 0:
            break
    if kwargs.get("keepdim", next((v for v in args if isinstance(v, bool)), False)):
        for size in out.shape:
            bool(size == 1)
    return None


def _mean_rule(out, a, *args, **kwargs):
    """torch._refs.mean: the sum's reduction, then true_divide by the count: broadcasting asks of each size,
    innermost first, whether it is 1, and the division's elementwise output rule asks is_contiguous's questions."""
    _reduction_rule(out, a, *args, **kwargs)
    if _keeps_dtype(out, a, kwargs):
        for size in reversed(out.shape):
            bool(size == 1)
        _elementwise_rule(out, out)
    return None


def _threshold_backward_rule(out, grad, self, threshold):
    """torch's fake threshold_backward (relu's backward) is its decomposition where(self <= threshold, 0, grad): the
    comparison's elementwise questions on self, broadcasting the mask's shape then grad's (so the output takes the
    sizes as self spells them), then where's elementwise rule over the mask and grad."""
    mask = FakeTensor._make(self.shape, bool_, _elementwise_rule(self, self))
    out._shape = Size(_broadcast_shapes(tuple(self.shape), tuple(grad.shape)))
    return _elementwise_rule(out, mask, grad)


def _broadcast_shapes(*shapes):
    """torch._refs' broadcast of shapes, innermost dim first, asking its questions: is a size the common one so
    far, is it 1; a size neither 1 nor the common one is checked equal to it."""
    common = [1] * max(map(len, shapes))
    for shape in shapes:
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                common[idx] = shape[idx]
            if not shape[idx] == 1:
                bool(common[idx] == shape[idx])
    return common


def copy_rule(out, self, src, non_blocking=False):
    """torch's fake copy_ expands src to self's sizes with broadcast_in_dim, which asks of each of src's sizes whether
    it is 1 (guard_or_false: not of a size from data): `x[: n // 2] = y[: n // 2]` guards `n // 2 == 1` at n = 3. The
    only rule run on an op returning its input (copy_ returns self): it asks, and leaves self's strides."""
    for size in src.shape if isinstance(src, Tensor) else ():
        if not is_symbolic(size) or size.node.hint is not None:
            bool(size == 1)
    return None


# Pointwise ops whose PyTorch meta is a composition that orders or makes its operands otherwise (rsub is
# sub(other, self), masked_fill a where with the mask first, isinf/isfinite and
# pow.Scalar through other ops): their meta functions' strides stand.
_COMPOSED_POINTWISE = frozenset({
    "aten::rsub.Tensor", "aten::masked_fill.Scalar", "aten::masked_fill.Tensor",
    "aten::isinf", "aten::isfinite", "aten::pow.Scalar",
})

FAKE_STRIDE_RULES = {
    "aten::view": reshape_view_strides,
    "aten::_unsafe_view": reshape_view_strides,
    "aten::convolution": _conv_rule,
    "aten::mean.dim": _mean_rule,
    "aten::threshold_backward": _threshold_backward_rule,
    "aten::copy_": copy_rule,
} | {f"aten::{name}": _reduction_rule for name in (
    "sum.dim_IntList", "amax", "amin", "prod.dim_int", "var.correction", "std.correction")
} | {f"aten::{name}.Tensor": _fast_binary_rule for name in ("add", "sub", "mul", "div")}


def fake_stride_rule(func):
    """The rule giving `func`'s fake output strides, or None where its meta function's strides stand."""
    rule = FAKE_STRIDE_RULES.get(func.name())
    if rule is not None:
        return rule
    if "pointwise" in func.tags and "inplace" not in func.tags and func.name() not in _COMPOSED_POINTWISE:
        return _elementwise_rule
    return None
