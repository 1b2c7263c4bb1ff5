"""Build a program in both libraries, trace both, and move values between them."""
import numpy as np
import torch

import minitorch2

from .programs import PROGRAMS


def build_both(name):
    """(torch root, minitorch2 root, input shapes, concrete_args), with identical parameters."""
    torch.manual_seed(0)
    theirs, shapes, concrete = PROGRAMS[name](torch)
    minitorch2.manual_seed(0)
    ours, _, _ = PROGRAMS[name](minitorch2)
    if isinstance(theirs, torch.nn.Module):
        state = {k: to_ours(v) for k, v in theirs.state_dict().items()}
        ours.load_state_dict(state)
        for (_, a), (_, b) in zip(sorted(vars(theirs).items()), sorted(vars(ours).items())):
            if isinstance(a, torch.Tensor) and isinstance(b, minitorch2.Tensor):
                b.copy_(to_ours(a))
    return theirs, ours, shapes, concrete


def trace_both(name):
    theirs, ours, shapes, concrete = build_both(name)
    gm_theirs = torch.fx.symbolic_trace(theirs, concrete_args=concrete)
    gm_ours = minitorch2.fx.symbolic_trace(ours, concrete_args=concrete)
    return gm_theirs, gm_ours, shapes


def example_inputs(shapes, seed=0):
    """The same random inputs for both libraries: (torch tensors, minitorch2 tensors)."""
    rng = np.random.default_rng(seed)
    theirs = []
    for shape in shapes:
        if isinstance(shape, tuple) and len(shape) == 2 and shape[0] == "value":
            theirs.append(shape[1])
        elif isinstance(shape, tuple) and len(shape) == 2 and shape[0] == "long":
            theirs.append(torch.from_numpy(rng.integers(0, 10, size=shape[1])))
        else:
            theirs.append(torch.from_numpy(rng.standard_normal(shape).astype(np.float32)))
    return theirs, [to_ours(t) if isinstance(t, torch.Tensor) else t for t in theirs]


def to_ours(t):
    return minitorch2.from_numpy(t.detach().numpy().copy())


def assert_same_values(ours, theirs, rtol=1e-4, atol=1e-5):
    """Compare nested outputs: tensors numerically, everything else by equality."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, minitorch2.Tensor), type(ours)
        a, b = ours.detach().numpy(), theirs.detach().numpy()
        assert a.shape == b.shape and str(a.dtype) == str(b.dtype), (a.shape, a.dtype, b.shape, b.dtype)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            assert_same_values(o, t, rtol, atol)
    elif isinstance(theirs, dict):
        assert list(ours) == list(theirs)
        for k in theirs:
            assert_same_values(ours[k], theirs[k], rtol, atol)
    else:
        assert ours == theirs, (ours, theirs)
