"""Factory functions against torch: the aten calls they make (as traced graphs show them), their values
(random ones seeded, bit for bit), and their errors.

PyTorch's Python bindings pick an overload by the arguments given (`arange(3)` is `aten.arange.default`,
`arange(1, 4)` is `arange.start`) and hand the op `device` and `pin_memory` besides what the caller
named; make_fx records exactly that, so a graph with a factory reads the same only if ours do the same.
"""
import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import make_fx

# name -> fn(lib, x): one factory call (the fill_ gives empty results defined values)
CASES = {
    "zeros": lambda t, x: t.zeros(2, 3),
    "zeros_dtype": lambda t, x: t.zeros(2, dtype=t.float64),
    "zeros_layout": lambda t, x: t.zeros(2, layout=t.strided),
    "zeros_device": lambda t, x: t.zeros(2, device="cpu"),
    "zeros_requires_grad": lambda t, x: t.zeros(2, requires_grad=True),
    "ones_sized_by_shape": lambda t, x: t.ones(x.shape),
    "empty": lambda t, x: t.empty(2).fill_(1),
    "empty_memory_format": lambda t, x: t.empty(2, 3, memory_format=t.contiguous_format).fill_(1),
    "full_float": lambda t, x: t.full((2,), 2.0),
    "full_int": lambda t, x: t.full((2,), 2),
    "full_dtype": lambda t, x: t.full([2, 2], 1.5, dtype=t.float16),
    "zeros_like": lambda t, x: t.zeros_like(x),
    "zeros_like_device": lambda t, x: t.zeros_like(x, device="cpu"),
    "zeros_like_memory_format": lambda t, x: t.zeros_like(x, memory_format=t.contiguous_format),
    "ones_like_dtype": lambda t, x: t.ones_like(x, dtype=t.float64),
    "empty_like": lambda t, x: t.empty_like(x).fill_(0),
    "full_like": lambda t, x: t.full_like(x, 3.0),
    "arange_end": lambda t, x: t.arange(3),
    "arange_start": lambda t, x: t.arange(1, 4),
    "arange_start_step": lambda t, x: t.arange(0, 6, 2),
    "arange_float": lambda t, x: t.arange(0.0, 1.0, 0.25),
    "arange_dtype": lambda t, x: t.arange(3, dtype=t.float32),
    "linspace": lambda t, x: t.linspace(0, 1, 5),
    "eye": lambda t, x: t.eye(3),
    "eye_m": lambda t, x: t.eye(2, 3),
    "scalar_tensor": lambda t, x: t.scalar_tensor(2.0),
    "rand": lambda t, x: t.rand(2),
    "randn": lambda t, x: t.randn(2, 2),
    "randint_low": lambda t, x: t.randint(0, 5, (3,)),
    "randint_high": lambda t, x: t.randint(5, (3,)),
    "randint_dtype": lambda t, x: t.randint(0, 5, (3,), dtype=t.int32),
    "normal_float_float": lambda t, x: t.normal(0.0, 1.0, (2,)),
    "rand_like": lambda t, x: t.rand_like(x),
    "randn_like": lambda t, x: t.randn_like(x),
    "randint_like": lambda t, x: t.randint_like(x, 5),
    "randint_like_low": lambda t, x: t.randint_like(x, 2, 5),
    "randperm": lambda t, x: t.randperm(4),
    "new_zeros": lambda t, x: x.new_zeros(2),
    "new_zeros_dtype": lambda t, x: x.new_zeros(2, dtype=t.int64),
    "new_zeros_device": lambda t, x: x.new_zeros(2, device="cpu"),
    "new_ones": lambda t, x: x.new_ones((2,)),
    "new_empty": lambda t, x: x.new_empty(2).fill_(0),
    "new_full": lambda t, x: x.new_full((2,), 1.0),
    "new_tensor": lambda t, x: x.new_tensor([1.0, 2.0]),
    "tensor": lambda t, x: t.tensor([1.0, 2.0]) + x[:2],
    "tensor_int": lambda t, x: t.tensor(3),
    "as_tensor": lambda t, x: t.as_tensor([1.0, 2.0]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_traced_factory_call_reads_as_torchs(name):
    fn = CASES[name]
    theirs = torch_make_fx(lambda x: fn(torch, x))(torch.randn(3)).code
    ours = make_fx(lambda x: fn(minitorch2, x))(minitorch2.randn(3)).code
    assert ours == theirs


@pytest.mark.parametrize("name", sorted(CASES))
def test_factory_values_match_torch(name):
    fn = CASES[name]
    torch.manual_seed(5)
    minitorch2.manual_seed(5)
    x_theirs = torch.randn(3)
    x_ours = minitorch2.randn(3)
    theirs, ours = fn(torch, x_theirs), fn(minitorch2, x_ours)
    assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
    assert ours.requires_grad == theirs.requires_grad
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())  # seeded draws: bit for bit


@pytest.mark.parametrize("make", [
    lambda t: t.zeros(2, requires_grad=True), lambda t: t.ones_like(t.zeros(2), requires_grad=True),
    lambda t: t.zeros(2).new_zeros(3, requires_grad=True), lambda t: t.zeros(2).new_full((3,), 1.0, requires_grad=True),
    lambda t: t.rand(2, requires_grad=True), lambda t: t.tensor([1.0], requires_grad=True),
])
def test_requires_grad_makes_a_leaf(make):
    t = make(minitorch2)
    assert t.requires_grad and t.is_leaf and t.grad_fn is None and make(torch).requires_grad


@pytest.mark.parametrize("call", [
    lambda t: t.zeros(2, device="cuda"), lambda t: t.ones(2, device="cuda:0"), lambda t: t.zeros(2).new_zeros(2, device="cuda"),
])
def test_cuda_devices_fail_as_on_a_cpu_only_torch(call):
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        call(torch)
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        call(minitorch2)


def test_pinned_memory_fails_as_on_a_cpu_only_torch():
    with pytest.raises(RuntimeError, match="pin_memory=True requires"):
        torch.zeros(2, pin_memory=True)
    with pytest.raises(RuntimeError, match="pin_memory=True requires"):
        minitorch2.zeros(2, pin_memory=True)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
def test_a_size_is_required_as_in_torch(name):
    with pytest.raises(TypeError) as theirs:
        getattr(torch, name)()
    with pytest.raises(TypeError) as ours:
        getattr(minitorch2, name)()
    assert str(ours.value).splitlines()[0] == str(theirs.value).splitlines()[0]
    assert getattr(minitorch2, name)(()).shape == getattr(torch, name)(()).shape == ()


def test_meta_tensors_are_refused_not_made_on_the_cpu():
    with pytest.raises(NotImplementedError, match="CPU only"):
        minitorch2.zeros(2, device="meta")


def test_cpu_device_with_an_index():
    assert repr(minitorch2.device("cpu:0")) == repr(torch.device("cpu:0")) == "device(type='cpu', index=0)"
    assert str(minitorch2.zeros(2, device="cpu:0").device) == str(torch.zeros(2, device="cpu:0").device)


@pytest.mark.parametrize("call", ["randint(5, size=(3,))", "randint(high=5, size=(3,))", "randint(2, 9, (3,))",
                                  "randint(3, (2,))", "randint(low=1, high=4, size=(2,))",
                                  "randint(7, size=(2, 2), dtype=lib.int32)"])
def test_randint_positional_and_keyword_forms_draw_torchs_numbers(call):
    drawn = []
    for lib in (torch, minitorch2):
        lib.manual_seed(0)
        value = eval(f"lib.{call}")
        drawn.append((value.tolist(), str(value.dtype).split(".")[-1]))
    assert drawn[1] == drawn[0]
