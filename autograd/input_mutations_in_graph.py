"""aot_autograd's keep_inference_input_mutations: an input's in-place update as a copy_ at the end of the graph.

autograd layer, a pass on the functionalized joint graph (or inference graph), before it is logged and partitioned.
Functionalization (functionalize.py) makes every mutation of an input an extra output, the input's new value, which
the runtime copies in after the call (`write_back`). With this option, as torch's aot_eager and inductor set
it, an input whose data alone changed, to a value that needs no gradient (a buffer such as BatchNorm's running
statistics, x.add_(1) on an input, a write through a view of one), is updated inside the graph instead:
`copy_ = torch.ops.aten.copy_.default(primals_3, getitem_3)` before the output, in input order, and the graph no
longer returns the value (torch's MutationType.MUTATED_IN_GRAPH). An input whose new value requires grad stays an
output: autograd must record its copy.

In a joint graph the copies come last, after the backward's nodes, as in torch's, and a partition_fn sees them
there; its partitioners, as ours (partition/input_copies.py), keep a copy_ into a primal at the end of the forward.
"""
from minitorch2._aten.overlap import has_internal_overlap
from minitorch2._ops import ops
from partition.input_copies import set_outputs


def copy_mutations_into_inputs(gm, mutated_inputs, grad_mutated, keep_input_mutations):
    """With the option on, rewrite `gm` (which returns the new values of `mutated_inputs` first) so that those not in
    `grad_mutated` are copied into their inputs in the graph. Returns the positions of the inputs whose new values
    the graph still returns."""
    if not keep_input_mutations or not mutated_inputs:
        return mutated_inputs
    graph = gm.graph
    placeholders, output = graph.find_nodes(op="placeholder"), graph.output_node()
    values = dict(zip(mutated_inputs, output.args[0]))
    if any(has_internal_overlap(placeholders[p].meta["val"]) for p in mutated_inputs if p not in grad_mutated):
        raise RuntimeError("more than one element of the written-to tensor refers to a single memory location")
    kept = [p for p in mutated_inputs if p not in grad_mutated
            and _geometry(placeholders[p]) is not None and _geometry(placeholders[p]) == _geometry(values[p])]
    with graph.inserting_before(output):
        for p in kept:
            graph.create_node("call_function", ops.aten.copy_.default, (placeholders[p], values[p]), name="copy_")
    returned = [p for p in mutated_inputs if p not in kept]
    set_outputs(gm, [values[p] for p in returned] + list(output.args[0][len(mutated_inputs):]))
    return returned


def _geometry(node):
    """Sizes and strides as text (no guard on a symbolic size): a metadata mutation (x.t_()) changes them, and
    torch keeps such an input's update out of the graph."""
    val = node.meta.get("val")
    return None if val is None else (tuple(map(str, val.shape)), tuple(map(str, val.stride())))
