"""Shared helpers for the nn/optim tests: build the same thing in both libraries, compare."""
import numpy as np
import torch

import minitorch2


def to_ours(t):
    out = minitorch2.from_numpy(t.detach().numpy().copy())
    if t.requires_grad:
        out.requires_grad_(True)
    return out


def to_theirs(t):
    out = torch.from_numpy(t.detach().numpy().copy())
    if t.requires_grad:
        out.requires_grad_(True)
    return out


def assert_same(ours, theirs, rtol=1.3e-6, atol=1e-5):
    a = ours.detach().numpy() if hasattr(ours, "detach") else np.asarray(ours)
    b = theirs.detach().numpy() if hasattr(theirs, "detach") else np.asarray(theirs)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def assert_same_state(ours, theirs, exact=True):
    sa, sb = ours.state_dict(), theirs.state_dict()
    assert list(sa) == list(sb)
    for key in sa:
        if exact:
            assert np.array_equal(sa[key].numpy(), sb[key].numpy()), key
        else:
            assert_same(sa[key], sb[key])
