"""pixel_shuffle / pixel_unshuffle as torch's ATen ops (issue 20, pytorch/examples' super_resolution): eager values,
strides (channels last kept) and node names, each op the other's derivative, and the decomposition torch's
tables apply, so traced forward and backward graphs record torch's ops."""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import make_boxed_func as torch_boxed
from torch._decomp import core_aten_decompositions as torch_table
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import aot_function, core_aten_decompositions, make_boxed_func, make_fx

X = np.random.default_rng(0).standard_normal((2, 8, 3, 3)).astype(np.float32)


@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("name, factor, shape", [("pixel_shuffle", 2, (2, 8, 3, 3)),
                                                 ("pixel_unshuffle", 3, (2, 2, 6, 6))])
def test_eager_values_strides_and_gradients_match_torch(name, factor, shape, channels_last):
    def run(lib):
        x = lib.tensor(X.reshape(shape))
        x = x.to(memory_format=lib.channels_last) if channels_last else x
        x.requires_grad_()
        out = getattr(lib.nn.functional, name)(x, factor)
        (out * lib.arange(float(out.numel())).reshape(out.shape)).sum().backward()
        return out.grad_fn.name(), out.stride(), out.detach().numpy().tolist(), x.grad.numpy().tolist()

    assert run(minitorch2) == run(torch)


@pytest.mark.parametrize("decompose", [False, True], ids=["as called", "core decompositions"])
def test_traced_forward_and_backward_record_torchs_ops(decompose):
    def f(lib):
        def fn(x, g):
            out = lib.nn.functional.pixel_shuffle(x, 2)
            return out, lib.autograd.grad(out, x, g)[0]
        return fn

    g = np.ones((2, 2, 6, 6), np.float32)
    theirs = torch_make_fx(f(torch), torch_table() if decompose else None)(
        torch.tensor(X, requires_grad=True), torch.tensor(g))
    ours = make_fx(f(minitorch2), core_aten_decompositions() if decompose else None)(
        minitorch2.tensor(X, requires_grad=True), minitorch2.tensor(g))
    assert ours.code == theirs.code


def test_aot_joint_of_a_pixel_shuffle_layer_matches_torch():
    def capture(graphs, boxed):
        def compiler(gm, inputs):
            graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
            return boxed(gm.forward)
        return compiler

    def run(lib, aot, table, boxed):
        graphs = []
        f = aot(lambda x, w: lib.nn.functional.pixel_shuffle(lib.nn.functional.conv2d(x, w), 2).relu(),
                capture(graphs, boxed), capture(graphs, boxed), decompositions=table)
        f(lib.tensor(X), lib.ones(8, 8, 1, 1, requires_grad=True)).sum().backward()
        return graphs

    assert run(minitorch2, aot_function, core_aten_decompositions(), make_boxed_func) == \
        run(torch, torch_aot_function, torch_table(), torch_boxed)
