"""Node order in the extracted graphs: recomputation where it is needed, getitems next to their tuple
(as `reordering_to_mimic_autograd_engine` and `raise_getitems` in torch._functorch).

partition layer, the last step of both partitioners. Extraction copies nodes in joint-graph order, so a backward
would start with the whole recomputed forward; `reorder_like_autograd` instead pulls each recomputed value in just
before its first use in the backward proper, as the eager engine would.

The one idea to hold: order does not change what is computed, only how long values live (and how the graph prints,
which is why it matches PyTorch's).
"""
import operator

from .op_types import op_name


def reorder_like_autograd(graph):
    """Re-link `graph` (a backward) so recomputed nodes appear just before their first backward use."""
    nodes = list(graph.nodes)
    order = {node: i for i, node in enumerate(nodes)}
    tangents = [n for n in nodes if n.op == "placeholder" and n.name.startswith("tangents")]
    first_index = min((order[user] for tangent in tangents for user in tangent.users), default=None)
    if first_index is None:  # no gradient depends on a tangent: nothing to interleave
        return graph

    placed = [n for n in nodes if n.op == "placeholder"]
    emitted = set(placed)

    def emit_with_inputs(root):
        pending, stack = set(), [root]
        while stack:
            node = stack.pop()
            if node in pending or node in emitted:
                continue
            pending.add(node)
            stack.extend(node.all_input_nodes)
        for node in sorted(pending, key=order.__getitem__):
            emitted.add(node)
            placed.append(node)

    for node in nodes[:first_index]:
        # An in-place copy back into an input need not read a tangent, but must still run.
        if op_name(node) == "copy_":
            emit_with_inputs(node)
    for node in nodes[first_index:]:
        emit_with_inputs(node)
    _relink(graph, placed, nodes)
    return graph


def _relink(graph, placed, nodes):
    """Put `placed` in that order; nodes left out (dead) are erased."""
    for before, after in zip(placed, placed[1:]):
        if before.next is not after:
            before.append(after)
    kept = set(placed)
    for node in reversed(nodes):
        if node not in kept:
            graph.erase_node(node)


def raise_getitems(graph):
    """Move every `getitem` right after the tuple it reads, so tuple parts can be freed early."""
    getitems = [n for n in graph.nodes if n.op == "call_function" and n.target is operator.getitem]
    for node in reversed(getitems):
        parent = node.all_input_nodes[0]
        if parent.next is not node:
            parent.append(node)
    return graph
