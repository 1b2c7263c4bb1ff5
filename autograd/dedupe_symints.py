"""The Sym* nodes of a traced graph that compute a size a graph input already is, replaced by that input.

autograd layer, fidelity to PyTorch's make_fx: after its dead code elimination torch replaces every Sym* node whose
expression an earlier graph input has, or an earlier node computed from graph inputs alone, by that node (torch's
dedupe_symints). So `sym_size.int(x, 3)` of a size that equals input s2 (duck sizing) prints as s2's placeholder,
and a product computed twice as its first computation; aot.py runs it after each dead code elimination.
"""
from minitorch2._sym import is_symbolic


def dedupe_symints(graph):
    """Replace the duplicates in place; whether there were any."""
    representative, from_inputs, replaced = {}, set(), False
    for node in list(graph.nodes):
        value = node.meta.get("val")
        if not is_symbolic(value):
            continue
        key = (type(value), value.node.shape_env.simplify(value.node.expr))
        if node.op == "placeholder":
            from_inputs.add(node)
            representative[key] = node
        elif key in representative:
            node.replace_all_uses_with(representative[key])
            graph.erase_node(node)
            replaced = True
        elif all(n in from_inputs for n in node.all_input_nodes):
            representative[key] = node
            from_inputs.add(node)
    return replaced
