"""torch.autograd.Variable, the legacy constructor old scripts still call, against torch 2.13 (issue 20): it returns
a plain Tensor (the data detached, sharing its memory, with requires_grad set), every tensor is an instance of it,
and its refusals and warnings are torch's."""
import warnings

import pytest
import torch

import minitorch2


class Double(minitorch2.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


class TorchDouble(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def _facts(lib):
    Variable = lib.autograd.Variable
    data = lib.ones(2)
    v = Variable(data, requires_grad=True)
    w = lib.ones(2, requires_grad=True)
    y = w * 2
    detached = Variable(y)
    again = Variable(y, True)
    (again * 3).sum().backward()
    empty = Variable()
    return (type(v).__name__, v.requires_grad, data.requires_grad, v is data, v.data_ptr() == data.data_ptr(),
            isinstance(data, Variable), issubclass(lib.Tensor, Variable), Variable.__name__,
            Variable.__module__.split(".", 1)[1], detached.requires_grad, detached.grad_fn, detached.is_leaf,
            again.is_leaf, again.grad.tolist(), w.grad, tuple(empty.shape), str(empty.dtype), repr(v))


def test_variable_returns_a_detached_tensor_as_torch():
    assert _facts(minitorch2) == _facts(torch)


def _refusal(lib, args, kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            lib.autograd.Variable(*args(lib), **kwargs(lib))
            outcome = None
        except Exception as e:
            outcome = (type(e).__name__, str(e))
    return outcome, [str(w.message) for w in caught]


@pytest.mark.parametrize("args, kwargs", [
    (lambda lib: (3,), lambda lib: {}),
    (lambda lib: ([1, 2],), lambda lib: {}),
    (lambda lib: (lib.ones(2),), lambda lib: {"volatile": True}),
    (lambda lib: (lib.ones(2),), lambda lib: {"volatile": True, "requires_grad": True}),
    (lambda lib: (lib.ones(2),), lambda lib: {"_grad_fn": 1}),
    (lambda lib: (lib.ones(2),), lambda lib: {"_grad_fn": (lib.ones(1, requires_grad=True) * 2).grad_fn}),
    (lambda lib: (lib.ones(2),), lambda lib: {
        "_grad_fn": (Double if lib is minitorch2 else TorchDouble).apply(lib.ones(1, requires_grad=True)).grad_fn}),
    (lambda lib: (lib.tensor([1, 2]),), lambda lib: {"requires_grad": True}),
    (lambda lib: (lib.ones(2),), lambda lib: {"foo": 1}),
], ids=["int", "list", "volatile", "volatile and requires_grad", "int grad_fn", "op grad_fn", "Function grad_fn",
        "integer data", "unknown keyword"])
def test_variable_refusals_and_warnings_match_torch(args, kwargs):
    assert _refusal(minitorch2, args, kwargs) == _refusal(torch, args, kwargs)
