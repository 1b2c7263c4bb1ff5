"""Custom autograd.Functions in compiled frames, captured as Dynamo 2.13's autograd_function_apply higher-order op.

Against real torch: the printed Dynamo graph (the frame's code and its fwd_body_0 / bwd_body_0), the stats counters,
the AOT forward and backward graphs, and values and gradients under the eager, aot_eager and inductor backends, for
the Function styles real code has (save_for_backward, a non-tensor argument on ctx, two outputs, an output marked
non-differentiable, torch 2's setup_context form, a gradient reversal and a straight-through estimator inside an
nn.Module's forward); and the forms Dynamo still breaks on.
"""
import numpy as np
import pytest
import torch
from torch._functorch.aot_autograd import aot_module_simplified

import autograd
import frontend
import minitorch2

X = [0.3, 1.7, -2.2]
Y = [1.0, -2.0, 3.0]


def styles(lib):
    F = lib.autograd.Function

    class MyMul(F):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

    class Scale(F):  # a non-tensor argument kept on ctx
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    class SinCos(F):  # two outputs, two incoming gradients, an intermediate saved
        @staticmethod
        def forward(ctx, x):
            s = x.sin()
            c = x.cos()
            ctx.save_for_backward(s, c)
            return s, c

        @staticmethod
        def backward(ctx, gs, gc):
            s, c = ctx.saved_tensors
            return gs * c - gc * s

    class SignAndAbs(F):  # an output marked non-differentiable
        @staticmethod
        def forward(ctx, x):
            sign = x.sign()
            ctx.mark_non_differentiable(sign)
            ctx.save_for_backward(sign)
            return x.abs(), sign

        @staticmethod
        def backward(ctx, g, g_sign):
            sign, = ctx.saved_tensors
            return g * sign

    class Cube(F):  # torch 2's form: forward without ctx, then setup_context
        @staticmethod
        def forward(x):
            return x ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    class GradReverse(F):  # domain adaptation's gradient reversal
        @staticmethod
        def forward(ctx, x, alpha):
            ctx.alpha = alpha
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g.neg() * ctx.alpha, None

    class StraightThroughRound(F):  # a straight-through estimator: identity gradient
        @staticmethod
        def forward(ctx, x):
            return x.round()

        @staticmethod
        def backward(ctx, g):
            return g

    class Head(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = lib.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc(GradReverse.apply(StraightThroughRound.apply(x * 4) / 4, 0.5)).relu()

    def mul(x, y):
        return MyMul.apply(x.sin(), y) + 1

    def scale(x, y):
        return Scale.apply(x + y, 2.5).sum()

    def sincos(x, y):
        s, c = SinCos.apply(x * y)
        return s * 2 + c

    def sign_abs(x, y):
        a, sign = SignAndAbs.apply(x - y)
        return a * 3 + sign

    def cube(x, y):
        return Cube.apply(x.exp()) * y

    lib.manual_seed(0)
    head = Head()
    return {"mul": mul, "scale": scale, "sincos": sincos, "sign_abs": sign_abs, "cube": cube, "module": head}


STYLES = ["mul", "scale", "sincos", "sign_abs", "cube", "module"]


def _dynamo(lib):
    return torch._dynamo if lib is torch else frontend


def _compile_and_step(lib, name, backend):
    """Compile the style's program, run it and its backward: (out, x.grad, y.grad or None)."""
    _dynamo(lib).reset()
    _dynamo(lib).utils.counters.clear()
    fn = styles(lib)[name]
    x = lib.tensor(X, requires_grad=True)
    y = lib.tensor(Y, requires_grad=True)
    compiled = lib.compile(fn, backend=backend)
    out = compiled(x) if name == "module" else compiled(x, y)
    out.sum().backward()
    return out.detach().numpy(), x.grad.numpy(), None if y.grad is None else y.grad.numpy()


def _captured_code(lib, name):
    graphs = []
    _compile_and_step(lib, name, lambda gm, example_inputs: graphs.append(gm) or gm)
    codes = []
    for gm in graphs:
        codes.append(gm.code)
        codes += [getattr(gm, f"{kind}_body_{i}").code for i in range(2) for kind in ("fwd", "bwd")
                  if hasattr(gm, f"{kind}_body_{i}")]
    return codes, dict(_dynamo(lib).utils.counters["stats"])


@pytest.mark.parametrize("name", STYLES)
def test_dynamo_graph_bodies_and_counters_as_torchs(name):
    theirs, ours = _captured_code(torch, name), _captured_code(minitorch2, name)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]


def test_the_operator_call_as_torch_prints_it():
    codes, stats = _captured_code(minitorch2, "mul")
    assert "torch.ops.higher_order.autograd_function_apply(fwd_body_0, bwd_body_0, arg, l_y_, " \
           "non_differentiable_idx = [], saved_for_backward_idx = [0, 1])" in codes[0]
    assert stats == {"calls_captured": 4, "unique_graphs": 1}


# inductor: three styles keep the suite short (the others reach it as the same kind of AOT graphs)
BACKEND_CASES = [(name, backend) for name in STYLES for backend in ("eager", "aot_eager")] + [
    ("mul", "inductor"), ("sincos", "inductor"), ("module", "inductor")]


@pytest.mark.parametrize("name,backend", BACKEND_CASES)
def test_values_and_gradients_as_torchs(name, backend):
    theirs, ours = _compile_and_step(torch, name, backend), _compile_and_step(minitorch2, name, backend)
    for mine, torchs in zip(ours, theirs):
        assert (mine is None) == (torchs is None)
        if mine is not None:
            np.testing.assert_allclose(mine, torchs, rtol=1e-5, atol=1e-6)


def _aot_graphs(lib, aot_module_simplified):
    printed = []

    def keep(gm, example_inputs):
        printed.append(gm.code)
        return gm

    def backend(gm, example_inputs):
        return aot_module_simplified(gm, example_inputs, fw_compiler=keep, bw_compiler=keep)

    _compile_and_step(lib, "mul", backend)
    return printed


def test_aot_forward_and_backward_graphs_as_torchs():
    assert _aot_graphs(minitorch2, autograd.aot_module_simplified) == _aot_graphs(torch, aot_module_simplified)


def _no_grad_program(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    return lambda x: Double.apply(x.cos()) + 1


def test_inputs_without_gradient_inline_forward_as_torch():
    codes = []
    for lib in (torch, minitorch2):
        _dynamo(lib).reset()
        graphs = []
        out = lib.compile(_no_grad_program(lib), backend=lambda gm, ex: graphs.append(gm) or gm)(lib.tensor(X))
        codes.append((graphs[0].code, out.numpy().tolist()))
    assert codes[1] == codes[0]


def _custom_vjp_program(lib):
    class WithVjp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 2

    return lambda x: WithVjp.apply(x) + 1


def test_a_custom_vjp_is_a_graph_break_as_in_torch():
    for lib, error in ((torch, torch._dynamo.exc.Unsupported), (minitorch2, frontend.exc.Unsupported)):
        _dynamo(lib).reset()
        with pytest.raises(error, match="vjp"):
            lib.compile(_custom_vjp_program(lib), fullgraph=True)(lib.tensor(X, requires_grad=True))
