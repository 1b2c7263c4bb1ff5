"""Step 2 of the min-cut: sort every joint-graph node into forward, backward or neither
(as `classify_nodes` and `NodeInfo` in torch._functorch.partitioners).

partition layer, between the joint graph (from `autograd.aot_function`) and the flow network
(`partition/network.py`). A joint graph mixes two programs:

    required forward   needed to compute the forward outputs from the primals
    required backward  anything downstream of a tangent, plus the gradients
    unclaimed          neither: forward-side values only the backward reads;
                       where they run is the partitioner's call

Two numbers per node feed the heuristics: `fw_order` (its position among the required forward nodes) and
`dist_from_bw` (how many forward ops separate it from the first node the backward needs).

The one idea to hold: only required-forward nodes can be *saved*, and only nodes reachable from the tangents are
*forced* into the backward; the cut decides everything in between.
"""
from dataclasses import dataclass, field

from .default import is_input, placeholders, split_outputs, subgraph_nodes

FAR = int(1e9)  # the distance of nodes the backward never reaches


@dataclass
class NodeInfo:
    required_fw: set
    required_bw: set
    tangents_closure: set  # required_bw before the gradients were added: truly computed from tangents
    unclaimed: set
    fw_order: dict  # required forward node -> its index among them
    static_lifetime_inputs: set  # primals that live anyway (parameters): free to save
    dist_from_bw: dict = field(default_factory=dict)

    @property
    def required_fw_nodes(self):
        return sorted(self.required_fw, key=self.fw_order.__getitem__)

    def is_required_fw(self, node):
        return node in self.required_fw


def classify_nodes(joint_graph, num_fwd_outputs, static_lifetime_input_indices=()):
    required_bw = set()
    for node in joint_graph.nodes:
        if is_input(node, "tangents"):
            required_bw.add(node)
        if node in required_bw:
            required_bw.update(node.users)
    tangents_closure = set(required_bw)
    fwd_outputs, bwd_outputs = split_outputs(joint_graph, num_fwd_outputs)
    required_bw.update(o for o in bwd_outputs if o is not None and o.op != "output")

    primals = placeholders(joint_graph, "primals")
    required_fw = set(primals) | set(subgraph_nodes(joint_graph, primals, fwd_outputs))
    unclaimed = {n for n in joint_graph.nodes if n not in required_fw and n not in required_bw}
    fw_order = {node: i for i, node in enumerate(n for n in joint_graph.nodes if n in required_fw)}
    static = {p for i, p in enumerate(primals) if i in set(static_lifetime_input_indices)}
    info = NodeInfo(required_fw, required_bw, tangents_closure, unclaimed, fw_order, static)
    info.dist_from_bw = distances_from_backward(joint_graph, info)
    return info


def distances_from_backward(joint_graph, info):
    """How many forward ops lie between each node and the nearest node outside the required forward."""
    dist = {}
    for node in reversed(joint_graph.nodes):
        if node.op == "output":
            dist[node] = FAR
        elif node not in info.required_fw:
            dist[node] = 0
        else:
            dist[node] = min([FAR] + [dist[user] + 1 for user in node.users])
    return dist
