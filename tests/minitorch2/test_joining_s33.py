"""Joining tensors as users pass them, against torch: cat, stack and the h/v/d/column/row stacks over lists that are
empty, hold 0-d tensors, legacy (0,) tensors, sizes that differ in one dim or in rank, mixed dtypes, and dims in and
out of range. The value, shape and dtype, or the error's class and words. (vstack of 0-d tensors was (n,), not
torch's (n, 1); hstack refused 0-d tensors; stack checked sizes before its dim; cat([]) raised RuntimeError.)"""
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

import minitorch2

DTYPES = ["float32", "float64", "int64", "int32", "bool", "float16", "uint8"]
FUNCTIONS = ["cat", "stack", "hstack", "vstack", "dstack", "column_stack", "row_stack"]


def outcome(lib, function, specs, kwargs):
    tensors = [lib.tensor(np.arange(int(np.prod(shape))).reshape(shape) % 3).to(getattr(lib, dtype))
               for shape, dtype in specs]
    try:
        result = getattr(lib, function)(tensors, **kwargs)
    except Exception as error:
        return type(error).__name__, str(error).splitlines()[0]
    return tuple(result.shape), str(result.dtype), result.to(lib.float64).numpy().tolist()


@pytest.mark.parametrize("function,specs", [
    ("vstack", [((), "float32"), ((), "float32")]), ("row_stack", [((), "int64")]),
    ("hstack", [((), "float32"), ((), "bool")]), ("hstack", [((), "uint8"), ((0,), "int32")]),
    ("vstack", [((), "float32"), ((0,), "float32")]), ("hstack", []), ("vstack", []), ("cat", []), ("stack", []),
    ("dstack", [((), "float32"), ((2,), "float32")]), ("column_stack", [((), "float32"), ((1,), "int64")]),
])
def test_joining_few_or_small_tensors_as_torch(function, specs):
    assert outcome(minitorch2, function, specs, {}) == outcome(torch, function, specs, {})


@pytest.mark.parametrize("specs,dim", [
    ([((2,), "float32"), ((3,), "float32")], 2), ([((0,), "int64")], 1), ([((0,), "float32"), ((0,), "int64")], 3),
    ([((0,), "float32"), ((), "float32")], 0), ([((2, 2), "float32"), ((), "float32")], 0),
])
def test_dims_out_of_range_and_legacy_empty_tensors_as_torch(specs, dim):
    for function in ("cat", "stack"):
        assert outcome(minitorch2, function, specs, {"dim": dim}) == outcome(torch, function, specs, {"dim": dim})


@st.composite
def joinings(draw):
    function = draw(st.sampled_from(FUNCTIONS))
    rank = draw(st.integers(0, 3))
    base = draw(st.lists(st.integers(0, 3), min_size=rank, max_size=rank))
    specs = []
    for _ in range(draw(st.integers(0, 3))):
        shape = list(base)
        if shape and draw(st.booleans()):
            shape[draw(st.integers(0, rank - 1))] = draw(st.sampled_from([0, 1, 2, 4]))
        shape = draw(st.sampled_from([shape, shape, shape, [0], shape[:-1]]))
        specs.append((tuple(shape), draw(st.sampled_from(DTYPES))))
    kwargs = {"dim": draw(st.integers(-rank - 1, rank + 1))} if function in ("cat", "stack") and draw(
        st.booleans()) else {}
    return function, specs, kwargs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(joinings())
def test_random_joinings_as_torch(case):
    assert outcome(minitorch2, *case) == outcome(torch, *case)
