"""CPU autocast's cast policy, and the dispatch mode that applies it.

Runtime layer, coverage surface. Under `autocast("cpu", dtype=torch.float16)` an op named in one of torch's CPU
lists has its floating inputs cast (float64 ones never are) before it runs:

    LOWER_PRECISION  matrix products and convolutions: inputs cast to the autocast dtype
    FP32             ops that lose too much in float16 (losses, prod, cdist, solvers...): inputs cast to float32
    PROMOTE          cat, stack, index_copy: inputs cast to the widest floating dtype among them

Every other op runs in whatever dtypes it is given. The lists hold torch's names, and beside them the ops our
decompositions bottom out in where torch names a composite: `convolution` (our conv1d/2d/3d and transposed
convolutions call it), `_scaled_dot_product_flash_attention_for_cpu` (what our scaled_dot_product_attention
calls where ATen's picks it), `nll_loss_forward`, `_cdist_forward` and `_euclidean_dist` (torch.cdist's two
paths), and `dot`/`mv`, which torch's matmul reaches with float16 inputs (ours calls them itself, so they are cast
here; a direct torch.dot/torch.mv call stays float32 in torch). A float32 leaf that requires grad (a weight) is
cast once per outermost autocast region and the copy reused, as torch's cast cache does.

`cast_inputs(op, args, kwargs)` is the policy. The dispatcher's autocast hook (`state.autocast`, where
minitorch2/_dispatch.py has one) applies it above autograd, where torch's Autocast dispatch key sits, so that the
casts are recorded and backward runs through them. Without the hook, `AutocastMode` applies it below autograd, as
a dispatch mode, to the ops autograd does not record (under no_grad, or on tensors that need no gradient); the
others run uncast, in float32.
"""
from .. import _dtype
from .._dispatch import state as _dispatch_state
from .._ops import ops
from .._tensor import Tensor
from ..utils._python_dispatch import TorchDispatchMode
from . import _state

LOWER_PRECISION = frozenset("""
    conv1d conv2d conv3d bmm mm linalg_vecdot baddbmm addmm addbmm linear _convolution matmul conv_tbc
    mkldnn_rnn_layer conv_transpose1d conv_transpose2d conv_transpose3d prelu scaled_dot_product_attention
    _native_multi_head_attention convolution dot mv _scaled_dot_product_flash_attention_for_cpu
""".split())
FP32 = frozenset("""
    avg_pool3d binary_cross_entropy grid_sampler polar prod quantile nanquantile stft cdist grid_sampler_2d
    _grid_sampler_2d_cpu_fallback grid_sampler_3d trace view_as_complex cholesky cholesky_inverse cholesky_solve
    inverse lu_solve orgqr ormqr pinverse max_pool3d max_unpool2d max_unpool3d adaptive_avg_pool3d reflection_pad1d
    reflection_pad2d replication_pad1d replication_pad2d replication_pad3d mse_loss cosine_embedding_loss nll_loss
    nll_loss2d hinge_embedding_loss poisson_nll_loss smooth_l1_loss cross_entropy_loss l1_loss huber_loss
    margin_ranking_loss soft_margin_loss triplet_margin_loss multi_margin_loss ctc_loss kl_div
    multilabel_margin_loss binary_cross_entropy_with_logits fft_fft fft_ifft fft_fft2 fft_ifft2 fft_fftn fft_ifftn
    fft_rfft fft_irfft fft_rfft2 fft_irfft2 fft_rfftn fft_irfftn fft_hfft fft_ihfft linalg_cond linalg_matrix_rank
    linalg_solve linalg_cholesky linalg_svdvals linalg_eigvals linalg_eigvalsh linalg_inv linalg_householder_product
    linalg_tensorinv linalg_tensorsolve fake_quantize_per_tensor_affine geqrf _lu_with_info qr svd triangular_solve
    fractional_max_pool2d fractional_max_pool3d adaptive_max_pool3d multilabel_margin_loss_forward linalg_qr
    linalg_cholesky_ex linalg_svd linalg_eig linalg_eigh linalg_lstsq linalg_inv_ex
    nll_loss_forward nll_loss2d_forward _cdist_forward _euclidean_dist
""".split())
PROMOTE = frozenset(("stack", "cat", "index_copy"))


def cast_inputs(op, args, kwargs):
    """(args, kwargs) as CPU autocast hands them to `op`: unchanged unless autocast is on for the CPU and the
    op is in one of the lists."""
    if not _state.cpu_casting() or op.namespace != "aten":
        return args, kwargs
    name = op._opname
    if name in LOWER_PRECISION:
        target = _state.cpu_dtype()
    elif name in FP32:
        target = _dtype.float32
    elif name in PROMOTE:
        target = _widest(args, kwargs)
    else:
        return args, kwargs
    return tuple(_cast(a, target) for a in args), {key: _cast(v, target) for key, v in kwargs.items()}


class AutocastMode(TorchDispatchMode):
    """The policy as a dispatch mode: the op's inputs are cast before it runs on down the stack. An op autograd
    is recording runs uncast: the mode sits below autograd, whose grad_fn would pair float32 inputs with float16
    gradients (torch casts above autograd: the dispatcher's hook does, where it has one)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if not (_dispatch_state.grad_enabled and func.differentiable and _requires_grad(args)):
            args, kwargs = cast_inputs(func, args, kwargs)
        return func(*args, **kwargs)


def composite_in_float32(*tensors):
    """The inputs of a composite op on autocast's float32 list that ours builds from other ops (F.cross_entropy:
    cross_entropy_loss), cast as torch casts them before the composite runs, where autocast is on for the CPU."""
    return tuple(_cast(t, _dtype.float32) for t in tensors) if _state.cpu_casting() else tensors


def composite_in_lower_precision(*tensors):
    """The inputs of a composite op on autocast's lower-precision list that ours builds from other ops (F.linear:
    linear), cast as torch casts them before the composite runs (the weight before it is transposed)."""
    return tuple(_cast(t, _state.cpu_dtype()) for t in tensors) if _state.cpu_casting() else tensors


def _requires_grad(args):
    return any(isinstance(t, Tensor) and t.requires_grad
               for a in args for t in (a if isinstance(a, (list, tuple)) else (a,)))


def _eligible(value):
    return isinstance(value, Tensor) and value.dtype.is_floating_point and value.dtype is not _dtype.float64


def _widest(args, kwargs):
    widest = _state.cpu_dtype()
    for value in (*args, *kwargs.values()):
        for tensor in value if isinstance(value, (list, tuple)) else (value,):
            if _eligible(tensor):
                widest = _dtype.promote_types(widest, tensor.dtype)
    return widest


def _cast(value, target):
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        return type(value)(_cast(v, target) for v in value)
    if not _eligible(value) or value.dtype is target:
        return value
    cacheable = target is _state.cpu_dtype() and value.dtype is _dtype.float32 and value.requires_grad \
        and value.grad_fn is None and value._base is None and _state.local.cache_enabled
    if not cacheable:
        return ops.aten._to_copy.default(value, dtype=target)
    cached = _state.local.cache.get(id(value))
    if cached is None:
        cached = _state.local.cache[id(value)] = (value, ops.aten._to_copy.default(value, dtype=target))
    return cached[1]
