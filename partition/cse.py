"""Common-subexpression elimination on a joint graph, before the min-cut looks at it
(as `fx_graph_cse` in torch._functorch.compile_utils).

partition layer, the first step of `min_cut_rematerialization_partition`. A joint graph often computes the same
thing twice (the forward's `t(primals_1)` and the backward's); merging the copies lets the flow network price one
value with all of its users.

The one idea to hold: a node is replaced by an earlier node with the same target and the same (already deduplicated)
arguments, except random ops, `empty`, and anything sharing memory with a graph output.
"""
from minitorch2._tensor import Tensor
from minitorch2.fx import Graph
from minitorch2.fx.node import Node

from .op_types import op_name

# Ops never merged besides the random ones (found by tag): `empty`, whose contents are undefined, as PyTorch has it.
_NEVER_MERGED = frozenset({"empty"})


def fx_graph_cse(graph):
    """A new Graph computing the same outputs with dead code dropped and duplicate computations merged.
    (Dead code goes first, so that a dead node never becomes the survivor of a merge and lends it its name.)"""
    new_graph = Graph()
    env = {}
    seen = {}
    keep = _aliases_of_outputs(graph)
    live = _live_nodes(graph)
    for node in graph.nodes:
        if node not in live:
            continue
        if node.op != "call_function" or node in keep or _never_merged(node):
            env[node] = new_graph.node_copy(node, lambda n: env[n])
            continue
        key = (node.target, _key(node.args, env), _key(node.kwargs, env))
        try:  # keyed by the hash, as torch's: a node whose hash an unequal earlier one holds (hash(-1) == hash(-2):
            # unsqueeze(x, -1) after unsqueeze(x, -2)) is kept, and never merges a later copy of itself either
            earlier_key, earlier = seen.setdefault(hash(key), (key, None))
        except TypeError:  # an unhashable argument: keep the node as it is
            env[node] = new_graph.node_copy(node, lambda n: env[n])
            continue
        if earlier is not None and earlier_key == key:
            env[node] = earlier
            continue
        env[node] = copy = new_graph.node_copy(node, lambda n: env[n])
        seen[hash(key)] = (earlier_key, copy if earlier is None else earlier)
    return new_graph


def _live_nodes(graph):
    """Nodes that are impure or feed, through any chain, something that is (random ops count as pure)."""
    live = set()
    for node in reversed(graph.nodes):
        if node.is_impure(impure_random=False) or any(user in live for user in node.users):
            live.add(node)
    return live


def _never_merged(node):
    return "random" in getattr(node.target, "tags", ()) or op_name(node) in _NEVER_MERGED


def _key(value, env):
    """A hashable image of an argument structure, with nodes replaced by their deduplicated copies.
    Types are part of the key so that `(x, 1)` and `(x, 1.0)` stay apart."""
    if isinstance(value, Node):
        return env[value]
    if isinstance(value, (list, tuple)):
        return type(value), tuple(_key(v, env) for v in value)
    if isinstance(value, dict):
        return dict, tuple((k, _key(v, env)) for k, v in value.items())
    return type(value), value


def _aliases_of_outputs(graph):
    """Nodes whose value shares memory with a value the graph returns."""
    output = graph.output_node()
    storages = {id(_storage(n)) for n in output.all_input_nodes if _storage(n) is not None}
    return {n for n in graph.nodes if _storage(n) is not None and id(_storage(n)) in storages}


def _storage(node):
    val = node.meta.get("val")
    return val._storage if isinstance(val, Tensor) else None
