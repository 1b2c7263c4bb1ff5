"""torch.lerp's two overloads: a tensor weight (lerp.Tensor, LerpBackward1) has a gradient of its own, a number
(lerp.Scalar) none; under the inductor both decompose as torch 2.13's (the difference added with alpha, or a
where-chosen multiply-add), so compiled values are torch.compile's to the bit.

Before session 29 a tensor weight went through lerp.Scalar and got no gradient: w.grad stayed None, silently.
"""
import numpy as np
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2


def _inputs(lib, weight_shape):
    g = np.random.default_rng(0)
    x, y = (lib.tensor(g.standard_normal((2, 3)).astype("float32"), requires_grad=True) for _ in range(2))
    w = lib.tensor(g.random(weight_shape).astype("float32"), requires_grad=True)
    return x, y, w


@pytest.mark.parametrize("weight_shape", [(), (3,), (2, 3)])
def test_a_tensor_weight_gets_its_gradient(weight_shape):
    results = []
    for lib in (minitorch2, torch):
        x, y, w = _inputs(lib, weight_shape)
        out = lib.lerp(x, y, w)
        (out * out).sum().backward()
        results.append((type(out.grad_fn).__name__, [t.grad.numpy().round(5).tolist() for t in (x, y, w)]))
    assert results[0] == results[1]


def test_in_place_and_method_forms_pick_the_overload():
    for lib in (minitorch2, torch):
        x, y, w = _inputs(lib, (3,))
        assert type(x.lerp(y, w).grad_fn).__name__ == "LerpBackward1"
        assert type(x.lerp(y, 0.5).grad_fn).__name__ == "LerpBackward0"
        z = x.detach().clone()
        assert z.lerp_(y.detach(), w.detach()).tolist() == lib.lerp(x, y, w).tolist()


CASES = {
    "small_weight": lambda a, b, w: a.lerp(b, 0.3),
    "large_weight": lambda a, b, w: a.lerp(b, 0.999),
    "negative_weight": lambda a, b, w: a.lerp(b, -0.7),
    "tensor_weight": lambda a, b, w: a.lerp(b, w),
    "in_place": lambda a, b, w: a.clone().lerp_(b, 0.9),
}


def _compiled(lib, case):
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    g = np.random.default_rng(1)
    a, b = (lib.tensor(g.standard_normal((4, 5)).astype("float32")) for _ in range(2))
    w = lib.tensor((g.random((4, 5)) * 2 - 0.5).astype("float32"))
    ops = []

    def keep(gm, example_inputs):
        ops.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
        return gm

    if lib is torch:
        from torch._functorch.aot_autograd import aot_module_simplified
        from torch._inductor.decomposition import select_decomp_table
    else:
        from autograd.aot import aot_module_simplified
        from backend.compile_fx import select_decomp_table
    lib.compile(CASES[case], backend=lambda gm, ex: aot_module_simplified(
        gm, ex, fw_compiler=keep, decompositions=select_decomp_table()))(a, b, w)
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    return ops, lib.compile(CASES[case])(a, b, w).numpy().tolist()


@pytest.mark.parametrize("case", list(CASES))
def test_compiled_lerp_decomposes_and_computes_as_torch_compile(case):
    assert _compiled(minitorch2, case) == _compiled(torch, case)
