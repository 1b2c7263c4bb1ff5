"""The scaled-softmax joint-graph pattern of torch's inductor: `x/T - amax(x/T)` rewritten to compute the scaling once.

Backend layer, one rewrite joint_graph.py runs with its patterns (plays torch._inductor.fx_passes.joint_graph's
mul_softmax_pattern and div_softmax_pattern). A softmax or log_softmax of a scaled input (a distillation loss's
`log_softmax(s / T)`, attention's `q @ k.T * scale`) decomposes to `scaled - amax(scaled)`; torch rewrites it as

    stable   = (x * sign - amax(x * sign)) / (sign * T)        (sign: T's, so the maximum stays the maximum)
    original = scaled - amax(scaled)
    where(all(isfinite(scaled), dim, keepdim=True), stable, original)

which keeps the original's value where a row holds an infinity or a NaN. Only a Python-number scale is taken here
(torch's also takes a tensor constant along the reduced dims, and a cast between the scaling and the amax).
"""
import math

from minitorch2 import ops

aten = ops.aten
SCALINGS = (aten.div.Tensor, aten.mul.Tensor)


def scaled_softmax_to_stable(node, call, replace):
    """`call(graph, target, args, like=)` makes a node (joint_graph._call); `replace(node, value, erase)` puts the
    value in the node's place (joint_graph._replace)."""
    if node.target is not aten.sub.Tensor or len(node.args) != 2:
        return False
    scaled, amax = node.args
    if not (hasattr(amax, "op") and amax.target is aten.amax.default and amax.args[0] is scaled
            and len(amax.users) == 1 and hasattr(scaled, "op") and scaled.target in SCALINGS):
        return False
    inp, other = scaled.args
    if scaled.target is aten.mul.Tensor and isinstance(inp, (int, float)):
        inp, other = other, inp
    if not isinstance(other, (int, float)) or isinstance(other, bool) or not hasattr(inp, "op"):
        return False
    dim, keepdim = list(amax.args[1]) if len(amax.args) > 1 else [], amax.args[2] if len(amax.args) > 2 else False
    sign = 1 if other >= 0 else -1
    graph = node.graph
    with graph.inserting_before(node):
        signed = call(graph, aten.mul.Tensor, (inp, sign), like=node)
        shifted = call(graph, aten.sub.Tensor, (signed, call(graph, aten.amax.default, (signed, dim, keepdim),
                                                                   like=node)), like=node)
        stable = call(graph, scaled.target, (shifted, sign * other), like=node)
        original = call(graph, aten.sub.Tensor, (scaled, call(graph, aten.amax.default, (scaled, dim, keepdim),
                                                                   like=node)), like=node)
        finite = call(graph, aten.mul.Tensor, (
            call(graph, aten.ne.Scalar, (call(graph, aten.abs.default, (scaled,), like=node), math.inf), like=node),
            call(graph, aten.eq.Tensor, (scaled, scaled), like=node)), like=node)
        not_finite = call(graph, aten.logical_not.default, (finite,), like=node)
        all_finite = call(graph, aten.logical_not.default, (
            call(graph, aten.any.dims, (not_finite, dim, True), like=node),), like=node)
        result = call(graph, aten.where.self, (all_finite, stable, original), like=node)
    return replace(node, result, [amax])
