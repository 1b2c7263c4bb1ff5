"""replace_pattern against torch.fx.subgraph_rewriter on the same graphs and patterns."""
import operator

import pytest
import torch
import torch.fx

import minitorch2
import minitorch2.fx
from minitorch2.fx.passes.utils.matcher_utils import SubgraphMatcher

from .helpers import assert_same_values, example_inputs

pytestmark = pytest.mark.fx


def _silu_model(lib):
    class M(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.l1, self.l2, self.l3 = lib.nn.Linear(4, 4), lib.nn.Linear(4, 4), lib.nn.Linear(4, 4)

        def forward(self, x):
            a = self.l1(x)
            a = a * lib.sigmoid(a)
            b = self.l2(a)
            b = lib.sigmoid(b) * b
            c = self.l3(b)
            return c * lib.sigmoid(c) + a

    return M()


def _patterns(lib):
    def left(x):
        return x * lib.sigmoid(x)

    def right(x):
        return lib.sigmoid(x) * x

    def replacement(x):
        return lib.nn.functional.silu(x)

    return left, right, replacement


def _rewrite(lib, patterns):
    lib.manual_seed(0)
    model = _silu_model(lib)
    gm = lib.fx.symbolic_trace(model)
    left, right, replacement = _patterns(lib)
    chosen = {"left": left, "right": right}
    report = []
    for name in patterns:
        matches = lib.fx.subgraph_rewriter.replace_pattern(gm, chosen[name], replacement)
        report.append([(m.anchor.name, sorted((p.name, g.name) for p, g in m.nodes_map.items())) for m in matches])
    return gm, model, report


@pytest.mark.parametrize("patterns", [["left"], ["right"], ["left", "right"], ["right", "left"]])
def test_replace_pattern_matches_and_rewrites_as_torch(patterns):
    gm_theirs, model_theirs, report_theirs = _rewrite(torch, patterns)
    gm_ours, model_ours, report_ours = _rewrite(minitorch2, patterns)
    assert report_ours == report_theirs
    assert str(gm_ours.graph) == str(gm_theirs.graph)
    assert gm_ours.code == gm_theirs.code
    gm_ours.graph.lint()
    x_theirs, x_ours = example_inputs([(3, 4)])
    with torch.no_grad():
        assert_same_values(gm_ours(*x_ours), gm_theirs(*x_theirs))
        assert_same_values(gm_ours(*x_ours), model_theirs(*x_theirs))


def test_matching_is_structural_argument_order_matters():
    _, _, report = _rewrite(minitorch2, ["left"])
    assert len(report[0]) == 2  # l1 and l3 write x * sigmoid(x); l2 writes sigmoid(x) * x
    _, _, report = _rewrite(minitorch2, ["right"])
    assert len(report[0]) == 1


def _two_input_case(lib):
    def f(x, w, v):
        a = lib.matmul(x, w) + 1
        b = lib.matmul(a, v) + 1
        return lib.relu(b) + lib.matmul(b, w)

    def pattern(x, w):
        return lib.matmul(x, w) + 1

    def replacement(x, w):
        return lib.mm(x, w).add(1)

    gm = lib.fx.symbolic_trace(f)
    matches = lib.fx.subgraph_rewriter.replace_pattern(gm, pattern, replacement)
    return gm, [(m.anchor.name, sorted((p.name, g.name) for p, g in m.nodes_map.items())) for m in matches]


def test_chained_matches_rewire_to_earlier_replacements():
    gm_theirs, report_theirs = _two_input_case(torch)
    gm_ours, report_ours = _two_input_case(minitorch2)
    assert report_ours == report_theirs and len(report_ours) == 2
    assert gm_ours.code == gm_theirs.code
    x_theirs, x_ours = example_inputs([(3, 3), (3, 3), (3, 3)])
    assert_same_values(gm_ours(*x_ours), gm_theirs(*x_theirs))


def test_match_not_contained_is_skipped():
    def build(lib):
        def f(x):
            s = lib.sigmoid(x)
            return x * s, s  # the sigmoid escapes the pattern: no match

        def pattern(x):
            return x * lib.sigmoid(x)

        gm = lib.fx.symbolic_trace(f)
        return len(lib.fx.subgraph_rewriter.replace_pattern(gm, pattern, lambda x: lib.relu(x))), gm.code

    assert build(minitorch2) == build(torch)
    assert build(minitorch2)[0] == 0


def test_matcher_rejects_dead_code_and_binds_placeholders_consistently():
    g = minitorch2.fx.Graph()
    x = g.placeholder("x")
    g.call_function(minitorch2.relu, (x,))
    g.output(x)
    with pytest.raises(AssertionError, match="dead code"):
        SubgraphMatcher(g)

    def f(x, y):
        return x + x, x + y

    def pattern(a):
        return a + a

    gm = minitorch2.fx.symbolic_trace(f)
    matcher = SubgraphMatcher(minitorch2.fx.symbolic_trace(pattern).graph)
    matches = matcher.match(gm.graph)
    assert [m.anchors[0].name for m in matches] == ["add"]
    assert [n.name for n in matches[0].placeholder_nodes] == ["x"]
    assert matches[0].returning_nodes[0].target is operator.add


def test_torch_fx_exports_the_same_public_names():
    """`from torch.fx import replace_pattern` (and every other name in torch.fx.__all__) works on minitorch2.fx."""
    assert set(torch.fx.__all__) <= set(minitorch2.fx.__all__)
    assert all(hasattr(minitorch2.fx, name) for name in minitorch2.fx.__all__)
