"""The decompositions torch computes in float32 for float16 (and bfloat16) inputs, each result rounded once at the end.

Runtime layer, beside the op table: table_row.op() hands each row's decomposition to for_half(). Torch's
decompositions of these ops carry `pw_cast_for_opmath` (or, for softmax and the norms, compute in their
"computation dtype"): a float16 graph records `convert_element_type` to float32 before them and back after. Without
it each step of the decomposition rounds to half: a compiled float16 layer_norm was up to 72 half steps from
torch's, log_softmax's log(1 + e**-6) 0.00293 for 0.00248, tanh's gradient 10 steps off.
"""
from .. import _dtype
from .._ops import ops
from .._tensor import Tensor

IN_FLOAT32_FOR_HALF = frozenset({
    "_softmax", "_log_softmax", "_softmax_backward_data", "_log_softmax_backward_data",
    "std", "std_mean",
    "tanh_backward", "sigmoid_backward", "softplus_backward", "elu_backward", "hardtanh_backward",
    "leaky_relu_backward", "gelu_backward", "silu", "silu_backward", "log_sigmoid_forward", "log_sigmoid_backward",
    "mse_loss", "mse_loss_backward", "binary_cross_entropy", "binary_cross_entropy_backward", "addmm", "mv",
    # (torch's references with an elementwise type promotion wrapper: the same, in their computation dtype)
    "gelu", "elu", "softplus", "leaky_relu", "hardtanh", "frac", "round", "logsumexp", "linalg_vector_norm",
    # (the batch norms, in their computation dtype: decompositions_batch_norm.py)
    "_native_batch_norm_legit", "_native_batch_norm_legit_functional", "_native_batch_norm_legit_no_training",
    "native_batch_norm_backward", "native_group_norm_backward",
    "embedding_dense_backward",  # (its gradient accumulated in float32: a bfloat16 GPT's token embedding)
})


def for_half(name, decomposition):
    """The decomposition of the op `name` as the op table keeps it: in float32 for float16 if torch's is."""
    return in_float32_for_half(decomposition) if name in IN_FLOAT32_FOR_HALF and decomposition else decomposition


def in_float32_for_half(decomposition):
    """`decomposition` on float32 copies of its half (float16 or bfloat16) tensor arguments, its float results
    rounded back, when one half is the only floating dtype among its tensor arguments (then it is the result's)."""
    def decompose(*args, **kwargs):
        floating = {a.dtype for a in args if isinstance(a, Tensor) and a.dtype.is_floating_point}
        half = floating.pop() if len(floating) == 1 else None
        if half not in _dtype.HALVES:
            return decomposition(*args, **kwargs)
        results = decomposition(*(_converted(a, half, _dtype.float32) for a in args), **kwargs)
        if isinstance(results, tuple):
            return tuple(_converted(r, _dtype.float32, half) for r in results)
        return _converted(results, _dtype.float32, half)

    return decompose


def _converted(value, source, target):
    if isinstance(value, Tensor) and value.dtype is source:
        return ops.prims.convert_element_type.default(value, target)
    return value
