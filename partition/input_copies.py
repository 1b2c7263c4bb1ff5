"""The `copy_` nodes that end a joint graph (aot_autograd's keep_inference_input_mutations: a buffer's or an input's
new data written in, `copy_ = torch.ops.aten.copy_.default(primals_3, getitem_3)`) placed at the end of the forward,
as torch's partitioners place them (a mutating op must run in the forward).

partition layer, around both partitioners (`keeping_input_copies`): a partition_fn, ours or a user's, sees the
joint graph as torch's shows it, copies and all; ours cut it with the copied values as the forward's first outputs,
then end the forward they return with the copies. autograd/input_mutations_in_graph.py puts the copies in the joint.
"""
import functools

from minitorch2._ops import ops
from minitorch2.fx._pytree import PyTreeCodeGen
from minitorch2.utils import _pytree as pytree


def keeping_input_copies(partition_fn):
    """partition_fn, taking a joint graph whose copy_ nodes into primals it keeps at the end of the forward."""

    @functools.wraps(partition_fn)
    def partition(joint, joint_inputs, *args, num_fwd_outputs, **kwargs):
        copies = [n for n in joint.graph.nodes if n.op == "call_function" and n.target is ops.aten.copy_.default]
        if not copies:
            return partition_fn(joint, joint_inputs, *args, num_fwd_outputs=num_fwd_outputs, **kwargs)
        outputs = list(joint.graph.output_node().args[0])
        targets = [(copy.args[0].name, copy.args[1]) for copy in copies]
        for copy in copies:
            joint.graph.erase_node(copy)
        set_outputs(joint, [value for _, value in targets] + outputs)
        try:
            fw_module, bw_module = partition_fn(joint, joint_inputs, *args,
                                                num_fwd_outputs=num_fwd_outputs + len(copies), **kwargs)
        finally:  # the joint as it was traced, copies and all
            _add_copies(joint, targets)
            set_outputs(joint, outputs)
        forward_outputs = list(fw_module.graph.output_node().args[0])
        _add_copies(fw_module, zip([name for name, _ in targets], forward_outputs))
        set_outputs(fw_module, forward_outputs[len(copies):])
        return fw_module, bw_module

    return partition


def _add_copies(gm, targets):
    """`copy_(placeholder named name, value)` for each (name, value), before the output."""
    placeholders = {n.name: n for n in gm.graph.find_nodes(op="placeholder")}
    with gm.graph.inserting_before(gm.graph.output_node()):
        for name, value in targets:
            gm.graph.create_node("call_function", ops.aten.copy_.default, (placeholders[name], value), name="copy_")


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
