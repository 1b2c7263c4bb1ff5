"""Inputs whose metadata the function changes in place (t_, transpose_, squeeze_, unsqueeze_, as_strided_), with or
without a data change: the forward graph returns the input's final value and the runtime gives the caller's tensor
its sizes, strides and offset (as_strided_), then its data (copy_), as torch's aot. Forward graphs' code, outputs,
and the caller's tensor afterwards (values, sizes, strides, offset) against torch's own aot_function and
torch.compile(backend="aot_eager")."""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import make_boxed_func as torch_boxed

import frontend
import minitorch2
from autograd import aot_function, make_boxed_func

pytestmark = pytest.mark.aot

# name -> (function, input shape); the same source runs on torch and minitorch2
CASES = {
    "add_then_t": (lambda x: (x.add_(1).t_(), x * 2)[1], (2, 3)),
    "t_only": (lambda x: (x.t_(), x * 2)[1], (2, 3)),
    "transpose": (lambda x: (x.transpose_(0, 1), x + 1)[1], (2, 3)),
    "mul_then_squeeze": (lambda x: (x.mul_(3).squeeze_(0), x.sum(0))[1], (1, 3)),
    "unsqueeze": (lambda x: (x.unsqueeze_(1), x * x)[1], (3,)),
    "as_strided": (lambda x: (x.as_strided_((2, 2), (1, 2)), x + 1)[1], (2, 3)),
    "t_then_add": (lambda x: (x.t_().add_(1), x * 2)[1], (2, 3)),
    "returns_the_input": (lambda x: x.t_(), (2, 3)),
    "returns_a_view_of_it": (lambda x: (x.mul_(2).t_(), x[0])[1], (2, 3)),
    "second_input": (lambda y, x: (x.add_(y).unsqueeze_(0), x - y)[1], (2, 3)),
    "resize_flat": (lambda x: (x.resize_(6), x + 1)[1], (2, 3)),
    "resize_smaller": (lambda x: (x.mul_(2).resize_(2, 2), x + 1)[1], (2, 3)),
}


def _inputs(lib, name, shape):
    n = int(np.prod(shape))
    x = lib.arange(float(n)).reshape(shape) + 0.5
    return (lib.ones(shape), x) if name == "second_input" else (x,)


def _geometry(t):
    return tuple(t.shape), tuple(t.stride()), t.storage_offset(), np.asarray(t.tolist())


def _run(lib, name):
    fn, shape = CASES[name]
    codes = []

    def compiler(gm, example_inputs):
        codes.append(gm.code.strip())
        return (torch_boxed if lib is torch else make_boxed_func)(gm.forward)

    aot = torch_aot_function if lib is torch else aot_function
    args = _inputs(lib, name, shape)
    out = aot(fn, fw_compiler=compiler)(*args)
    return codes, _geometry(out), [_geometry(a) for a in args]


def _same(ours, theirs):
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(ours[3], theirs[3])


@pytest.mark.parametrize("name", list(CASES))
def test_aot_function_matches_torch(name):
    codes, out, inputs = _run(minitorch2, name)
    torch_codes, torch_out, torch_inputs = _run(torch, name)
    assert codes == torch_codes
    _same(out, torch_out)
    for ours, theirs in zip(inputs, torch_inputs):
        _same(ours, theirs)


def test_second_call_replays_on_the_new_tensor():
    compiled = aot_function(CASES["add_then_t"][0], fw_compiler=lambda gm, _: make_boxed_func(gm.forward))
    compiled(minitorch2.zeros(2, 3))
    x, expected = minitorch2.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    out = compiled(x)
    expected_out = CASES["add_then_t"][0](expected)
    _same(_geometry(out), _geometry(expected_out))
    _same(_geometry(x), _geometry(expected))


@pytest.mark.parametrize("name", ["add_then_t", "mul_then_squeeze", "t_then_add"])
def test_aot_eager_matches_torch(name):
    fn, shape = CASES[name]
    frontend.reset()
    torch._dynamo.reset()
    (x,), (tx,) = _inputs(minitorch2, name, shape), _inputs(torch, name, shape)
    out = minitorch2.compile(fn, backend="aot_eager")(x)
    expected = torch.compile(fn, backend="aot_eager")(tx)
    _same(_geometry(out), _geometry(expected))
    _same(_geometry(x), _geometry(tx))


def _run_with_grad(lib, name):
    """The case with a second input that requires grad (the one changed in shape does not): forward and backward
    graphs, output, the caller's tensor afterwards and the gradient."""
    fn, shape = CASES[name]
    codes = []

    def compiler(gm, example_inputs):
        codes.append(gm.code.strip())
        return (torch_boxed if lib is torch else make_boxed_func)(gm.forward)

    aot = torch_aot_function if lib is torch else aot_function
    args = _inputs(lib, name, shape)
    w = lib.ones(()).mul(1.5).requires_grad_()
    out = aot(lambda w, *args: fn(*args) * w, fw_compiler=compiler)(w, *args)
    out.sum().backward()
    return codes, _geometry(out.detach()), [_geometry(a) for a in args], w.grad.item()


@pytest.mark.parametrize("name", ["add_then_t", "t_only", "mul_then_squeeze", "t_then_add", "as_strided"])
def test_with_a_backward_matches_torch(name):
    codes, out, inputs, grad = _run_with_grad(minitorch2, name)
    torch_codes, torch_out, torch_inputs, torch_grad = _run_with_grad(torch, name)
    _same(out, torch_out)
    for ours, theirs in zip(inputs, torch_inputs):
        _same(ours, theirs)
    assert grad == pytest.approx(torch_grad)
    assert codes == torch_codes


def _run_input_requiring_grad(lib, name, compiled):
    """The input changed in shape requires grad itself (a non-leaf: x = w * 1): its new value leaves the compiled
    function with a tangent and is written in under autograd (as_strided_, then copy_). Forward/backward graphs,
    output, the input afterwards and w's gradient."""
    fn, shape = CASES[name]
    codes = []

    def compiler(gm, example_inputs):
        codes.append(gm.code.strip())
        return (torch_boxed if lib is torch else make_boxed_func)(gm.forward)

    w = lib.arange(float(np.prod(shape))).reshape(shape).add(0.5).requires_grad_()
    x = w * 1
    if compiled:
        (frontend.reset() if lib is minitorch2 else torch._dynamo.reset())
        out = lib.compile(fn, backend="aot_eager")(x)
    else:
        out = (torch_aot_function if lib is torch else aot_function)(fn, fw_compiler=compiler)(x)
    (out * lib.arange(float(out.numel())).reshape(out.shape)).sum().backward()
    return codes, _geometry(out.detach()), _geometry(x.detach()), np.asarray(w.grad.tolist())


@pytest.mark.parametrize("compiled", [False, True], ids=["aot_function", "aot_eager"])
@pytest.mark.parametrize("name", ["add_then_t", "mul_then_squeeze", "t_then_add", "t_only", "transpose"])
def test_an_input_requiring_grad_matches_torch(name, compiled):
    codes, out, x, grad = _run_input_requiring_grad(minitorch2, name, compiled)
    torch_codes, torch_out, torch_x, torch_grad = _run_input_requiring_grad(torch, name, compiled)
    _same(out, torch_out)
    _same(x, torch_x)
    np.testing.assert_allclose(grad, torch_grad)
    assert codes == torch_codes
