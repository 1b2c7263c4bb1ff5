"""min_cut_rematerialization_partition: save the cheapest set of tensors, recompute the rest in the backward
(as torch._functorch.partitioners.min_cut_rematerialization_partition).

partition layer; `autograd.aot_function(..., partition_fn=...)` calls it with the joint graph and gets back
`(fw_module, bw_module)`. Inductor's default. It bets that a fusing compiler recomputes cheap pointwise ops almost
for free inside kernels it launches anyway, so it saves only what is dear to redo (activation checkpointing, decided
per tensor by a solver):

    1. prepare     drop dead code, merge duplicate computations     cse.py
    2. classify    required forward / required backward / neither    classify.py
    3. build       the flow network: capacity = bytes to save,       network.py,
                   infinite where recomputation is banned            heuristics.py
    4. cut         networkx.minimum_cut; cut node edges = saved       network.py
    5. extract     forward(primals) -> outputs + saved;              default.py,
                   backward(saved, tangents) -> grads, reordered      reorder.py
                   so recomputation happens where it is used

On `f(x) = sin(cos(sin(x))).sum()` the default partition saves `[x, sin, cos]`; the min-cut saves `[x]` and the
backward recomputes `sin` and `cos`.

The one idea to hold: everything here exists to choose the list of saved values; the last step turns it into two
graphs as the default partitioner would.
"""
import gc

from minitorch2.fx import GraphModule

from .classify import classify_nodes
from .cse import fx_graph_cse
from .default import default_partition, extract_fwd_bwd_graphs, keeping_input_copies
from .heuristics import MinCutOptions
from .network import build_flow_network, solve_min_cut
from .op_types import get_default_op_list
from .reorder import raise_getitems, reorder_like_autograd
from .report import log_partition


@keeping_input_copies
def min_cut_rematerialization_partition(joint_module, _joint_inputs, compiler="inductor", *, num_fwd_outputs,
                                        static_lifetime_input_indices=None, options=None, **_ignored):
    """Partition `joint_module` so that the backward recomputes what is cheap; returns (fw_module, bw_module).

    `compiler` is accepted for PyTorch compatibility ("inductor" is the only op list, as in PyTorch 2.13).
    `static_lifetime_input_indices` lists primals that live anyway (parameters): they are free to save.
    `options` (a `MinCutOptions`) turns individual ban rules off. The joint module is not modified."""
    # on a 50k-node graph, the cyclic collector's full collections over the many small objects made here
    # cost as much as the cut
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _partition(joint_module, _joint_inputs, num_fwd_outputs, static_lifetime_input_indices, options)
    finally:
        if collecting:
            gc.enable()


def _partition(joint_module, _joint_inputs, num_fwd_outputs, static_lifetime_input_indices, options):
    joint_graph = prepare_joint(joint_module.graph)
    node_info = classify_nodes(joint_graph, num_fwd_outputs, static_lifetime_input_indices or ())
    if not node_info.required_bw:
        # Nothing reads a tangent: there is no cut to make (and networkx rejects a network without a sink).
        return default_partition(GraphModule(joint_module, joint_graph), _joint_inputs, num_fwd_outputs=num_fwd_outputs)
    result = choose_saved_values(joint_graph, node_info, options or MinCutOptions())
    fw_module, bw_module = extract_partition(joint_module, joint_graph, result.saved_values, num_fwd_outputs)
    log_partition(joint_module, fw_module, bw_module, "min_cut_rematerialization_partition")
    return fw_module, bw_module


def prepare_joint(joint_graph):
    """Step 1: a copy of the joint graph without dead code and with duplicate computations merged."""
    return fx_graph_cse(joint_graph)


def choose_saved_values(joint_graph, node_info, options):
    """Steps 3 and 4: build the flow network and cut it; a `MinCutResult` (saved values, bans, cut value)."""
    network = build_flow_network(joint_graph, node_info, get_default_op_list(), options)
    return solve_min_cut(joint_graph, network)


def extract_partition(joint_module, joint_graph, saved_values, num_fwd_outputs):
    """Step 5: the forward and backward GraphModules for a chosen list of saved values."""
    fwd_graph, bwd_graph = extract_fwd_bwd_graphs(joint_graph, list(saved_values), num_fwd_outputs)
    reorder_like_autograd(bwd_graph)
    raise_getitems(fwd_graph)
    raise_getitems(bwd_graph)
    return GraphModule(joint_module, fwd_graph), GraphModule(joint_module, bwd_graph)
