"""Shared builders for the autograd tests: the same leaves in both libraries, and a comparison of gradients."""
import numpy as np
import torch

import minitorch2 as mt


def leaves(*shapes, seed=0, dtype="float64"):
    """The same leaf tensors (requires_grad) in both libraries: [(ours, theirs), ...]."""
    rng = np.random.default_rng(seed)
    pairs = []
    for shape in shapes:
        a = rng.uniform(0.5, 2.0, shape).astype(dtype)
        pairs.append((mt.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)))
    return pairs


def assert_close(ours, theirs):
    if theirs is None:
        assert ours is None
        return
    assert repr(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
    torch.testing.assert_close(torch.from_numpy(np.array(ours.numpy(force=True))), theirs.detach(), equal_nan=True)


def torch_name(grad_fn):
    return grad_fn.name()
