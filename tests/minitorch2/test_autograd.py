"""Eager autograd against torch.autograd: grad_fn names and graph structure, accumulation,
higher-order gradients, retain_graph, hooks, custom Functions and grad modes (errors and what a
TorchDispatchMode sees during backward: test_autograd_errors.py).
"""
import numpy as np
import pytest
import torch

import minitorch2 as mt

from .autograd_helpers import assert_close, leaves, torch_name

pytestmark = pytest.mark.runtime


# ---------------------------------------------------------------- grad_fn names
GRAD_FN = {
    "add": lambda L, x, w: x + w[0],
    "add_scalar": lambda L, x, w: x + 1,
    "radd_scalar": lambda L, x, w: 1 + x,
    "sub": lambda L, x, w: x - w[0],
    "rsub_scalar": lambda L, x, w: 1 - x,
    "mul": lambda L, x, w: x * w[0],
    "mul_scalar": lambda L, x, w: x * 2,
    "div": lambda L, x, w: x / w[0],
    "div_scalar": lambda L, x, w: x / 2,
    "neg": lambda L, x, w: -x,
    "pow_scalar": lambda L, x, w: x ** 2,
    "pow_tensor": lambda L, x, w: x ** w[0],
    "rpow": lambda L, x, w: 2 ** x,
    "exp": lambda L, x, w: x.exp(),
    "log": lambda L, x, w: x.log(),
    "sqrt": lambda L, x, w: x.sqrt(),
    "rsqrt": lambda L, x, w: x.rsqrt(),
    "abs": lambda L, x, w: x.abs(),
    "sin": lambda L, x, w: x.sin(),
    "tanh": lambda L, x, w: x.tanh(),
    "sigmoid": lambda L, x, w: x.sigmoid(),
    "relu": lambda L, x, w: x.relu(),
    "clamp": lambda L, x, w: x.clamp(0.7, 1.5),
    "clamp_min": lambda L, x, w: x.clamp(min=0.7),
    "where": lambda L, x, w: L.where(x > 1, x, w[0]),
    "masked_fill": lambda L, x, w: x.masked_fill(x > 1, 0.0),
    "maximum": lambda L, x, w: L.maximum(x, w[0]),
    "mm": lambda L, x, w: x @ w,
    "addmm": lambda L, x, w: L.addmm(w[0], x, w),
    "matmul_3d": lambda L, x, w: x.unsqueeze(0).expand(2, 3, 4) @ w,
    "matmul_batched": lambda L, x, w: x.unsqueeze(0).expand(2, 3, 4) @ w.unsqueeze(0).expand(2, 4, 4),
    "mv": lambda L, x, w: x @ w[0],
    "dot": lambda L, x, w: x[0] @ w[0],
    "sum": lambda L, x, w: x.sum(),
    "sum_dim": lambda L, x, w: x.sum(1),
    "mean": lambda L, x, w: x.mean(),
    "mean_dim": lambda L, x, w: x.mean(0, keepdim=True),
    "amax": lambda L, x, w: x.amax(1),
    "max": lambda L, x, w: x.max(),
    "max_dim": lambda L, x, w: x.max(1)[0],
    "var": lambda L, x, w: x.var(1),
    "std": lambda L, x, w: x.std(),
    "logsumexp": lambda L, x, w: x.logsumexp(1),
    "cumsum": lambda L, x, w: x.cumsum(0),
    "prod": lambda L, x, w: x.prod(),
    "view": lambda L, x, w: x.view(12),
    "reshape_copy": lambda L, x, w: x.t().reshape(12),
    "flatten": lambda L, x, w: x.flatten(),
    "t": lambda L, x, w: x.t(),
    "T": lambda L, x, w: x.T,
    "transpose": lambda L, x, w: x.transpose(0, 1),
    "permute": lambda L, x, w: x.permute(1, 0),
    "expand": lambda L, x, w: x[:1].expand(5, 4),
    "unsqueeze": lambda L, x, w: x.unsqueeze(0),
    "squeeze": lambda L, x, w: x[:1].squeeze(0),
    "select": lambda L, x, w: x[0],
    "slice": lambda L, x, w: x[:, 1:],
    "index": lambda L, x, w: x[L.tensor([0, 2])],
    "gather": lambda L, x, w: x.gather(1, L.tensor([[0], [1], [2]])),
    "index_select": lambda L, x, w: x.index_select(0, L.tensor([1, 1])),
    "cat": lambda L, x, w: L.cat([x, w], 0),
    "stack": lambda L, x, w: L.stack([x, w[:3]]),
    "split": lambda L, x, w: x.split(2, 1)[0],
    "unbind": lambda L, x, w: x.unbind(0)[1],
    "clone": lambda L, x, w: x.clone(),
    "to_double": lambda L, x, w: x.float(),
    "contiguous": lambda L, x, w: x.t().contiguous(),
    "tril": lambda L, x, w: x.tril(),
    "flip": lambda L, x, w: x.flip(0),
    "alias": lambda L, x, w: x[...],
    "inplace_on_clone": lambda L, x, w: x.clone().mul_(2),
}


@pytest.mark.parametrize("name", GRAD_FN)
def test_grad_fn_names(name):
    (x_o, x_t), (w_o, w_t) = leaves((3, 4), (4, 4))
    out_o, out_t = GRAD_FN[name](mt, x_o, w_o), GRAD_FN[name](torch, x_t, w_t)
    assert out_o.grad_fn.name() == torch_name(out_t.grad_fn)
    assert out_o.requires_grad and not out_o.is_leaf
    g = np.random.default_rng(1).standard_normal(tuple(out_t.shape))
    grads_o = mt.autograd.grad(out_o, [x_o, w_o], mt.tensor(g), allow_unused=True)
    grads_t = torch.autograd.grad(out_t, [x_t, w_t], torch.tensor(g), allow_unused=True)
    for g_o, g_t in zip(grads_o, grads_t):
        assert_close(g_o, g_t)


def _structure(fn, depth=6):
    """A grad_fn's graph as nested (name, input_nr, children) tuples."""
    if fn is None or depth == 0:
        return None
    name = fn.name() if isinstance(fn, mt.autograd.Node) else torch_name(fn)
    return (name, tuple((nr, _structure(child, depth - 1)) for child, nr in fn.next_functions))


@pytest.mark.parametrize("expr", [
    lambda L, x, y: (x * y + x).sum(),
    lambda L, x, y: (x @ y.t()).relu().mean(),
    lambda L, x, y: L.cat([x, x.detach() * 2], 0).sum(1),
    lambda L, x, y: x.max(1)[0] + y[:, 0],
    lambda L, x, y: (x * 3).split(2, 1)[1].tanh(),
    lambda L, x, y: L.stack([x.t(), y.t()]).amax(0) - x.clamp(min=1).t(),
])
def test_next_functions_structure(expr):
    (x_o, x_t), (y_o, y_t) = leaves((3, 4), (3, 4))
    assert _structure(expr(mt, x_o, y_o).grad_fn) == _structure(expr(torch, x_t, y_t).grad_fn)


@pytest.mark.parametrize("expr", [
    lambda L, x, y: L.where(x > 1, x, 2.0),
    lambda L, x, y: x.gather(1, L.tensor([[0], [1], [2]])),
    lambda L, x, y: x[L.tensor([0, 2])],
    lambda L, x, y: x.masked_fill(y > 1, 0.0),
])
def test_next_functions_leave_out_non_differentiable_inputs(expr):
    (x_o, x_t), (y_o, y_t) = leaves((3, 4), (3, 4))
    assert _structure(expr(mt, x_o, y_o).grad_fn) == _structure(expr(torch, x_t, y_t).grad_fn)


def test_accumulate_grad_node_is_shared_by_uses_of_a_leaf():
    (x_o, x_t), = leaves((3,))
    a_o, b_o = x_o * 2, x_o + 1
    a_t, b_t = x_t * 2, x_t + 1
    assert a_o.grad_fn.next_functions[0][0] is b_o.grad_fn.next_functions[0][0]
    assert a_t.grad_fn.next_functions[0][0] is b_t.grad_fn.next_functions[0][0]
    assert a_o.grad_fn.next_functions[0][0].variable is x_o


# ---------------------------------------------------------------- backward and accumulation
def test_backward_accumulates_into_leaves():
    (x_o, x_t), (y_o, y_t) = leaves((3, 4), (4,))
    assert x_o.grad is None and x_t.grad is None
    for _ in range(2):
        ((x_o * y_o).sin().sum()).backward()
        ((x_t * y_t).sin().sum()).backward()
        assert_close(x_o.grad, x_t.grad)
        assert_close(y_o.grad, y_t.grad)
    x_o.grad = None
    x_t.grad = None
    (x_o.sum() * 2).backward()
    (x_t.sum() * 2).backward()
    assert_close(x_o.grad, x_t.grad)


def test_backward_with_gradient_argument_and_inputs():
    (x_o, x_t), (y_o, y_t) = leaves((2, 3), (2, 3))
    g = np.arange(6.0).reshape(2, 3)
    (x_o * y_o).backward(mt.tensor(g), inputs=[x_o])
    (x_t * y_t).backward(torch.tensor(g), inputs=[x_t])
    assert_close(x_o.grad, x_t.grad)
    assert y_o.grad is None and y_t.grad is None
    mt.autograd.backward([x_o.sum(), (y_o * 2).sum()])
    torch.autograd.backward([x_t.sum(), (y_t * 2).sum()])
    assert_close(x_o.grad, x_t.grad)
    assert_close(y_o.grad, y_t.grad)


def test_non_leaf_grad_is_none_unless_retained():
    (x_o, x_t), = leaves((3,))
    h_o, h_t = x_o * 2, x_t * 2
    h_o.retain_grad()
    h_t.retain_grad()
    k_o, k_t = h_o.exp(), h_t.exp()
    (k_o * h_o).sum().backward()
    (k_t * h_t).sum().backward()
    assert h_o.retains_grad and h_t.retains_grad
    assert_close(h_o.grad, h_t.grad)
    assert k_o.grad is None
    assert_close(x_o.grad, x_t.grad)


def test_grad_of_unused_input():
    (x_o, x_t), (y_o, y_t) = leaves((3,), (3,))
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        mt.autograd.grad((x_o * 2).sum(), [x_o, y_o])
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad((x_t * 2).sum(), [x_t, y_t])
    g_o = mt.autograd.grad((x_o * 2).sum(), [x_o, y_o], allow_unused=True)
    g_t = torch.autograd.grad((x_t * 2).sum(), [x_t, y_t], allow_unused=True)
    assert_close(g_o[0], g_t[0])
    assert g_o[1] is None and g_t[1] is None
    g_o = mt.autograd.grad((x_o * 2).sum(), [y_o], allow_unused=True, materialize_grads=True)
    g_t = torch.autograd.grad((x_t * 2).sum(), [y_t], allow_unused=True, materialize_grads=True)
    assert_close(g_o[0], g_t[0])


def test_grad_runs_only_the_nodes_leading_to_its_inputs():
    """Like torch's engine, autograd.grad with respect to a non-leaf does not run that tensor's grad_fn
    (nor any node not on a path to an input): node hooks see which ran."""
    ran = []
    for lib, x in zip((mt, torch), leaves((3,))[0]):
        h = x * 2
        y = (h.sin() * 3).sum() + (x * 5).sum()
        names = []
        for node in (h.grad_fn, y.grad_fn, y.grad_fn.next_functions[1][0]):
            node.register_hook(lambda grads_in, grads_out, name=node.name(): names.append(name))
        lib.autograd.grad(y, h)
        ran.append(names)
    assert ran[0] == ran[1] == ["AddBackward0"]


IN_PLACE_ON_VIEWS = {
    "row_of_a_transposed_copy": lambda x: (lambda y: (y[0].mul_(3), y)[1])(x.t().clone()),  # base strides (1, 4)
    "column_slice": lambda x: (lambda y: (y[:, 1:3].add_(y[:, :2]), y)[1])(x * 2),
    "select_of_a_permuted_copy": lambda x: (lambda y: (y[1].div_(4), y)[1])(x.reshape(2, 2, 3).permute(2, 0, 1).clone()),
    "two_writes": lambda x: (lambda y: (y[0].mul_(3), y.t()[2].add_(y[:, 0]), y)[2])(x.clone()),
}


@pytest.mark.parametrize("name", sorted(IN_PLACE_ON_VIEWS))
def test_in_place_on_a_view_gives_torchs_gradients(name):
    """CopySlices puts the in-place op's gradient in the view's window of a gradient laid out as the base
    (which need not be contiguous: a copy of a transposed tensor keeps its strides)."""
    fn = IN_PLACE_ON_VIEWS[name]
    (x_o, x_t), = leaves((3, 4))
    weights = np.arange(12, dtype=np.float32)
    out_o, out_t = fn(x_o), fn(x_t)
    (out_o * mt.from_numpy(weights.reshape(out_o.shape))).sum().backward()
    (out_t * torch.from_numpy(weights.reshape(tuple(out_t.shape)))).sum().backward()
    assert out_o.grad_fn.name() == torch_name(out_t.grad_fn)
    assert_close(x_o.grad, x_t.grad)


# ---------------------------------------------------------------- higher order
HIGHER = {
    "tanh": lambda x, y: x.tanh(),
    "sigmoid": lambda x, y: x.sigmoid(),
    "exp": lambda x, y: x.exp(),
    "mul_chain": lambda x, y: x * y * x,
    "tanh_sigmoid_exp": lambda x, y: (x.tanh() * y.sigmoid()).exp(),
    "log_sqrt": lambda x, y: (x * y).log() + x.sqrt(),
    "div_pow": lambda x, y: x / y + x ** 3,
    "relu_mm": lambda x, y: (x.t() @ y).relu() * x.sum(),
    "softplus_like": lambda x, y: (1 + (x - y).exp()).log(),
}


@pytest.mark.parametrize("name", HIGHER)
def test_double_backward(name):
    fn = HIGHER[name]
    (x_o, x_t), (y_o, y_t) = leaves((3, 3), (3, 3), seed=3)
    gx_o, = mt.autograd.grad(fn(x_o, y_o).sum(), [x_o], create_graph=True)
    gx_t, = torch.autograd.grad(fn(x_t, y_t).sum(), [x_t], create_graph=True)
    assert_close(gx_o, gx_t)
    assert gx_o.requires_grad and gx_o.grad_fn is not None
    second_o = mt.autograd.grad((gx_o * gx_o).sum(), [x_o, y_o], allow_unused=True)
    second_t = torch.autograd.grad((gx_t * gx_t).sum(), [x_t, y_t], allow_unused=True)
    for a, b in zip(second_o, second_t):
        assert_close(a, b)


def test_third_derivative_of_tanh():
    (x_o, x_t), = leaves((4,), seed=5)
    d_o, d_t = x_o.tanh().sum(), x_t.tanh().sum()
    for _ in range(3):
        d_o, = mt.autograd.grad(d_o, [x_o], create_graph=True)
        d_t, = torch.autograd.grad(d_t, [x_t], create_graph=True)
        assert_close(d_o, d_t)
        d_o, d_t = d_o.sum(), d_t.sum()


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_backward_with_create_graph_builds_a_differentiable_grad():
    (x_o, x_t), = leaves((3,))
    (x_o.sigmoid() ** 2).sum().backward(create_graph=True)
    (x_t.sigmoid() ** 2).sum().backward(create_graph=True)
    assert x_o.grad.requires_grad and x_t.grad.requires_grad
    g_o, = mt.autograd.grad(x_o.grad.sum(), [x_o])
    g_t, = torch.autograd.grad(x_t.grad.sum(), [x_t])
    assert_close(g_o, g_t)


# ---------------------------------------------------------------- retain_graph
def test_retain_graph_allows_a_second_backward():
    (x_o, x_t), = leaves((3,))
    y_o, y_t = (x_o.exp() * x_o).sum(), (x_t.exp() * x_t).sum()
    y_o.backward(retain_graph=True)
    y_t.backward(retain_graph=True)
    y_o.backward()
    y_t.backward()
    assert_close(x_o.grad, x_t.grad)


def test_backward_through_a_freed_graph_is_an_error():
    (x_o, x_t), = leaves((3,))
    y_o, y_t = (x_o.exp() * x_o).sum(), (x_t.exp() * x_t).sum()
    y_o.backward()
    y_t.backward()
    with pytest.raises(RuntimeError) as theirs:
        y_t.backward()
    with pytest.raises(RuntimeError) as ours:
        y_o.backward()
    assert "backward through the graph a second time" in str(theirs.value)
    assert "backward through the graph a second time" in str(ours.value)


def test_grad_without_retain_graph_frees_saved_tensors():
    (x_o, x_t), = leaves((3,))
    y_o, y_t = (x_o * x_o).sum(), (x_t * x_t).sum()
    mt.autograd.grad(y_o, [x_o])
    torch.autograd.grad(y_t, [x_t])
    with pytest.raises(RuntimeError, match="second time"):
        torch.autograd.grad(y_t, [x_t])
    with pytest.raises(RuntimeError, match="second time"):
        mt.autograd.grad(y_o, [x_o])


# ---------------------------------------------------------------- hooks
def test_tensor_hooks_on_leaf_and_non_leaf():
    (x_o, x_t), = leaves((3,))
    seen = {"ours": [], "theirs": []}
    for key, x, lib in (("ours", x_o, mt), ("theirs", x_t, torch)):
        h = x * 2
        h.register_hook(lambda g, key=key: seen[key].append(("h", g.detach().clone())))
        h.register_hook(lambda g: g * 10)  # a hook's return value replaces the gradient
        handle = x.register_hook(lambda g, key=key: seen[key].append(("x", g.detach().clone())))
        (h * h).sum().backward()
        handle.remove()
        (x * 3).sum().backward()
    assert [k for k, _ in seen["ours"]] == [k for k, _ in seen["theirs"]] == ["h", "x"]
    for (_, a), (_, b) in zip(seen["ours"], seen["theirs"]):
        assert_close(a, b)
    assert_close(x_o.grad, x_t.grad)


def test_register_hook_on_a_tensor_without_grad_is_an_error():
    with pytest.raises(RuntimeError):
        torch.ones(2).register_hook(lambda g: g)
    with pytest.raises(RuntimeError):
        mt.ones(2).register_hook(lambda g: g)


# ---------------------------------------------------------------- custom Functions
def _make_function(lib):
    class ScaledExp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale):
            result = x.exp() * scale
            ctx.save_for_backward(result)
            ctx.scale = scale
            return result

        @staticmethod
        def backward(ctx, grad):
            result, = ctx.saved_tensors
            assert ctx.needs_input_grad[0] and not ctx.needs_input_grad[1]
            return grad * result, None

    return ScaledExp


def test_autograd_function_with_saved_tensors():
    (x_o, x_t), = leaves((2, 3))
    f_o, f_t = _make_function(mt), _make_function(torch)
    y_o, y_t = f_o.apply(x_o, 3.0), f_t.apply(x_t, 3.0)
    assert y_o.grad_fn.name() == "ScaledExpBackward" and torch_name(y_t.grad_fn) == "ScaledExpBackward"
    assert_close(y_o, y_t)
    (y_o.sin().sum()).backward()
    (y_t.sin().sum()).backward()
    assert_close(x_o.grad, x_t.grad)
    with mt.no_grad():
        assert f_o.apply(x_o, 2.0).grad_fn is None


def test_autograd_function_saved_tensor_version_check():
    (x_o, x_t), = leaves((3,))

    def make(lib):
        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                x, = ctx.saved_tensors
                return 2 * x * grad

        return Square

    for lib, x in ((mt, x_o), (torch, x_t)):
        h = x * 1
        y = make(lib).apply(h)
        h.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()


# ---------------------------------------------------------------- grad modes
def test_no_grad_enable_grad_set_grad_enabled():
    (x_o, x_t), = leaves((3,))
    for lib, x in ((mt, x_o), (torch, x_t)):
        with lib.no_grad():
            assert not lib.is_grad_enabled()
            y = x * 2
            with lib.enable_grad():
                assert lib.is_grad_enabled()
                z = x * 2
        assert lib.is_grad_enabled()
        assert not y.requires_grad and y.grad_fn is None
        assert z.requires_grad
        with lib.set_grad_enabled(False):
            assert not (x * 2).requires_grad
        assert lib.is_grad_enabled()
        lib.set_grad_enabled(False)
        assert not lib.is_grad_enabled()
        lib.set_grad_enabled(True)
        assert lib.is_grad_enabled()


def test_grad_modes_as_decorators():
    (x_o, x_t), = leaves((3,))
    for lib, x in ((mt, x_o), (torch, x_t)):
        @lib.no_grad()
        def f(t):
            return t * 2, lib.is_grad_enabled()

        @lib.enable_grad()
        def g(t):
            return t * 2

        @lib.set_grad_enabled(False)
        def h(t):
            return t * 2

        @lib.inference_mode()
        def k(t):
            return t * 2

        out, enabled = f(x)
        assert not out.requires_grad and not enabled
        with lib.no_grad():
            assert g(x).requires_grad
        assert not h(x).requires_grad and lib.is_grad_enabled()
        assert not k(x).requires_grad and lib.is_grad_enabled()


def test_inference_mode():
    (x_o, x_t), = leaves((3,))
    for lib, x in ((mt, x_o), (torch, x_t)):
        with lib.inference_mode():
            assert not lib.is_grad_enabled()
            assert lib.is_inference_mode_enabled()
            y = x * 2
        assert not y.requires_grad
        assert not lib.is_inference_mode_enabled()
        with lib.inference_mode(False):
            assert lib.is_grad_enabled()
            assert (x * 2).requires_grad


def test_detach_and_requires_grad_flags():
    (x_o, x_t), = leaves((3,))
    for lib, x in ((mt, x_o), (torch, x_t)):
        d = x.detach()
        assert not d.requires_grad and d.is_leaf
        y = x * 2
        assert not y.is_leaf and y.requires_grad
        assert (y.detach() * 2).grad_fn is None
        i = lib.ones(2, dtype=lib.int64)
        with pytest.raises(RuntimeError, match="floating point"):
            i.requires_grad_()
        with pytest.raises(RuntimeError, match="leaf variables"):
            y.requires_grad = False


def test_function_backward_gets_a_gradient_per_output_when_only_the_first_has_one():
    """A custom Function with two outputs, only the first used: backward still receives two gradients, the
    second zeros (or None without materialize_grads), as torch's (found through AOT's CompiledFunction)."""
    seen = []
    for lib in (torch, mt):
        class TwoOutputs(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                seen.append((lib.__name__, g1.tolist(), g2.tolist()))
                return g1 * 2 + g2 * 3

        x = lib.ones(2, requires_grad=True)
        first, _ = TwoOutputs.apply(x)
        first.sum().backward()
        seen.append(x.grad.tolist())
    assert seen[:2] == [("torch", [1.0, 1.0], [0.0, 0.0]), [2.0, 2.0]]
    assert seen[2:] == [("minitorch2", [1.0, 1.0], [0.0, 0.0]), [2.0, 2.0]]


def test_grad_fn_types_are_named_as_torchs_nodes():
    """type(y.grad_fn).__name__ is torch's node name (MulBackward0, SelectBackward0, MyFnBackward), and the
    leaf's AccumulateGrad prints as <AccumulateGrad object at 0x...>."""
    seen = []
    for lib in (torch, mt):
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        x = lib.ones(2, requires_grad=True)
        y = (x * 2).sum()
        accumulate = y.grad_fn.next_functions[0][0].next_functions[0][0]
        seen.append((type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__,
                     type(x[0].grad_fn).__name__, type(Double.apply(x).grad_fn).__name__,
                     type(accumulate).__name__, repr(accumulate).split(" object at ")[0], accumulate.name(),
                     isinstance(y.grad_fn, lib.autograd.graph.Node)))
    assert seen[1] == seen[0]


def test_post_accumulate_grad_hooks_step_an_optimizer_inside_the_backward_as_torchs():
    # torch's tutorial: one optimizer per parameter, stepped by the hook as each .grad is accumulated
    results = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 1))
        optimizers = {p: lib.optim.SGD([p], lr=0.1, momentum=0.9) for p in model.parameters()}
        calls = []

        def hook(parameter, optimizers=optimizers, calls=calls):
            calls.append(parameter.grad is not None)
            optimizers[parameter].step()
            optimizers[parameter].zero_grad()

        handles = [p.register_post_accumulate_grad_hook(hook) for p in model.parameters()]
        x, y = lib.randn(16, 4), lib.randn(16, 1)
        losses = []
        for _ in range(3):
            loss = lib.nn.functional.mse_loss(model(x), y)
            loss.backward()
            losses.append(loss.item())
        for handle in handles:
            handle.remove()
        model(x).sum().backward()
        with pytest.raises(RuntimeError) as non_leaf:
            (model[0].weight * 2).register_post_accumulate_grad_hook(print)
        results.append((losses, calls, model[0].bias.grad.numpy().tolist(), str(non_leaf.value)))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-6)
    np.testing.assert_allclose(results[1][2], results[0][2], rtol=1e-5, atol=1e-7)
    assert results[1][1] == results[0][1] == [True] * 12
    assert results[1][3] == results[0][3]
