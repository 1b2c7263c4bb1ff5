"""Gaps between our inductor backend and torch 2.13's Inductor, closed in session 26 (against real torch).

Output strides over size-1 dims: torch's Inductor gives a compiled graph's output the strides of its fake
tensor in every dim of size 0 or 1 when the other dims' strides agree (graph.py's output lowering calls
ir.try_match_insignificant_strides), so `.stride()` of a compiled output is eager's there; ours does the same
(backend/lowering.py, _realize_output)."""
import numpy as np
import pytest
import torch

import frontend
import minitorch2

STRIDE_PROGRAMS = {
    "slice_row": lambda lib, x: x[:1] * 2,
    "sum_keepdim": lambda lib, x: x.sum(-1, keepdim=True),
    "amax_keepdim_0": lambda lib, x: x.amax(0, keepdim=True),
    "mean_all_keepdim": lambda lib, x: x.mean((0, 1), keepdim=True),
    "pointwise_then_permute": lambda lib, x: (x[:, :1] + 1).permute(1, 0),
    "permuted_view_of_input": lambda lib, x: x[:, :1].permute(1, 0),
    "expand_of_keepdim": lambda lib, x: x.sum(-1, keepdim=True).expand(4, 5),
    "unsqueeze_of_computed": lambda lib, x: (x + 1).unsqueeze(1),
    "unsqueeze_of_input": lambda lib, x: x.unsqueeze(1),
    "reshape_of_sum": lambda lib, x: x.sum().reshape(1, 1),
    "view_of_reduction": lambda lib, x: x.sum(0).view(1, 5, 1),
    "permute_with_size1": lambda lib, x: (x.reshape(4, 1, 5) * 2).permute(2, 1, 0),
    "matmul_row": lambda lib, x: x[:1] @ x.t(),
    "matmul_column_unsqueezed": lambda lib, x: (x @ x[:1].t()).unsqueeze(0),
    "two_outputs": lambda lib, x: ((x * 3).reshape(1, 20), x.amax().view(1, 1, 1)),
}


def _compiled_strides(lib, name, dynamic):
    x = lib.linspace(0.25, 2.0, 20).reshape(4, 5)
    out = lib.compile(lambda x: STRIDE_PROGRAMS[name](lib, x), backend="inductor", dynamic=dynamic)(x)
    outs = out if isinstance(out, tuple) else (out,)
    return [(tuple(o.shape), tuple(o.stride()), o.is_contiguous(), o.reshape(-1).tolist()) for o in outs]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("name", sorted(STRIDE_PROGRAMS))
def test_output_strides_over_size_one_dims_are_torch_inductors(name, dynamic):
    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = _compiled_strides(minitorch2, name, dynamic), _compiled_strides(torch, name, dynamic)
    assert [o[:3] for o in ours] == [t[:3] for t in theirs]
    assert sum((o[3] for o in ours), []) == pytest.approx(sum((t[3] for t in theirs), []), rel=1e-6)


# ---- torch.tensor(number) in a compiled frame: a `full` in the graphs Inductor compiles ----------------------------
# torch's joint-graph passes fold a constant of one element (lift_fresh_copy of a get_attr) into full(shape, value)
# (fx_passes/joint_graph.py, constant_fold_uniform_value); a constant of more elements stays a lift_fresh_copy.

CONSTANT_PROGRAMS = {
    "float_scalar": lambda lib, x: x * lib.tensor(2.0),
    "int_scalar": lambda lib, x: x + lib.tensor(3),
    "one_element_list": lambda lib, x: x - lib.tensor([0.5]),
    "bool_scalar": lambda lib, x: lib.where(lib.tensor(True), x, -x),
    "two_scalars": lambda lib, x: x * lib.tensor(2.0) + lib.tensor(1.5),
    "three_constants": lambda lib, x: x + lib.tensor([1.0, 2.0, 3.0]),
    "uniform_three": lambda lib, x: x + lib.tensor([2.0, 2.0, 2.0]),
}


def _inductor_graphs(lib, name, requires_grad, monkeypatch):
    """The summaries of the aten graphs the inductor backend hands its inner compiler, and the outputs' values."""
    from tests.backend.test_inductor_aot_graphs import summary
    graphs = []
    if lib is torch:
        from torch._inductor import compile_fx as torch_compile_fx  # (test-only: torch's oracle)

        def backend(gm, example_inputs):
            def inner(gm, example_inputs, **kwargs):
                graphs.append(summary(gm))
                return torch_compile_fx.compile_fx_inner(gm, example_inputs, **kwargs)
            return torch_compile_fx.compile_fx(gm, example_inputs, inner_compile=inner)
    else:
        from backend import compile_fx as our_compile_fx
        original = our_compile_fx._compile

        def inner(gm, example_inputs, graph_kind):  # (after the inference graph's joint-graph passes, as torch's)
            graphs.append(summary(gm))
            return original(gm, example_inputs, graph_kind)
        monkeypatch.setattr(our_compile_fx, "_compile", inner)
        backend = our_compile_fx.compile_fx
    x = lib.linspace(-1.0, 1.0, 3).requires_grad_(requires_grad)
    out = lib.compile(lambda x: CONSTANT_PROGRAMS[name](lib, x), backend=backend)(x)
    if requires_grad:
        out.sum().backward()
    return graphs, out.tolist(), x.grad.tolist() if requires_grad else None


@pytest.mark.parametrize("requires_grad", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("name", sorted(CONSTANT_PROGRAMS))
def test_one_number_constants_are_a_full_as_in_torchs_inductor_graphs(name, requires_grad, monkeypatch):
    frontend.reset()
    torch._dynamo.reset()
    ours = _inductor_graphs(minitorch2, name, requires_grad, monkeypatch)
    # (a cache hit skips the inner compile; config.patch, not monkeypatch, whose undo deletes a config module's entry)
    with torch._inductor.config.patch(fx_graph_cache=False), torch._functorch.config.patch(enable_autograd_cache=False):
        theirs = _inductor_graphs(torch, name, requires_grad, monkeypatch)
    assert ours[0] == theirs[0]
    for ours_values, their_values in zip(ours[1:], theirs[1:] if requires_grad else theirs[1:2]):
        np.testing.assert_allclose(ours_values, their_values, rtol=1.3e-6, atol=1e-5)


# ---- dynamic shapes: the size placeholders of Dynamo graphs ----------------------------------------------------------
# torch 2.13 keeps one placeholder per size symbol, before the first tensor that has it (inputs of one size share it:
# `s77: "Sym(s77)", L_x_: "f32[s77]", L_y_: "f32[s77]"`), also after a graph break and beside module parameters.

def _linear(lib):
    class Linear(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = lib.nn.Linear(3, 3)

        def forward(self, x, y):
            return self.layer(x) + y[: x.shape[0]]

    lib.manual_seed(0)
    return Linear()


def _breaking(lib):
    def f(x, y):
        a = x * 2
        (torch._dynamo if lib is torch else frontend).graph_break()
        return a + y.sum(0) * y.shape[0]
    return f


PLACEHOLDER_PROGRAMS = {  # name -> (program(lib), the inputs' shapes)
    "same_sizes": (lambda lib: lambda x, y: x + y * x.shape[0], [(4, 3), (4, 3)]),
    "one_dim_each": (lambda lib: lambda x, y: (x * 2, y.sum()), [(5,), (5,)]),
    "transposed_sizes": (lambda lib: lambda x, y: x.reshape(-1) + y.view(x.shape[0] * x.shape[1]), [(4, 3), (3, 4)]),
    "broadcast_size_one": (lambda lib: lambda x, y: x + y, [(5, 1), (5, 5)]),
    "after_a_graph_break": (_breaking, [(4, 3), (4, 3)]),
    "module_parameters": (_linear, [(4, 3), (6, 3)]),
}


def _forward_signatures(lib, name):
    signatures = []

    def backend(gm, example_inputs):
        signatures.append(next(line.strip() for line in gm.print_readable(print_output=False).splitlines()
                               if "def forward" in line))
        return gm.forward

    build, shapes = PLACEHOLDER_PROGRAMS[name]
    out = lib.compile(build(lib), backend=backend, dynamic=True)(*[lib.ones(*shape) for shape in shapes])
    return signatures, out.tolist() if not isinstance(out, tuple) else [o.tolist() for o in out]


@pytest.mark.parametrize("name", sorted(PLACEHOLDER_PROGRAMS))
def test_dynamic_graphs_have_torchs_size_placeholders(name):
    frontend.reset()
    torch._dynamo.reset()
    assert _forward_signatures(minitorch2, name) == _forward_signatures(torch, name)
