"""torch.tensor([n]) in a compiled frame where n is a size symbol (an int argument made dynamic, x.shape[0]) or a
tensor: Dynamo records torch._refs.tensor, built from scalar_tensor and stack; graphs, counts and values against
torch 2.13 (it used to fail: "Could not infer dtype of SymInt")."""
import numpy as np
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2


def position_offset(x, pos):
    return x + torch.tensor([pos])


def lengths_of(x, y):
    return torch.tensor([x.shape[0], y.shape[0]]) * 2


def float_of_size(x, n):
    return x * torch.tensor([n / 2, 1.0])


def stacked_reductions(x):
    return torch.tensor([x.sum(), x.max()]) + 1


CASES = [
    (position_offset, lambda n: ((np.ones(3, np.float32), n),)),
    (lengths_of, lambda n: ((np.ones(n, np.float32), np.ones(n + 2, np.float32)),)),
    (float_of_size, lambda n: ((np.ones(2, np.float32), n),)),
    (stacked_reductions, lambda n: ((np.arange(n, dtype=np.float32),),)),
]


def _run(lib, fn, make_inputs, backend):
    (torch._dynamo if lib is torch else frontend).reset()
    graphs = []

    def capture(gm, example_inputs):
        graphs.append(gm.code)
        return gm

    compiled = lib.compile(fn, backend=capture if backend == "capture" else backend)
    namespace = fn.__globals__
    saved = namespace["torch"]
    namespace["torch"] = lib
    try:
        outputs = []
        for n in (2, 5, 7):
            args = [lib.tensor(a) if isinstance(a, np.ndarray) else a for a in make_inputs(n)[0]]
            outputs.append(compiled(*args).numpy().copy())
    finally:
        namespace["torch"] = saved
    return graphs, outputs


@pytest.mark.parametrize("fn, make_inputs", CASES, ids=[c[0].__name__ for c in CASES])
def test_graphs_as_dynamos(fn, make_inputs):
    ours, _ = _run(minitorch2, fn, make_inputs, "capture")
    theirs, _ = _run(torch, fn, make_inputs, "capture")
    assert ours == theirs


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
@pytest.mark.parametrize("fn, make_inputs", CASES, ids=[c[0].__name__ for c in CASES])
def test_values_as_torchs(fn, make_inputs, backend):
    _, ours = _run(minitorch2, fn, make_inputs, backend)
    theirs = [fn(*[torch.tensor(a) if isinstance(a, np.ndarray) else a for a in make_inputs(n)[0]]).numpy()
              for n in (2, 5, 7)]
    for o, t in zip(ours, theirs):
        assert o.dtype == t.dtype and o.shape == t.shape
        np.testing.assert_allclose(o, t, rtol=1e-6)
