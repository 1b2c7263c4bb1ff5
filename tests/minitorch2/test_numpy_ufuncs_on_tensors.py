"""numpy ufuncs called on a tensor (np.sin(x), np.greater(x, 0)) give a tensor back, as torch's do through
Tensor.__array_wrap__: the same type, dtype (a bool result as uint8) and values, with numpy's same warnings."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt

UFUNC_CALLS = {
    "sin": lambda lib: np.sin(lib.ones(2)),
    "greater": lambda lib: np.greater(lib.ones(2), 0),
    "add": lambda lib: np.add(lib.ones(2), 1),
    "exp of float64": lambda lib: np.exp(lib.ones(2, dtype=lib.float64)),
    "sqrt of 0-d": lambda lib: np.sqrt(lib.tensor(4.0)),
    "maximum": lambda lib: np.maximum(lib.arange(3), 1),
}


def _call(lib, name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = UFUNC_CALLS[name](lib)
    return result, [w.category for w in caught]


@pytest.mark.parametrize("name", sorted(UFUNC_CALLS))
def test_a_ufunc_on_a_tensor_gives_a_tensor(name):
    (ours, our_warnings), (theirs, their_warnings) = _call(mt, name), _call(torch, name)
    assert isinstance(ours, mt.Tensor) and isinstance(theirs, torch.Tensor)
    assert str(ours.dtype) == str(theirs.dtype) and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert our_warnings == their_warnings
