"""The last steps of torch's make_fx: the size arithmetic no node uses dropped, then duplicate size nodes replaced.

autograd layer, fidelity to PyTorch's make_fx (proxy_tensor.make_fx ends with `finish_trace`). torch's tracer records
every SymInt operation as it runs; at the end it drops those whose result nothing uses, but only size reads
(`sym_size.int`) and arithmetic on sizes (any other dead node stays), then replaces every Sym* node whose expression
an earlier graph input has, or an earlier node computed from graph inputs alone, by that node (torch's
dedupe_symints). So `sym_size.int(x, 3)` of a size that equals input s2 (duck sizing) prints as s2's placeholder,
and a product computed twice as its first computation.
"""
from minitorch2 import ops
from minitorch2._sym import is_symbolic

_SIZE_READS = (ops.aten.sym_size.int, ops.aten.sym_stride.int, ops.aten.sym_storage_offset.default)


def finish_trace(graph):
    graph.eliminate_dead_code(_kept)
    dedupe_symints(graph)


def _is_size(value):
    return is_symbolic(value) or isinstance(value, (bool, int, float))


def _kept(node):
    """What torch's make_fx keeps though unused: anything but a size read or arithmetic on sizes."""
    if node.is_impure():
        return True
    if node.target in _SIZE_READS:
        return False
    return not (_is_size(node.meta.get("val")) and all(_is_size(n.meta.get("val")) for n in node.all_input_nodes))


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
