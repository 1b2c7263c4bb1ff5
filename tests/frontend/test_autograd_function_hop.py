"""Custom autograd.Functions in compiled frames, captured as Dynamo 2.13's autograd_function_apply higher-order op.

Against real torch: the printed Dynamo graph (the frame's code and its fwd_body_0 / bwd_body_0), the stats counters,
the AOT forward and backward graphs, and values and gradients under the eager, aot_eager and inductor backends, for
the Function styles real code has (save_for_backward, a non-tensor argument on ctx, two outputs, an output marked
non-differentiable, torch 2's setup_context form, a gradient reversal and a straight-through estimator inside an
nn.Module's forward, a custom clamp with a once_differentiable backward, ctx.needs_input_grad, a Function applied
twice and to its own output, a module's weight, a tensor both methods close over, keyword arguments, a non-tensor
output, mark_dirty, an input returned as is, set_materialize_grads, torch.amp's custom_fwd/custom_bwd, a tensor
stashed on ctx, *args forward and *grads backward, one program applying a Function twice); and the forms Dynamo still
breaks on.
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
    once_differentiable = lib.autograd.function.once_differentiable

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

    class Clamp(F):  # a custom clamp with once_differentiable
        @staticmethod
        def forward(ctx, x, lo, hi):
            ctx.save_for_backward(x)
            ctx.lo, ctx.hi = lo, hi
            return x.clamp(lo, hi)

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * ((x >= ctx.lo) & (x <= ctx.hi)).to(g.dtype), None, None

    class Linearish(F):  # needs_input_grad, a weight
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x * w

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            gx = gw = None
            if ctx.needs_input_grad[0]:
                gx = g * w
            if ctx.needs_input_grad[1]:
                gw = g * x
            return gx, gw

    class Exp(F):
        @staticmethod
        def forward(ctx, x):
            r = x.exp()
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            r, = ctx.saved_tensors
            return g * r

    class WeightModule(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = lib.nn.Parameter(lib.tensor([0.5, -1.0, 2.0]))

        def forward(self, x):
            return Linearish.apply(x, self.w).sum()

    def clamp(x, y):
        return Clamp.apply(x * y, -1.0, 1.5)

    def twice(x, y):
        return Exp.apply(x) + Exp.apply(y * 0.1)

    def chained(x, y):
        return Exp.apply(Exp.apply(x * 0.1) * y)

    def needs(x, y):
        return Linearish.apply(x, y.detach())

    W = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)

    class ClosedOver(F):  # forward and backward read a tensor that is no argument
        @staticmethod
        def forward(ctx, x):
            return x * W

        @staticmethod
        def backward(ctx, g):
            return g * W

    class WithKw(F):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.scale = scale
            return x * scale

        @staticmethod
        def backward(ctx, g):
            return g * ctx.scale, None

    class NonTensorOut(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3

        @staticmethod
        def backward(ctx, g, _):
            return g * 2

    class Dirty(F):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class ReturnsInput(F):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    def closed_over(x, y):
        return ClosedOver.apply(x) + y

    def with_kw(x, y):
        return WithKw.apply(x, scale=2.0) * y

    def non_tensor_out(x, y):
        a, k = NonTensorOut.apply(x)
        return a * k + y

    def dirty(x, y):
        return Dirty.apply(x * 1.0) + y

    def returns_input(x, y):
        return ReturnsInput.apply(x * y)

    class Materialize(F):  # set_materialize_grads(False), one output unused
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2

    class AmpMul(F):  # torch.amp's custom_fwd / custom_bwd decorators (outside an autocast region here)
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b, g * a

    def amp_mul(x, y):
        return AmpMul.apply(x.sin(), y) * 2

    class Stash(F):  # a tensor kept as a ctx attribute, not saved
        @staticmethod
        def forward(ctx, x, y):
            ctx.y = y
            ctx.save_for_backward(x, None)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, none = ctx.saved_tensors
            return g * ctx.y, g * x

    class Varargs(F):  # *args forward and backward
        @staticmethod
        def forward(ctx, *xs):
            ctx.save_for_backward(*xs)
            return xs[0] * xs[1], xs[0] + xs[1]

        @staticmethod
        def backward(ctx, *grads):
            a, b = ctx.saved_tensors
            return grads[0] * b + grads[1], grads[0] * a + grads[1]

    def stash(x, y):
        return Stash.apply(x, y).sum()

    def varargs(x, y):
        p, s = Varargs.apply(x.sin(), y)
        return p * s

    def called_twice(x, y):
        return stash(x, y) + stash(y, x)

    def materialize(x, y):
        a, b = Materialize.apply(x + y)
        return a

    return {"mul": mul, "scale": scale, "sincos": sincos, "sign_abs": sign_abs, "cube": cube, "module": head,
            "clamp": clamp, "twice": twice, "chained": chained, "needs": needs, "module_weight": WeightModule(),
            "closed_over": closed_over, "with_kw": with_kw, "non_tensor_out": non_tensor_out, "dirty": dirty,
            "returns_input": returns_input, "materialize": materialize, "amp_mul": amp_mul,
            "stash": stash, "varargs": varargs, "called_twice": called_twice}


STYLES = ["mul", "scale", "sincos", "sign_abs", "cube", "module", "clamp", "twice", "chained", "needs",
          "module_weight", "closed_over", "with_kw", "non_tensor_out", "dirty", "returns_input", "materialize",
          "amp_mul", "stash", "varargs", "called_twice"]


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
    out = compiled(x) if name.startswith("module") else compiled(x, y)
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


# aot_eager: test_aot_forward_and_backward_graphs_as_torchs (an aot backend too); inductor: four styles keep the
# suite short (the others reach it as the same kind of AOT graphs)
BACKEND_CASES = [(name, "eager") for name in STYLES] + [
    (name, "inductor") for name in ("mul", "sincos", "module", "dirty")]


@pytest.mark.parametrize("name,backend", BACKEND_CASES)
def test_values_and_gradients_as_torchs(name, backend):
    _assert_same_results(_compile_and_step(minitorch2, name, backend), _compile_and_step(torch, name, backend))


def _assert_same_results(ours, theirs):
    for mine, torchs in zip(ours, theirs):
        assert (mine is None) == (torchs is None)
        if mine is not None:
            np.testing.assert_allclose(mine, torchs, rtol=1e-5, atol=1e-6)


def _aot_graphs(lib, name, aot_module_simplified):
    printed = []

    def keep(gm, example_inputs):
        printed.append(gm.code)
        return gm

    def backend(gm, example_inputs):
        return aot_module_simplified(gm, example_inputs, fw_compiler=keep, bw_compiler=keep)

    return printed, _compile_and_step(lib, name, backend)


@pytest.mark.parametrize("name", STYLES)
def test_aot_forward_and_backward_graphs_as_torchs(name):
    """The graphs AOT hands its compilers, and the values and gradients the compiled program gives."""
    ours = _aot_graphs(minitorch2, name, autograd.aot_module_simplified)
    theirs = _aot_graphs(torch, name, aot_module_simplified)
    assert ours[0] == theirs[0]
    _assert_same_results(ours[1], theirs[1])


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


def _branching_program(lib):
    class Branching(lib.autograd.Function):  # a branch on data in forward: Dynamo falls back to eager for apply
        @staticmethod
        def forward(ctx, x):
            if x.sum() > 0:
                return x * 2
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g * 2

    return lambda x: Branching.apply(x.sin()).cos()


def _duplicate_input_program(lib):
    class MulBy3(lib.autograd.Function):  # one tensor passed twice: Dynamo does not trace such an apply
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x * 3

    def program(x):
        s = x.sin()
        return MulBy3.apply(s, s) + 1

    return program


@pytest.mark.parametrize("program", [_branching_program, _duplicate_input_program])
def test_a_break_runs_apply_eagerly_and_compiles_forward_as_its_own_frame_as_torch(program):
    results = []
    for lib in (torch, minitorch2):
        _dynamo(lib).reset()
        _dynamo(lib).utils.counters.clear()
        graphs = []
        x = lib.tensor(X, requires_grad=True)
        lib.compile(program(lib), backend=lambda gm, ex: graphs.append(gm) or gm)(x).sum().backward()
        results.append(([gm.code for gm in graphs], dict(_dynamo(lib).utils.counters["stats"]), x.grad.tolist()))
    assert results[1][:2] == results[0][:2]
    np.testing.assert_allclose(results[1][2], results[0][2], rtol=1e-6)


def _dynamic_run(lib):
    """mul's program at sizes 3 then 5 (the second compile has symbolic sizes): graphs' code, values, gradients."""
    _dynamo(lib).reset()
    graphs, results = [], []
    compiled = lib.compile(styles(lib)["mul"], backend=lambda gm, ex: graphs.append(gm) or gm)
    for n in (3, 5):
        x = lib.arange(n, dtype=lib.float32).requires_grad_()
        out = compiled(x, lib.ones(n) * 2)
        out.sum().backward()
        results.append((out.tolist(), x.grad.tolist()))
    return [[gm.code, gm.fwd_body_0.code, gm.bwd_body_0.code] for gm in graphs], results


def test_symbolic_sizes_give_torchs_values_and_gradients():
    (_, theirs), (_, ours) = _dynamic_run(torch), _dynamic_run(minitorch2)
    for mine, torchs in zip(ours, theirs):
        np.testing.assert_allclose(mine[0], torchs[0], rtol=1e-6)
        np.testing.assert_allclose(mine[1], torchs[1], rtol=1e-6)


def test_symbolic_sizes_graphs_as_torchs():
    assert _dynamic_run(minitorch2)[0][1] == _dynamic_run(torch)[0][1]


def _readable(lib, name):
    graphs = []
    _compile_and_step(lib, name, lambda gm, example_inputs: graphs.append(gm) or gm)
    return graphs[0].print_readable(print_output=False)


@pytest.mark.parametrize("name", ["mul", "sincos", "module"])
def test_print_readable_shows_the_bodies_as_torch(name):
    """The bodies as nested classes, each node with its shape and the user's source line (TORCH_LOGS=graph_code)."""
    assert _readable(minitorch2, name) == _readable(torch, name)
