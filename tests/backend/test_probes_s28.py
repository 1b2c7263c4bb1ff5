"""Probes of what users pass in (session 28), each against torch 2.13 as the oracle.

- Results that share memory with an input: ATen's flip, rot90 and every other non-view op return a tensor of their
  own. Ours let numpy answer with a view where it could (a flip over dims of 1 is the array itself), so writing into
  the result wrote into the input, in eager; under the inductor, repeat / tile over dims of 1 came back as an alias
  of the input.
- torch.unique keeps each nan apart (nan != nan); numpy's unique merged them by default.
- flip of a 0-d tensor over dim 0, and unique_consecutive of one element, raised numpy errors.
- Compiled maximum / minimum of -0. and 0.: torch's CPU kernels return the second operand on a tie.
- x[mask] = x[0] (a bool mask, one value that is a view of x): ATen's index_put_ runs masked_fill_ with the value's
  item, so nothing overlaps; ours raised the overlap error.
- An in-place op reading a partial overlap of what it writes (a.div_(a[1])) raises in torch's eager, but
  torch.compile functionalizes it and computes (fixed in session 29: fake tensors no longer check overlaps).
"""
import math

import pytest
import torch
import torch._dynamo

import frontend
import minitorch2

COPYING_OPS = {
    "flip": lambda t, x: x.flip(0, 1),
    "fliplr": lambda t, x: t.fliplr(x),
    "rot90": lambda t, x: x.rot90(2),
    "rot90_0": lambda t, x: x.rot90(0),
    "repeat": lambda t, x: x.repeat(1, 1),
    "tile": lambda t, x: x.tile(1),
    "diagonal_copy": lambda t, x: t.diagonal_copy(x),
    "unique_consecutive": lambda t, x: x.unique_consecutive(),
}


def _input_after_writing_the_result(lib, op, compiled, shape):
    if compiled:
        (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    x = lib.full(shape, 5.0)
    f = lib.compile(lambda y: op(lib, y)) if compiled else (lambda y: op(lib, y))
    f(x).fill_(77.0)
    return x.tolist()


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("name", sorted(COPYING_OPS))
def test_writing_into_the_result_of_a_copying_op_leaves_its_input_alone(name, compiled):
    op = COPYING_OPS[name]
    for shape in ((1, 1), (1, 3)):
        ours = _input_after_writing_the_result(minitorch2, op, compiled, shape)
        assert ours == _input_after_writing_the_result(torch, op, compiled, shape), shape


def test_a_flip_over_dims_of_one_owns_its_memory_in_eager():
    x = minitorch2.ones(2, 1)
    y = x.flip(1)
    y.add_(1)
    assert x.tolist() == [[1.0], [1.0]] and y.tolist() == [[2.0], [2.0]]


def _unique_with_nans(lib):
    nan = float("nan")
    values, inverse, counts = lib.unique(lib.tensor([1.0, nan, 2.0, nan, 1.0]), return_inverse=True,
                                         return_counts=True)
    return [repr(v) for v in values.tolist()], inverse.tolist(), counts.tolist()


def test_unique_keeps_each_nan_apart():
    assert _unique_with_nans(minitorch2) == _unique_with_nans(torch)


def test_unique_keeps_each_nan_apart_under_compile():
    frontend.reset()
    torch._dynamo.reset()

    def f(lib):
        return [repr(v) for v in lib.compile(lambda x: x.unique())(lib.tensor([float("nan"), 3.0, float("nan")])).tolist()]
    assert f(minitorch2) == f(torch)


def test_flip_of_a_zero_dim_tensor_and_unique_consecutive_of_one_element():
    for lib in (minitorch2, torch):
        s = lib.tensor(3.0)
        assert (s.flip(0).tolist(), s.flip(-1).shape) == (3.0, ())
        assert lib.full((1, 1), 2.0).unique_consecutive(return_counts=True)[1].tolist() == [1]


def _signs(values):
    return [math.copysign(1.0, v) if v == 0 else v for v in values]


def _compiled_extrema_of_signed_zeros(lib, dynamic):
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()

    @lib.compile(dynamic=dynamic)
    def f(x, y):
        return lib.maximum(x, y), lib.minimum(x, y), lib.maximum(y, x), lib.clamp(x, min=0.0)
    x = lib.tensor([-0.0, 0.0, float("nan"), 1.0] * 5)
    y = lib.tensor([0.0, -0.0, 1.0, float("nan")] * 5)
    return [_signs(r.tolist()) for r in f(x, y)]


@pytest.mark.parametrize("dynamic", [None, True], ids=["static", "dynamic"])
def test_compiled_maximum_and_minimum_of_signed_zeros_give_the_second_operand(dynamic):
    ours = _compiled_extrema_of_signed_zeros(minitorch2, dynamic)
    theirs = _compiled_extrema_of_signed_zeros(torch, dynamic)
    assert repr(ours) == repr(theirs)  # (repr: nan == nan there)


def _fill_by_mask_from_an_element(lib):
    t = lib.arange(8.0)
    t[t > 3] = t[0]
    m = lib.arange(8.0).view(2, 4)
    m[m[:, 0] > 3] = m[0, 1]
    return t.tolist(), m.tolist()


def test_setting_masked_elements_from_an_element_of_the_same_tensor():
    assert _fill_by_mask_from_an_element(minitorch2) == _fill_by_mask_from_an_element(torch)
    for lib in (minitorch2, torch):  # (indices, or accumulate=True, still check the overlap)
        t = lib.arange(8.0)
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            t.index_put_((t > 3,), t[0], accumulate=True)
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            t[lib.tensor([4, 5])] = t[0]


def _divided_by_its_own_element_compiled(lib):
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    return lib.compile(lambda a: a.div_(a[1]))(lib.arange(8.0) + 1).tolist()


def test_compiled_in_place_division_by_an_element_of_itself_computes_as_torch_compile():
    assert _divided_by_its_own_element_compiled(minitorch2) == _divided_by_its_own_element_compiled(torch)
