"""aot_autograd's keep_inference_input_mutations: an input's in-place update as a copy_ at the end of the graph.

autograd layer, a pass on the functionalized joint graph (or inference graph), before it is logged and partitioned.
Functionalization (functionalize.py) makes every mutation of an input an extra output, the input's new value, which
the runtime copies in after the call (`write_back`). With this option, as torch's aot_eager and inductor set
it, an input whose data alone changed, to a value that needs no gradient (a buffer such as BatchNorm's running
statistics, x.add_(1) on an input, a write through a view of one), is updated inside the graph instead:
`copy_ = torch.ops.aten.copy_.default(primals_3, getitem_3)` before the output, in input order, and the graph no
longer returns the value (torch's MutationType.MUTATED_IN_GRAPH). An input whose new value requires grad stays an
output: autograd must record its copy.

In a joint graph the copies come last, after the backward's nodes, as in torch's; its partitioners keep a copy_
into a primal in the forward, at its end. `partition_keeping_copies` does that around any partitioner: the
copied values become the forward's first outputs while it cuts, and the copies end the forward it returns.
"""
from minitorch2._ops import ops
from minitorch2.fx._pytree import PyTreeCodeGen
from minitorch2.utils import _pytree as pytree


def copy_mutations_into_inputs(gm, mutated_inputs, grad_mutated, keep_input_mutations):
    """With the option on, rewrite `gm` (which returns the new values of `mutated_inputs` first) so that those not in
    `grad_mutated` are copied into their inputs in the graph. Returns the positions of the inputs whose new values
    the graph still returns."""
    if not keep_input_mutations or not mutated_inputs:
        return mutated_inputs
    graph = gm.graph
    placeholders, output = graph.find_nodes(op="placeholder"), graph.output_node()
    values = dict(zip(mutated_inputs, output.args[0]))
    kept = [p for p in mutated_inputs if p not in grad_mutated
            and _geometry(placeholders[p]) is not None and _geometry(placeholders[p]) == _geometry(values[p])]
    with graph.inserting_before(output):
        for p in kept:
            graph.create_node("call_function", ops.aten.copy_.default, (placeholders[p], values[p]), name="copy_")
    returned = [p for p in mutated_inputs if p not in kept]
    set_outputs(gm, [values[p] for p in returned] + list(output.args[0][len(mutated_inputs):]))
    return returned


def partition_keeping_copies(partition_fn, joint, joint_inputs, *, num_fwd_outputs, **kwargs):
    """partition_fn(joint, ...) with the joint's copy_ nodes into primals placed at the end of the forward."""
    copies = [n for n in joint.graph.nodes if n.op == "call_function" and n.target is ops.aten.copy_.default]
    if not copies:
        return partition_fn(joint, joint_inputs, num_fwd_outputs=num_fwd_outputs, **kwargs)
    outputs = list(joint.graph.output_node().args[0])
    targets = [(copy.args[0].name, copy.args[1]) for copy in copies]
    for copy in copies:
        joint.graph.erase_node(copy)
    set_outputs(joint, [value for _, value in targets] + outputs)
    try:
        fw_module, bw_module = partition_fn(joint, joint_inputs, num_fwd_outputs=num_fwd_outputs + len(copies),
                                            **kwargs)
    finally:  # the joint as it was traced, copies and all
        with joint.graph.inserting_before(joint.graph.output_node()):
            for name, value in targets:
                joint.graph.create_node("call_function", ops.aten.copy_.default,
                                        (_placeholder(joint, name), value), name="copy_")
        set_outputs(joint, outputs)
    forward_outputs = list(fw_module.graph.output_node().args[0])
    with fw_module.graph.inserting_before(fw_module.graph.output_node()):
        for (name, _), value in zip(targets, forward_outputs):
            fw_module.graph.create_node("call_function", ops.aten.copy_.default,
                                        (_placeholder(fw_module, name), value), name="copy_")
    set_outputs(fw_module, forward_outputs[len(copies):])
    return fw_module, bw_module


def _placeholder(gm, name):
    return next(n for n in gm.graph.find_nodes(op="placeholder") if n.name == name)


def set_outputs(gm, values, codegen=None):
    """The graph returns `values` (flat) and is recompiled. A joint graph, which calls and returns by pytree
    (`codegen`: its own unless given), returns them as a flat list; any other graph as a tuple, as torch's."""
    codegen = codegen or gm.graph._codegen
    pytree_calling = isinstance(codegen, PyTreeCodeGen) and codegen.out_spec is not None
    gm.graph.output_node().args = (list(values) if pytree_calling else tuple(values),)
    if pytree_calling:
        gm.graph.set_codegen(PyTreeCodeGen(codegen.orig_args, codegen.in_spec,
                                           pytree.tree_flatten([None] * len(values))[1]))
    gm.recompile()


def _geometry(node):
    """Sizes and strides as text (no guard on a symbolic size): a metadata mutation (x.t_()) changes them, and
    torch keeps such an input's update out of the graph."""
    val = node.meta.get("val")
    return None if val is None else (tuple(map(str, val.shape)), tuple(map(str, val.stride())))
