"""The AOT entry points: lazy backward compilation, inference graphs, modules, decomposition tables."""
import functorch.compile
import numpy as np
import pytest
import torch

import autograd
import minitorch2
from autograd import (aot_function, aot_module, aot_module_simplified, core_aten_decompositions, get_decompositions,
                      make_boxed_func, make_fx)


def test_backward_compiler_runs_at_first_backward_and_never_under_no_grad():
    events = []

    def compiler(tag):
        def compile(gm, inputs):
            events.append(tag)
            return make_boxed_func(gm.forward)
        return compile

    f = aot_function(lambda x: x.sin().sum(), compiler("fw"), compiler("bw"))
    loss = f(minitorch2.randn(3, requires_grad=True))
    assert events == ["fw"]
    loss.backward()
    assert events == ["fw", "bw"]
    events.clear()
    g = aot_function(lambda x: x.cos().sum(), compiler("fw"), compiler("bw"))
    with minitorch2.no_grad():
        g(minitorch2.randn(3, requires_grad=True))
    assert events == ["fw"]


def test_inference_traces_a_forward_only_graph():
    graphs = []

    def capture(gm, inputs):
        graphs.append(gm)
        return make_boxed_func(gm.forward)

    out = aot_function(lambda x, y: (x @ y).relu(), capture)(minitorch2.randn(2, 3), minitorch2.randn(3, 4))
    assert tuple(out.shape) == (2, 4) and not out.requires_grad
    assert [str(n.target) for n in graphs[0].graph.nodes if n.op == "call_function"] == \
        ["aten.mm.default", "aten.relu.default"]


def _train_linear(lib, wrap):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
    compiled = wrap(model)
    x = lib.randn(5, 3)
    loss = compiled(x).sum()
    loss.backward()
    return loss, [p.grad for p in model.parameters()]


def test_aot_module_and_aot_module_simplified_match_eager_torch():
    nop = lambda gm, inputs: make_boxed_func(gm.forward)  # noqa: E731
    theirs_loss, theirs_grads = _train_linear(torch, lambda m: m)
    for wrap in (lambda m: aot_module(m, nop, nop), lambda m: aot_module_simplified(m, None, nop, nop)):
        loss, grads = _train_linear(minitorch2, wrap)
        np.testing.assert_allclose(loss.item(), theirs_loss.item(), rtol=1e-6)
        for g, t in zip(grads, theirs_grads):
            np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)


def _partitioner_kwargs(lib):
    """What each library's AOT passes its partition_fn for a Linear + BatchNorm1d: through aot_function, then
    through the frontend (Dynamo), whose parameters and buffers are static inputs."""
    from functorch.compile import aot_function as torch_aot_function
    from functorch.compile import min_cut_rematerialization_partition as torch_min_cut
    from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd

    import autograd
    import partition

    seen = []
    min_cut = torch_min_cut if lib is torch else partition.min_cut_rematerialization_partition

    def recording_partition(gm, joint_inputs, **kwargs):
        seen.append(kwargs)
        return min_cut(gm, joint_inputs, **kwargs)

    nop = torch_make_boxed_nop if lib is torch else (lambda gm, inputs: make_boxed_func(gm.forward))
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.BatchNorm1d(3))
    x = lib.randn(4, 3, requires_grad=True)
    aot = torch_aot_function if lib is torch else aot_function
    aot(lambda a, b: (a * b).sin(), nop, nop, partition_fn=recording_partition)(x, x)
    make_backend = torch_aot_autograd if lib is torch else autograd.aot_autograd
    lib.compile(model, backend=make_backend(fw_compiler=nop, bw_compiler=nop, partition_fn=recording_partition))(x)
    return seen


def torch_make_boxed_nop(gm, inputs):
    from functorch.compile import make_boxed_func as torch_make_boxed_func

    return torch_make_boxed_func(gm.forward)


def test_partitioner_is_told_the_static_inputs_as_torchs_is():
    import frontend

    frontend.reset()
    torch._dynamo.reset()  # (an earlier test's compiles of nn modules leave Dynamo's automatic dynamic sizes)
    ours, theirs = _partitioner_kwargs(minitorch2), _partitioner_kwargs(torch)
    assert ours == theirs
    assert ours[1]["static_lifetime_input_indices"] == [0, 1, 3, 4, 5, 6, 7]  # all but the input x


def test_multiple_outputs_and_inputs_without_grad():
    def f(x, w):
        y = x @ w
        return y.sum(), y.amax(1)

    x, w = minitorch2.randn(2, 3), minitorch2.randn(3, 4, requires_grad=True)
    nop = lambda gm, inputs: make_boxed_func(gm.forward)  # noqa: E731
    total, peak = aot_function(f, nop, nop)(x, w)
    (total + peak.sum()).backward()
    tx, tw = torch.from_numpy(x.numpy().copy()), torch.from_numpy(w.detach().numpy().copy()).requires_grad_()
    ttotal, tpeak = f(tx, tw)
    (ttotal + tpeak.sum()).backward()
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-5, atol=1e-6)


def _structure(out):
    """The containers of a pytree with each tensor replaced by its values."""
    if isinstance(out, (list, tuple)):
        return type(out).__name__, [_structure(o) for o in out]
    if isinstance(out, dict):
        return {k: _structure(v) for k, v in out.items()}
    return np.round(out.detach().numpy(), 5).tolist()


@pytest.mark.parametrize("fn", [
    lambda inputs, scale: inputs["x"].sin() * scale,
    lambda inputs, scale: (inputs["x"].sin(), inputs["x"] * scale),
    lambda inputs, scale: [inputs["x"].cos()],
    lambda inputs, scale: {"sin": inputs["x"].sin(), "pair": (inputs["x"].exp(), scale * 2)},
    lambda inputs, scale: (inputs["x"].sin(), (inputs["x"].cos(),)),
], ids=["tensor", "flat_tuple", "flat_list", "dict", "nested_tuple"])
def test_inputs_and_outputs_are_pytrees_as_torchs(fn):
    """torch's aot_function flattens (args, kwargs) and the output: one tensor comes back bare, a flat
    tuple or list as a list, anything nested rebuilt (dicts included)."""
    from functorch.compile import aot_function as torch_aot_function, nop

    from minitorch2.utils._pytree import tree_leaves  # (plain containers: it flattens torch's outputs too)

    x = np.random.default_rng(0).standard_normal(3).astype(np.float32)
    results = []
    for lib, aot, compiler in ((minitorch2, aot_function, lambda gm, _: gm), (torch, torch_aot_function, nop)):
        compiled = aot(fn, compiler)
        leaf = lib.from_numpy(x.copy()).requires_grad_()
        out = compiled({"x": leaf}, scale=lib.full((3,), 2.0))
        lib.autograd.backward([t.sum() for t in tree_leaves(out) if t.requires_grad])
        results.append((_structure(out), np.round(leaf.grad.numpy(), 5).tolist()))
    assert results[0] == results[1]


def test_decomposition_tables_change_what_is_recorded():
    table = get_decompositions([minitorch2.ops.aten.silu])
    assert list(table) == [minitorch2.ops.aten.silu.default]
    gm = make_fx(lambda x: minitorch2.nn.functional.silu(x), decomposition_table=table)(minitorch2.randn(3))
    assert [str(n.target) for n in gm.graph.nodes if n.op == "call_function"] == \
        ["aten.sigmoid.default", "aten.mul.Tensor"]
    assert minitorch2.ops.aten.native_layer_norm.default in get_decompositions([minitorch2.ops.aten.native_layer_norm])


def test_core_aten_decompositions_are_torchs_ops_outside_the_core_set():
    """Core ops (softmax, gelu, addmm, leaky_relu, layer norm...) stay whole, and inductor's own (var_mean...) are
    not in the table, as torch._decomp's: every op in ours is in torch's."""
    from torch._decomp import core_aten_decompositions as torch_table
    theirs = {str(op) for op in torch_table()}
    ours = {str(op) for op in core_aten_decompositions()}
    assert ours <= theirs and "aten.native_layer_norm.default" not in ours and "aten.gelu.default" not in ours
    assert {"aten.all.dim", "aten.pixel_shuffle.default", "aten.silu.default"} <= ours


def test_make_fx_flattens_dict_and_nested_arguments_as_torch_does():
    """Every tensor inside a dict, tuple or list argument is a placeholder (not a lifted constant); the
    module is called with the arguments as given."""
    from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

    def f(d, nested, x):
        return [d["a"] * x + d["b"], nested[0][0] - nested[1][0]]

    def inputs(lib):
        return {"a": lib.ones(2), "b": lib.full((2,), 3.0)}, ((lib.full((2,), 5.0),), [lib.ones(2)]), lib.ones(2)

    ours, theirs = make_fx(f)(*inputs(minitorch2)), torch_make_fx(f)(*inputs(torch))
    assert ours.code == theirs.code
    assert [t.tolist() for t in ours(*inputs(minitorch2))] == [t.tolist() for t in theirs(*inputs(torch))]


def _scaled(x, weight):
    return x * weight


@pytest.mark.parametrize("name", ["matmul", "add", "F.linear", "lambda", "def"])
def test_make_fx_names_placeholders_as_torch_does(name):
    """By the traced function's parameters; `arg<i>` for torch's C functions (torch.matmul, F.linear), which have
    no signature to read."""
    from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

    def function(lib):
        return {"matmul": lib.matmul, "add": lib.add, "F.linear": lib.nn.functional.linear,
                "lambda": lambda a, b: lib.matmul(a, b), "def": _scaled}[name]

    ours = make_fx(function(minitorch2))(minitorch2.ones(3, 3), minitorch2.ones(3, 3))
    theirs = torch_make_fx(function(torch))(torch.ones(3, 3), torch.ones(3, 3))
    assert [n.name for n in ours.graph.nodes if n.op == "placeholder"] == \
        [n.name for n in theirs.graph.nodes if n.op == "placeholder"]


def test_compiled_outputs_name_their_grad_fn_as_torch_does():
    from functorch.compile import aot_function as torch_aot_function, nop

    ours = aot_function(lambda x: x.sin() * 2, lambda gm, _: gm)(minitorch2.randn(2, requires_grad=True))
    theirs = torch_aot_function(lambda x: x.sin() * 2, nop)(torch.randn(2, requires_grad=True))
    assert ours.grad_fn.name() == theirs.grad_fn.name() == "CompiledFunctionBackward"
    assert all(str(t).endswith("grad_fn=<CompiledFunctionBackward>)") for t in (ours, theirs))


@pytest.mark.parametrize("fn", [
    lambda x: x.squeeze().sin(), lambda x: x.squeeze(-1).sin(), lambda x: x.squeeze((0, 2)).sin(),
    lambda x: x.cumsum(0).sin(), lambda x: x.sum().expand([]).sin(),
], ids=["squeeze", "squeeze_dim", "squeeze_dims", "cumsum_over_a_unit_dim", "expand_0d"])
def test_degenerate_shape_backwards_record_atens_ops(fn):
    """ATen's formulas on unit dims and 0-d tensors: unsqueeze per squeezed dim (wrapped), no reversed cumsum
    over a dim of size 1, and sum_to of an empty shape is always a sum."""
    from functorch.compile import aot_function as torch_aot_function

    def capture(graphs):
        return lambda gm, _: graphs.append(gm.code) or gm

    theirs, ours = [], []
    torch_aot_function(fn, capture(theirs), capture(theirs))(torch.randn(1, 3, 1, requires_grad=True)).sum().backward()
    aot_function(fn, capture(ours), capture(ours))(minitorch2.randn(1, 3, 1, requires_grad=True)).sum().backward()
    assert ours == theirs


ALIASING_PROGRAMS = {
    "t": lambda x: x.t(),
    "view_and_product": lambda x: (x.view(12), x * 2),
    "select": lambda x: x[0],
    "chain_of_views": lambda x: (x.t()[1:].unsqueeze(0), x.sum()),
    "detach": lambda x: (x.detach(), x * 2),
    "input_itself": lambda x: (x, x.sin()),
    "view_of_intermediate": lambda x: (x * 2).view(12),
}


@pytest.mark.parametrize("name", sorted(ALIASING_PROGRAMS))
def test_outputs_viewing_an_input_are_made_again_from_it_as_torch_does(name):
    from functorch.compile import aot_function as torch_aot_function, nop

    fn = ALIASING_PROGRAMS[name]
    x = minitorch2.randn(3, 4, requires_grad=True)
    tx = torch.from_numpy(x.detach().numpy().copy()).requires_grad_()
    ours = aot_function(fn, lambda gm, _: gm)(x)
    theirs = torch_aot_function(fn, nop)(tx)
    ours, theirs = [list(o) if isinstance(o, (tuple, list)) else [o] for o in (ours, theirs)]
    assert [o.grad_fn.name() if o.grad_fn else None for o in ours] == \
        [t.grad_fn.name() if t.grad_fn else None for t in theirs]
    for o, t in zip(ours, theirs):
        # a view of the input is one (shared base and version counter) as torch's is
        assert (o._base is x) == (t._base is tx) and (o is x) == (t is tx)
        if o._base is x:
            version = x._version
            o.detach().add_(1)
            assert x._version == version + 1
    differentiable = [(o, t) for o, t in zip(ours, theirs) if t.requires_grad]
    sum(o.sum() for o, _ in differentiable).backward()
    sum(t.sum() for _, t in differentiable).backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())


OUTPUT_ALIASING_PROGRAMS = {  # outputs aliasing each other or one intermediate
    "only_view_of_intermediate": lambda x: x.sin().view(-1),
    "two_views_of_intermediate": lambda x: (lambda y: (y.view(-1), y[0]))(x.sin()),
    "view_of_view_of_intermediate": lambda x: (lambda v: (v, v[1:]))(x.sin().view(-1)),
    "view_and_its_base": lambda x: (lambda y: (y.view(-1), y))(x.sin()),
    "base_and_two_views": lambda x: (lambda y: (y, y.view(-1), y.t()))(x.sin()),
    "unbind": lambda x: x.sin().unbind(0),
    "detached_pair": lambda x: (lambda y: (y, y.detach()))(x.sin()),
}


def _aliasing_run(lib, compiled, fn):
    """What the outputs are (grad_fn, is a view) and the gradient after the first one is changed in place."""
    x = lib.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)).requires_grad_()
    out = compiled(fn)(x)
    out = out if isinstance(out, (tuple, list)) else [out]
    kinds = [(o.grad_fn.name() if o.grad_fn else None, o._base is not None) for o in out]
    out[0].mul_(2)  # reaches the outputs it aliases, and (torch's autograd knows) their gradients
    sum(o.sum() for o in out if o.requires_grad).backward()
    return kinds, [o.detach().numpy().copy() for o in out], x.grad.numpy()


@pytest.mark.parametrize("backend", ["aot_function", "inductor"])
@pytest.mark.parametrize("name", sorted(OUTPUT_ALIASING_PROGRAMS))
def test_outputs_aliasing_outputs_or_an_intermediate_are_made_again_as_torch_does(name, backend):
    """As torch's aot: a view of another output, or views of an intermediate several outputs view (the
    intermediate joins the forward's outputs), are made again from it after the compiled function; the
    only view of an intermediate, and multi-output views (unbind), come out as plain tensors. Otherwise
    an in-place change of one output would reach the others' values but not their gradients."""
    from functorch.compile import aot_function as torch_aot_function, nop

    if backend == "inductor":
        import frontend

        frontend.reset()
        ours = lambda fn: minitorch2.compile(fn, backend="inductor")  # noqa: E731
    else:
        ours = lambda fn: aot_function(fn, lambda gm, _: gm)  # noqa: E731
    fn = OUTPUT_ALIASING_PROGRAMS[name]
    kinds, values, grad = _aliasing_run(minitorch2, ours, fn)
    torch_kinds, torch_values, torch_grad = _aliasing_run(torch, lambda fn: torch_aot_function(fn, nop), fn)
    assert kinds == torch_kinds
    for value, expected in zip(values, torch_values):
        np.testing.assert_allclose(value, expected, rtol=1e-6)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-6)


def test_inputs_that_require_grad_changed_in_place_as_torch_does():
    """torch's joint clones such an input, returns its new value first (in input order, beside the
    inputs that need no grad) and copies it in outside the compiled function: the input's grad_fn is
    CopyBackwards, and gradients reach what it was made from."""
    from functorch.compile import aot_function as torch_aot_function, nop

    def fn(x, counter):
        x.mul_(3)
        counter.add_(1)
        return x.sin()

    seen = []
    for lib, aot, compiler in ((minitorch2, aot_function, lambda gm, _: gm), (torch, torch_aot_function, nop)):
        graphs = []

        def keep(gm, _, compiler=compiler):
            graphs.append(gm.code.strip())
            return compiler(gm, _)

        w = lib.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32)).requires_grad_()
        x, counter = w * 2, lib.zeros(6)
        out = aot(fn, keep)(x, counter)
        out.sum().backward()
        seen.append((graphs, x.grad_fn.name(), x.detach().numpy().round(5).tolist(), counter.numpy().tolist(),
                     w.grad.numpy().round(5).tolist()))
    assert seen[0] == seen[1]


def test_frontend_graph_changing_a_non_leaf_input_in_place_has_no_graph_break():
    import frontend

    frontend.reset()
    torch._dynamo.reset()
    fn = lambda x: x.relu_() * 2  # noqa: E731
    results = []
    for lib, compiled in ((minitorch2, minitorch2.compile(fn, backend="inductor")),
                          (torch, torch.compile(fn, backend="aot_eager"))):
        w = lib.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32)).requires_grad_()
        x = w * 3
        out = compiled(x)
        out.sum().backward()
        results.append((out.grad_fn.name(), x.grad_fn.name(), x.detach().numpy().tolist(), w.grad.numpy().tolist()))
    assert results[0] == results[1]
    assert results[0][:2] == ("CompiledFunctionBackward", "torch::autograd::CopyBackwards")
    from frontend.testing import CompileCounter

    frontend.reset()
    counter = CompileCounter()
    minitorch2.compile(fn, backend=counter)(minitorch2.ones(3, requires_grad=True) * 2)
    assert (counter.frame_count, counter.op_count) == (1, 2)  # relu_ and mul in one graph


def test_output_viewing_an_input_the_function_modifies_is_made_again_after_the_write_back():
    """As torch's: the view is replayed on the input once it holds what fn wrote into it, so it is a view
    of the input (ViewBackward0) and its gradient reaches what was added in."""
    from functorch.compile import aot_function as torch_aot_function, nop

    def fn(x, y):
        x.add_(y)
        return x.view(6), y * 2

    seen = []
    for lib, aot, compiler in ((minitorch2, aot_function, lambda gm, _: gm), (torch, torch_aot_function, nop)):
        x, y = lib.ones(2, 3), lib.ones(2, 3, requires_grad=True)
        view, product = aot(fn, compiler)(x, y)
        (view.sum() + product.sum()).backward()
        seen.append((view.grad_fn.name(), view._base is x, x.tolist(), y.grad.tolist()))
    assert seen[0] == seen[1]


MUTATING_PROGRAMS = {  # outputs that are, or view, an input the function changes in place
    "mutated_input_returned": lambda x: x.mul_(2),
    "view_of_mutated_input": lambda x: (x.mul_(2), x.view(-1))[1],
    "mutated_input_and_a_result": lambda x: (x.add_(1), x.sin())[::-1],
}


@pytest.mark.parametrize("backend", ["aot_function", "inductor"])
@pytest.mark.parametrize("name", sorted(MUTATING_PROGRAMS))
def test_outputs_aliasing_an_input_that_requires_grad_and_is_changed_in_place(name, backend):
    """The input itself, or a view of it, comes back after the copy that gives it its new value
    (CopyBackwards, then the view's own grad_fn), with torch's gradients."""
    from functorch.compile import aot_function as torch_aot_function, nop

    if backend == "inductor":
        import frontend

        frontend.reset()
        ours = lambda fn: minitorch2.compile(fn, backend="inductor")  # noqa: E731
    else:
        ours = lambda fn: aot_function(fn, lambda gm, _: gm)  # noqa: E731
    seen = []
    for lib, compiled in ((minitorch2, ours), (torch, lambda fn: torch_aot_function(fn, nop))):
        w = lib.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)).requires_grad_()
        x = w * 1.5
        out = compiled(MUTATING_PROGRAMS[name])(x)
        outs = out if isinstance(out, (tuple, list)) else [out]
        sum(o.sum() for o in outs).backward()
        seen.append(([(o.grad_fn.name(), o is x, o._base is x) for o in outs], x.detach().numpy().round(5).tolist(),
                     w.grad.numpy().round(5).tolist()))
    assert seen[0] == seen[1]


def test_functorch_compile_helper_compilers_match_torchs(capsys):
    """nop, print_compile (the forward's and backward's code printed as torch prints it), make_boxed_compiler and
    the compiled_function alias; a tensor passed twice gets one gradient, summed, as torch's."""
    printed, grads = [], []
    for lib, api in ((torch, functorch.compile), (minitorch2, autograd)):
        w = lib.tensor([1., 2.], requires_grad=True)
        api.aot_function(lambda a, b: (a * 3 + b * 5).sum(), api.nop, api.nop)(w, w).backward()
        x = lib.ones(2, requires_grad=True)
        boxed = api.make_boxed_compiler(lambda gm, _: gm.forward)
        api.compiled_function(lambda a: a.sin() * 2, api.print_compile, boxed)(x).sum().backward()
        grads.append((w.grad.tolist(), x.grad.tolist()))
        printed.append(capsys.readouterr().out)
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)
    assert printed[1] == printed[0]
