"""Functionalization: graphs handed to compilers are pure, and programs that mutate still compute what
they compute eagerly (and what torch's aot_function computes), including writes back into inputs."""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function, make_boxed_func as torch_boxed

import minitorch2
from autograd import aot_function, make_boxed_func
from autograd.functionalize import functionalize_graph
from autograd.proxy_tensor import make_fx


def _capture(store, boxed):
    def compiler(gm, inputs):
        store.append(gm)
        return boxed(gm.forward)

    return compiler


def _mutating_ops(gm):
    return [str(n.target) for n in gm.graph.nodes if n.op == "call_function" and getattr(n.target, "is_inplace", False)]


PROGRAMS = {
    "inplace_on_intermediate": lambda lib, x: (x * 2).add_(1).sin(),
    "inplace_on_view": lambda lib, x: _write_view(x * 1.5),
    "setitem_scalar": lambda lib, x: _setitem(x * 2),
    "view_read_after_write": lambda lib, x: _read_after_write(x + 0.5),
    "transposed_view_write": lambda lib, x: _transposed_write(x * 3),
    "chained_views": lambda lib, x: _chained(x - 1),
    "pow_scalar": lambda lib, x: (x * 2).pow_(2).sin(),
}


def _write_view(y):
    y[1:3].mul_(2)
    return y.cos()


def _setitem(y):
    y[0] = 5.0
    return y * y


def _read_after_write(y):
    v = y[:, 1]
    y.mul_(3)
    return v + y.sum()


def _transposed_write(y):
    y.t()[0].add_(10)
    return y.tanh()


def _chained(y):
    y.view(-1)[2:5].zero_()
    return y.relu() * 2


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_and_grads_match_eager_and_torch(name):
    fn = PROGRAMS[name]
    data = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    graphs = []
    x = minitorch2.from_numpy(data.copy()).requires_grad_()
    out = aot_function(lambda x: fn(minitorch2, x), _capture(graphs, make_boxed_func), _capture(graphs, make_boxed_func))(x)
    out.sum().backward()
    for gm in graphs:
        assert _mutating_ops(gm) == [], gm.code
    tx = torch.from_numpy(data.copy()).requires_grad_()
    expected = torch_aot_function(lambda x: fn(torch, x), _capture([], torch_boxed))(tx)
    expected.sum().backward()
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1.3e-6, atol=1e-5)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1.3e-6, atol=1e-5)


def test_every_inplace_op_is_replaced_by_a_functional_form_taking_its_arguments():
    """The functional form an in-place row names (op.functional_variant) takes the same arguments;
    random_.from and random_ alone have none registered yet (torch's are random.from and random)."""
    missing = []
    for op in minitorch2.ops.aten.overloads():
        if not op.is_inplace:
            continue
        functional = op.functional_variant
        if functional is None:
            missing.append(str(op))
            continue
        assert not functional.is_inplace, op
        arguments = [(a.name, a.type, a.kwarg_only) for a in op._schema.arguments]
        assert arguments == [(a.name, a.type, a.kwarg_only) for a in functional._schema.arguments], op
    assert sorted(missing) == ["aten.random_.default", "aten.random_.from"]


def test_mutated_input_is_written_back_after_the_call():
    def f(x, buf):
        buf.add_(x.detach().sum())
        return (x * buf).sum()

    graphs = []
    x = minitorch2.ones(3, requires_grad=True)
    buf = minitorch2.zeros(3)
    aot_function(f, _capture(graphs, make_boxed_func))(x, buf).backward()
    assert buf.tolist() == [3.0, 3.0, 3.0]
    assert x.grad.tolist() == [3.0, 3.0, 3.0]
    assert _mutating_ops(graphs[0]) == []


def test_batchnorm_running_stats_update_through_compiled_graph():
    def run(lib, aot, boxed):
        lib.manual_seed(0)
        bn = lib.nn.BatchNorm2d(3)
        params = [bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked]

        def f(x, w, b, rm, rv, nbt):
            nbt.add_(1)
            return lib.nn.functional.batch_norm(x, rm, rv, w, b, True, 0.1, 1e-5).relu().sum()

        x = lib.randn(4, 3, 5, 5, requires_grad=True)
        fw = []
        aot(f, _capture(fw, boxed), _capture([], boxed))(x, *params).backward()
        return bn, x.grad, fw[0]

    ours, our_grad, our_fw = run(minitorch2, aot_function, make_boxed_func)
    theirs, their_grad, their_fw = run(torch, torch_aot_function, torch_boxed)
    for key in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_allclose(getattr(ours, key).numpy(), getattr(theirs, key).numpy(), rtol=1e-6)
    np.testing.assert_allclose(our_grad.numpy(), their_grad.numpy(), rtol=1e-5, atol=1e-6)
    assert our_fw.code == their_fw.code


def test_a_pure_graph_is_left_as_it_is():
    gm = make_fx(lambda x: x.sin() + 1)(minitorch2.randn(3))
    assert functionalize_graph(gm) == (gm, [])


def test_functionalize_under_make_fx_records_no_mutation():
    from autograd import functionalize

    def f(x):
        y = x.clone()
        y.add_(1)
        y[0].mul_(2)
        return y.sin()

    gm = make_fx(functionalize(f))(minitorch2.ones(3, 2))
    assert _mutating_ops(gm) == []
    targets = [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]
    assert "aten.select_scatter.default" in targets
    x = minitorch2.randn(3, 2)
    np.testing.assert_allclose(gm(x).numpy(), f(x).numpy())


def _relu_then_views(x):
    y = x * 2
    y.relu_()
    z = y * 5
    after = y.view(6)  # taken after the mutation, used twice
    return z, after * 4, after.sum(), y.t() * 2


@pytest.mark.parametrize("fn", [
    _relu_then_views,
    lambda x: (x * 2).add_(1).view(6) * 3,
    lambda x: minitorch2.nn.functional.relu(x @ x.t(), inplace=True) @ x if isinstance(x, minitorch2.Tensor)
    else torch.nn.functional.relu(x @ x.t(), inplace=True) @ x,
], ids=["views_after_a_mutation", "view_of_a_mutated_intermediate", "inplace_relu_saved_for_backward"])
def test_views_of_a_mutated_tensor_are_made_again_where_used_as_torchs(fn):
    """torch's functionalization takes a view of a tensor mutated earlier as out of date from the start:
    the view is made again from the new value where first used (its first copy is dead, so the names
    shift: view_1), and the in-place relu's saved result is the relu itself, detached in the backward."""
    graphs = []
    for lib, aot, boxed in ((minitorch2, aot_function, make_boxed_func), (torch, torch_aot_function, torch_boxed)):
        store = []
        x = lib.from_numpy(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)).requires_grad_()
        out = aot(fn, _capture(store, boxed), _capture(store, boxed))(x)
        sum(o.sum() for o in (out if isinstance(out, (tuple, list)) else [out])).backward()
        graphs.append([gm.code.strip() for gm in store])
    assert graphs[0] == graphs[1]
