"""Which operators the min-cut partitioner may recompute, fuse, or must never touch
(as `get_default_op_list` in torch._functorch.partitioners).

partition layer, read by `partition/heuristics.py`. Ops are named by their overload packet (`aten.mul`); every op
with a `pointwise`-tagged overload is recomputable, because a fusing backend folds it into its consumer's kernel.
Random ops are never recomputed (the backward would draw new numbers) but still fuse; views are never banned from
recompute, and are looked through when asking whether a value is materialised in the backward.

The one idea to hold: the tables describe *cost*, not semantics. Anything not listed is too expensive to recompute
(an allowlist).
"""
import functools
from dataclasses import dataclass

from minitorch2._ops import ops

# Ops PyTorch's partitioner names explicitly as cheap to recompute (besides the pointwise ones).
# Names of ops minitorch2 does not register are kept: they cost nothing and say what PyTorch allows.
RECOMPUTABLE = frozenset("""
    add sub div atan2 mul max min pow remainder fmod __and__ __or__ __xor__ __lshift__ __rshift__
    eq ne ge gt le lt abs bitwise_not ceil floor frac neg relu round silu trunc iota convert_element_type
    log log10 log1p log2 lgamma exp expm1 erf erfc cos acos cosh sin asin sinh tan atan tanh atanh
    sqrt rsqrt reciprocal sigmoid softplus threshold threshold_backward clamp where lerp addcmul
    gelu gelu_backward sum mean _grad_sum_to_size sum_to_size amax to type_as squeeze unsqueeze rsub
    _to_copy clone full_like var std select _unsafe_view view expand slice reshape broadcast_tensors
    scalar_tensor ones new_zeros lift_fresh_copy arange triu var_mean isinf any full as_strided zeros
    empty empty_like argmax maximum index gather zeros_like alias t permute split broadcast_in_dim
    prepare_softmax_online _low_memory_max_pool_offsets_to_indices floordiv mod truediv
""".split())  # (prims' names too; the last three: Python's operators on sizes, torch's magic methods)

# The views PyTorch's partitioner recognises (a narrower list than the ops tagged `view`:
# `transpose`, `detach` and `diagonal` are absent, so they count as ordinary ops there).
VIEW = frozenset("squeeze unsqueeze alias view slice t expand as_strided permute select split".split())

RANDOM = frozenset("native_dropout rand_like randn_like".split())

COMPUTE_INTENSIVE = frozenset("""
    mm convolution convolution_backward bmm addmm _scaled_dot_product_flash_attention
    _scaled_dot_product_efficient_attention _flash_attention_forward _efficient_attention_forward
    upsample_bilinear2d _scaled_mm
""".split())


def _packets_tagged(tag):
    """Names of ops with at least one overload tagged `tag` (PyTorch tests the packet, not the overload)."""
    return frozenset(packet.__name__ for packet in ops.aten
                     if any(tag in getattr(packet, name).tags for name in packet.overloads()))


def op_name(node):
    """The overload packet's name of a call_function node (`mul` for aten.mul.Tensor), `getitem`, or None."""
    if node.op != "call_function":
        return None
    packet = getattr(node.target, "overloadpacket", None)
    return packet.__name__ if packet is not None else getattr(node.target, "__name__", None)


@dataclass(frozen=True)
class OpTypes:
    """Overload-packet names by category: a node is in one when `op_name(node)` is."""
    recomputable: frozenset
    fusible: frozenset
    compute_intensive: frozenset
    random: frozenset
    view: frozenset


@functools.cache
def get_default_op_list():
    """The op categories the min-cut partitioner uses (built once: the registry does not change)."""
    recomputable = RECOMPUTABLE | VIEW | _packets_tagged("pointwise") | {"getitem"}
    # PyTorch lists its random ops by name; the `random` tag also catches the ones its list misses (bernoulli), so
    # that no setting of the ban rules recomputes a draw. Only the named ones count as fusible, as in PyTorch: a
    # bernoulli output is materialized, so the min-cut saves it and recomputes the pointwise ops after it.
    random = RANDOM | _packets_tagged("random")
    return OpTypes(recomputable=recomputable - random, fusible=(recomputable - random) | RANDOM,
                   compute_intensive=COMPUTE_INTENSIVE, random=random, view=VIEW)
