"""The strides AOT traces tangents with (autograd/tangent_strides.py), against torch 2.13's aot_function: a
permuted or transposed output's tangent keeps the output's strides (the backward then views where a contiguous
tangent would clone), an expanded output's is contiguous; gradients arriving with other strides give torch's
gradients."""
import functorch.compile
import numpy as np
import pytest
import torch

import minitorch2
from autograd import aot_function


def _heads(lib, h, w):  # attention's head split: the key returned permuted, and used
    q, k, v = (h @ w).split(4, dim=2)
    k = k.view(1, 3, 2, 2).permute(0, 2, 1, 3)
    return k, q.view(1, 3, 2, 2).permute(0, 2, 1, 3) @ k.transpose(-1, -2)


PROGRAMS = {
    "permuted_output": _heads,
    "transposed_output": lambda lib, h, w: (h @ w).transpose(1, 2) * 2,
    "expanded_output": lambda lib, h, w: ((h @ w).sum(1, keepdim=True).expand(1, 5, 12) * 3,),
}
GRADIENTS = {"ones": lambda lib, o: lib.ones_like(o), "expanded": lambda lib, o: lib.ones(()).expand(o.shape),
             "reversed_strides": lambda lib, o: lib.arange(float(o.numel())).reshape(*o.shape[::-1]).permute(
                 *reversed(range(o.dim())))}


def _run(lib, aot, name, gradient):
    graphs = []

    def backward_compiler(gm, example_inputs):
        graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
        return gm

    rng = np.random.default_rng(0)
    h = lib.tensor(rng.standard_normal((1, 3, 4)).astype(np.float32).tolist()) if name != "expanded_output" else \
        lib.tensor(rng.standard_normal((1, 5, 4)).astype(np.float32).tolist())
    w = lib.tensor(rng.standard_normal((4, 12)).astype(np.float32).tolist(), requires_grad=True)
    fn = PROGRAMS[name]
    outs = aot(lambda h, w: fn(lib, h, w), fw_compiler=lambda gm, _: gm, bw_compiler=backward_compiler)(h, w)
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    lib.autograd.backward(list(outs), [GRADIENTS[gradient](lib, o) for o in outs])
    return graphs, w.grad.detach().numpy(), [tuple(o.stride()) for o in outs]


@pytest.mark.parametrize("gradient", sorted(GRADIENTS))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_backward_graph_and_gradients_as_torchs(name, gradient):
    ours = _run(minitorch2, aot_function, name, gradient)
    theirs = _run(torch, functorch.compile.aot_function, name, gradient)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-5)
    assert ours[2] == theirs[2]


@pytest.mark.parametrize("size, stride", [((1, 2, 3, 2), (36, 2, 12, 1)), ((2, 3), (1, 2)), ((2, 0, 3), (5, 7, 2)),
                                          ((3, 2), (0, 1))])
def test_empty_strided_keeps_its_strides_as_torchs(size, stride):
    """(the gradients above are copied into empty_strided memory: it had been laid out contiguously)"""
    ours, theirs = minitorch2.empty_strided(size, stride), torch.empty_strided(size, stride)
    assert (ours.stride(), ours.shape) == (theirs.stride(), tuple(theirs.shape))
    assert ((ours + 1).stride(), ours.new_empty_strided(size, stride).stride()) == ((theirs + 1).stride(), stride)
