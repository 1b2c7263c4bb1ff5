"""Steps 3 and 4 of the min-cut: the joint graph as a flow network, and its minimum cut
(as `solve_min_cut` in torch._functorch.partitioners).

partition layer, between the classification (`partition/classify.py`) and the extraction of the forward and backward
graphs (`partition/min_cut.py`). Each joint-graph node X becomes two network nodes joined by one edge whose capacity
is what saving X costs:

    source ──inf──> X_in ──bytes of X──> X_out ──inf──> Y_in ... ──inf──> sink
      (X may not be      (cutting here =         (data flows       (needed by
       recomputed)        saving X)               X -> Y)           the backward)

Every path from source to sink is a way the backward could obtain a value it needs by recomputing it from something
that cannot be recomputed. Cutting the cheapest set of `X_in -> X_out` edges that breaks every such path picks the
cheapest set of values to save; all other forward values reachable by the backward get recomputed there. Edges with
infinite capacity cannot be cut: data dependencies, bans (`source -> X_in`) and backward needs (`-> sink`).

The one idea to hold: saving X means cutting X's own edge; everything the network says about X is either that edge's
capacity (how dear X is to save) or an infinite edge (what may never happen to X). The rules behind both live in
`partition/heuristics.py`.
"""
import math
from dataclasses import dataclass, field

from .default import is_input
from .heuristics import RecomputeRules, ban_long_fusible_chains, ban_uses_far_apart, must_recompute
from .op_types import op_name


def _networkx():
    import networkx  # deferred, a heavy dependency (~0.7 s to import): only a graph with a backward to cut needs it

    return networkx


@dataclass
class FlowNetwork:
    op_types: object
    graph: "networkx.DiGraph" = field(default_factory=lambda: _networkx().DiGraph())
    banned: dict = field(default_factory=dict)  # node -> why it may not be recomputed

    def ban(self, node, reason):
        """Forbid recomputing `node` (source -> node_in, infinite). Views are never banned: they are free."""
        if op_name(node) in self.op_types.view or must_recompute(node):
            return
        self.banned[node] = reason
        self.graph.add_edge("source", node.name + "_in", capacity=math.inf, reason=f"cannot recompute: {reason}")


@dataclass
class MinCutResult:
    saved_values: list  # joint-graph nodes, in graph order
    banned: dict  # node -> reason
    cut_value: float


def build_flow_network(joint_graph, node_info, op_types, options):
    """The network described in the module docstring, with every ban rule applied."""
    rules = RecomputeRules(node_info, op_types, options)
    network = FlowNetwork(op_types)
    ban = network.ban
    edge = network.graph.add_edge
    for node in joint_graph.nodes:
        if node.op == "output":
            continue
        if node in node_info.required_bw:
            if node not in node_info.tangents_closure:
                edge(node.name + "_out", "sink", capacity=math.inf, reason="must be available for backward")
            else:
                edge(node.name + "_in", "sink", capacity=math.inf, reason="must be computed in backward")
                continue
        if must_recompute(node):
            edge(node.name + "_in", "sink", capacity=math.inf, reason="must recompute: checkpoint policy")
            continue
        if is_input(node, "primals"):
            ban(node, "primal input")
        if node_info.is_required_fw(node):  # only forward values could ever be recomputed
            reason = rules.ban_reason(node)
            if reason:
                ban(node, reason)
        capacity, cannot_save = rules.weight(node)
        why = {"reason": f"cannot save: {cannot_save}"} if cannot_save else {}
        edge(node.name + "_in", node.name + "_out", capacity=capacity, **why)
        for user in node.users:
            edge(node.name + "_out", user.name + "_in", capacity=math.inf, reason="data dependency")
    if options.ban_if_used_far_apart:
        ban_uses_far_apart(rules, network)
    if options.ban_if_long_fusible_chains:
        ban_long_fusible_chains(rules, network)
    return network


def solve_min_cut(joint_graph, network):
    """Cut the network; the saved values are the nodes whose in->out edge was cut, in graph order."""
    nx = _networkx()
    try:
        cut_value, (reachable, non_reachable) = nx.minimum_cut(network.graph, "source", "sink")
    except nx.NetworkXUnbounded:
        raise RuntimeError("partition: a value the backward needs can be neither saved nor recomputed:\n"
                           + explain_infinite_path(network.graph)) from None
    cut_names = set()
    for u in reachable:
        for v in network.graph[u]:
            if v in non_reachable:
                if u[:-3] != v[:-4]:
                    raise AssertionError(f"min cut crossed a non-node edge {u} -> {v}")
                cut_names.add(u[:-3])
    saved = [node for node in joint_graph.nodes if node.name in cut_names]
    return MinCutResult(saved, dict(network.banned), cut_value)


def explain_infinite_path(graph):
    """The reasons along a shortest source-to-sink path of uncuttable edges (what made the cut infinite)."""
    nx = _networkx()
    uncuttable = nx.subgraph_view(graph, filter_edge=lambda u, v: graph[u][v].get("capacity") == math.inf)
    try:
        path = nx.shortest_path(uncuttable, "source", "sink")
    except nx.NetworkXNoPath:
        return "  (no infinite path found)"
    return "\n".join(f"  {u} -> {v}: {graph[u][v].get('reason', '')}" for u, v in zip(path, path[1:]))
