"""After an in-place op through one view of a base, every other view of that base reads the base's new
history (torch regenerates a view's grad_fn when its version moved since the grad_fn was made), and a write
AOT functionalizes into an expanded input is refused or applied as torch.compile's, never lost."""
import numpy as np
import pytest
import torch

import frontend
import minitorch2

VIEW_PAIRS = {  # name -> (read view x, written view y) of a (2, 2) base b
    "full_slices": lambda b: (b[:], b[:]),
    "slice_of_a_slice": lambda b: (b[:][:], b[:]),
    "same_row": lambda b: (b[0], b[0]),
    "flat_views": lambda b: (b.view(4), b.view(4)),
    "view_of_a_row": lambda b: (b[1].view(1, 2), b[1:]),
    "written_view_is_a_view_of_a_view": lambda b: (b[:], b[:][:]),
}


def _grad(lib, views, write, read=lambda x: x.sum()):
    leaf = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = leaf * 1
    x, y = views(b)
    write(x, y)
    read(x).backward()
    return leaf.grad.numpy()


@pytest.mark.parametrize("name", list(VIEW_PAIRS))
def test_adding_one_view_into_another_refreshes_the_reader(name):
    write = lambda x, y: y.add_(x)
    np.testing.assert_array_equal(_grad(minitorch2, VIEW_PAIRS[name], write), _grad(torch, VIEW_PAIRS[name], write))


WRITES = {  # in-place ops whose backward saves nothing the write changes
    "add_alpha": lambda x, y: y.add_(x, alpha=2.0),
    "sub": lambda x, y: y.sub_(x),
    "copy": lambda x, y: y.copy_(x + 1.0),
    "mul_by_a_number_then_add": lambda x, y: y.mul_(-2.0).add_(x),
}


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("name", ["full_slices", "slice_of_a_slice", "flat_views", "same_row"])
def test_other_writes_through_one_view_refresh_the_reader(name, write):
    read = lambda x: (x * x).sum()
    np.testing.assert_array_equal(_grad(minitorch2, VIEW_PAIRS[name], WRITES[write], read),
                                  _grad(torch, VIEW_PAIRS[name], WRITES[write], read))


def test_a_third_view_taken_before_the_write_sees_it():
    def run(lib):
        leaf = lib.ones(2, 2, requires_grad=True)
        b = leaf * 1
        x, y, z = b[:], b[:], b[1]
        y.add_(x)
        (z * 3).sum().backward()
        return leaf.grad.numpy(), x.grad_fn.name(), z.grad_fn.name()

    for mine, theirs in zip(run(minitorch2), run(torch)):
        np.testing.assert_array_equal(mine, theirs)


@pytest.fixture
def _fresh_compilers():
    torch._dynamo.reset()
    frontend.reset()
    yield
    torch._dynamo.reset()
    frontend.reset()


def _write_a_row_of_one_expand_read_the_other(x, y):
    y[0].mul_(-1.0)
    return x * 1


def test_write_through_one_of_two_expanded_inputs_refused_as_torch_compiles(_fresh_compilers):
    """Eager writes [-1, -2] into every row; torch.compile's functionalized write-back into the expanded
    window refuses; ours returned the values from before the write."""
    f = _write_a_row_of_one_expand_read_the_other
    tb = torch.tensor([[1.0, 2.0]])
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        torch.compile(f, backend="aot_eager")(tb.expand(3, 2), tb.expand(3, 2))
    b = minitorch2.tensor([[1.0, 2.0]])
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        minitorch2.compile(f, backend="aot_eager")(b.expand(3, 2), b.expand(3, 2))


WINDOWS = {  # (self numel, src shape, size, stride, offset)
    "expanded_rows": (2, (3, 2), (3, 2), (0, 1), 0),
    "expanded_columns": (3, (3, 2), (3, 2), (1, 0), 0),
    "zero_stride_over_one_row": (4, (1, 2), (1, 2), (0, 1), 1),
    "strided_rows": (6, (2, 2), (2, 2), (3, 1), 1),
    "rows_overlapping_without_zero_strides": (4, (2, 2), (2, 2), (1, 1), 0),
}


@pytest.mark.parametrize("name", list(WINDOWS))
def test_as_strided_scatter_refuses_a_window_repeating_an_element_as_torchs(name):
    numel, src_shape, size, stride, offset = WINDOWS[name]

    def run(lib, scatter):
        src = lib.arange(1.0, 1.0 + int(np.prod(src_shape))).reshape(src_shape)
        try:
            return scatter(lib.zeros(numel), src, size, stride, offset).numpy()
        except RuntimeError as e:
            return str(e)

    mine = run(minitorch2, minitorch2.ops.aten.as_strided_scatter.default)
    theirs = run(torch, torch.as_strided_scatter)
    if isinstance(theirs, str):
        assert mine == theirs
    else:
        np.testing.assert_array_equal(mine, theirs)


def test_an_expanded_view_changed_under_no_grad_sums_its_gradient_as_torchs():
    """The regenerated AsStridedBackward0 of a view that repeats elements (an expand) sums their
    gradients, as as_strided's formula does; it had scattered them, which refuses an expanded window
    (frontend aliasing fuzz, session 10: `with no_grad(): x.copy_(x)` on an expanded x)."""
    grads = []
    for lib in (torch, minitorch2):
        leaf = lib.ones(1, 1, requires_grad=True)
        base = leaf * 1
        x = base.expand(1, 2)
        with lib.no_grad():
            x.copy_(x)
        (x.sum() * 2 + base.sum()).backward()
        grads.append(leaf.grad.numpy())
    assert grads[0].tolist() == grads[1].tolist() == [[5.0]]
