"""Dynamic shapes, property-tested: programs compiled once with symbolic sizes, called with many sizes.

For random sequences of sizes: every compiled call equals the eager call; no recompile while the sizes stay inside
the guards; and a recompile exactly when a guard fails (a size of 0 or 1, which specialise; a divisibility the
program branched on; a quotient pinned to 1): after every call the frame count equals torch.compile's.
"""
import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings, strategies as st
from torch._dynamo.testing import CompileCounter as TorchCompileCounter

import frontend
import minitorch2
from frontend.testing import CompileCounter


def _arith(x):
    n, m = x.shape
    return (x * n).sum(0) + m - x[: n // 2].sum()


def _divisible(x):
    if x.shape[0] % 3 == 0:
        return x.view(-1, 3).sum(1) * 2
    return x * 2 + x.shape[0]


def _compiled(fn, backend="eager", dynamic=True):
    frontend.reset()
    counter = CompileCounter() if backend == "eager" else None
    return minitorch2.compile(fn, backend=counter or backend, dynamic=dynamic), counter


def _assert_same(compiled, fn, x):
    np.testing.assert_allclose(compiled(x).numpy(), fn(x).numpy(), rtol=1e-5, atol=1e-5)


def _frame_counts_match_torch(fn, inputs, dynamic):
    """Run both compilers over the same inputs; values equal eager, frame counts equal torch's after each call."""
    compiled, counter = _compiled(fn, dynamic=dynamic)
    torch._dynamo.reset()
    theirs = TorchCompileCounter()
    torch_compiled = torch.compile(fn, backend=theirs, dynamic=dynamic)
    for x in inputs:
        _assert_same(compiled, fn, x)
        torch_compiled(torch.from_numpy(x.numpy().copy()))
        assert counter.frame_count == theirs.frame_count


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(2, 12), st.integers(2, 12)), min_size=1, max_size=8))
def test_symbolic_sizes_compile_once_for_every_size(shapes):
    assume(shapes[0][0] != shapes[0][1])  # (equal sizes share one symbol: duck sizing, then a guard that they stay equal)
    compiled, counter = _compiled(_arith)
    for shape in shapes:
        _assert_same(compiled, _arith, minitorch2.randn(*shape))
    assert counter.frame_count == 1


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=1, max_size=8), st.sampled_from([True, None]))
def test_a_recompile_exactly_when_torchs_guards_fail(sizes, dynamic):
    _frame_counts_match_torch(_divisible, [minitorch2.randn(n) for n in sizes], dynamic)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(2, 9), min_size=1, max_size=5))
def test_aot_backends_compute_eagers_values_for_every_size(sizes):
    compiled, _ = _compiled(_divisible, backend="aot_eager")
    for n in sizes:
        x = minitorch2.randn(n, requires_grad=True)
        out = compiled(x)
        out.sum().backward()
        y = x.detach().requires_grad_()
        expected = _divisible(y)
        expected.sum().backward()
        np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-5)
        np.testing.assert_allclose(x.grad.numpy(), y.grad.numpy(), rtol=1e-5)


def test_mark_dynamic_makes_one_dim_a_symbol_from_the_first_call():
    compiled, counter = _compiled(_arith, dynamic=None)
    x = minitorch2.randn(4, 3)
    frontend.mark_dynamic(x, 0)
    _assert_same(compiled, _arith, x)
    for n in (5, 7, 9):
        _assert_same(compiled, _arith, minitorch2.randn(n, 3))
    assert counter.frame_count == 1
    _assert_same(compiled, _arith, minitorch2.randn(4, 5))  # dim 1 was not marked: it is static
    assert counter.frame_count == 2


def test_a_constant_tensor_built_from_a_size_keeps_static_sizes():
    """`torch.tensor(range(x.size(0)))`: the range specialises the size, and the constant tensor gets no symbols of
    its own (before, its guard read `2 <= None.size()[0]`, raised, and every call recompiled)."""
    counts = []
    for lib, counter, reset in ((minitorch2, CompileCounter(), frontend.reset),
                                (torch, TorchCompileCounter(), torch._dynamo.reset)):
        reset()
        compiled = lib.compile(lambda a: lib.tensor(range(a.size(0))) * 2, backend=counter)
        values = [compiled(lib.ones(n, 3)).tolist() for n in (4, 4, 4, 5, 6, 6)]
        counts.append((counter.frame_count, values))
    assert counts[0] == counts[1]


def test_a_marked_dim_the_program_specializes_raises_torchs_constraint_violation():
    """mark_dynamic on a dim the program pins (stacked with a static size): both compilers raise
    ConstraintViolationError with the same first line; maybe_mark_dynamic lets the program pin it."""
    errors = []
    for lib, dynamo in ((minitorch2, frontend), (torch, torch._dynamo)):
        dynamo.reset()
        x, y = lib.ones(4, 3), lib.ones(4, 3)
        dynamo.mark_dynamic(x, 0)
        with pytest.raises(Exception) as raised:
            lib.compile(lambda a, b: lib.stack([a, b], dim=1), backend="eager")(x, y)
        errors.append((type(raised.value).__name__, str(raised.value).splitlines()[:2]))
        dynamo.reset()
        x = lib.ones(4, 3)
        dynamo.maybe_mark_dynamic(x, 0)
        assert tuple(lib.compile(lambda a, b: lib.stack([a, b], dim=1), backend="eager")(x, y).shape) == (4, 2, 3)
    assert errors[0] == errors[1] and errors[0][0] == "ConstraintViolationError"


def test_a_marked_dim_stays_a_symbol_in_the_frames_later_compiles():
    """Dynamo records a mark_dynamic dim in the frame's state as dynamic: a recompile (here for a changed int) on
    an unmarked tensor of the same size still gets a symbol there (ours compiled it static)."""
    graphs = []
    for lib, dynamo in ((minitorch2, frontend), (torch, torch._dynamo)):
        dynamo.reset()
        inputs = []
        compiled = lib.compile(lambda x, n: x * n, backend=lambda gm, args: inputs.append(
            [str(tuple(a.shape)) if hasattr(a, "shape") else type(a).__name__ for a in args]) or gm.forward)
        x = lib.ones(3, 2)
        dynamo.mark_dynamic(x, 0)
        compiled(x, 2)
        compiled(lib.ones(3, 2), 3)
        graphs.append(inputs)
    assert graphs[0] == graphs[1] and "SymInt" in graphs[1][1]


def _graph_codes(body, dynamic):
    """gm.code of each graph compiling `def f(x, y): return <body>` on (ones(4, 3), ones(2)), ours then torch's."""
    codes = []
    for lib, dynamo in ((minitorch2, frontend), (torch, torch._dynamo)):
        dynamo.reset()
        namespace = {"torch": lib}
        exec(f"def f(x, y):\n    return {body}\n", namespace)
        graphs = []
        lib.compile(namespace["f"], backend=lambda gm, args: graphs.append(gm.code) or gm.forward, dynamic=dynamic)(
            lib.ones(4, 3), lib.ones(2))
        codes.append(graphs)
    return codes


@pytest.mark.parametrize("body", [
    "torch.zeros(x.shape) + x",  # the Size read as `size = l_x_.size()` is the op's argument
    "(x * 2).view(x.size()) + x.new_zeros(x.shape)",  # two reads, two size nodes
    "torch.zeros(x.shape[1:]) + x",  # a slice of it: `size_1 = torch.Size([s27])`
    "torch.zeros(x.shape + (2,)) + x[..., None]",  # a Size concatenated: the same
    "torch.ones(x.size(0), 1) * x + torch.zeros(*x.shape)",  # sizes one by one: the size inputs
])
def test_a_size_passed_whole_to_an_op_is_dynamos_size_node(body):
    ours, torchs = _graph_codes(body, dynamic=True)
    assert ours == torchs


@pytest.mark.parametrize("body, dynamic", [
    ("y * x.shape[0]", None),  # x's size is a constant: L_x_ is no input
    ("y * x.shape[0]", True),  # s77 stays (a node uses it), L_x_ and s27 go
    ("y.sum() * x.size(1)", True),
    ("torch.zeros(*x.shape) + y[0]", True),
])
def test_an_input_the_graph_does_not_use_is_dropped_as_dynamo_drops_it(body, dynamic):
    ours, torchs = _graph_codes(body, dynamic)
    assert ours == torchs


def test_the_graph_before_a_break_drops_a_tensor_read_only_for_its_size():
    """`n = x.shape[0]` then a break: Dynamo's graph before it has no L_x_ input (ours kept one)."""
    codes = []
    for lib, dynamo in ((minitorch2, frontend), (torch, torch._dynamo)):
        dynamo.reset()
        namespace = {"torch": lib, "dynamo": dynamo}
        exec("def f(x, y):\n    z = y * x.shape[0]\n    dynamo.graph_break()\n    return z + x.shape[1]\n", namespace)
        graphs = []
        out = lib.compile(namespace["f"], backend=lambda gm, args: graphs.append(gm.code) or gm.forward)(
            lib.ones(4, 3), lib.ones(2))
        codes.append((graphs, out.tolist()))
    assert codes[0] == codes[1]
