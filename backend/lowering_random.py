"""Random ops on the inductor path: compiled graphs draw per-graph seeds and compute Philox values, as torch's Inductor.

Backend layer, in three places of compile_fx's pipeline (plays torch._inductor's random decompositions,
fx_passes/replace_random.py and the lowering of inductor_random):

    1. DECOMPOSITIONS (in select_decomp_table): rand_like / randn_like become rand / randn of the same shape,
       randint / randint_like become randint.low, bernoulli(p) becomes `rand < p`, and native_dropout becomes
       `mask = rand_like(x) > p; x * mask * 1/(1-p)`. (aot_eager has no table: it keeps eager's ops and stream.)
    2. replace_random_passes (the last joint-graph pass, and on inference graphs): each rand / randn node becomes
       prims.inductor_random(size, seed_i, mode), each randint.low prims.inductor_randint(low, high, size, seed_i),
       seed_i = prims.inductor_lookup_seed(seeds, i), with one prims.inductor_seeds(n, device) before the first:
       the graph draws its n seeds, in the order of its random ops, from the default generator when it runs.
    3. lowering.py's table: these prims are extern kernels running their own kernels (_aten/inductor_prims.py):
       the seeds' draw, and a numpy Philox4x32-10 (minitorch2/_philox.py) for the values. torch's Inductor emits
       the Philox rounds inside its fused C++ loops; here they are not code-generated, so inductor_random is a
       buffer of its own that the pointwise kernels after it read.

The values are torch.compile's bit for bit (the mask of a dropout too), and the eager stream after a compiled call
is where torch's is, since both drew the same seeds. Ops torch leaves on the eager stream stay eager ops here too
(a draw given a generator, bernoulli_ with a float p, normal, randperm, multinomial). In a graph that has both
kinds, minitorch2 draws in graph order; torch's scheduler may run the seeds' draw first (when the first random
kernel fuses with earlier work, or when its peak-memory reordering moves an eager draw later), and the values then
differ (tests/backend/test_inductor_random.py has two such programs as known differences).
"""
from minitorch2 import _dtype, ops
from minitorch2._aten.nn_ops import is_channels_last
from minitorch2._tensor import channels_last, contiguous_format
from minitorch2.fx import Node
from minitorch2.utils import _pytree as pytree

aten, prims = ops.aten, ops.prims


# ---- 1. decompositions ----------------------------------------------------------------------


def _random_like(draw):
    def decomposition(self, *bounds, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        """A fresh draw in self's memory order: drawn in that order's shape, then permuted back (torch's
        _rand_like), so a channels-last input gets its values in memory order as eager's empty_like would."""
        order = sorted(range(self.dim()), key=lambda d: -self.stride()[d])  # (stable: ties keep dim order)
        options = dict(dtype=dtype or self.dtype, device=device or self.device)
        if memory_format is not None or order == sorted(order):
            return draw(*bounds, [*self.shape], **options)
        physical = draw(*bounds, [self.shape[d] for d in order], **options)
        inverse = sorted(range(len(order)), key=order.__getitem__)
        return aten.clone.default(aten.permute.default(physical, inverse))

    return decomposition


rand_like, randn_like = _random_like(aten.rand.default), _random_like(aten.randn.default)
randint_like = _random_like(lambda high, size, **options: aten.randint.low(0, high, size, **options))
randint_like_low = _random_like(aten.randint.low)


def randint(high, size, **options):
    return aten.randint.low(0, high, size, **options)


def bernoulli(self, *, generator=None):
    """torch's decomposition: `rand < p`, in p's dtype (bernoulli_ with a float p stays the eager op)."""
    raw = aten.rand.default([*self.shape], dtype=_dtype.float32, device=self.device)
    return prims.convert_element_type.default(aten.lt.Tensor(raw, self), self.dtype)


def native_dropout(input, p, train):
    """torch's decomposition: a `rand_like > p` mask (not eager's bernoulli draw), and the kept values scaled."""
    if not (train and p != 0):
        return input, aten.ones_like.default(input, dtype=_dtype.bool_)
    if p == 1:
        return aten.zeros_like.default(input), aten.zeros_like.default(input, dtype=_dtype.bool_)
    if not input.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type Long")
    mask = aten.gt.Scalar(rand_like(input), p)
    return aten.mul.Tensor(aten.mul.Tensor(mask, input), float(1.0 / (1.0 - p))), mask


def native_dropout_backward(grad_output, mask, scale):
    """torch's decomposition: grad * (mask * scale), then a clone in grad_output's suggested memory format."""
    scaled = aten.mul.Tensor(grad_output, aten.mul.Tensor(prims.convert_element_type.default(mask, grad_output.dtype),
                                                          scale))
    layout = channels_last if grad_output.dim() == 4 and is_channels_last(grad_output) else contiguous_format
    return aten.clone.default(scaled, memory_format=layout)


DECOMPOSITIONS = {aten.rand_like.default: rand_like, aten.randn_like.default: randn_like,
                  aten.randint_like.default: randint_like, aten.randint_like.low_dtype: randint_like_low,
                  aten.randint.default: randint, aten.bernoulli.default: bernoulli,
                  aten.native_dropout.default: native_dropout,
                  aten.native_dropout_backward.default: native_dropout_backward}


# ---- 2. the replace-random pass -------------------------------------------------------------

_MODES = {aten.rand.default: "rand", aten.randn.default: "randn", aten.rand.generator: "rand",
          aten.randn.generator: "randn", aten.randint.low: "randint"}


def replace_random_passes(gm):
    """Rewrite gm's rand/randn/randint.low nodes into Inductor's seeded random prims; returns whether any was."""
    graph = gm.graph
    draws = [n for n in graph.nodes if n.op == "call_function" and n.target in _MODES
             and n.kwargs.get("generator") is None and not n.kwargs.get("pin_memory")]
    if not draws:
        return False
    with graph.inserting_before(draws[0]):
        seeds = _node(graph, prims.inductor_seeds.default, (len(draws), draws[0].meta["val"].device), None)
    lookups = []
    for index, draw in enumerate(draws):
        with graph.inserting_before(draw):
            lookups.append(_node(graph, prims.inductor_lookup_seed.default, (seeds, index), draw))
    # (torch's pattern matcher visits the nodes last to first, and so names the random nodes in that order)
    for draw, seed in reversed(list(zip(draws, lookups))):
        with graph.inserting_before(draw):
            _replace(graph, draw, _replacement(graph, draw, seed))
    gm.recompile()
    return True


def _replacement(graph, draw, seed):
    if draw.target is aten.randint.low:  # (low, high, size)
        return _node(graph, prims.inductor_randint.default, (*draw.args[:2], [*draw.args[2]], seed), draw)
    return _node(graph, prims.inductor_random.default, ([*draw.args[0]], seed, _MODES[draw.target]), draw)


def _node(graph, target, args, like):
    """A node calling `target`, named as torch's pattern matcher names it, with its meta value and like's trace."""
    node = graph.call_function(target, args, name=f"{target._opname}_default")
    node.meta["val"] = target.meta(*pytree.tree_map(lambda a: a.meta["val"] if isinstance(a, Node) else a, args))
    if like is not None and "stack_trace" in like.meta:
        node.meta["stack_trace"] = like.meta["stack_trace"]
    return node


def _replace(graph, draw, random):
    """draw's users read `random` (in draw's dtype: inductor_random makes float32, inductor_randint int64)."""
    value, result = draw.meta["val"], random
    if value.dtype is not random.meta["val"].dtype:
        with graph.inserting_after(random):
            result = graph.call_function(prims.convert_element_type.default, (random, value.dtype))
        result.meta.update(val=value, stack_trace=draw.meta.get("stack_trace"))
    draw.replace_all_uses_with(result)
    graph.erase_node(draw)
