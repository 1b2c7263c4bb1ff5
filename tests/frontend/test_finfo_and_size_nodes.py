"""torch.finfo / torch.iinfo in a compiled frame fold to constants, as Dynamo folds them (minitorch2 broke the graph
at every `torch.finfo(x.dtype).min`, the HuggingFace mask idiom), and arithmetic on symbolic sizes stays a node
even where it simplifies to a number (`1 + s - s` is Dynamo's Sym(1), read by the op after it): frame_count,
op_count, the graphs' ops and the values, against torch.compile's."""
import numpy as np
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter


def _mask_fill(lib):
    def f(x, keep):
        scores = x * 2
        low = lib.finfo(scores.dtype).min
        scores = scores.masked_fill(~keep, low).softmax(-1)
        return scores * (lib.iinfo(lib.int32).max > 0)
    return f


def _size_arithmetic(x):
    n = x.shape[0]
    return x.triu(1 + n - n) * (n - n + 2)


def _run(fn_for, inputs, dynamic=None):
    torch._dynamo.reset()
    frontend.reset()
    theirs, ours = torch._dynamo.testing.CompileCounter(), CompileCounter()
    want = [torch.compile(fn_for(torch), backend=theirs, dynamic=dynamic)(*[torch.from_numpy(a) for a in args])
            for args in inputs]
    got = [minitorch2.compile(fn_for(minitorch2), backend=ours, dynamic=dynamic)(
        *[minitorch2.from_numpy(a) for a in args]) for args in inputs]
    for w, g in zip(want, got):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6)
    assert (ours.frame_count, ours.op_count) == (theirs.frame_count, theirs.op_count)
    return ours


def test_finfo_and_iinfo_fold_into_one_graph():
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    keep = np.array([[1, 1, 0, 0, 1]] * 3, dtype=bool)
    assert _run(_mask_fill, [(x, keep)]).frame_count == 1


def test_size_arithmetic_that_simplifies_stays_a_node():
    rng = np.random.default_rng(1)
    inputs = [(rng.standard_normal((n, n)).astype(np.float32),) for n in (4, 6)]
    _run(lambda lib: _size_arithmetic, inputs, dynamic=True)
