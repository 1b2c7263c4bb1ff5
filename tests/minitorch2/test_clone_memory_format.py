"""clone(memory_format=...) and Tensor.clone lay the copy out as torch does (strides, values), eager and on fakes."""
import numpy as np
import pytest
import torch

import minitorch2
from minitorch2._subclasses.fake_tensor import FakeTensorMode

FORMATS = ["contiguous_format", "preserve_format", "channels_last", None]


def _inputs(lib):
    base = lib.arange(120.0).reshape(2, 3, 4, 5)
    return {"4d": base, "4d_permuted": base.permute(0, 2, 3, 1), "2d_transposed": lib.arange(6.0).reshape(2, 3).t()}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", ["4d", "4d_permuted", "2d_transposed"])
def test_clone_lays_out_as_torch(name, fmt):
    results = []
    for lib in (torch, minitorch2):
        x = _inputs(lib)[name]
        kwargs = {} if fmt is None else {"memory_format": getattr(lib, fmt)}
        try:
            method, function = x.clone(**kwargs), lib.clone(x, **kwargs)
        except RuntimeError as e:
            results.append(("error", str(e)))
            continue
        assert method.stride() == function.stride()
        results.append((method.stride(), method.numpy().tolist()))
    assert results[1] == results[0]


def test_clone_of_a_fake_tensor_has_the_same_strides():
    x = _inputs(minitorch2)["4d"]
    with FakeTensorMode() as mode:
        fake = mode.from_tensor(x).clone(memory_format=minitorch2.channels_last)
    assert fake.stride() == x.clone(memory_format=minitorch2.channels_last).stride() == (60, 1, 15, 3)
    np.testing.assert_array_equal(x.clone(memory_format=minitorch2.channels_last).numpy(), x.numpy())


def _layouts(lib):
    y = lib.arange(120.0).reshape(2, 3, 4, 5)
    cl = y.to(memory_format=lib.channels_last)
    return [cl.stride(), y.contiguous(memory_format=lib.channels_last).stride(), cl.contiguous().stride(),
            y.to(lib.float64, memory_format=lib.channels_last).stride(), y.to(memory_format=lib.channels_last) is y,
            cl.to(memory_format=lib.channels_last) is cl, y.is_contiguous(memory_format=lib.channels_last),
            cl.is_contiguous(memory_format=lib.channels_last), cl.is_contiguous(),
            lib.ones(2, 3).is_contiguous(memory_format=lib.channels_last),
            lib.ones(2, 1, 1, 1).is_contiguous(memory_format=lib.channels_last),
            lib.ones(0, 3, 2, 2).is_contiguous(memory_format=lib.channels_last), cl.numpy().tolist()]


def test_to_contiguous_and_is_contiguous_take_memory_format_as_torch():
    assert _layouts(minitorch2) == _layouts(torch)
