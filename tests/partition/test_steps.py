"""The min-cut partitioner step by step (prepare, classify, build, cut, extract), its options against
PyTorch's config flags, and both partitioners end to end: graphs that compute the right gradients."""
import math

import numpy as np
import pytest
import torch
from functorch import compile as torch_compile

import autograd
import minitorch2
import partition
from partition.classify import classify_nodes
from partition.cse import fx_graph_cse
from partition.heuristics import MinCutOptions, size_of
from partition.min_cut import choose_saved_values, prepare_joint
from partition.network import FlowNetwork, build_flow_network, solve_min_cut
from partition.op_types import get_default_op_list

from .helpers import joint_of, saved_names
from .programs import PROGRAMS


def _names(nodes):
    return sorted(n.name for n in nodes)


def test_classify_splits_the_sin_cos_chain():
    joint, n = joint_of(minitorch2, "sin_cos_chain")
    info = classify_nodes(joint.graph, n)
    assert _names(info.required_fw) == ["cos", "primals_1", "sin", "sin_1", "sum_1"]
    assert _names(info.required_bw) == ["expand", "mul", "mul_1", "mul_2", "output", "tangents_1"]
    assert _names(info.unclaimed) == ["cos_1", "cos_2", "neg", "sin_2"]
    dist = {node.name: d for node, d in info.dist_from_bw.items()}
    assert dist["sin"] == 1 and dist["cos"] == 1 and dist["sin_2"] == 0


def test_network_prices_nodes_by_bytes_and_bans_with_infinite_edges():
    joint, n = joint_of(minitorch2, "sin_cos_chain")
    info = classify_nodes(joint.graph, n)
    network = build_flow_network(joint.graph, info, get_default_op_list(), MinCutOptions())
    g = network.graph
    assert g["source"]["primals_1_in"]["capacity"] == math.inf  # a primal cannot be recomputed
    assert g["primals_1_in"]["primals_1_out"]["capacity"] == int(32 * 1.1)  # 8 floats, one op from the backward
    assert g["sin_in"]["sin_out"]["capacity"] == 2 * int(32 * 1.1)  # every user fuses it: saving is dearer
    assert g["expand_in"]["sink"]["capacity"] == math.inf  # computed from a tangent: backward only
    assert g["sin_out"]["cos_in"]["capacity"] == math.inf  # data dependencies cannot be cut
    assert {n.name: r for n, r in network.banned.items()} == {
        "primals_1": "primal input", "sum_1": "materialized in backward"}
    result = solve_min_cut(joint.graph, network)
    assert [s.name for s in result.saved_values] == ["primals_1"]
    assert result.cut_value == int(32 * 1.1)


def test_cut_reports_an_unsatisfiable_network_with_its_reasons():
    joint, _ = joint_of(minitorch2, "sin_cos_chain")
    network = FlowNetwork(get_default_op_list())
    network.graph.add_edge("source", "x_in", capacity=math.inf, reason="cannot recompute: test")
    network.graph.add_edge("x_in", "x_out", capacity=math.inf, reason="cannot save: test")
    network.graph.add_edge("x_out", "sink", capacity=math.inf, reason="must be available for backward")
    with pytest.raises(RuntimeError, match="cannot save: test"):
        solve_min_cut(joint.graph, network)


def test_cse_merges_duplicates_and_keeps_the_joint_untouched():
    joint, n = joint_of(minitorch2, "mm_sin_cos_mix")
    before = joint.code
    merged = [node.name for node in fx_graph_cse(joint.graph).nodes if node.op == "call_function"]
    assert joint.code == before
    original = [node.name for node in joint.graph.nodes if node.op == "call_function"]
    assert set(original) - set(merged) == {"sin_1", "cos_1"}  # the backward's sin(mm), cos(mm) are the forward's
    partition.min_cut_rematerialization_partition(joint, None, num_fwd_outputs=n)
    assert joint.code == before


def test_cse_never_merges_random_ops():
    g = minitorch2.fx.Graph()
    x = g.placeholder("primals_1")
    x.meta["val"] = minitorch2.empty(4)
    a = g.call_function(minitorch2.ops.aten.bernoulli.p, (x, 0.5))
    b = g.call_function(minitorch2.ops.aten.bernoulli.p, (x, 0.5))
    c = g.call_function(minitorch2.ops.aten.sin.default, (x,))
    d = g.call_function(minitorch2.ops.aten.sin.default, (x,))
    e = g.call_function(minitorch2.ops.aten.add.Tensor, (c, d))
    g.output((a, b, e))
    merged = [str(node.target) for node in fx_graph_cse(g).nodes if node.op == "call_function"]
    assert merged == ["aten.bernoulli.p", "aten.bernoulli.p", "aten.sin.default", "aten.add.Tensor"]


def test_cse_looks_nodes_up_by_hash_as_torchs_so_a_collision_keeps_both():
    # hash(-1) == hash(-2): torch's fx_graph_cse finds unsqueeze(x, -1) in the bucket of an earlier
    # unsqueeze(x, -2), keeps it, and never registers it, so a later copy of it is kept too (a causal mask built
    # twice, as in two attention layers, shares its iota and unsqueeze(-2) but not the rest)
    from torch._functorch.compile_utils import fx_graph_cse as torch_fx_graph_cse  # (the oracle)

    def build(lib):
        g = lib.fx.Graph()
        x = g.placeholder("primals_1")
        x.meta["val"] = lib.empty(4)
        aten = lib.ops.aten
        rows = [g.call_function(aten.unsqueeze.default, (x, d)) for d in (-2, -1, -2, -1)]
        diffs = [g.call_function(aten.sub.Tensor, (rows[i], rows[i + 1])) for i in (0, 2)]
        g.output(tuple(diffs))
        return g

    def targets(graph):
        return [(str(n.target), tuple(a.name if hasattr(a, "name") else a for a in n.args))
                for n in graph.nodes if n.op == "call_function"]

    ours, theirs = targets(fx_graph_cse(build(minitorch2))), targets(torch_fx_graph_cse(build(torch)))
    assert ours == theirs
    assert [t for t, _ in ours] == ["aten.unsqueeze.default"] * 3 + ["aten.sub.Tensor"] * 2


def test_size_of_counts_bytes():
    joint, _ = joint_of(minitorch2, "layer_norm")
    sizes = {node.name: size_of(node) for node in joint.graph.nodes}
    assert sizes["primals_1"] == 4 * 8 * 4
    assert sizes["native_layer_norm"] == (4 * 8 + 4 + 4) * 4  # a tuple: the sum of its tensors


@pytest.mark.parametrize("flag, name", [("ban_recompute_materialized_backward", "linear_gelu_linear"),
                                        ("ban_recompute_used_far_apart", "used_far_apart"),
                                        ("ban_recompute_long_fusible_chains", "long_pointwise_chain"),
                                        ("ban_recompute_reductions", "manual_norm")])
def test_turning_a_ban_off_matches_torch_config(flag, name):
    option = flag.replace("ban_recompute_", "ban_if_").replace("reductions", "reduction")
    ours_joint, n = joint_of(minitorch2, name)
    theirs_joint, n_theirs = joint_of(torch, name)
    with torch._functorch.config.patch(flag, False):  # the config's own patch: monkeypatch's undo deletes its key
        theirs_fw, _ = torch_compile.min_cut_rematerialization_partition(theirs_joint, None, num_fwd_outputs=n_theirs)
    options = MinCutOptions(**{option: False})
    ours_fw, _ = partition.min_cut_rematerialization_partition(ours_joint, None, num_fwd_outputs=n, options=options)
    assert saved_names(ours_fw, n) == saved_names(theirs_fw, n_theirs)


@pytest.mark.parametrize("name", ["gelu_mul", "mlp_relu", "transformer_mlp"])
def test_static_inputs_are_free_to_save_as_in_torch(name):
    ours_joint, n = joint_of(minitorch2, name)
    theirs_joint, n_theirs = joint_of(torch, name)
    static = list(range(1, sum(1 for node in ours_joint.graph.nodes if node.name.startswith("primals"))))
    theirs_fw, _ = torch_compile.min_cut_rematerialization_partition(
        theirs_joint, None, num_fwd_outputs=n_theirs, static_lifetime_input_indices=static)
    ours_fw, _ = partition.min_cut_rematerialization_partition(
        ours_joint, None, num_fwd_outputs=n, static_lifetime_input_indices=static)
    assert saved_names(ours_fw, n) == saved_names(theirs_fw, n_theirs)


def test_backward_recomputes_where_autograd_would():
    joint, n = joint_of(minitorch2, "sin_cos_chain")
    _, bw = partition.min_cut_rematerialization_partition(joint, None, num_fwd_outputs=n)
    ops = [node.name for node in bw.graph.nodes if node.op == "call_function"]
    assert ops[:3] == ["expand", "sin", "cos"]  # the backward starts, then pulls in what it recomputes


def test_default_partition_without_tracer_tags_finds_the_same_forward():
    for name in ("tanh_sigmoid", "layer_norm_linear", "attention", "log_softmax_nll"):
        joint, n = joint_of(minitorch2, name)
        tagged_fw, _ = partition.default_partition(joint, None, num_fwd_outputs=n)
        for node in joint.graph.nodes:
            node.meta.pop("partitioner_tag", None)
        untagged_fw, _ = partition.default_partition(joint, None, num_fwd_outputs=n)
        assert saved_names(untagged_fw, n) == saved_names(tagged_fw, n), name


@pytest.mark.parametrize("name", ["linear_gelu_linear", "layer_norm_linear", "attention", "long_chain_with_matmuls",
                                  "two_outputs"])
@pytest.mark.parametrize("which", ["default", "min_cut"])
def test_partitioned_graphs_compute_eager_gradients(name, which):
    partition_fn = {"default": partition.default_partition,
                    "min_cut": partition.min_cut_rematerialization_partition}[which]
    fn, inputs = PROGRAMS[name](minitorch2)
    out = autograd.aot_function(fn, fw_compiler=lambda gm, _: gm.forward, partition_fn=partition_fn)(*inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    sum(o.sum() for o in outs).backward()
    compiled = [t.grad.numpy().copy() if t.grad is not None else None for t in inputs]
    fn, inputs = PROGRAMS[name](minitorch2)
    out = fn(*inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    sum(o.sum() for o in outs).backward()
    for got, t in zip(compiled, inputs):
        if t.grad is None:
            assert got is None
        else:
            np.testing.assert_allclose(got, t.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_choose_saved_values_exposes_bans_and_cut():
    joint, n = joint_of(minitorch2, "linear_gelu_linear")
    graph = prepare_joint(joint.graph)
    result = choose_saved_values(graph, classify_nodes(graph, n), MinCutOptions())
    reasons = {node.name: reason for node, reason in result.banned.items()}
    assert reasons["gelu"] == "materialized in backward"  # read by mm in the weight gradient
    assert reasons["addmm"] == "not in recomputable allowlist"
    assert [node.name for node in result.saved_values] == ["primals_1", "addmm", "gelu", "t_2"]
