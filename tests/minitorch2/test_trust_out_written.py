"""out= arguments that were accepted and then ignored (session 21's probes): torch.norm(x, dim=1, out=o) and
torch.tensordot(a, b, dims, out=o) returned a fresh tensor and left `o` as it was, silently; linalg.vector_norm
refused out= (TypeError). Each call here runs on torch and minitorch2: the returned value, whether it *is* the out
tensor, out's contents afterwards, and torch's error class and words for a wrong out dtype or a gradient.
"""
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt


def _x(L):
    return L.arange(6.0).reshape(2, 3)


CALLS = {
    "norm(dim=1)": lambda L, o: L.norm(_x(L), dim=1, out=o),
    "norm(1, dim=1)": lambda L, o: L.norm(_x(L), 1, dim=1, out=o),
    "norm(inf, dim=0, keepdim)": lambda L, o: L.norm(_x(L), float("inf"), dim=0, keepdim=True, out=o),
    "norm() of all": lambda L, o: L.norm(_x(L), out=o),
    "norm(dtype=float64)": lambda L, o: L.norm(_x(L), dim=1, dtype=L.float64, out=o),
    "linalg.vector_norm": lambda L, o: L.linalg.vector_norm(_x(L), dim=1, out=o),
    "linalg.vector_norm(ord=0.5)": lambda L, o: L.linalg.vector_norm(_x(L), 0.5, out=o),
    "tensordot pairs": lambda L, o: L.tensordot(_x(L), _x(L), ([1], [1]), out=o),
    "tensordot(dims=1)": lambda L, o: L.tensordot(_x(L), _x(L).t(), 1, out=o),
    "tensordot(dims=0)": lambda L, o: L.tensordot(_x(L)[0], _x(L)[1], 0, out=o),
    "tensordot to a 0-d": lambda L, o: L.tensordot(_x(L)[0], _x(L)[1], 1, out=o),
}
OUTS = {
    "empty": lambda L: L.empty(0),
    "right size": lambda L: L.full((2,), 7.0),
    "too large (resized)": lambda L: L.full((5,), 7.0),
    "float64": lambda L: L.zeros(2, dtype=L.float64),
    "int64": lambda L: L.zeros(2, dtype=L.int64),
    "a transposed column": lambda L: L.zeros(3, 2).t()[0],
}


def outcome(L, call, out):
    o = OUTS[out](L)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = CALLS[call](L, o)
    except RuntimeError as e:
        return "RuntimeError", str(e).splitlines()[0]
    data = lambda t: np.asarray(t.detach().numpy() if L is torch else t.numpy(force=True)).round(5).tolist()
    return result is o, str(o.dtype), tuple(o.shape), data(o), data(result)


@pytest.mark.parametrize("out", list(OUTS))
@pytest.mark.parametrize("call", list(CALLS))
def test_out_is_written_as_torch_writes_it(call, out):
    assert outcome(mt, call, out) == outcome(torch, call, out)


@pytest.mark.parametrize("call", ["norm(dim=1)", "linalg.vector_norm", "tensordot pairs"])
def test_out_with_an_input_that_requires_grad(call):
    """norm's out= overload is linalg_vector_norm's, which refuses a differentiable input; tensordot's writes."""
    def run(L):
        x = _x(L).requires_grad_()
        o = L.empty(0)
        try:
            result = {"norm(dim=1)": lambda: L.norm(x, dim=1, out=o), "linalg.vector_norm":
                      lambda: L.linalg.vector_norm(x, dim=1, out=o), "tensordot pairs":
                      lambda: L.tensordot(x, x, ([1], [1]), out=o)}[call]()
        except RuntimeError as e:
            return str(e)
        return result is o, o.requires_grad, o.detach().tolist()

    assert run(mt) == run(torch)
