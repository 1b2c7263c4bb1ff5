"""The eager engine's check of every gradient a grad_fn returns (PyTorch's validate_outputs), against torch.

Each node remembers the shape and dtype of the tensor behind each of its edges; before a gradient is
passed along an edge the engine sums a broadcast gradient down to that shape, casts it to that dtype,
and refuses a gradient it cannot make fit, with torch's error message. These tests run the same
program in minitorch2 (minitorch2/autograd/engine.py) and in torch and compare gradients and errors.
They test the runtime's eager engine (marked `runtime`).
"""
import numpy as np
import pytest
import torch

import minitorch2 as mt
from tests.minitorch2.autograd_helpers import assert_close, leaves

pytestmark = pytest.mark.runtime

LIBS = (mt, torch)


def returning(lib, make_grad, name="Returning"):
    """A custom Function that passes x through and whose backward returns make_grad(lib, grad, x)."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()

    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return make_grad(lib, grad, x)

    return type(name, (lib.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def both(make_grad, shape=(2, 3), dtype="float32", name="Returning"):
    """Run returning(...).apply(x).sum().backward() in both libraries: [(x.grad or the error), ...]."""
    results = []
    for lib, x in zip(LIBS, leaves(shape, dtype=dtype)[0]):
        try:
            returning(lib, make_grad, name).apply(x).sum().backward()
            results.append(x.grad)
        except Exception as e:  # noqa: BLE001  (compared below)
            results.append(e)
    return results


def assert_same_error(ours, theirs):
    assert isinstance(theirs, Exception), f"torch did not raise, it returned {theirs}"
    assert isinstance(ours, Exception), f"torch raised {theirs!r}, minitorch2 returned {ours}"
    assert type(ours).__name__ == type(theirs).__name__ and str(ours) == str(theirs)


# ---------------------------------------------------------------- shapes
@pytest.mark.parametrize("shape,grad_shape", [
    ((2, 3), (4, 2, 3)),     # extra leading dims: summed away
    ((2, 3), (5, 4, 2, 3)),
    ((1, 3), (2, 3)),        # a size-1 dim broadcast: summed with keepdim
    ((3,), (2, 3)),
    ((), (2, 3)),            # a 0-d input takes the sum of everything
    ((2, 1, 3), (4, 2, 5, 3)),
])
def test_broadcast_gradient_is_summed_to_the_input_shape(shape, grad_shape):
    ours, theirs = both(lambda L, g, x: L.ones(grad_shape, dtype=x.dtype) * 1.5, shape=shape)
    assert_close(ours, theirs)


@pytest.mark.parametrize("shape,grad_shape", [
    ((2, 3), (3,)),          # smaller than the input: torch does not expand a gradient, it refuses it
    ((2, 3), (1, 3)),
    ((2, 3), (2, 4)),
    ((2, 3), (3, 2)),
    ((2, 3), ()),
    ((3,), (2, 4)),
])
def test_gradient_of_incompatible_shape_is_refused(shape, grad_shape):
    ours, theirs = both(lambda L, g, x: L.ones(grad_shape, dtype=x.dtype), shape=shape, name="MyFn")
    assert_same_error(ours, theirs)
    assert str(ours).startswith("Function MyFnBackward returned an invalid gradient at index 0 - got [")


def test_index_in_the_error_counts_tensor_inputs_only():
    errors = []
    for lib, (a, b) in zip(LIBS, zip(*leaves((2, 3), (2, 3)))):
        with pytest.raises(RuntimeError) as info:
            _two_input_function(lib, lambda L, g: (g, None, L.ones(5))).apply(a, 2.0, b).sum().backward()
        errors.append(info.value)
    assert_same_error(*errors)
    assert "at index 1 -" in str(errors[0])


# ---------------------------------------------------------------- counts and types of gradients
def _two_input_function(lib, make_result):
    class Two(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, n, b):
            return a * n + b

        @staticmethod
        def backward(ctx, grad):
            return make_result(lib, grad)

    return Two


@pytest.mark.parametrize("make_result", [
    lambda L, g: (g,),                       # too few
    lambda L, g: (g, None),
    lambda L, g: (g, None, g, g),            # too many, and the extra one is not None
    lambda L, g: (g, g, g),                  # a gradient for the non-tensor input
    lambda L, g: (g, None, 3),               # not a tensor
], ids=["one", "two", "four", "non_tensor_input", "int"])
def test_wrong_number_or_kind_of_gradients_is_refused(make_result):
    errors = []
    for lib, (a, b) in zip(LIBS, zip(*leaves((2, 3), (2, 3)))):
        with pytest.raises(RuntimeError) as info:
            _two_input_function(lib, make_result).apply(a, 2.0, b).sum().backward()
        errors.append(info.value)
    assert_same_error(*errors)


def test_extra_none_gradients_are_dropped():
    grads = []
    for lib, (a, b) in zip(LIBS, zip(*leaves((2, 3), (2, 3)))):
        _two_input_function(lib, lambda L, g: (g * 2, None, g, None, None)).apply(a, 2.0, b).sum().backward()
        grads.append((a.grad, b.grad))
    for ours, theirs in zip(*grads):
        assert_close(ours, theirs)


def test_next_functions_of_a_custom_function_list_tensor_inputs_only():
    lengths = []
    for lib, (a, b) in zip(LIBS, zip(*leaves((2, 3), (2, 3)))):
        lengths.append(len(_two_input_function(lib, lambda L, g: (g, None, g)).apply(a, 2.0, b).grad_fn.next_functions))
    assert lengths[0] == lengths[1] == 2


def test_wrongly_shaped_gradient_for_an_input_that_needs_none_is_ignored():
    grads = []
    for lib, (a, b) in zip(LIBS, zip(*leaves((2, 3), (2, 3)))):
        b.requires_grad_(False)
        _two_input_function(lib, lambda L, g: (g, None, L.ones(7))).apply(a, 2.0, b).sum().backward()
        grads.append(a.grad)
    assert_close(*grads)


# ---------------------------------------------------------------- dtypes
@pytest.mark.parametrize("grad_dtype", ["float64", "float16", "int64"])
def test_gradient_is_cast_to_the_input_dtype(grad_dtype):
    ours, theirs = both(lambda L, g, x: (g * x * 3).to(getattr(L, grad_dtype)), dtype="float32")
    assert repr(ours.dtype) == "torch.float32"
    assert_close(ours, theirs)


def test_broadcast_and_cast_together():
    ours, theirs = both(lambda L, g, x: (g * x).double().expand(4, 2, 3), dtype="float32")
    assert_close(ours, theirs)


@pytest.mark.parametrize("expr", [
    lambda a, b: a + b,
    lambda a, b: a * b,
    lambda a, b: (a * b + a) / (b + 3),
    lambda a, b: (a.unsqueeze(0) * b).sum(0),
])
def test_mixed_dtype_ops_give_each_input_its_own_dtype(expr):
    grads = []
    for lib in LIBS:
        rng = np.random.default_rng(0)
        a = lib.tensor(rng.uniform(0.5, 2, (2, 3)).astype("float32"), requires_grad=True)
        b = lib.tensor(rng.uniform(0.5, 2, (2, 3)).astype("float64"), requires_grad=True)
        expr(a, b).sum().backward()
        grads.append((a.grad, b.grad))
    for ours, theirs in zip(*grads):
        assert_close(ours, theirs)


def test_gradient_given_to_backward_is_cast_to_the_output_dtype():
    grads = []
    for lib, x in zip(LIBS, leaves((2, 3), dtype="float32")[0]):
        (x * 2).backward(lib.ones(2, 3, dtype=lib.float64))
        grads.append(x.grad)
    assert_close(*grads)


# ---------------------------------------------------------------- the autograd.grad path
def test_autograd_grad_sees_validated_gradients():
    results = []
    for lib, x in zip(LIBS, leaves((2, 3), dtype="float32")[0]):
        f = returning(lib, lambda L, g, x: (g * x).double().expand(3, 2, 3))
        y = x * 2
        g_x, g_y = lib.autograd.grad(f.apply(y).sum(), [x, y])
        root, = lib.autograd.grad(x * 2, [x], lib.ones(2, 3, dtype=lib.float64))
        results.append((g_x, g_y, root))
    for ours, theirs in zip(*results):
        assert_close(ours, theirs)


def test_autograd_grad_reports_the_same_error():
    errors = []
    for lib, x in zip(LIBS, leaves((2, 3))[0]):
        with pytest.raises(RuntimeError) as info:
            lib.autograd.grad(returning(lib, lambda L, g, x: g[0], "MyFn").apply(x).sum(), [x])
        errors.append(info.value)
    assert_same_error(*errors)


# ---------------------------------------------------------------- create_graph
def test_double_backward_through_a_summed_and_cast_gradient():
    """With create_graph the sum and the cast are recorded, so the gradient can be differentiated again."""
    results = []
    for lib, x in zip(LIBS, leaves((2, 3), dtype="float32")[0]):
        f = returning(lib, lambda L, g, x: (g * x * x).double().expand(4, 2, 3))
        g, = lib.autograd.grad(f.apply(x).sum(), [x], create_graph=True)
        assert g.requires_grad
        gg, = lib.autograd.grad((g * g).sum(), [x])
        results.append((g, gg, g.grad_fn.name()))
    (g_o, gg_o, name_o), (g_t, gg_t, name_t) = results
    assert_close(g_o, g_t)
    assert_close(gg_o, gg_t)
    assert name_o == name_t == "ToCopyBackward0"


def test_double_backward_of_a_mixed_dtype_op():
    results = []
    for lib in LIBS:
        rng = np.random.default_rng(1)
        a = lib.tensor(rng.uniform(0.5, 2, (3,)).astype("float32"), requires_grad=True)
        b = lib.tensor(rng.uniform(0.5, 2, (2, 3)).astype("float64"), requires_grad=True)
        g_a, g_b = lib.autograd.grad((a * a * b).sum(), [a, b], create_graph=True)
        second = lib.autograd.grad(g_a.sum() + g_b.sum(), [a, b])
        results.append((g_a, g_b) + second)
    for ours, theirs in zip(*results):
        assert_close(ours, theirs)


def test_double_backward_through_a_summed_gradient_records_the_sum():
    results = []
    for lib, x in zip(LIBS, leaves((2, 3))[0]):
        f = returning(lib, lambda L, g, x: (g * x * x).expand(4, 2, 3))
        g, = lib.autograd.grad(f.apply(x).sum(), [x], create_graph=True)
        gg, = lib.autograd.grad((g * g).sum(), [x])
        results.append((g, gg, g.grad_fn.name(), g.grad_fn.next_functions[0][0].name()))
    (*ours, names_o), (*theirs, names_t) = [(r[0], r[1], r[2:]) for r in results]
    for o, t in zip(ours, theirs):
        assert_close(o, t)
    assert names_o == names_t == ("ViewBackward0", "SumBackward1")


def test_in_place_op_on_a_view_with_a_wider_operand():
    """CopySlices passes the in-place op's other gradients on: they too are cast to their inputs' dtypes."""
    grads = []
    for lib in LIBS:
        x = lib.tensor(np.arange(6, dtype="float32").reshape(2, 3), requires_grad=True)
        y = lib.tensor(np.array([0.5, 1.5, 2.5]), requires_grad=True)  # float64
        base = x * 1
        base[1].mul_(y)
        (base * base).sum().backward()
        grads.append((x.grad, y.grad, base.grad_fn.name()))
    (x_o, y_o, name_o), (x_t, y_t, name_t) = grads
    assert name_o == name_t == "torch::autograd::CopySlices"
    assert_close(x_o, x_t)
    assert_close(y_o, y_t)


@pytest.mark.parametrize("modify", ["no_grad", "detached_alias"])
def test_view_of_a_leaf_modified_in_place_passes_its_gradient_to_the_leaf(modify):
    """The regenerated history of a view (AsStridedBackward0) whose base is a leaf leads to the leaf's
    AccumulateGrad (ours led nowhere: the gradient through the view was dropped)."""
    grads = []
    for lib in LIBS:
        leaf = lib.ones(3, 4, requires_grad=True)
        view = leaf[1]
        if modify == "no_grad":
            with lib.no_grad():
                leaf.mul_(2)
        else:
            view.detach().add_(1)
        ((view * view).sum() + leaf.sum()).backward()
        grads.append(leaf.grad)
    assert_close(*grads)


def test_a_view_whose_base_was_modified_names_its_new_history_when_asked():
    """torch regenerates a stale view's grad_fn when the attribute is read (printing the view shows it),
    not only when a backward reaches it."""
    names = []
    for lib in LIBS:
        x = lib.ones(3, 4, requires_grad=True)
        h = x * 2
        view = h[0]
        before = view.grad_fn.name()
        h.mul_(3)
        names.append((before, view.grad_fn.name(), str(view).split("grad_fn=")[1], view.is_leaf))
    assert names[0] == names[1] == ("SelectBackward0", "AsStridedBackward0", "<AsStridedBackward0>)", False)


# ---------------------------------------------------------------- every node keeps one metadata entry per edge
def test_every_node_has_metadata_for_each_edge():
    x, y = (t for t, _ in leaves((2, 3), (3,)))
    h = (x * 2).relu()
    h[0].add_(y)
    view = h[1]
    h.mul_(2)  # the view's history is regenerated (AsStridedBackward0) when it is next used
    out = returning(mt, lambda L, g, x: g).apply(mt.cat([view, y]) * 3).sum()
    nodes = _nodes(out.grad_fn)
    assert {"torch::autograd::CopySlices", "AsStridedBackward0", "ReturningBackward"} <= {n.name() for n in nodes}
    for node in nodes:
        assert len(node.input_metadata) == len(node.next_functions), node.name()
        for (child, _), metadata in zip(node.next_functions, node.input_metadata):
            assert (child is None) == (metadata is None), node.name()


def _nodes(root):
    seen, stack, found = set(), [root], []
    while stack:
        node = stack.pop()
        if node is not None and id(node) not in seen:
            seen.add(id(node))
            found.append(node)
            stack.extend(child for child, _ in node.next_functions)
    return found
