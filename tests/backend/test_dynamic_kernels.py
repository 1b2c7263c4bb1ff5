"""Kernels over symbolic sizes (issue 21 item 6): under `minitorch2.compile(fn, dynamic=True)` the inductor backend
compiles each graph once, its kernels taking the size symbols as arguments, and that one compile serves every size.

Each program runs over several sizes; values and gradients must equal real torch's, and backend.metrics must show one
compiled graph per graph (a forward and a backward for a training step), never one per size. A graph the backend
cannot compile over symbols (a size it would have to decide) goes back to one compile per size, with torch's values.
"""
import logging
import os

import numpy as np
import pytest
import torch

import backend
import frontend
import minitorch2
from tests.backend.codegens import WITH_TRITON

RNG = np.random.default_rng(21)


def _compiled_graphs(make_program, shapes, grad=False):
    """Run the program compiled with dynamic=True and in torch on inputs of each of `shapes` (a list of input
    shapes per call), check values (and input gradients), and return the names of the graphs the backend compiled."""
    frontend.reset()
    backend.metrics.reset()
    compiled, reference = minitorch2.compile(make_program(minitorch2), dynamic=True), make_program(torch)
    for input_shapes in shapes:
        arrays = [RNG.standard_normal(shape).astype(np.float32) for shape in input_shapes]
        ours = [minitorch2.tensor(a, requires_grad=grad) for a in arrays]
        theirs = [torch.tensor(a, requires_grad=grad) for a in arrays]
        outs, expected = _as_list(compiled(*ours)), _as_list(reference(*theirs))
        assert len(outs) == len(expected)
        for out, want in zip(outs, expected):
            assert tuple(out.shape) == tuple(want.shape) and out.dtype.name == str(want.dtype).removeprefix("torch.")
            np.testing.assert_allclose(out.detach().numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-3)  # (sums)
        if grad:
            sum((o * o).sum() for o in outs).backward()
            sum((o * o).sum() for o in expected).backward()
            for x, want in zip(ours, theirs):
                np.testing.assert_allclose(x.grad.numpy(), want.grad.numpy(), rtol=1e-4, atol=1e-5)
    return [graph.name.rsplit("_", 1)[0] for graph in backend.metrics.graphs]


def _as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


# (the last ones: a kernel large enough to be split across threads at run time; a sum longer than a block)
ROWS = [[(n, 3)] for n in (2, 5, 7, 16, 1 << 18)]
MATRICES = [[(n, m)] for n, m in ((3, 4), (5, 7), (8, 2), (13, 6), (3, 5000))]

PROGRAMS = {
    "pointwise chain": (lambda lib: lambda x: ((x * 2 + 1).relu().sigmoid() - x.exp()) / (x.abs() + 1), ROWS),
    "reductions": (lambda lib: lambda x: (x.sum(-1), x.sum(0), x.mean(), x.softmax(-1), x.amax(1), x.var(0)),
                   MATRICES),
    "broadcast over a static dim": (lambda lib: lambda x, b: x * b + b.exp(), [[(n, 3), (3,)] for n in (2, 5, 9, 40)]),
    "views": (lambda lib: lambda x: (x.view(-1) * 2, x.reshape(x.shape[0] * x.shape[1]).exp(), x.t() + 1,
                                     x.transpose(0, 1).contiguous(), (x.unsqueeze(1) * x.unsqueeze(0)).sum(2)),
              MATRICES),
    "permute": (lambda lib: lambda x: (x.permute(2, 0, 1) * 2).sum(1) + 1,
                [[(n, 3, m)] for n, m in ((2, 4), (5, 6), (7, 9))]),
    "slices": (lambda lib: lambda x: (x[:, 1:] * x[:, :-1]).sum(0) + x[1:].sum(0)[1:],  # (a width of 2 would
               [shape for shape in MATRICES if shape[0][1] > 2]),  # make a size of 1: the frontend recompiles)
    "size as a value": (lambda lib: lambda x: x * x.shape[0] + x.shape[1], MATRICES),
    # arange over sizes: int64 positions (a SymInt start is an int), one iota kernel for every size
    "positions": (lambda lib: lambda x: (x + lib.arange(x.shape[1]), lib.arange(1, x.shape[0] + 1),
                                         lib.arange(x.shape[0], dtype=lib.float32) * 0.5), MATRICES),
    "a static buffer sliced by a size": (lambda lib: (lambda mask: lambda x: x @ x.t() * mask[:x.shape[0], :x.shape[0]])(
        lib.tril(lib.ones(16, 16))), [[(n, 4)] for n in (3, 5, 9, 12)]),
    # column sums (the speed wing swaps their loops): longer than 4096 rows, the kernel keeps the blocked row sums
    "column sums": (lambda lib: lambda x: ((x * 2).sum(0), x.amax(0)), [[(n, 8)] for n in (3, 5000, 64)]),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_one_compile_serves_every_size(name):
    make_program, shapes = PROGRAMS[name]
    assert _compiled_graphs(make_program, shapes) == ["inference"]


def test_kernels_take_sizes_and_the_wrapper_binds_them():
    frontend.reset()
    backend.metrics.reset()
    compiled = minitorch2.compile(lambda x: (x * 2).sum(1), dynamic=True)
    compiled(minitorch2.ones(4, 3))
    (graph,) = backend.metrics.graphs
    (kernel,) = graph.kernels
    assert kernel.sizes == ("s27", "s77") and "i64 %s27, i64 %s77, i64 %start" in graph.source
    assert "s77 = arg0_1" in graph.source and "kernel0.run(ptr(arg2_1), ptr(buf0), s27, s77)" in graph.source


def test_linear_and_mm():
    layer = {}

    def make_program(lib):
        torch_like = lib.nn.Linear(4, 3)
        with lib.no_grad():
            torch_like.weight.copy_(lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)))
            torch_like.bias.fill_(0.5)
        layer[lib] = torch_like
        return lambda x: (torch_like(x).relu(), x @ x.t())

    # the layer's parameters require grad: a forward and its backward, the backward compiled at once (symbolic)
    assert _compiled_graphs(make_program, [[(n, 4)] for n in (2, 3, 6, 17, 32)]) == ["forward", "backward"]


def test_training_step_with_a_symbolic_batch():
    weights = [RNG.standard_normal(shape).astype(np.float32) for shape in ((8, 4), (8,), (1, 8), (1,))]

    def mlp(lib):
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        with lib.no_grad():
            for parameter, value in zip(model.parameters(), weights):
                parameter.copy_(lib.tensor(value))
        return model

    ours, theirs = mlp(minitorch2), mlp(torch)
    frontend.reset()
    backend.metrics.reset()
    step = minitorch2.compile(lambda x, y: ((ours(x) - y) ** 2).mean(), dynamic=True)
    for n in (3, 5, 8, 13, 30):
        x, y = RNG.standard_normal((n, 4)).astype(np.float32), RNG.standard_normal((n, 1)).astype(np.float32)
        loss = step(minitorch2.tensor(x, requires_grad=True), minitorch2.tensor(y))
        expected = ((theirs(torch.tensor(x)) - torch.tensor(y)) ** 2).mean()
        loss.backward()
        expected.backward()
        np.testing.assert_allclose(loss.item(), expected.item(), rtol=1e-5)
        for p, q in zip(ours.parameters(), theirs.parameters()):
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-6)
    assert [graph.name.rsplit("_", 1)[0] for graph in backend.metrics.graphs] == ["forward", "backward"]


def test_cross_entropy_training_step():
    # the joint-graph passes leave cross_entropy's one-hot scatter alone over symbols (a rewrite would make its sizes
    # constants of the graph, which AOT refuses): one forward and one backward for every batch size
    weight = RNG.standard_normal((5, 4)).astype(np.float32)
    ours, theirs = minitorch2.tensor(weight, requires_grad=True), torch.tensor(weight, requires_grad=True)
    frontend.reset()
    backend.metrics.reset()
    step = minitorch2.compile(lambda x, y: minitorch2.nn.functional.cross_entropy(x @ ours.t(), y), dynamic=True)
    for n in (3, 6, 11, 40):
        x, y = RNG.standard_normal((n, 4)).astype(np.float32), RNG.integers(0, 5, n)
        loss = step(minitorch2.tensor(x), minitorch2.tensor(y))
        expected = torch.nn.functional.cross_entropy(torch.tensor(x) @ theirs.t(), torch.tensor(y))
        loss.backward()
        expected.backward()
        np.testing.assert_allclose(loss.item(), expected.item(), rtol=1e-5)
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-6)
    assert [graph.name.rsplit("_", 1)[0] for graph in backend.metrics.graphs] == ["forward", "backward"]


def test_a_size_that_is_one_at_run_time_broadcasts():
    # x.reshape(2, -1) of a (1, s) input has a dim of s // 2: 1 for s = 2, where expand broadcasts it (the trace's
    # guard says so); before, the kernel indexed it as a dim of 2 and read past the input (silently wrong values)
    expanded = lambda lib: lambda x: (x.reshape(2, -1).expand(2, 2) * 10, x.reshape(2, -1).expand(2, 2))
    assert _compiled_graphs(expanded, [[(1, 2)], [(1, 2)]]) == ["inference"]
    squeezed = lambda lib: lambda x: x.reshape(2, -1).squeeze(-1) + 1
    assert _compiled_graphs(squeezed, [[(1, 2)], [(1, 2)]]) == ["inference"]


def test_sizes_passed_on_at_a_graph_break(capsys):
    # the frontend's graph returns x.shape[0] for the print at the break; where the AOT graph has it as a constant,
    # the wrapper returned None (the print showed `rows None`)
    def program(x):
        if x.shape[0] > 2:
            return x.sin()
        print("rows", x.shape[0], x.shape[1])
        return x.relu()

    frontend.reset()
    compiled = minitorch2.compile(program, dynamic=True)
    for shape in [(1, 1), (2, 1), (2, 3), (1, 4)]:
        compiled(minitorch2.ones(shape))
    assert capsys.readouterr().out == "rows 1 1\nrows 2 1\nrows 2 3\nrows 1 4\n"


def test_a_float_over_sizes_compiles_once():
    # x.shape[0] / 2 and a variance's backward (2.0/(s0 - 1)) are floats over size symbols: kernels and extern calls
    # take them as Python floats computed from each call's sizes (once, where they compiled per size before)
    shapes = [[(n, 3)] for n in (2, 5, 6)]
    assert _compiled_graphs(lambda lib: lambda x: x * (x.shape[0] / 2) + 1, shapes) == ["inference"]
    graphs = _compiled_graphs(lambda lib: lambda x: (x.var(0), x.std(1, keepdim=True) * x), shapes, grad=True)
    assert graphs == ["forward", "backward"]


def test_a_slice_backward_compiles_once():
    # a slice's backward is a slice_scatter into zeros, its bounds over size symbols (x[:, 1:] ends at s1)
    shapes = [[(n, n + 2)] for n in (2, 5, 6)]
    graphs = _compiled_graphs(lambda lib: lambda x: (x[:, 1:] - x[:, :-1], x[-1] * x[:, 0].sum()), shapes, grad=True)
    assert graphs == ["forward", "backward"]


def test_a_cumsum_backward_compiles_once():
    # cumsum's backward flips its gradient along a dim of a size symbol (whether it is 1: from the symbol's range)
    shapes = [[(n, n + 2)] for n in (2, 5, 6)]
    assert _compiled_graphs(lambda lib: lambda x: x.cos().cumsum(-1), shapes, grad=True) == ["forward", "backward"]


def test_pooling_over_symbolic_sizes_compiles_once():
    # the pooled size (s - 2)//2 + 1 is a size expression, not sympy's floor; the tiling backward asks whether 2
    # divides s, which the guards do not say for odd sizes: that graph alone is compiled per size
    shapes = [[(2, 3, n, n)] for n in (6, 7, 9)]
    pool = lambda lib: lambda x: (lib.nn.functional.max_pool2d(x, 2) + lib.nn.functional.avg_pool2d(x, 2)).sum()  # noqa: E731
    assert _compiled_graphs(pool, shapes) == ["inference"]


def test_what_the_backend_cannot_decide_compiles_per_size(caplog, monkeypatch):
    # where a lowering meets a question over symbols sympy cannot answer (here made so: whether x.chunk(2)'s halves,
    # (s0 + 1)//2 and s0 - (s0 + 1)//2 rows, broadcast as one size), AOT falls back to one compile per size (logged),
    # and the values are still torch's
    def undecided(a, b, equal_size=backend.loop_ir.equal_size):
        if backend.loop_ir.is_size_expr(a - b):
            raise TypeError(f"cannot determine truth value of Relational: Eq({a}, {b})")
        return equal_size(a, b)
    monkeypatch.setattr(backend.loop_ir, "equal_size", undecided)
    monkeypatch.setattr(backend.config, "graph_cache", False)  # (a graph compiled before would skip the lowering)
    shapes = [[(n, 3)] for n in (4, 6, 10)]
    with caplog.at_level(logging.INFO, logger="autograd.aot"):
        graphs = _compiled_graphs(lambda lib: lambda x: x.chunk(2)[0] * x.chunk(2)[1] + 1, shapes)
    assert graphs == ["inference"] * len(shapes)
    assert "AOT over symbolic sizes gave up (NotImplementedError: backend:" in caplog.text


def test_fallback_kernels_take_offsets_over_symbols(monkeypatch):
    # a pointwise lowering that cannot decide falls back to the eager op, whose argument views start at offsets over
    # symbols (the second half of x.chunk(2): s1*((s0 + 1)//2)), written as Python over the sizes
    def undecided(a, b, equal_size=backend.loop_ir.equal_size):
        if backend.loop_ir.is_size_expr(a - b):
            raise NotImplementedError(f"backend: whether {a} == {b}")
        return equal_size(a, b)
    monkeypatch.setattr(backend.loop_ir, "equal_size", undecided)
    monkeypatch.setattr(backend.config, "graph_cache", False)
    shapes = [[(n, 3)] for n in (4, 6, 10)]
    assert _compiled_graphs(lambda lib: lambda x: x.chunk(2)[0] * x.chunk(2)[1] + 1, shapes) == ["inference"]


def test_chunk_compiles_once():
    # the halves of x.chunk(2) broadcast as one size where the trace's guards make them equal; split's lowering (a
    # training graph keeps split whole) counts the pieces from the trace's guard on that count
    shapes = [[(n, 3)] for n in (4, 6, 10)]
    assert _compiled_graphs(lambda lib: lambda x: x.chunk(2)[0] * x.chunk(2)[1] + 1, shapes) == ["inference"]
    program = lambda lib: lambda x: [t.sum(0) for t in x.chunk(2)]  # noqa: E731
    assert _compiled_graphs(program, [[(n, 7)] for n in (4, 6, 8)], grad=True) == ["forward", "backward"]


@pytest.mark.parametrize("codegen", WITH_TRITON[::-1])
def test_code_generators(codegen, monkeypatch):
    # numpy_ref evaluates a kernel over symbols at each run's sizes; Triton's kernels take the symbols as int
    # arguments (size expressions as ks0.., launch grid and blocks from each run's sizes): one compile for all
    monkeypatch.setattr(backend.config, "cpu_codegen", codegen)
    shapes = [[(n, 5)] for n in (3, 4, 6)]
    assert _compiled_graphs(lambda lib: lambda x: (x.softmax(-1) * 2, x[1:].t().exp()), shapes) == ["inference"]
    shapes = [[(n, m)] for n, m in ((3, 4), (5, 7), (13, 6), (3, 300))]  # reductions, a mean's count, a size expression
    program = lambda lib: lambda x: (x.sum(-1), x.mean(0), x.amax(1), x.argmax(1), x.reshape(-1)[1:] * x.shape[0],
                                     x[1:].t().exp(), x[:, None, :] * x[None, :, 1:2])
    assert _compiled_graphs(program, shapes) == ["inference"]


@pytest.mark.parametrize("codegen", WITH_TRITON[::-1])
def test_indirect_kernels_over_symbols(codegen, monkeypatch):
    # a gather and a scatter-add (a serial kernel) over symbols, and an index out of range raising torch's error class
    monkeypatch.setattr(backend.config, "cpu_codegen", codegen)
    program = lambda lib: lambda x, i, src: (lib.zeros(x.shape[0] + 2, 3).index_add(0, i, src) * 2, x[i].sum(1))
    frontend.reset()
    backend.metrics.reset()
    compiled = minitorch2.compile(program(minitorch2), dynamic=True)
    for n, k in ((4, 6), (7, 9), (11, 5)):
        x, src = (RNG.standard_normal(shape).astype(np.float32) for shape in ((n, 3), (k, 3)))
        i = RNG.integers(0, n, k)
        ours = compiled(*map(minitorch2.tensor, (x, i, src)))
        for out, want in zip(ours, program(torch)(*map(torch.tensor, (x, i, src)))):
            np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)
    assert len(backend.metrics.graphs) == 1
    gather = minitorch2.compile(lambda x, i: x[i] * 2, dynamic=True)
    for n in (4, 6):
        gather(minitorch2.ones(n, 3), minitorch2.tensor(np.array([0, n - 1, -n])))
    with pytest.raises(IndexError):
        torch.ones(7, 3)[torch.tensor([0, 9])]
    with pytest.raises(IndexError):
        gather(minitorch2.ones(7, 3), minitorch2.tensor(np.array([0, 9])))


def test_debug_folder_scripts_take_the_example_sizes(tmp_path, monkeypatch):
    # MINITORCH2_COMPILE_DEBUG's output_code.py and fx_graph_runnable.py of a graph over symbols run alone, at the
    # sizes of the call that compiled it (running them takes a process each: checked by hand, not here)
    monkeypatch.setattr(backend.config, "debug", True)
    monkeypatch.setattr(minitorch2._logging, "debug_dir_root", str(tmp_path))
    monkeypatch.setattr(minitorch2._logging, "_run_dir", None)
    frontend.reset()
    compiled = minitorch2.compile(lambda x: (x * 2).sum(1) + x.shape[0], dynamic=True)
    compiled(minitorch2.ones(4, 3))
    (folder,) = (tmp_path / os.listdir(tmp_path)[0] / "torchinductor").iterdir()
    inputs = "[4, 3, ((4, 3), (3, 1), 'float32')]"
    output_code = (folder / "output_code.py").read_text()
    assert f"benchmark_compiled_module(call, {inputs})" in output_code
    assert "outer_ranges={'kernel0': 4}" in output_code
    assert f"repro(forward, 'inference', {inputs})" in (folder / "fx_graph_runnable.py").read_text()
