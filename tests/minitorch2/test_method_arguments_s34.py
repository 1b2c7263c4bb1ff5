"""The int and int-list arguments of Tensor's shape methods against torch (minitorch2/_method_arguments.py): a bool, a
float, None, a string or a floating tensor where an int is wanted is torch's TypeError; a 0-d integer tensor reads
as its value; an int list takes ints, bools and 0-d integer tensors. Found in session 34: `x.transpose(True, 0)`
transposed, `x.view(2, 2.5)` raised a RuntimeError about the shape, and `x.narrow(0, 0, torch.tensor(1))` gave a
tensor whose shape held a tensor."""
import os
import warnings

import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

import minitorch2

BAD = [2.5, "a", None, [1, 2], (1,), True, -1, 10, 2 ** 63, 1j, "tensor(1)", "tensor([1, 2])", "tensor(1.5)"]
METHODS = {"view": [12], "reshape": [12], "expand": [3, 4], "repeat": [1, 1], "permute": [1, 0],
           "transpose": [0, 1], "swapaxes": [0, 1], "select": [0, 1], "unsqueeze": [0], "chunk": [2, 0],
           "unfold": [0, 1, 1], "flip": [0], "tile": [2], "narrow": [0, 0, 1]}


def _value(L, bad):
    return eval(bad, {"tensor": L.tensor}) if isinstance(bad, str) and bad.startswith("tensor") else bad


def outcome(L, name, args):
    x = L.arange(12.0).reshape(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = getattr(x, name)(*[_value(L, a) for a in args])
        except Exception as error:
            return type(error).__name__
    results = result if isinstance(result, tuple) else (result,)
    return [(tuple(r.shape), r.stride(), r.tolist()) for r in results]


@settings(max_examples=int(os.environ.get("MINITORCH2_FUZZ_EXAMPLES", "300")), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(name=st.sampled_from(sorted(METHODS)), data=st.data())
def test_a_bad_int_argument_is_what_torch_makes_of_it(name, data):
    args = list(METHODS[name])
    place = data.draw(st.integers(0, len(args)))
    bad = data.draw(st.sampled_from(BAD))
    args = args[:place] + [bad] + args[place + 1:]
    assert outcome(minitorch2, name, args) == outcome(torch, name, args)


@pytest.mark.parametrize("name, args", [
    ("transpose", [True, 0]), ("transpose", [0.5, 1]), ("transpose", [0, None]), ("select", [0, 1.5]),
    ("view", [2, 2.5]), ("view", [[2, None]]), ("view", [2.5]), ("view", [2 ** 63]), ("expand", ["a"]),
    ("flip", [0.5]), ("flip", [[0.5]]), ("tile", [(2.5,)]), ("chunk", [2, True]), ("unsqueeze", [0.5]),
    ("transpose", ["tensor(0.)", 1]), ("view", [2, "tensor(6.)"]), ("transpose", [2 ** 63, 0]),
])
def test_torchs_words(name, args):
    errors = []
    for L in (torch, minitorch2):
        with pytest.raises(Exception) as error:
            getattr(L.arange(12.0).reshape(3, 4), name)(*[_value(L, a) for a in args])
        errors.append((type(error.value), str(error.value).splitlines()[0]))
    assert errors[0] == errors[1]


def test_a_0d_integer_tensor_is_its_value():
    for L in (torch, minitorch2):
        x = L.arange(12.0).reshape(3, 4)
        assert x.narrow(0, 0, L.tensor(1)).shape == (1, 4)
        assert x.unfold(1, L.tensor(2), L.tensor(1)).shape == (3, 3, 2)
        assert x.view(2, L.tensor(6)).shape == (2, 6)
        assert x.view([12, True]).shape == (12, 1)
