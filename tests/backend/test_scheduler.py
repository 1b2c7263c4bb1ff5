"""Fusion and buffer planning: how many kernels a program becomes, why fusions are refused, and that
freed buffers are reused.

Graphs are traced with make_fx (the backend's decompositions) and compiled
with compile_fx_inner on the numpy reference evaluator; values are checked
against eager as well, so a wrong fusion cannot pass by producing fewer kernels.
"""
import numpy as np
import pytest

import backend
import minitorch2
from autograd import make_fx
from backend import debug, loop_ir as L
from backend.compile_fx import compile_fx_inner, select_decomp_table
from backend.speed.buffers import POOL
from minitorch2 import ops

aten = ops.aten


@pytest.fixture(autouse=True)
def numpy_ref():
    saved = backend.config.cpu_codegen
    backend.config.cpu_codegen = "numpy_ref"
    yield
    backend.config.cpu_codegen = saved


def compile_checked(fn, *inputs):
    gm = make_fx(lambda *a: tuple(_as_list(fn(*a))), select_decomp_table(), tracing_mode="fake")(*inputs)
    compiled = compile_fx_inner(gm, list(inputs), "test")
    with minitorch2.no_grad():
        expected = _as_list(fn(*inputs))
    for got, want in zip(compiled(list(inputs)), expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-5)
    return compiled


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def reduces(kernel):
    found = []

    def visit(stmts):
        for stmt in stmts:
            if isinstance(stmt, L.Loop):
                visit(stmt.body)
            elif isinstance(stmt, L.Reduce):
                found.append(stmt)

    visit(kernel.loop.body)
    return found


def test_pointwise_chain_is_one_kernel():
    def chain(x, y):
        return aten.relu.default(aten.mul.Scalar(aten.exp.default(aten.add.Tensor(aten.sin.default(x), y)), 2))

    compiled = compile_checked(chain, minitorch2.randn(8, 16), minitorch2.randn(16))
    assert len(compiled.kernels) == 1
    assert len(compiled.kernels[0].args) == 3  # two inputs, one output: no intermediate reaches memory


def test_softmax_forward_is_one_kernel():
    compiled = compile_checked(lambda x: aten._softmax.default(x, -1, False), minitorch2.randn(32, 64))
    (kernel,) = compiled.kernels
    assert [r.reduction_type for r in reduces(kernel)] == ["max", "sum"]  # max and sum stay in registers
    # exp is computed once: stored to the output, summed from there and divided in place
    assert [a.role for a in kernel.args] == ["in", "inout"]
    assert str(kernel).count("exp(") == 1
    assert "sum(r0 in range(64): load(in_out_ptr0, 64*x0 + r0))" in str(kernel)


def test_storing_the_exp_gives_the_bits_of_recomputing_it(monkeypatch):
    minitorch2.manual_seed(0)
    x = minitorch2.randn(64, 333) * 10
    backend.config.cpu_codegen = "llvm"
    stored = compile_checked(lambda x: aten._softmax.default(x, -1, False), x)([x])[0].numpy()
    monkeypatch.setattr(backend.scheduler, "store_expensive_reductions", lambda body: body)
    monkeypatch.setattr(backend.config, "graph_cache", False)
    recomputed = compile_checked(lambda x: aten._softmax.default(x, -1, False), x)
    assert str(recomputed.kernels[0]).count("exp(") == 2
    if backend.speed.fast():  # the inline exp vectorizes both sums alike
        np.testing.assert_array_equal(recomputed([x])[0].numpy(), stored)
    else:  # plain: the sum around a call to libm's expf runs scalar, the sum of the stored row vectorized;
        # two orders of summing 333 floats each err by at most 332 float32 half-ulps
        np.testing.assert_allclose(recomputed([x])[0].numpy(), stored, rtol=2 * 332 * 2.0**-24)


def test_cheap_reduction_values_are_recomputed_not_stored():
    compiled = compile_checked(lambda x: x / (x * 2).sum(-1, keepdim=True), minitorch2.randn(8, 16))
    (kernel,) = compiled.kernels
    assert [a.role for a in kernel.args] == ["in", "out"]


def test_log_softmax_forward_is_one_kernel():
    compiled = compile_checked(lambda x: aten._log_softmax.default(x, 1, False), minitorch2.randn(8, 30))
    assert len(compiled.kernels) == 1


def test_layernorm_forward_is_one_kernel():
    def layer_norm(x, w, b):
        return aten.native_layer_norm.default(x, [32], w, b, 1e-5)

    compiled = compile_checked(layer_norm, minitorch2.randn(4, 8, 32), minitorch2.randn(32), minitorch2.randn(32))
    assert len(compiled.kernels) == 1


def test_softmax_backward_at_most_two_kernels():
    def softmax_backward(g, y):
        return aten._softmax_backward_data.default(g, y, 1, minitorch2.float32)

    compiled = compile_checked(softmax_backward, minitorch2.randn(16, 40), minitorch2.rand(16, 40))
    assert len(compiled.kernels) <= 2


def test_layernorm_backward_at_most_two_kernels():
    x, w, b = minitorch2.randn(10, 24), minitorch2.randn(24), minitorch2.randn(24)
    _, mean, rstd = aten.native_layer_norm.default(x, [24], w, b, 1e-5)  # saved by the forward

    def layer_norm_backward(g, x, mean, rstd, w, b):
        return aten.native_layer_norm_backward.default(g, x, [24], mean, rstd, w, b, [True, True, True])

    compiled = compile_checked(layer_norm_backward, minitorch2.randn(10, 24), x, mean, rstd, w, b)
    assert len(compiled.kernels) == 2
    rows, columns = compiled.kernels
    assert rows.loop.ranges == (10,) and len(reduces(rows)) == 2  # the input grad: two row sums, one kernel
    assert columns.loop.ranges == (24,) and len(reduces(columns)) == 2  # weight and bias grads, fused


def test_refused_fusion_has_a_reason():
    def row_then_column(x):
        return aten.sum.dim_IntList(aten.exp.default(x), [0]), aten.sum.dim_IntList(aten.exp.default(x), [1])

    compiled = compile_checked(row_then_column, minitorch2.randn(6, 10))
    refusals = compiled.scheduler.refusals
    assert len(compiled.kernels) == 2
    assert refusals and "ranges" in refusals[0]
    assert "fusions refused" in debug.post_fusion_text(compiled.scheduler)


def test_cross_iteration_read_is_not_fused():
    def shifted(x):
        y = aten.mul.Scalar(aten.sum.dim_IntList(x, [1], True), 2)  # a realized reduction
        flipped = aten.view.default(aten.t.default(aten.expand.default(y, [6, 6])), [6, 6])
        return aten.sum.dim_IntList(aten.mul.Tensor(x, flipped), [1])

    compiled = compile_checked(shifted, minitorch2.randn(6, 6))
    assert any("another iteration" in r for r in compiled.scheduler.refusals)


def test_horizontal_fusion_of_siblings():
    def siblings(x):
        return aten.sum.dim_IntList(x, [1]), aten.amax.default(x, [1])

    compiled = compile_checked(siblings, minitorch2.randn(5, 9))
    assert len(compiled.kernels) == 1
    assert len(reduces(compiled.kernels[0])) == 2


@pytest.mark.speed_wing
def test_buffers_are_reused_within_and_across_calls():
    def three_stages(x):
        a = aten.sum.dim_IntList(aten.exp.default(x), [1], True)  # temporaries of the same size...
        b = aten.sum.dim_IntList(aten.mul.Tensor(x, a), [0], True)
        c = aten.sum.dim_IntList(aten.mul.Tensor(x, b), [1], True)
        d = aten.sum.dim_IntList(aten.mul.Tensor(x, c), [0], True)
        return aten.mm.default(aten.add.Tensor(x, d), aten.t.default(x))

    minitorch2.manual_seed(0)
    x = minitorch2.randn(64, 64) * 0.05  # small: the chained sums stay O(1), and the check's tolerance means something
    compiled = compile_checked(three_stages, x)
    POOL.clear()
    POOL.fresh = POOL.reused = 0
    compiled([x])
    first_fresh, first_reused = POOL.fresh, POOL.reused
    assert first_reused >= 1, "a dead temporary was not reused within the call"
    compiled([x])
    assert POOL.fresh - first_fresh <= 1, "the second call allocated temporaries again"  # only its output is new
    assert POOL.reused > first_reused
    assert "free(" in compiled.source


def test_reshaped_consumer_fuses_through_regrouped_loops():
    def norm_then_flatten(x):
        scaled = aten.div.Tensor(x, aten.sum.dim_IntList(x, [2], True))  # loops (8, 16) x (32,)
        return aten.relu.default(aten.view.default(scaled, [128, 32]))  # loops (128, 32)

    compiled = compile_checked(norm_then_flatten, minitorch2.rand(8, 16, 32) + 0.1)
    assert len(compiled.kernels) == 1
    assert "//" not in str(compiled.kernels[0]) and "%" not in str(compiled.kernels[0])


def test_index_simplification_uses_ranges():
    from backend.simplify import simplify

    x0, x1, x2 = L.Var("x0"), L.Var("x1"), L.Var("x2")
    extents = {"x0": 8, "x1": 16, "x2": 32}
    flat = x0 * 16 + x1
    assert simplify((flat // 16) * 512 + (flat % 16) * 32 + x2, extents) == x0 * 512 + x1 * 32 + x2
    assert simplify((x1 * 32 + x2) // 64, extents) == (x1 * 32 + x2) // 64  # x2 < 32 but 32*x1 is no multiple
    assert simplify((x0 * 64 + x2) % 64, extents) == x2


def test_quotient_and_remainder_pairs_merge_without_ranges():
    from backend.scheduler import canonical
    from backend.simplify import simplify

    def same(a, b):
        return canonical(a) == canonical(b)

    r0, x0 = L.Var("r0"), L.Var("x0")
    assert same(simplify((r0 // 64) * 32768 + (r0 % 64) * 512 + x0, {}), r0 * 512 + x0)
    t = r0 + x0 * 7
    assert same(simplify((t // 5) * 10 + (t % 5) * 2, {}), t * 2)
    assert same(simplify((t // 5) * 9 + (t % 5) * 2, {}), (t // 5) * 9 + (t % 5) * 2)  # 9 != 5*2: kept
    # a multiple of the divisor inside the sum leaves the quotient and the remainder split the same way
    flat = x0 * 12 + r0 * 3
    assert same(simplify((flat // 4) * 4 + flat % 4, {}), flat)


def test_a_view_of_an_input_through_a_reshape_is_returned_as_a_view():
    """x.reshape(1, 4, 3).select(-1, 0) reads x at 3*i: the output is that strided view of the input, as
    torch.compile returns it (strides (12, 3)), not a copy."""
    x = minitorch2.from_numpy(np.arange(12.0, dtype=np.float32).reshape(3, 4))
    out = minitorch2.compile(lambda x: x.reshape(1, 4, 3).select(-1, 0), backend="inductor")(x)
    assert out.stride() == (12, 3) and out.numpy().tolist() == [[0.0, 3.0, 6.0, 9.0]]


def test_matmul_of_a_flattened_transpose_reads_it_in_place():
    def weight_gradient(grad, x):  # linear's weight gradient on 3-d activations, as aot writes it
        return aten.mm.default(aten.t.default(aten.view.default(grad, [64, 24])), aten.view.default(x, [64, 16]))

    compiled = compile_checked(weight_gradient, minitorch2.randn(4, 16, 24), minitorch2.randn(4, 16, 16))
    assert compiled.kernels == []  # no copy of the transpose: the extern mm gets a strided view


def test_numpy_ref_runs_a_hand_written_kernel():
    from backend.codegen import numpy_ref

    f32 = minitorch2.float32
    x0, r0 = L.Var("x0"), L.Var("r0")
    element = L.Load("in_ptr0", x0 * 8 + r0, f32)
    kernel = L.Kernel("softmax", [L.KernelArg("in_ptr0", "x", f32, 32, "in"),
                                  L.KernelArg("out_ptr0", "y", f32, 32, "out")],
                      L.Loop(("x0",), (4,), [
                          L.Reduce("tmp0", "max", ("r0",), (8,), element, f32),
                          L.Reduce("tmp1", "sum", ("r0",), (8,),
                                   L.Op("exp", (L.Op("sub", (element, L.Temp("tmp0", f32)), f32),), f32), f32),
                          L.Loop(("r0",), (8,), [L.Store("out_ptr0", x0 * 8 + r0, L.Op("truediv", (
                              L.Op("exp", (L.Op("sub", (element, L.Temp("tmp0", f32)), f32),), f32),
                              L.Temp("tmp1", f32)), f32))])]))
    x = np.random.default_rng(0).standard_normal((4, 8)).astype(np.float32)
    y = np.empty_like(x)
    numpy_ref.compile_kernel(kernel).run(x.ctypes.data, y.ctypes.data)
    expected = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(y, expected / expected.sum(1, keepdims=True), rtol=1e-6)
