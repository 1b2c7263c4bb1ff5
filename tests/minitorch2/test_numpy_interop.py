"""Tensors from numpy arrays as torch makes them: from_numpy and as_tensor share the array's memory with its strides
(a write through either is seen by the other; negative or misaligned strides are refused with torch's ValueError),
torch.tensor copies in the array's own layout (torch's preserve_format: a transposed array stays transposed, an
empty one keeps numpy's zero strides). The arrays are what scripts pass in: slices, transposes, broadcasts, Fortran
order, empties, 0-d."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

BASE = np.arange(24, dtype=np.float32)
ARRAYS = {
    "empty rows": np.zeros((0, 3), np.float32), "empty columns": np.zeros((3, 0), np.float32),
    "empty middle": np.zeros((2, 0, 3), np.float32), "empty 1-d": np.zeros((0,), np.float32),
    "empty slice": np.zeros((4, 3), np.float32)[:, :0], "empty transposed slice": np.zeros((4, 3), np.float32).T[:0],
    "transposed": BASE.reshape(4, 6).T, "every other column": BASE.reshape(4, 6)[:, ::2], "one row": BASE[:3][None],
    "broadcast": np.broadcast_to(BASE[:3], (2, 3)), "strided block": np.arange(12.).reshape(3, 4)[1:, 1::2],
    "permuted 3-d": BASE.reshape(2, 3, 4).transpose(2, 0, 1), "reversed": BASE.reshape(2, 3, 4)[:, ::-1],
    "size-1 permuted": np.zeros((3, 1, 2), np.float32).transpose(1, 2, 0),
    "fortran": np.asfortranarray(BASE.reshape(4, 6)), "a column": BASE.reshape(6, 4)[:, 1],
    "int64 transposed": np.arange(6).reshape(2, 3).T, "0-d": np.array(5.0),
    "misaligned": np.ndarray((2,), np.float32, buffer=np.zeros(16, np.uint8), strides=(6,)),
}


def layouts(lib, array):
    """What each constructor makes of the array: (strides, values) or the error class."""
    made = []
    for construct in (lambda: lib.tensor(array), lambda: lib.from_numpy(array), lambda: lib.as_tensor(array),
                      lambda: lib.as_tensor(array, dtype=lib.float16)):
        try:
            t = construct()
            made.append((t.stride(), t.numpy().tolist()))
        except (ValueError, TypeError) as error:
            made.append(type(error).__name__)
    return made


@pytest.mark.parametrize("name", list(ARRAYS))
def test_strides_values_and_errors_are_torchs(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch warns of a broadcast array's read-only memory)
        assert layouts(minitorch2, ARRAYS[name]) == layouts(torch, ARRAYS[name])


@pytest.mark.parametrize("name", ["transposed", "every other column", "strided block", "fortran", "a column"])
def test_from_numpy_and_as_tensor_share_memory_both_ways(name):
    for construct in (minitorch2.from_numpy, minitorch2.as_tensor):
        array = ARRAYS[name].copy(order="K") if name != "every other column" else np.zeros((4, 6), np.float32)[:, ::2]
        t = construct(array)
        t += 1
        np.testing.assert_array_equal(array, ARRAYS[name] + 1 if name != "every other column" else 1)
        array *= 0
        assert float(t.sum()) == 0.0


def test_tensor_copies():
    array = BASE.reshape(4, 6).T.copy(order="K")
    t = minitorch2.tensor(array)
    array += 1
    np.testing.assert_array_equal(t.numpy(), BASE.reshape(4, 6).T)
