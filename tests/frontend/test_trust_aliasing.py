"""Compiled functions called with aliased inputs: one tensor reached by two sources (one graph input, its
sameness guarded, as Dynamo's DUPLICATE_INPUT and NO_TENSOR_ALIASING guards), tied parameters, and
overlapping views of one base changed in place (the overlap guarded; AOT traces a synthetic base). Values,
the inputs' new contents, gradients and compile counts against torch eager and torch.compile."""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter


@pytest.fixture(autouse=True)
def _reset():
    torch._dynamo.reset()
    frontend.reset()
    yield


def _np(t):
    return t.detach().numpy()


def h(a, b):
    b.mul_(2)
    return a + 1


def f(a, b):
    a.add_(1)
    return b * 2


def _ours(fn, backend):
    counter = CompileCounter() if backend == "counter" else None
    return minitorch2.compile(fn, backend=counter or backend), counter


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_one_tensor_passed_twice_after_two_distinct_recompiles(backend):
    """h(x, y) then h(z, z): the entry compiled for distinct tensors must not run (it returned [2, 2]; eager
    and torch.compile give [3, 3])."""
    compiled, torch_compiled = minitorch2.compile(h, backend=backend), torch.compile(h, backend="aot_eager")
    compiled(minitorch2.ones(2), minitorch2.ones(2))
    torch_compiled(torch.ones(2), torch.ones(2))
    z, tz, ez = minitorch2.ones(2), torch.ones(2), torch.ones(2)
    out, torch_out, eager_out = compiled(z, z), torch_compiled(tz, tz), h(ez, ez)
    np.testing.assert_array_equal(_np(out), _np(eager_out))
    np.testing.assert_array_equal(_np(out), _np(torch_out))
    np.testing.assert_array_equal(_np(z), _np(ez))


def test_aliasing_pattern_compile_counts_match_dynamo():
    counter, torch_counter = CompileCounter(), torch._dynamo.testing.CompileCounter()
    compiled, torch_compiled = minitorch2.compile(h, backend=counter), torch.compile(h, backend=torch_counter)
    for lib, fn in ((minitorch2, compiled), (torch, torch_compiled)):
        x, y, z = lib.ones(2), lib.ones(2), lib.ones(2)
        fn(x, y)
        fn(z, z)
        fn(x, y)  # each pattern's entry is reused
        fn(y, y)
    assert (counter.frame_count, counter.op_count) == (torch_counter.frame_count, torch_counter.op_count) == (2, 4)


def test_duplicate_input_is_one_placeholder_and_guarded():
    graphs = []

    def capture(gm, example_inputs):
        graphs.append([n.name for n in gm.graph.nodes if n.op == "placeholder"])
        return gm.forward

    torch_graphs = []

    def torch_capture(gm, example_inputs):
        torch_graphs.append([n.name for n in gm.graph.nodes if n.op == "placeholder"])
        return gm.forward

    z, tz = minitorch2.ones(2), torch.ones(2)
    minitorch2.compile(h, backend=capture)(z, z)
    torch.compile(h, backend=torch_capture)(tz, tz)
    assert graphs == torch_graphs == [["l_b_"]]  # b is read first
    entry = frontend.eval_frame.CACHE[h.__code__][0]
    assert "L['b'] is L['a']" in entry.guard_fn.source
    assert entry.guard_fn({"a": z, "b": z}, h.__globals__) is None
    assert entry.guard_fn({"a": z, "b": minitorch2.ones(2)}, h.__globals__) == "L['b'] is L['a']"  # Dynamo's words


def test_distinct_inputs_guard_names_the_duplicates():
    minitorch2.compile(h, backend="aot_eager")(minitorch2.ones(2), minitorch2.ones(2))
    entry = frontend.eval_frame.CACHE[h.__code__][0]
    z = minitorch2.ones(2)
    assert entry.guard_fn({"a": z, "b": z}, h.__globals__) == "Duplicate tensors found: [\"L['b']\", \"L['a']\"]"  # inputs' order


def _tied_model(lib):
    """nanoGPT's weight tying: transformer.wte.weight is lm_head.weight."""
    class TinyGPT(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.transformer = lib.nn.ModuleDict({"wte": lib.nn.Embedding(7, 4), "ln_f": lib.nn.LayerNorm(4)})
            self.lm_head = lib.nn.Linear(4, 7, bias=False)
            self.transformer.wte.weight = self.lm_head.weight

        def forward(self, idx):
            x = self.transformer.ln_f(self.transformer.wte(idx))
            return self.lm_head(x)

    lib.manual_seed(0)
    return TinyGPT()


def _copy_weights(model, tmodel):
    for (name, p), (_, tp) in zip(model.named_parameters(), tmodel.named_parameters()):
        p.data = minitorch2.tensor(_np(tp))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_tied_weight_is_one_input_and_gets_eagers_gradient(backend):
    tmodel, model = _tied_model(torch), _tied_model(minitorch2)
    _copy_weights(model, tmodel)
    idx = [[1, 5, 5, 0], [6, 2, 1, 1]]
    targets = torch.tensor([[3, 3, 0, 1], [2, 2, 6, 5]])

    def loss(logits, y):
        return torch.nn.functional.cross_entropy(logits.view(-1, 7), y.view(-1))

    loss(tmodel(torch.tensor(idx)), targets).backward()
    placeholders = []

    def inner(gm, example_inputs):
        placeholders.append(sum(1 for n in gm.graph.nodes if n.op == "placeholder"))
        return frontend.backends.lookup_backend(backend)(gm, example_inputs)

    compiled = minitorch2.compile(model, backend=inner)
    logits = compiled(minitorch2.tensor(idx))
    minitorch2.nn.functional.cross_entropy(logits.view(-1, 7), minitorch2.tensor(_np(targets)).view(-1)).backward()
    torch_placeholders = []
    torch_model = _tied_model(torch)

    def torch_inner(gm, example_inputs):
        torch_placeholders.append(sum(1 for n in gm.graph.nodes if n.op == "placeholder"))
        return gm.forward

    torch.compile(torch_model, backend=torch_inner)(torch.tensor(idx))
    assert placeholders == torch_placeholders == [4]  # the tied weight, ln_f's weight and bias, idx
    np.testing.assert_allclose(_np(model.lm_head.weight.grad), _np(tmodel.lm_head.weight.grad), rtol=1e-4, atol=1e-6)
    assert model.transformer.wte.weight.grad is model.lm_head.weight.grad


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_overlapping_views_after_distinct_tensors_recompile(backend):
    """f(zeros(3), zeros(3)) then f(base[0:3], base[1:4]): eager gives [2, 2, 0]. torch 2.13 guards storage
    overlap only under dynamic shapes, so its static entry is reused and returns [0, 0, 0]; here the overlap
    is guarded, and the new entry matches eager and a fresh torch.compile."""
    counter = CompileCounter()

    def inner(gm, example_inputs):
        counter(gm, example_inputs)
        return frontend.backends.lookup_backend(backend)(gm, example_inputs)

    compiled = minitorch2.compile(f, backend=inner)
    compiled(minitorch2.zeros(3), minitorch2.zeros(3))
    base, ebase, tbase = minitorch2.zeros(4), torch.zeros(4), torch.zeros(4)
    out = compiled(base[0:3], base[1:4])
    eager_out = f(ebase[0:3], ebase[1:4])
    torch_out = torch.compile(f, backend="aot_eager")(tbase[0:3], tbase[1:4])
    for expected, expected_base in ((eager_out, ebase), (torch_out, tbase)):
        np.testing.assert_array_equal(_np(out), _np(expected))
        np.testing.assert_array_equal(_np(base), _np(expected_base))
    assert counter.frame_count == 2
    out = compiled(minitorch2.zeros(3), minitorch2.zeros(3))  # the first entry again
    np.testing.assert_array_equal(_np(out), [0.0, 0.0, 0.0])
    base = minitorch2.zeros(4)
    np.testing.assert_array_equal(_np(compiled(base[0:3], base[1:4])), [2.0, 2.0, 0.0])
    assert counter.frame_count == 2


def test_overlapping_views_first_then_distinct_tensors():
    """The reverse order: torch 2.13 reuses its synthetic-base entry for distinct tensors and fails
    (setStorage out of bounds); here the overlap guard fails and distinct tensors get their own entry."""
    compiled = minitorch2.compile(f, backend="aot_eager")
    base = minitorch2.zeros(4)
    np.testing.assert_array_equal(_np(compiled(base[0:3], base[1:4])), [2.0, 2.0, 0.0])
    a, b = minitorch2.zeros(3), minitorch2.zeros(3)
    np.testing.assert_array_equal(_np(compiled(a, b)), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(_np(a), [1.0, 1.0, 1.0])
    assert len(frontend.eval_frame.CACHE[f.__code__]) == 2


def test_overlap_is_not_guarded_when_no_input_changes():
    """Reading overlapping views is right with any entry: no overlap guard, no recompile (as Dynamo)."""
    def g(a, b):
        return a * b

    counter, torch_counter = CompileCounter(), torch._dynamo.testing.CompileCounter()
    for lib, fn in ((minitorch2, minitorch2.compile(g, backend=counter)), (torch, torch.compile(g, backend=torch_counter))):
        fn(lib.ones(3), lib.ones(3))
        base = lib.arange(4.0)
        np.testing.assert_array_equal(_np(fn(base[0:3], base[1:4])), [0.0, 2.0, 6.0])
    assert counter.frame_count == torch_counter.frame_count == 1


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_overlapping_views_of_a_non_leaf_give_eagers_gradients(backend):
    def run(lib, compile):
        x = lib.tensor(np.arange(1.0, 5.0, dtype=np.float32), requires_grad=True)
        base = x * 1
        out = compile(f)(base[0:3], base[1:4])
        (out * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return _np(out), _np(base), _np(x.grad)

    ours = run(minitorch2, lambda fn: minitorch2.compile(fn, backend=backend))
    for expected in (run(torch, lambda fn: fn), run(torch, lambda fn: torch.compile(fn, backend="aot_eager"))):
        for mine, theirs in zip(ours, expected):
            np.testing.assert_allclose(mine, theirs, rtol=1e-6)


def test_same_tensor_through_a_list_and_an_argument():
    """One tensor reached as an argument and as a list item is one graph input too."""
    def k(x, xs):
        xs[0].add_(1)
        return x * 2

    z, tz = minitorch2.zeros(2), torch.zeros(2)
    compiled = minitorch2.compile(k, backend="aot_eager")
    compiled(minitorch2.zeros(2), [minitorch2.zeros(2)])
    np.testing.assert_array_equal(_np(compiled(z, [z])), _np(k(tz, [tz])))
    np.testing.assert_array_equal(_np(compiled(z, [z])), _np(torch.compile(k, backend="aot_eager")(tz, [tz])))
