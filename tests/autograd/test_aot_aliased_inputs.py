"""aot_function on aliased inputs: one tensor passed twice (deduped, as torch's AOTDedupeWrapper) and
overlapping views one of which the function changes in place (a synthetic base, as torch's
AOTSyntheticBaseWrapper); values, inputs' new contents and gradients against torch eager and torch's own
aot_function, and the graphs compiled per aliasing pattern."""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import make_boxed_func as torch_boxed

import minitorch2
from autograd import aot_function, aot_module_simplified, make_boxed_func
from minitorch2._memory_overlap import overlap_groups

pytestmark = pytest.mark.aot


def _nop(gm, example_inputs):
    return make_boxed_func(gm.forward)


def _torch_nop(gm, example_inputs):
    return torch_boxed(gm.forward)


def _np(t):
    return t.detach().numpy()


# name -> (function, inputs from one base of 4 elements); the same source runs on torch and minitorch2
CASES = {
    "same_tensor_twice_mutated": (lambda a, b: (b.mul_(2), a + 1)[1], lambda B: (B, B)),
    "overlapping_slices": (lambda a, b: (a.add_(1), b * 2)[1], lambda B: (B[0:3], B[1:4])),
    "base_and_its_view": (lambda a, b: (a.add_(1), b * 2)[1], lambda B: (B, B[1:3])),
    "output_is_overlapping_input": (lambda a, b: (a.mul_(2), b)[1], lambda B: (B[0:3], B[1:4])),
    "interleaved_views": (lambda a, b: (a.add_(1), b + a)[1], lambda B: (B[::2], B[1::2])),
    "matrix_and_row_view": (lambda a, b: (a.add_(1), b.sum(0))[1], lambda B: (B.view(2, 2), B.view(4)[1:3])),
    "three_overlapping": (lambda a, b, c: (b.mul_(2), a * 3 + c)[1], lambda B: (B[0:2], B[1:3], B[2:4])),
    "overlap_without_mutation": (lambda a, b: a * b, lambda B: (B[0:3], B[1:4])),
    # a changed in place shares no byte with b and c, which overlap: all three still go into one base, as
    # torch's (b, saved for mul's backward, shares a's version counter; kept apart it was refused)
    "mutated_view_apart_from_an_overlapping_pair": (lambda a, b, c: (a.mul_(-0.5), b * a + c)[1],
                                                    lambda B: (B[0:1], B[1:3], B[2:4])),
}


def _run(lib, name, requires_grad, compile=None):
    """(output, base's contents after, leaf's grad) of CASES[name] on a fresh base; the base is a non-leaf
    (x * 1) when requires_grad, so views of it may be changed in place."""
    fn, make_inputs = CASES[name]
    x = lib.tensor(np.arange(1.0, 5.0, dtype=np.float32), requires_grad=requires_grad)
    base = x * 1 if requires_grad else x.clone()
    out = (compile(fn) if compile else fn)(*make_inputs(base))
    grad = None
    if requires_grad:
        out.sum().backward()
        grad = _np(x.grad)
    return _np(out), _np(base), grad


@pytest.mark.parametrize("requires_grad", [False, True], ids=["values", "grads"])
@pytest.mark.parametrize("name", list(CASES))
def test_aliased_inputs_match_torch_eager_and_torch_aot(name, requires_grad):
    eager = _run(torch, name, requires_grad)
    torch_aot = _run(torch, name, requires_grad, lambda fn: torch_aot_function(fn, _torch_nop, _torch_nop))
    ours = _run(minitorch2, name, requires_grad, lambda fn: aot_function(fn, _nop, _nop))
    for theirs in (eager, torch_aot):
        for mine, expected in zip(ours, theirs):
            if expected is None:
                assert mine is None
            else:
                np.testing.assert_allclose(mine, expected, rtol=1e-6)


def test_one_tensor_twice_counts_its_gradient_once():
    w = minitorch2.ones(2, requires_grad=True)
    aot_function(lambda a, b: (a * 3 + b * 5).sum(), _nop, _nop)(w, w).backward()
    tw = torch.ones(2, requires_grad=True)
    torch_aot_function(lambda a, b: (a * 3 + b * 5).sum(), _torch_nop, _torch_nop)(tw, tw).backward()
    np.testing.assert_array_equal(_np(w.grad), _np(tw.grad))
    np.testing.assert_array_equal(_np(w.grad), [8.0, 8.0])


def test_one_tensor_twice_is_one_graph_input():
    graphs = []

    def capture(gm, example_inputs):
        graphs.append(len(example_inputs))
        return make_boxed_func(gm.forward)

    w = minitorch2.ones(2, requires_grad=True)
    aot_function(lambda a, b: (a * 3 + b * 5).sum(), capture, _nop)(w, w)
    assert graphs == [1]


def test_each_aliasing_pattern_gets_its_own_graphs():
    """The first call no longer fixes the graphs for every later call: distinct, aliased and overlapping
    inputs each trace once, and a pattern seen before reuses its graphs."""
    compiles = []

    def counting(gm, example_inputs):
        compiles.append(gm)
        return make_boxed_func(gm.forward)

    def f(a, b):
        a.add_(1)
        return b * 2

    compiled = aot_function(f, counting)
    calls = [lambda lib: (lib.zeros(3), lib.zeros(3)),
             lambda lib: (lambda B: (B[0:3], B[1:4]))(lib.zeros(4)),
             lambda lib: (lambda z: (z, z))(lib.zeros(3)),
             lambda lib: (lib.zeros(3), lib.zeros(3)),
             lambda lib: (lambda B: (B[0:3], B[1:4]))(lib.zeros(4))]
    for make in calls:
        np.testing.assert_array_equal(_np(compiled(*make(minitorch2))), _np(f(*make(torch))))
    assert len(compiles) == 3


def test_a_view_of_the_changed_memory_apart_from_the_overlap_traces_again():
    """Whether the tensor changed in place lives in the memory two other inputs overlap in is part of the
    pattern: with it there, the three are one base; with it elsewhere, the overlapping pair is left alone."""
    compiled = aot_function(lambda a, b, c: (a.mul_(-0.5), b * a + c)[1], _nop)
    for apart in (False, True):
        results = []
        for lib in (minitorch2, torch):
            base = lib.arange(1.0, 6.0)
            a = lib.ones(1) if apart else base[0:1]
            fn = compiled if lib is minitorch2 else (lambda a, b, c: (a.mul_(-0.5), b * a + c)[1])
            results.append((_np(fn(a, base[1:3], base[2:4])), _np(base), _np(a)))
        for mine, expected in zip(*results):
            np.testing.assert_array_equal(mine, expected)


def test_a_different_overlap_geometry_traces_again():
    compiled = aot_function(lambda a, b: (a.add_(1), b * 2)[1], _nop)
    for lo, hi in [(0, 1), (0, 2), (1, 2)]:
        base, tbase = minitorch2.zeros(5), torch.zeros(5)
        out = compiled(base[lo:lo + 3], base[hi:hi + 3])
        expected = (tbase[lo:lo + 3].add_(1), tbase[hi:hi + 3] * 2)[1]
        np.testing.assert_array_equal(_np(out), _np(expected))
        np.testing.assert_array_equal(_np(base), _np(tbase))


def test_views_sharing_memory_without_a_common_base_run_eagerly():
    """Two tensors made from one numpy array share memory but have no common base to trace: the function
    runs as it is (op by op), never compiled on a wrong assumption."""
    compiles = []

    def counting(gm, example_inputs):
        compiles.append(gm)
        return make_boxed_func(gm.forward)

    memory = np.zeros(4, dtype=np.float32)
    a, b = minitorch2.from_numpy(memory[0:3]), minitorch2.from_numpy(memory[1:4])
    assert a._base is None and b._base is None
    out = aot_function(lambda a, b: (a.add_(1), b * 2)[1], counting)(a, b)
    tmemory = np.zeros(4, dtype=np.float32)
    expected = (lambda a, b: (a.add_(1), b * 2)[1])(torch.from_numpy(tmemory[0:3]), torch.from_numpy(tmemory[1:4]))
    np.testing.assert_array_equal(_np(out), _np(expected))
    np.testing.assert_array_equal(memory, tmemory)
    assert compiles == []


def test_tied_parameters_of_a_module_get_one_gradient():
    """aot_module_simplified lists a module's parameters with duplicates (as torch's): a tied weight
    reaches the function twice and must get its gradient once."""
    def build(lib):
        lib.manual_seed(0)
        wte, head = lib.nn.Embedding(5, 4), lib.nn.Linear(4, 5, bias=False)
        head.weight = wte.weight
        model = lib.nn.Sequential(wte, head)
        return model

    tmodel, model = build(torch), build(minitorch2)
    model[0].weight.data = minitorch2.tensor(_np(tmodel[0].weight))
    idx = [1, 2, 2, 4]
    (tmodel(torch.tensor(idx)) * 3).sum().backward()
    compiled = aot_module_simplified(model, [minitorch2.tensor(idx)], _nop, _nop)
    (compiled(minitorch2.tensor(idx)) * 3).sum().backward()
    np.testing.assert_allclose(_np(model[0].weight.grad), _np(tmodel[0].weight.grad), rtol=1e-5, atol=1e-6)


def test_in_place_on_a_view_of_a_leaf_that_requires_grad_raises_as_eager():
    def f(a, b):
        a.add_(1)
        return b * 2

    x, tx = minitorch2.zeros(4, requires_grad=True), torch.zeros(4, requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        f(tx[0:3], tx[1:4])
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        aot_function(f, _nop, _nop)(x[0:3], x[1:4])


@pytest.mark.parametrize("make,expected", [
    (lambda B: [B[0:2], B[2:4]], ()),
    (lambda B: [B[0:3], B[2:4]], ((0, 1),)),
    (lambda B: [B, B], ((0, 1),)),
    (lambda B: [B[0:1], 3, B[0:1].clone(), B[0:4]], ((0, 3),)),
    (lambda B: [B[1:1], B], ()),
    (lambda B: [B.view(2, 2)[:, 0], B[3:4], B[0:1]], ((0, 2),)),
])
def test_overlap_groups(make, expected):
    assert overlap_groups(make(minitorch2.zeros(4))) == expected
