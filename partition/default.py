"""default_partition: cut a joint graph where the forward outputs are (as PyTorch's default_partition),
and the graph-extraction helpers every partitioner shares.

partition layer. The forward graph is every node needed to compute the forward outputs from the primals. Every
forward value the backward reads is *saved*: returned by the forward after its real outputs, received by the
backward as inputs named as the saved node (`def forward(self, primals_3, relu, tangents_1)`).

    joint(primals, tangents) ──> forward(primals) -> (outputs..., saved...)
                             └─> backward(saved..., tangents) -> (grads...)

The one idea to hold: given the list of saved values, both graphs follow mechanically (`extract_fwd_bwd_graphs`); a
partitioner is only a way of choosing that list.
"""
import operator

from minitorch2._sym import is_symbolic
from minitorch2._tensor import Tensor
from minitorch2.fx import Graph, GraphModule
from minitorch2.utils import _pytree as pytree

from .input_copies import keeping_input_copies
from .reorder import raise_getitems
from .report import log_partition


@keeping_input_copies
def default_partition(joint_module, _joint_inputs, *, num_fwd_outputs, **_ignored):
    joint = joint_module.graph
    # a tuple cannot be saved: its getitem projections are, being forward nodes too
    saved = [node for node in forward_region(joint, num_fwd_outputs) if not is_multi_output(node)]
    fwd_graph, bwd_graph = extract_fwd_bwd_graphs(joint, saved, num_fwd_outputs)
    raise_getitems(fwd_graph)
    raise_getitems(bwd_graph)
    fw_module, bw_module = GraphModule(joint_module, fwd_graph), GraphModule(joint_module, bwd_graph)
    log_partition(joint_module, fw_module, bw_module, "default_partition")
    return fw_module, bw_module


def forward_region(joint_graph, num_fwd_outputs):
    """The nodes the forward traced, in order: the joint graph's prefix up to the last of them, tangents excluded.

    The position, not just the data flow, decides (as in PyTorch 2.13): a value the forward computed but the
    forward outputs do not need, such as the `detach` autograd makes of a saved output, is still saved
    rather than recomputed. A tracer that tags nodes `meta["partitioner_tag"] = "is_forward"` says where the
    forward ended; without tags the end is the last node that feeds the forward outputs, or is a `detach` or
    `getitem` of one, before the first node that reads a tangent."""
    nodes = list(joint_graph.nodes)
    if any(n.meta.get("partitioner_tag") == "is_forward" for n in nodes):
        last = max(i for i, n in enumerate(nodes)
                   if n.meta.get("partitioner_tag") == "is_forward" or is_input(n, "primals"))
    else:
        last = _last_forward_index(joint_graph, nodes, num_fwd_outputs)
    return [n for n in nodes[: last + 1] if not is_input(n, "tangents")]


def _last_forward_index(joint_graph, nodes, num_fwd_outputs):
    primals = placeholders(joint_graph, "primals")
    fwd_outputs, _ = split_outputs(joint_graph, num_fwd_outputs)
    needed = {n.name for n in primals + subgraph_nodes(joint_graph, primals, fwd_outputs)}
    tangents = set(placeholders(joint_graph, "tangents"))
    last = max((i for i, n in enumerate(nodes) if is_input(n, "primals")), default=0)
    for i, node in enumerate(nodes):
        if node.op == "call_function" and any(arg in tangents for arg in node.all_input_nodes):
            break  # the backward has begun
        if node.name in needed or _made_by_forward_from(node, needed):
            last = i
    return last


def _made_by_forward_from(node, needed):
    """A `detach` or `getitem` of a forward value: traced in the forward, though no output needs it."""
    if node.op != "call_function" or not node.all_input_nodes or node.all_input_nodes[0].name not in needed:
        return False
    return node.target is operator.getitem or getattr(node.target, "_opname", None) == "detach"


def is_input(node, kind):
    """Is `node` one of the joint graph's inputs of that kind ("primals" or "tangents")?"""
    return node.op == "placeholder" and node.name.startswith(kind)


def placeholders(graph, kind):
    return [n for n in graph.nodes if is_input(n, kind)]


def is_multi_output(node):
    """A node returning a tuple, read only through getitem."""
    val = node.meta.get("val")
    return node.op == "call_function" and isinstance(val, (tuple, list)) and len(node.users) > 0 and all(
        user.target is operator.getitem for user in node.users)


def split_outputs(graph, num_fwd_outputs):
    """(forward outputs, gradient outputs) of a joint graph, flattened."""
    flat = pytree.tree_leaves(graph.output_node().args[0])
    return flat[:num_fwd_outputs], flat[num_fwd_outputs:]


def subgraph_nodes(joint_graph, inputs, outputs):
    """The nodes (in graph order, inputs excluded) that compute `outputs` from `inputs` alone.

    A node belongs when all its inputs can be computed from `inputs` (placeholders other than `inputs`
    cannot) and it is live: an output, impure (it must run even if unused), or read by a live node. This is
    exactly what copying every computable node and then eliminating dead code would leave, without copying.
    A random op counts as pure here, as in PyTorch while it partitions (Inductor's `fallback_random` is off):
    an unused draw is dropped rather than dragging its inputs into the backward."""
    given = set(inputs)
    computable = set(given)
    candidates = []
    for node in joint_graph.nodes:
        if node in given or node.op in ("placeholder", "output"):
            continue
        if all(arg in computable for arg in node.all_input_nodes):
            computable.add(node)
            candidates.append(node)
    for out in outputs:
        if out is not None and out not in computable:
            raise RuntimeError(f"partition: output {out} cannot be computed from the graph's inputs")
    live = {out for out in outputs if out is not None}
    for node in reversed(candidates):
        if node in live or node.is_impure(impure_random=False):
            live.add(node)
            live.update(node.all_input_nodes)
    return [node for node in candidates if node in live]


def extract_graph(joint_graph, inputs, outputs):
    """The subgraph computing `outputs` from `inputs` alone (PyTorch's _extract_graph_with_inputs_outputs):
    `inputs` become placeholders of the same names, and the graph returns the tuple of `outputs`."""
    graph = Graph()
    env = {}
    for node in inputs:
        new = graph.placeholder(node.name)
        new.meta = dict(node.meta)
        env[node] = new
    for node in subgraph_nodes(joint_graph, inputs, outputs):
        env[node] = graph.node_copy(node, env.__getitem__)
    graph.output(tuple(None if out is None else env[out] for out in outputs))
    return graph


def extract_fwd_bwd_graphs(joint_graph, saved_values, num_fwd_outputs):
    """(forward Graph, backward Graph): forward(primals) -> outputs + saved; backward(saved, tangents) -> grads.
    Saved values the backward turns out not to read are dropped first."""
    primals = placeholders(joint_graph, "primals")
    tangents = placeholders(joint_graph, "tangents")
    fwd_outputs, bwd_outputs = split_outputs(joint_graph, num_fwd_outputs)
    backward = subgraph_nodes(joint_graph, saved_values + tangents, bwd_outputs)
    read = {arg for node in backward for arg in node.all_input_nodes} | set(bwd_outputs)
    saved_values = [n for n in saved_values if n in read]
    # dynamic shapes, as torch's: sizes (SymInts) are saved apart, returned last by the forward, taken first by the
    # backward, with the SymInt input of every symbol in the sizes of what the backward takes (a compiler binds them)
    tensors = [n for n in saved_values if not is_sym_node(n)]
    sizes = with_size_bindings(joint_graph, [n for n in saved_values if is_sym_node(n)], tensors + tangents)
    return (extract_graph(joint_graph, primals, fwd_outputs + tensors + sizes),
            extract_graph(joint_graph, sizes + tensors + tangents, bwd_outputs))


def is_sym_node(node):
    return is_symbolic(node.meta.get("val"))


def with_size_bindings(joint_graph, sizes, backward_inputs):
    """`sizes`, with before them the SymInt primals binding the symbols of the others and of `backward_inputs`."""
    binding = {}
    for node in placeholders(joint_graph, "primals"):
        if is_sym_node(node) and _expr(node.meta["val"]).is_Symbol:
            binding.setdefault(_expr(node.meta["val"]), node)
    bound = [n for n in sizes if n in binding.values()]
    known = {_expr(n.meta["val"]) for n in bound}
    for node in [n for n in sizes if n not in bound] + backward_inputs:
        new = _free_symbols(node.meta.get("val")) - known
        bound += [binding[s] for s in sorted(new, key=str) if s in binding]
        known |= new
    return bound + [n for n in sizes if n not in bound]


def _expr(size):
    return size.node.shape_env.simplify(size.node.expr)


def _free_symbols(value):
    sizes = [*value.shape, *value.stride()] if isinstance(value, Tensor) else [value]
    return {symbol for size in sizes if is_symbolic(size) for symbol in _expr(size).free_symbols}


