"""Source locations on graph nodes (node.meta["stack_trace"]) against Dynamo and AOTAutograd.

The same program text is written to one file and executed twice, once over
torch and once over minitorch2, so both compilers see code objects with the
same file name and lines. A recording backend keeps each node's stack trace;
the two must be equal string for string: the frames (inlined user functions
and forwards in, library nn modules out), lines, code and `^^^` markers, and
for AOT the forward and backward aten nodes, gradient additions included.
"""
import textwrap

import pytest

import frontend
import minitorch2
from autograd import aot_module_simplified, make_boxed_func
from autograd.stack_traces import GRADIENT_ACC_SPECIAL_STACK
from partition import default_partition

torch = pytest.importorskip("torch")

PROGRAM = textwrap.dedent('''
    def scale(t):
        return t * 2


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            h = self.fc(x)
            return scale(h).relu()


    block = Block()
    seq = nn.Sequential(nn.Linear(4, 4), nn.Tanh())


    def step(x):
        y = block(x)
        z = seq(y) + y.sin()
        return F.softmax(scale(z), -1).sum()


    lin = nn.Linear(4, 4)


    def mutate(x):
        y = lin(x)
        y[0] = 1.0
        return y.sum()


    def quiet(x):
        with torch.no_grad():
            y = x * 2
        return y + x.cos()


    def spread(x):
        parts = [p.exp() for p in x.split(2)]
        return torch.cat(
            parts,
            0,
        ).mean(dim=-1)
''')


@pytest.fixture(scope="module")
def program_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("stack_traces") / "program.py"
    path.write_text(PROGRAM)
    return str(path)


def _load(lib, path):
    """The program's namespace over lib (torch or minitorch2), its code objects named after path."""
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    lib.manual_seed(0)
    exec(compile(PROGRAM, path, "exec"), namespace)
    return namespace


def _node_traces(gm):
    return [(n.op, n.name, n.meta.get("stack_trace")) for n in gm.graph.nodes]


def _dynamo_graph(lib, path, name, x):
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    if lib is torch:
        torch._dynamo.reset()
    lib.compile(_load(lib, path)[name], backend=backend)(x)
    return graphs


@pytest.mark.parametrize("name", ["step", "spread", "quiet"])  # quiet: grad-mode switches have no source
def test_dynamo_nodes_carry_dynamos_stack_traces(program_file, name):
    ours = _dynamo_graph(minitorch2, program_file, name, minitorch2.randn(4, 4))
    theirs = _dynamo_graph(torch, program_file, name, torch.randn(4, 4))
    assert len(ours) == len(theirs) == 1
    assert _node_traces(ours[0]) == _node_traces(theirs[0])


def test_inlined_frames_are_listed_and_library_module_frames_left_out(program_file):
    (gm,) = _dynamo_graph(minitorch2, program_file, "step", minitorch2.randn(3, 4))
    traces = {n.name: n.meta.get("stack_trace") for n in gm.graph.nodes}
    frames = [line.split(", in ")[1] for line in traces["mul"].splitlines() if line.startswith("  File ")]
    assert frames == ["step", "forward", "scale"]  # step -> Block.forward -> scale(), all user code
    linear = traces["input_1"]  # seq's first Linear: Sequential.forward and Linear.forward are not shown
    assert linear.count("  File ") == 1 and "z = seq(y) + y.sin()" in linear and "minitorch2" not in linear


def _summary_lines(gm):
    return [line.strip() for line in gm.print_readable(print_output=False).splitlines()
            if line.strip().startswith(("# File:", "# No stacktrace"))]


def test_print_readable_groups_nodes_under_the_same_comments_as_torch(program_file):
    ours = _dynamo_graph(minitorch2, program_file, "step", minitorch2.randn(3, 4))[0]
    theirs = _dynamo_graph(torch, program_file, "step", torch.randn(3, 4))[0]
    assert _summary_lines(ours) == _summary_lines(theirs)
    assert f"# File: {program_file}:{_line('return t * 2')} in scale, code: return t * 2" in _summary_lines(ours)
    # block(x)'s nodes are made inside Block.forward: the comment names the innermost user frame
    assert f"# File: {program_file}:{_line('y = block(x)')} in step, code: y = block(x)" not in _summary_lines(ours)


def _line(code):
    return [line.strip() for line in PROGRAM.splitlines()].index(code) + 1


# ---- AOT: forward and backward aten graphs ----------------------------------------------------------

def _aot_graphs(lib, path, name, x):
    if lib is torch:
        from functorch.compile import default_partition as partition_fn, make_boxed_func as boxed
        from torch._functorch.aot_autograd import aot_module_simplified as aot
        torch._dynamo.reset()
    else:
        aot, partition_fn, boxed = aot_module_simplified, default_partition, make_boxed_func
        frontend.reset()  # (as torch's side: sizes seen by an earlier test would make this compile dynamic)
    graphs = {}

    def recorder(title):
        def compiler(gm, example_inputs):
            graphs[title] = gm
            return boxed(gm.forward)

        return compiler

    def backend(gm, example_inputs):
        return aot(gm, example_inputs, fw_compiler=recorder("forward"), bw_compiler=recorder("backward"),
                   partition_fn=partition_fn)

    lib.compile(_load(lib, path)[name], backend=backend)(x).sum().backward()
    return graphs


def test_aot_forward_and_backward_nodes_carry_their_sources(program_file):
    ours = _aot_graphs(minitorch2, program_file, "step", minitorch2.randn(3, 4, requires_grad=True))
    theirs = _aot_graphs(torch, program_file, "step", torch.randn(3, 4, requires_grad=True))
    for title in ("forward", "backward"):
        assert _node_traces(ours[title]) == _node_traces(theirs[title]), title
    additions = [t for _, _, t in _node_traces(ours["backward"]) if t and t.endswith(GRADIENT_ACC_SPECIAL_STACK)]
    assert len(additions) == 1 and "z = seq(y) + y.sin()" in additions[0]  # y is used twice


def test_aot_in_place_assignment_and_its_backward_point_at_the_assignment(program_file):
    """`y[0] = 1.0`: the functionalized write-back and the backward of the assignment (CopySlices) sit under
    its line. The aten ops differ from PyTorch's here (fill.Scalar, as_strided), so the comments are compared."""
    ours = _aot_graphs(minitorch2, program_file, "mutate", minitorch2.randn(3, 4, requires_grad=True))
    theirs = _aot_graphs(torch, program_file, "mutate", torch.randn(3, 4, requires_grad=True))
    for title in ("forward", "backward"):
        assert _summary_lines(ours[title]) == _summary_lines(theirs[title]), title
    scatter = next(n for n in ours["forward"].graph.nodes if n.name.endswith("scatter"))
    assert "y[0] = 1.0" in scatter.meta["stack_trace"]


def test_aot_nodes_from_outside_the_frontend_graph_have_no_source():
    """Tracing a plain function (no frontend graph to interpret) records no stack traces, as in PyTorch;
    fx prints such nodes under "No stacktrace found"."""
    from autograd import aot_function

    graphs = []

    def compiler(gm, example_inputs):
        graphs.append(gm)
        return make_boxed_func(gm.forward)

    aot_function(lambda x: x.sin().cos(), compiler, compiler)(minitorch2.randn(3, requires_grad=True)).sum().backward()
    assert [t for gm in graphs for _, _, t in _node_traces(gm) if t] == []
    assert "# No stacktrace found for following nodes" in _summary_lines(graphs[0])
