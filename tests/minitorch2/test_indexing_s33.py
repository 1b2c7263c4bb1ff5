"""Subscripts as users write them, against torch: masks of several dims beside other indices, several ellipses,
the words of a bad subscript, and a hypothesis grammar of whole subscripts (ints, slices, None, Ellipsis, lists,
long tensors and bool masks) read and written eagerly and compiled."""
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

import minitorch2

X = np.arange(120.0).reshape(2, 3, 4, 5)
MASK = [[True, False, True], [False, False, True]]


def outcome(lib, subscript_of, base=X):
    """The value of base[subscript] (or the error's class and first line) under `lib`."""
    try:
        result = lib.tensor(base)[subscript_of(lib)]
    except Exception as error:
        return type(error).__name__, str(error).splitlines()[0]
    return tuple(result.shape), result.numpy().tolist()


SUBSCRIPTS = {  # name -> subscript built for lib
    "2d_mask_then_index": lambda L: (L.tensor(MASK), L.tensor([1, 2, 0])),
    "2d_mask_slice_then_index": lambda L: (L.tensor(MASK), slice(None), L.tensor([1, 2, 0])),
    "index_then_1d_mask_then_index": lambda L: (L.tensor([1]), L.tensor(MASK[0]), L.tensor([1, 2])),
    "2d_mask_narrow_slice_2d_index": lambda L: (L.tensor(MASK), slice(1, 3), L.tensor([[1], [2]])),
    "slice_then_2d_mask": lambda L: (slice(None), L.tensor([[True, False, True, True]] * 3), 2),
    "two_ellipses": lambda L: (Ellipsis, Ellipsis),
    "ellipsis_int_ellipsis": lambda L: (Ellipsis, 0, Ellipsis),
    "ellipsis_none_ellipsis": lambda L: (Ellipsis, None, Ellipsis),
    "int_ellipsis_int_ellipsis": lambda L: (0, Ellipsis, 1, Ellipsis),
    "indices_that_do_not_broadcast": lambda L: (L.tensor([0, 1]), L.tensor([0, 1, 2])),
    "lists_that_do_not_broadcast": lambda L: ([0, 1], [0, 1, 2]),
    "out_of_range_after_slices": lambda L: (slice(None), slice(None), L.tensor([9])),
    "out_of_range_second_index": lambda L: (L.tensor([0]), slice(None), L.tensor([9])),
    "out_of_range_after_an_int": lambda L: (1, slice(None), L.tensor([9])),
    "out_of_range_and_not_broadcasting": lambda L: (L.tensor([5, 0]), L.tensor([0, 1, 2])),
    "mask_count_not_broadcasting": lambda L: (L.tensor(MASK), L.tensor([1, 2])),
    "a_string": lambda L: "a",
    "a_string_in_a_tuple": lambda L: (1, "a"),
    "a_zero_step": lambda L: slice(None, None, 0),
    "a_negative_step": lambda L: slice(None, None, -1),
}


@pytest.mark.parametrize("name", SUBSCRIPTS)
def test_subscript_reads_as_torch(name):
    assert outcome(minitorch2, SUBSCRIPTS[name]) == outcome(torch, SUBSCRIPTS[name])


EMPTY = np.zeros((2, 0, 3))


@pytest.mark.parametrize("subscript_of", [lambda L: [0], lambda L: (slice(None), [0]), lambda L: ([0, 1], [0, 0])])
def test_out_of_range_into_a_dim_of_size_0_words_as_torch(subscript_of):
    assert outcome(minitorch2, subscript_of, EMPTY) == outcome(torch, subscript_of, EMPTY)


def test_out_of_range_index_into_an_empty_result_is_not_checked_as_torchs_loop():
    assert outcome(minitorch2, lambda L: [5], EMPTY) == outcome(torch, lambda L: [5], EMPTY)


@pytest.mark.parametrize("name", ["2d_mask_then_index", "2d_mask_slice_then_index", "slice_then_2d_mask"])
def test_subscript_writes_as_torch(name):
    def written(lib):
        target = lib.tensor(X)
        target[SUBSCRIPTS[name](lib)] = -1.0
        return target.numpy()

    np.testing.assert_array_equal(written(minitorch2), written(torch))


def test_a_mask_beside_an_index_under_compile_as_torch():
    def program(lib):
        def fn(x, mask, index):
            return (x[mask, index] * 2).sum(0)
        compiled = lib.compile(fn, backend="aot_eager")
        return compiled(lib.tensor(X), lib.tensor(MASK), lib.tensor([1, 2, 0])).numpy()

    np.testing.assert_array_equal(program(minitorch2), program(torch))


@st.composite
def subscripts(draw):
    """A subscript for a tensor of `shape`, as a description libraries turn into their own objects."""
    shape = draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))
    items, dim = [], 0
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "list", "long", "mask"]))
        if kind == "ellipsis" and ("ellipsis",) in items:  # (several: SUBSCRIPTS above)
            kind = "none"
        size = shape[dim] if dim < len(shape) else 3
        if kind == "int":
            items.append(("int", draw(st.integers(-size - 1, size))))
        elif kind == "slice":
            items.append(("slice", draw(st.sampled_from([None, -2, 0, 1, 5])), draw(st.sampled_from([None, -1, 2, 9])),
                          draw(st.sampled_from([None, 1, 2, 3]))))
        elif kind in ("none", "ellipsis"):
            items.append((kind,))
        elif kind in ("list", "long"):
            length = draw(st.integers(0, 3))
            items.append((kind, draw(st.lists(st.integers(-size, size), min_size=length, max_size=length))))
        else:
            rank = draw(st.integers(0, 2))  # (a 0-d mask adds a dim of size 1 or 0)
            dims = shape[dim:dim + rank] + [1] * max(0, dim + rank - len(shape))
            cells = int(np.prod(dims))
            items.append(("mask", dims, draw(st.lists(st.booleans(), min_size=cells, max_size=cells))))
            dim += rank - 1
        dim += 0 if kind in ("none", "ellipsis") else 1
    return shape, items


def build(lib, items):
    made = []
    for item in items:
        kind = item[0]
        made.append(item[1] if kind == "int" else slice(*item[1:]) if kind == "slice" else None if kind == "none"
                    else Ellipsis if kind == "ellipsis" else list(item[1]) if kind == "list"
                    else lib.tensor(item[1], dtype=lib.int64) if kind == "long"
                    else lib.tensor(np.array(item[2], dtype=bool).reshape(item[1])))
    return tuple(made)


@st.composite
def values(draw):
    """What a subscript is assigned: a number, or a tensor (of a dtype that may differ) whose shape may broadcast."""
    if draw(st.booleans()):
        return draw(st.sampled_from([-1.0, 7, True, float("nan")]))
    shape = draw(st.lists(st.integers(0, 3), max_size=3))
    return np.arange(float(np.prod(shape))).reshape(shape).astype(draw(st.sampled_from(["float32", "int64", "bool"])))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subscripts(), values())
def test_random_subscripts_read_and_write_as_torch(case, value):
    shape, items = case
    base = np.arange(float(np.prod(shape))).reshape(shape).astype(np.float32)
    assert outcome(minitorch2, lambda L: build(L, items), base) == outcome(torch, lambda L: build(L, items), base)

    def written(lib):
        target = lib.tensor(base)
        try:
            target[build(lib, items)] = lib.tensor(value) if isinstance(value, np.ndarray) else value
        except Exception as error:
            return type(error).__name__, str(error).splitlines()[0]
        return repr(target.numpy().tolist())  # (nan written reads as 'nan' on both sides)

    assert written(minitorch2) == written(torch)
