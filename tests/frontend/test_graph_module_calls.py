"""A GraphModule compiled, or called inside a compiled function, against Dynamo 2.13.

Dynamo inlines a GraphModule's generated forward like any module's: compiling one gives one frame, and calling one
inside a compiled function puts its ops in the caller's graph. The generated code names `torch` through the fx
spelling namespace (minitorch2.fx's TorchNamespace), which the translator reads as a module.
"""
import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
import torch.fx

import frontend
import minitorch2
import minitorch2.fx
from frontend.testing import CompileCounter

X = np.arange(6, dtype="float32").reshape(2, 3) - 2


def _graph_module(lib):
    class Net(lib.nn.Module):
        def forward(self, x, y):
            return lib.relu(x) + y * 2

    return lib.fx.symbolic_trace(Net())


def _run(lib, make_fn):
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    (torch._dynamo if lib is torch else frontend).reset()
    out = lib.compile(make_fn(_graph_module(lib)), backend=counter)(lib.tensor(X), lib.tensor(X + 1))
    return (counter.frame_count, counter.op_count), out.numpy()


@pytest.mark.parametrize("make_fn", [
    lambda gm: gm,
    lambda gm: lambda x, y: gm(x, y).sin() * gm(x.cos(), x).sum(),
], ids=["compiled_graph_module", "graph_module_inside_a_function"])
def test_a_graph_module_is_inlined_as_dynamo(make_fn):
    theirs, ours = _run(torch, make_fn), _run(minitorch2, make_fn)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
