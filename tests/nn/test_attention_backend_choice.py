"""F.scaled_dot_product_attention chooses as ATen's CPU backend chooses: the fused
_scaled_dot_product_flash_attention_for_cpu where its constraints hold (4-D inputs, no dropout, one head size, unit
last stride, equal batch and heads or enable_gqa's groups), the math path otherwise (q and k each scaled by the
scale's square root, _safe_softmax, dropout). Compared with torch: the ops a trace records, the values, the gradients and their grad_fn, the output's strides (the fused op lays its output out
as the query, so nanoGPT's `y.transpose(1, 2).contiguous()` copies nothing)."""
import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import make_fx

B, H, L, S, E = 2, 4, 5, 6, 8
RNG = np.random.default_rng(0)


def _arrays(*shapes):
    return [RNG.standard_normal(shape).astype(np.float32) for shape in shapes]


QKV = _arrays((B, H, L, E), (B, H, S, E), (B, H, S, E))
BTHE = [a.transpose(0, 2, 1, 3).copy() for a in _arrays((B, H, L, E), (B, H, S, E), (B, H, S, E))]
FLOAT_MASK, = _arrays((L, S))
BOOL_MASK = RNG.random((L, S)) > 0.3


def _inputs(lib, case):
    if case == "bthe":  # nanoGPT's heads: (B, T, H, E) viewed and transposed
        return [lib.tensor(a).transpose(1, 2) for a in BTHE]
    q, k, v = (lib.tensor(a) for a in QKV)
    return {"causal": [q, k[:, :, :L], v[:, :, :L]], "gqa": [q, k[:, :2], v[:, :2]], "three_d": [q[0], k[0], v[0]],
            "value_size": [q, k, v[..., :3]], "batch_broadcast": [q, k[:1], v[:1]]}.get(case, [q, k, v])


def _kwargs(lib, case):
    masks = {"float_mask": FLOAT_MASK, "bool_mask": BOOL_MASK}
    if case in masks:
        return {"attn_mask": lib.tensor(masks[case])}
    return {"causal": {"is_causal": True}, "scale": {"scale": 0.3}, "gqa": {"enable_gqa": True},
            "dropout": {"dropout_p": 0.5}}.get(case, {})


FUSED = ["plain", "causal", "scale", "float_mask", "bool_mask", "gqa", "bthe"]
MATH = ["three_d", "value_size", "batch_broadcast", "dropout"]


def _ops(gm):
    return [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("case", FUSED + MATH)
def test_the_fused_op_is_chosen_where_torchs_chooses_it(case):
    def f(lib):
        kwargs = _kwargs(lib, case)  # (a mask made outside the trace: a constant of the graph in both)
        return lambda q, k, v: lib.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)

    ours = _ops(make_fx(f(minitorch2))(*_inputs(minitorch2, case)))
    theirs = _ops(torch_make_fx(f(torch))(*_inputs(torch, case)))
    fused = "aten._scaled_dot_product_flash_attention_for_cpu.default"
    assert (fused in ours) == (fused in theirs) == (case in FUSED)
    assert ours == theirs  # the math path too: q and k scaled apart, _safe_softmax, dropout's bernoulli_


@pytest.mark.parametrize("case", FUSED + MATH)
def test_attention_values_gradients_and_layouts_match_torch(case):
    results = []
    for lib in (minitorch2, torch):
        lib.manual_seed(0)  # (dropout's mask: drawn bit for bit as torch's)
        inputs = [t.detach().requires_grad_() for t in _inputs(lib, case)]
        out = lib.nn.functional.scaled_dot_product_attention(*inputs, **_kwargs(lib, case))
        weights = lib.arange(out.numel(), dtype=lib.float32).view(out.shape).sin()
        (out * weights).sum().backward()
        results.append((out.detach().numpy(), out.stride(), type(out.grad_fn).__name__,
                        [t.grad.numpy() for t in inputs]))
    (out, stride, node, grads), (t_out, t_stride, t_node, t_grads) = results
    np.testing.assert_allclose(out, t_out, rtol=1e-5, atol=1e-5)
    assert stride == t_stride and node == t_node
    assert (node == "ScaledDotProductFlashAttentionForCpuBackward0") == (case in FUSED)
    for grad, t_grad in zip(grads, t_grads):
        np.testing.assert_allclose(grad, t_grad, rtol=1e-4, atol=1e-5)


def test_the_fused_ops_output_and_saved_layouts_match_torchs():
    outs = [lib.ops.aten._scaled_dot_product_flash_attention_for_cpu(*_inputs(lib, "bthe")) for lib in
            (minitorch2, torch)]
    assert [t.stride() for t in outs[0]] == [t.stride() for t in outs[1]]
    grads = [lib.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward(
        out[0], *_inputs(lib, "bthe"), *out, 0.0, False) for lib, out in zip((minitorch2, torch), outs)]
    assert [g.stride() for g in grads[0]] == [g.stride() for g in grads[1]]
    for ours, theirs in zip(grads[0], grads[1]):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-4, atol=1e-5)


def test_a_compiled_attention_mask_is_a_graph_input_not_a_baked_constant():
    # the mask reaches the fused op as a keyword argument: the trace must take it from the graph
    def f(lib):
        def attend(q, k, v, mask):
            return lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return attend

    q, k, v = _inputs(minitorch2, "plain")
    compiled = minitorch2.compile(f(minitorch2), backend="aot_eager")
    for mask in (FLOAT_MASK, np.zeros_like(FLOAT_MASK)):
        expected = f(torch)(*_inputs(torch, "plain"), torch.tensor(mask))
        np.testing.assert_allclose(compiled(q, k, v, minitorch2.tensor(mask)).numpy(), expected.numpy(),
                                   rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("decompose", [False, True])
def test_safe_softmax_gives_zeros_for_a_row_of_only_minus_infinity(decompose):
    rows = np.array([[-np.inf] * 3, [1.0, 2.0, -np.inf]], np.float32)
    weights = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32)
    results = []
    for lib in (minitorch2, torch):
        x = lib.tensor(rows, requires_grad=True)
        y = (lib.compile(lambda t: lib.ops.aten._safe_softmax(t, -1), backend="inductor") if decompose else
             lambda t: lib.ops.aten._safe_softmax(t, -1))(x)
        (y * lib.tensor(weights)).sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)


@pytest.mark.parametrize("case", ["bool_mask", "bool_mask_dropout", "causal_dropout", "causal_three_d"])
def test_the_masks_attention_makes_print_as_torchs(case):
    # the bool and causal masks made inside the op: ATen's ones / scalar_tensor calls, keyword for keyword
    def f(lib):
        def attend(q, k, v, mask):
            kwargs = {"attn_mask": mask} if case.startswith("bool") else {"is_causal": True}
            if case.endswith("three_d"):
                q, k, v = q[0], k[0], v[0]
            return lib.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.3 * case.endswith("dropout"),
                                                                  **kwargs)
        return attend

    codes = [trace(f(lib))(*_inputs(lib, "causal"), lib.tensor(BOOL_MASK[:, :L]))
             for lib, trace in ((minitorch2, make_fx), (torch, torch_make_fx))]
    assert codes[0].code == codes[1].code
