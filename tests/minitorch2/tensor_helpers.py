"""Shared builders for the Tensor tests: the same values in minitorch2 and torch, and one comparison of
what users see (dtype, shape, strides, storage offset, values)."""
import numpy as np
import torch

import minitorch2 as mt

RNG = np.random.default_rng(1234)


def arr(*shape, dtype="float32", low=-3, high=3):
    if dtype == "bool":
        return RNG.random(shape) < 0.5
    if dtype.startswith("float"):
        return RNG.uniform(low, high, shape).astype(dtype)
    return RNG.integers(low, high + 1, shape).astype(dtype)


def both(array):
    """The same values as a minitorch2 tensor and a torch tensor (contiguous, fresh memory)."""
    array = np.asarray(array)
    theirs, ours = torch.from_numpy(array.copy()), mt.from_numpy(array.copy())  # (empties: numpy's zero strides)
    return mt.empty(array.shape, dtype=ours.dtype).copy_(ours), torch.empty(array.shape, dtype=theirs.dtype).copy_(theirs)


def assert_same(ours, theirs, *, layout=True, exact=False):
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            assert_same(o, t, layout=layout, exact=exact)
        return
    assert isinstance(ours, mt.Tensor), type(ours)
    assert repr(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    if layout:
        assert ours.stride() == theirs.stride(), (ours.stride(), theirs.stride())
        assert ours.storage_offset() == theirs.storage_offset()
    expected = theirs.detach()
    actual = torch.from_numpy(np.array(ours.numpy(force=True), copy=True))
    if exact:
        torch.testing.assert_close(actual, expected, rtol=0, atol=0, equal_nan=True)
    else:
        torch.testing.assert_close(actual, expected, equal_nan=True)


def shares_memory(a, b):
    return np.shares_memory(a.numpy(force=True), b.numpy(force=True))
