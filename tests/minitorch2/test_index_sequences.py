"""Indices given as Python sequences, ranges and numpy arrays (issue 20), read and written, against torch.

torch turns each such index into an index tensor (bools stay a mask, everything else becomes long), and
reads a short list that holds a sequence, tensor, slice, None or `...` as a tuple of indices, as NumPy did.
"""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

CASES = {
    "range and list": lambda t, x: x[range(2), [0, 1]],
    "numpy ints": lambda t, x: x[np.array([0, 2])],
    "numpy int32": lambda t, x: x[np.array([0, 1], dtype=np.int32)],
    "numpy bools": lambda t, x: x[np.array([True, False, True])],
    "numpy uint8 mask": lambda t, x: x[np.array([1, 0, 1], dtype=np.uint8)],
    "numpy 2-d": lambda t, x: x[np.array([[0, 1], [1, 2]])],
    "numpy pair": lambda t, x: x[np.array([0, 1]), np.array([1, 2])],
    "numpy floats truncate": lambda t, x: x[np.array([1.5, 0.2])],
    "numpy empty": lambda t, x: x[np.array([], dtype=np.int64)],
    "numpy 0-d": lambda t, x: x[np.array(1)],
    "list of tuples": lambda t, x: x[[(0, 1), (1, 2)]],
    "nested list": lambda t, x: x[[[0, 1], [1, 2]]],
    "nested list in a tuple": lambda t, x: x[[[0, 1], [1, 2]], ],
    "list of floats": lambda t, x: x[[1.5]],
    "list with a slice": lambda t, x: x[[0, slice(1, 3)]],
    "list with None": lambda t, x: x[[0, None]],
    "list of tensors": lambda t, x: x[[t.tensor([0, 1]), t.tensor([1, 2])]],
    "list of numpy arrays": lambda t, x: x[[np.array([0, 1]), np.array([1, 2])]],
    "range": lambda t, x: x[range(2)],
    "range of columns": lambda t, x: x[:, range(1, 3)],
    "tuple of ranges": lambda t, x: x[(range(2), range(2))],
    "empty list": lambda t, x: x[[]],
}


def _run(lib, case):
    x = lib.arange(12.).reshape(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns on non-tuple sequences and uint8 masks
        return case(lib, x)


@pytest.mark.parametrize("name", list(CASES))
def test_getitem_matches_torch(name):
    expected, got = _run(torch, CASES[name]), _run(minitorch2, CASES[name])
    assert tuple(got.shape) == tuple(expected.shape)
    assert got.dtype.__repr__() == expected.dtype.__repr__()
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


def _write(lib, index, value):
    y = lib.arange(12.).reshape(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y[index] = value if isinstance(value, (int, float)) else lib.tensor(value)
    return y.numpy()


@pytest.mark.parametrize("index, value", [
    ((range(2), [0, 1]), 5),
    (np.array([True, False, True]), 0.0),
    ((np.array([0, 2]), 1), [7.0, 8.0]),
    ([(0, 1), (1, 2)], -1),
    ((slice(None), range(1, 3)), 9.0),
], ids=["range and list", "numpy mask", "numpy ints", "list of tuples", "range of columns"])
def test_setitem_matches_torch(index, value):
    np.testing.assert_array_equal(_write(minitorch2, index, value), _write(torch, index, value))


ERRORS = {
    "range out of bounds": lambda x: x[range(5)],
    "float after a range": lambda x: x[range(2), 1.5],
    "numpy mask of the wrong length": lambda x: x[np.array([True, False])],
    "float tensor": lambda x: x[x.new_tensor([1.5]).float()],
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    with pytest.raises(Exception) as expected:
        ERRORS[name](torch.arange(12.).reshape(3, 4))
    with pytest.raises(expected.type) as got:
        ERRORS[name](minitorch2.arange(12.).reshape(3, 4))
    if name != "range out of bounds":  # torch names the first index out of bounds, our kernel the largest
        assert str(got.value) == str(expected.value)


def test_numpy_strings_refused_as_torch_does():
    with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
        torch.arange(3.)[np.array(["a"])]
    with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
        minitorch2.arange(3.)[np.array(["a"])]
