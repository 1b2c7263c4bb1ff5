"""symbolic_trace on minitorch2 prints exactly what torch.fx prints, and computes the same values.

Each program in programs.py is built once per library from one source; both
are traced; `str(graph)`, `gm.code` and `print_readable()` must be equal
character for character, and running both GraphModules on the same inputs
must give the same values.
"""
import pytest
import torch

import minitorch2

from .helpers import assert_same_values, example_inputs, trace_both
from .programs import PROGRAMS

pytestmark = pytest.mark.fx

# Programs whose graphs are compared as text only (their inputs are not plain tensors).
_TEXT_ONLY = {"varargs_forward", "builtin_name_collisions"}


@pytest.fixture(scope="module")
def traced():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = trace_both(name)
        return cache[name]

    return get


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_graph_prints_as_torch(traced, name):
    theirs, ours, _ = traced(name)
    assert str(ours.graph) == str(theirs.graph)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_code_is_torch_code(traced, name):
    theirs, ours, _ = traced(name)
    assert ours.code == theirs.code
    assert ours.print_readable(print_output=False) == theirs.print_readable(print_output=False)


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - _TEXT_ONLY))
def test_traced_module_computes_what_torch_computes(traced, name):
    theirs, ours, shapes = traced(name)
    inputs_theirs, inputs_ours = example_inputs(shapes)
    with torch.no_grad():
        expected = theirs(*inputs_theirs)
    with minitorch2.no_grad():
        got = ours(*inputs_ours)
    assert_same_values(got, expected)


def test_there_are_at_least_25_programs():
    assert len(PROGRAMS) >= 25


def _custom_tracers(lib):
    nn = lib.nn

    class Inner(nn.Module):
        def forward(self, x):
            return lib.relu(x) + 1

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            n = self.lin.weight.shape[0]
            return self.lin(self.inner(x)).view(-1, n)

    class InnerIsLeaf(lib.fx.Tracer):
        def is_leaf_module(self, m, qualified_name):
            return qualified_name == "inner" or super().is_leaf_module(m, qualified_name)

    class EverythingTraced(lib.fx.Tracer):
        def is_leaf_module(self, m, qualified_name):
            return False

    lib.manual_seed(0)
    graphs = [str(InnerIsLeaf().trace(M())), str(lib.fx.Tracer(param_shapes_constant=True).trace(M()))]
    try:
        graphs.append(str(EverythingTraced().trace(M())))
    except Exception as e:  # nn.Linear's own forward calls F.linear: both libraries must agree on this too
        graphs.append(type(e).__name__)
    return graphs


def test_custom_tracers_match_torch():
    assert _custom_tracers(minitorch2) == _custom_tracers(torch)


def _proxy_on_a_plain_graph(lib):
    g = lib.fx.Graph()
    x = lib.fx.Proxy(g.placeholder("x"))
    y = lib.fx.Proxy(g.placeholder("y"))
    z = (x + 1).relu() * y.sum(dim=0)
    w = z[0] @ y.T
    g.output((w.node, z.node))
    return str(g), g.python_code("self").src


def test_proxies_record_into_a_plain_graph_as_in_torch():
    assert _proxy_on_a_plain_graph(minitorch2) == _proxy_on_a_plain_graph(torch)


@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if not n.startswith("concrete")))
def test_retracing_a_graph_module_matches_torch(traced, name):
    # (concrete_args programs are left out: re-tracing them corrupts torch.fx's own wrap registry.)
    theirs, ours, _ = traced(name)
    assert minitorch2.fx.symbolic_trace(ours).code == torch.fx.symbolic_trace(theirs).code


def test_torchs_alias_names_print_as_the_program_wrote_them():
    """torch.subtract, absolute, clip, divide, greater, concat, swapaxes, arctan, negative, multiply, moveaxis,
    ger...: each its own function, so a traced graph names the alias (torch.subtract, not torch.sub)."""
    def program(lib):
        def f(x):
            return (lib.subtract(x, 1) + lib.absolute(x) + lib.clip(x, 0, 1) + lib.divide(x, 2) + lib.true_divide(x, 3)
                    + lib.greater(x, 0) + lib.less_equal(x, 1) + lib.concat([x]) + lib.arctan(x) + lib.negative(x)
                    + lib.multiply(x, x) + lib.fix(x) + lib.swapaxes(lib.ger(x, x), 0, 1).sum()
                    + lib.moveaxis(x.unsqueeze(0), 0, 1).sum())
        return f

    assert minitorch2.fx.symbolic_trace(program(minitorch2)).code == torch.fx.symbolic_trace(program(torch)).code
