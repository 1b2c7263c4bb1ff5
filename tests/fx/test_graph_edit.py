"""Graph construction and the edit discipline, checked against torch.fx on the same edits.

Insertion points, replace_all_uses_with / replace_input_with, users order,
erase_node refusing a used node (torch's message), lint catching each kind of
corruption, dead-code elimination, copying, unique naming, forgetting
recompile() (the old code keeps running, as in torch).
"""
import contextlib
import copy
import io
import operator
import re

import pytest
import torch
import torch.fx

import minitorch2
import minitorch2.fx

from .helpers import trace_both

pytestmark = pytest.mark.fx

LIBS = {"torch": torch, "ours": minitorch2}


def both(build):
    """Run build(lib) on both libraries; return (theirs, ours)."""
    return build(torch), build(minitorch2)


def _hand_built(lib):
    g = lib.fx.Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    a = g.call_function(operator.add, (x, y))
    b = g.call_function(lib.relu, (a,))
    c = g.call_method("sum", (b,), {"dim": 0})
    with g.inserting_before(c):
        d = g.call_function(operator.mul, (b, 2))
    with g.inserting_after(x):
        e = g.call_function(lib.neg, (x,))
    c.args = (d,)
    g.output((c, e))
    return g


def test_hand_built_graph_prints_as_torch():
    theirs, ours = both(_hand_built)
    assert str(ours) == str(theirs)
    assert ours.python_code("self").src == theirs.python_code("self").src


def _users_and_inputs(lib):
    g = lib.fx.Graph()
    x, y, z = g.placeholder("x"), g.placeholder("y"), g.placeholder("z")
    a = g.call_function(operator.add, (x, y))
    b = g.call_function(operator.mul, (x, a))
    b.args = (x, y)
    b.args = (z, y, x)
    b.replace_input_with(y, a)
    b.kwargs = {"k": [x, (y,)]}
    a.replace_all_uses_with(z)
    return [(n.name, [u.name for u in n.users], [i.name for i in n.all_input_nodes]) for n in g.nodes]


def test_users_and_inputs_follow_torch():
    theirs, ours = both(_users_and_inputs)
    assert ours == theirs


def test_args_are_immutable():
    g = minitorch2.fx.Graph()
    x = g.placeholder("x")
    n = g.call_function(minitorch2.cat, ([x, x],))
    with pytest.raises(TypeError, match="does not support mutation"):
        n.args[0].append(x)
    with pytest.raises(TypeError):
        n.kwargs["dim"] = 1


def test_erase_node_with_users_raises_torch_error():
    messages = []
    for lib in LIBS.values():
        g = lib.fx.Graph()
        x = g.placeholder("x")
        r = g.call_function(lib.relu, (x,))
        g.output(r)
        with pytest.raises(RuntimeError) as info:
            g.erase_node(r)
        messages.append(str(info.value))
    assert messages[0] == messages[1] == "Tried to erase Node relu but it still had 1 users in the graph: {output: None}!"


def test_forgetting_recompile_keeps_old_code():
    results = []
    for lib in LIBS.values():
        def f(x):
            return lib.relu(x) + 1

        gm = lib.fx.symbolic_trace(f)
        relu = next(n for n in gm.graph.nodes if n.target is lib.relu)
        with gm.graph.inserting_after(relu):
            neg = gm.graph.call_function(lib.neg, (relu,))
        relu.replace_all_uses_with(neg)
        neg.args = (relu,)
        x = lib.tensor([1.0, -2.0])
        stale_code, stale = gm.code, gm(x).tolist()
        gm.recompile()
        results.append((stale, gm(x).tolist(), stale_code == gm.code, gm.code))
    assert results[0] == results[1]
    assert results[1][0] == [2.0, 1.0] and results[1][1] == [0.0, 1.0] and not results[1][2]


def _corruptions(lib):
    """Each corruption lint must catch: (label, graph)."""
    cases = []
    g = lib.fx.Graph()  # use before definition
    x = g.placeholder("x")
    a = g.call_function(lib.relu, (x,))
    b = g.call_function(lib.neg, (a,))
    g.output(b)
    a.prepend(b)
    cases.append(("order", g))
    g, other = lib.fx.Graph(), lib.fx.Graph()  # a node of another graph
    foreign = other.placeholder("y")
    x = g.placeholder("x")
    g.output(g.call_function(operator.add, (x, foreign)))
    cases.append(("foreign", g))
    g = lib.fx.Graph()  # a reference to an erased node
    x = g.placeholder("x")
    a = g.call_function(lib.relu, (x,))
    g.output(a)
    g.erase_node(g.output_node())
    g.erase_node(a)
    g.output(a)
    cases.append(("erased", g))
    return cases


@pytest.mark.parametrize("index", range(3))
def test_lint_catches_each_corruption_as_torch_does(index):
    outcomes = []
    for lib in LIBS.values():
        label, g = _corruptions(lib)[index]
        with pytest.raises(RuntimeError) as info:
            g.lint()
        outcomes.append((label, str(info.value).split("\n")[0]))
    assert outcomes[0] == outcomes[1]


def test_lint_checks_targets_on_an_owning_module():
    for lib in LIBS.values():
        gm = lib.fx.symbolic_trace(lib.nn.Sequential(lib.nn.Linear(2, 2)))
        node = next(n for n in gm.graph.nodes if n.op == "call_module")
        node.target = "missing"
        with pytest.raises(RuntimeError, match="references nonexistent attribute missing"):
            gm.graph.lint()
        node.target = "0"
        gm.graph.lint()


def test_eliminate_dead_code_matches_torch():
    def build(lib):
        def f(x):
            unused = x.exp()  # noqa: F841
            kept = x + 1
            lib.relu(kept)
            return kept * 2

        gm = lib.fx.symbolic_trace(f)
        changed = gm.graph.eliminate_dead_code()
        gm.recompile()
        return changed, str(gm.graph), gm.code

    theirs, ours = both(build)
    assert ours == theirs and ours[0] is True


def test_node_names_follow_torch():
    candidates = ["sum", "list", "for", "class", "foo.bar", "Foo", "fooBar", "3abc", "x_1", "x_1", "x", "print",
                  "torch", "device", "inf", "_", "add_1", "add", "add", "layers.0.conv", "*args", "**kw", "a.b-c"]

    def build(lib):
        g = lib.fx.Graph()
        x = g.placeholder("x")
        names = [g.create_node("call_method", "t", (x,), name=c).name for c in candidates]
        names += [g.call_method(t, (x,)).name for t in ("__add__", "fooBar", "ALLCaps", "layers.0")]
        names.append(g.call_module("seq.0.Conv", (x,)).name)
        names.append(g.get_attr("layers.0.weight").name)
        names.append(g.call_function(lib.ops.aten.add.Tensor, (x, x)).name)
        names.append(g.call_function(lib.sum, (x,)).name)
        return names

    theirs, ours = both(build)
    assert ours == theirs


def test_node_copy_and_graph_copy_match_torch():
    def build(lib):
        gm = lib.fx.symbolic_trace(lambda x, y: (x + y).relu() * y)
        g = lib.fx.Graph()
        a = g.placeholder("a")
        val_map = {}
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        val_map[placeholders[0]] = a
        val_map[placeholders[1]] = g.call_function(operator.mul, (a, 3))
        out = g.graph_copy(gm.graph, val_map)
        g.output(out)
        g.lint()
        return str(g), str(copy.deepcopy(g))

    theirs, ours = both(build)
    assert ours == theirs


def test_prepend_append_move_nodes():
    g = minitorch2.fx.Graph()
    x = g.placeholder("x")
    a = g.call_function(minitorch2.relu, (x,))
    b = g.call_function(minitorch2.neg, (x,))
    c = g.call_function(operator.add, (a, b))
    g.output(c)
    a.prepend(b)
    assert [n.name for n in g.nodes] == ["x", "neg", "relu", "add", "output"]
    a.append(b)
    assert [n.name for n in g.nodes] == ["x", "relu", "neg", "add", "output"]
    g.lint()
    assert [n.name for n in reversed(g.nodes)] == ["output", "add", "neg", "relu", "x"]


def test_iteration_survives_erasing():
    gm = minitorch2.fx.symbolic_trace(lambda x: x.relu().neg().exp())
    seen = []
    for node in gm.graph.nodes:
        seen.append(node.name)
        if node.name == "neg":
            node.replace_all_uses_with(node.args[0])
            gm.graph.erase_node(node)
    assert seen == ["x", "relu", "neg", "exp", "output"]
    gm.recompile()
    assert "neg" not in gm.code


def test_graph_module_deepcopy_is_independent():
    _, gm, _ = trace_both("mlp_modules")
    clone = copy.deepcopy(gm)
    assert clone.code == gm.code and type(clone) is not type(gm)
    assert clone.l1.weight is not gm.l1.weight
    x = minitorch2.randn(2, 6)
    minitorch2.testing.assert_close(clone(x), gm(x))
    for node in clone.graph.nodes:
        if node.op == "call_module" and node.target == "act":
            node.target = "l1"
    assert "act" in gm.code


def test_graph_module_from_dict_root_and_str():
    lin = minitorch2.nn.Linear(2, 3)
    g = minitorch2.fx.Graph()
    x = g.placeholder("x")
    w = g.get_attr("sub.lin.bias")
    g.output(g.call_function(operator.add, (g.call_module("sub.lin", (x,)), w)))
    gm = minitorch2.fx.GraphModule({"sub.lin": lin, "sub.lin.bias": lin.bias}, g, "FromDict")
    assert gm.sub.lin is lin and type(gm).__name__ == "FromDict"
    assert "# To see more debug info" in str(gm) and gm.code in str(gm)
    x = minitorch2.randn(4, 2)
    minitorch2.testing.assert_close(gm(x), lin(x) + lin.bias)


def test_proxy_bool_and_iteration_raise_trace_error():
    for lib in LIBS.values():
        def branch(x):
            if x.sum() > 0:
                return x
            return -x

        def loop(x):
            return [t for t in x]

        with pytest.raises(lib.fx.proxy.TraceError, match="control flow"):
            lib.fx.symbolic_trace(branch)
        with pytest.raises(lib.fx.proxy.TraceError, match="cannot be iterated"):
            lib.fx.symbolic_trace(loop)
        with pytest.raises(RuntimeError, match="'len' is not supported"):
            lib.fx.symbolic_trace(lambda x: len(x))


def test_proxy_has_torch_magic_methods():
    theirs = {name for name in vars(torch.fx.Proxy) if re.fullmatch(r"__\w+__", name)}
    ours = {name for name in vars(minitorch2.fx.Proxy) if re.fullmatch(r"__\w+__", name)}
    missing = {m for m in theirs - ours if m not in ("__torch_function__", "__annotations__", "__weakref__")}
    assert not missing, missing


# What torch 2.13's print_tabular prints, with tabulate 0.10 installed, for _tabular_module (without tabulate it
# prints a request to install it and raises ImportError; ours prints the table either way).
_TORCH_TABULAR = """\
opcode         name    target                   args            kwargs
-------------  ------  -----------------------  --------------  ----------------------------
placeholder    x       x                        ()              {}
placeholder    y       y                        (3,)            {}
get_attr       w       w                        ()              {}
call_function  mul     <built-in function mul>  (x, w)          {}
call_module    lin     lin                      (mul,)          {}
call_method    sum_1   sum                      (lin,)          {'dim': 1, 'keepdim': False}
call_function  mul_1   <built-in function mul>  (sum_1, 2)      {}
call_function  add     <built-in function add>  (mul_1, y)      {}
call_method    view    view                     (x, -1)         {}
output         output  output                   ((add, view),)  {}
"""


def _tabular_of(lib):
    class M(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)
            self.w = lib.nn.Parameter(lib.ones(2))

        def forward(self, x, y=3):
            return self.lin(x * self.w).sum(dim=1, keepdim=False) * 2 + y, x.view(-1)

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        lib.fx.symbolic_trace(M()).graph.print_tabular()
    return out.getvalue()


def test_print_tabular_needs_no_tabulate_and_prints_torchs_table():
    assert _tabular_of(minitorch2) == _TORCH_TABULAR
    try:
        import tabulate  # noqa: F401  (optional: torch.fx needs it to print at all)
    except ImportError:
        with pytest.raises(ImportError):
            _tabular_of(torch)
    else:
        assert _tabular_of(torch) == _TORCH_TABULAR
