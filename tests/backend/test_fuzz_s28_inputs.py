"""A property over the inputs session 28 found weak: results of copying ops on tensors with dims of 1 (where numpy
answers with a view of the input), signed zeros and nans, and aliased arguments, eager and compiled, against
torch 2.13.

Each example draws a shape with dims of 1 (and 0), one op that returns a tensor of its own in torch (flip, rot90,
repeat, tile, roll, sort, cumsum, unique_consecutive, maximum with a second input...), and values among -0., 0.,
nan, +-inf and small numbers; it runs the op on a view of one storage, writes into the result, and compares the
result's values (signs of zero and nan positions included) and the storage afterwards with torch's. The compiled
run draws fewer examples (each compiles): the default run stays near 20 seconds.
"""
import math

import torch
import torch._dynamo
from hypothesis import given, settings, strategies as st

import frontend
import minitorch2

VALUES = [-0.0, 0.0, float("nan"), float("inf"), -float("inf"), 1.0, -2.5, 3.0]

OPS = {
    "flip": lambda t, x, y: x.flip(list(range(x.dim()))),  # (torch.compile mis-traces flip(*range(3)))
    "flip_last": lambda t, x, y: x.flip(-1),
    "rot90": lambda t, x, y: x.rot90(1, (0, 1)) if x.dim() >= 2 else x.flip(0),
    "repeat": lambda t, x, y: x.repeat(*([1] * x.dim())),
    "tile": lambda t, x, y: x.tile(1),
    "roll": lambda t, x, y: x.roll(1, -1),
    "sort": lambda t, x, y: x.sort(-1)[0],
    "cumsum": lambda t, x, y: x.cumsum(-1),
    "unique_consecutive": lambda t, x, y: x.unique_consecutive(),
    "maximum": lambda t, x, y: t.maximum(x, y),
    "minimum": lambda t, x, y: t.minimum(y, x),
    "clamp": lambda t, x, y: x.clamp(min=-0.0),
    "where": lambda t, x, y: t.where(x > y, x, y),
    "add_self": lambda t, x, y: x + x,
}

shapes = st.lists(st.sampled_from([1, 1, 2, 3]), min_size=1, max_size=3)


def _canon(values):
    return [repr(math.copysign(1.0, v)) + "0" if v == 0 else repr(v) for v in values]


def _run(lib, name, shape, values, offset, compiled):
    n = math.prod(shape)
    storage = lib.tensor([VALUES[v] for v in values[:n + offset + n]] + [7.0] * (2 * n + offset))
    x = storage[offset:offset + n].view(shape)
    y = storage[n + offset:n + offset + n].view(shape)  # (a second input in the same storage, after x)
    op = OPS[name]
    f = lib.compile(lambda a, b: op(lib, a, b)) if compiled else (lambda a, b: op(lib, a, b))
    try:
        result = f(x, y)
    except Exception as e:
        return type(e).__name__
    seen = _canon(result.flatten().tolist()), tuple(result.shape), str(result.dtype).split(".")[-1]
    result.fill_(55.0)
    return seen, _canon(storage.tolist())


def _check(name, shape, values, offset, compiled):
    if compiled:
        frontend.reset()
        torch._dynamo.reset()
    ours = _run(minitorch2, name, shape, values, offset, compiled)
    assert ours == _run(torch, name, shape, values, offset, compiled)


values = st.lists(st.integers(0, len(VALUES) - 1), min_size=20, max_size=20)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(OPS)), shapes, values, st.integers(0, 2))
def test_copying_ops_on_dims_of_one_and_special_values_in_eager(name, shape, values, offset):
    _check(name, shape, values, offset, compiled=False)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(sorted(OPS)), shapes, values, st.integers(0, 2))
def test_copying_ops_on_dims_of_one_and_special_values_compiled(name, shape, values, offset):
    _check(name, shape, values, offset, compiled=True)
