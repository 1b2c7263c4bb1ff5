"""Tensor.div_ with rounding_mode (div_.Tensor_mode), against torch: values, dtypes, grad_fn, gradients, errors."""
import numpy as np
import pytest

import minitorch2

torch = pytest.importorskip("torch")


def _case(lib, mode, other_is_tensor, dtype):
    data, divisor = ([7, -7, 9], [2, -3, 4]) if dtype == "int64" else ([5.5, -3.2, 7.0], [2.0, 1.5, -2.0])
    x = lib.tensor(data, dtype=getattr(lib, dtype))
    other = lib.tensor(divisor, dtype=getattr(lib, dtype)) if other_is_tensor else divisor[0]
    result = x.div_(other, rounding_mode=mode)
    return result is x, x.numpy().tolist(), str(x.dtype).split(".")[-1]


@pytest.mark.parametrize("mode", ["floor", "trunc"])
@pytest.mark.parametrize("other_is_tensor", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_div_in_place_with_a_rounding_mode_matches_torch(mode, other_is_tensor, dtype):
    assert _case(minitorch2, mode, other_is_tensor, dtype) == _case(torch, mode, other_is_tensor, dtype)


def test_its_gradient_is_zero_and_named_as_torch():
    seen = []
    for lib in (torch, minitorch2):
        a, b = lib.tensor([5.5, -3.2], requires_grad=True), lib.tensor([2.0, 1.5], requires_grad=True)
        x = a.clone()
        x.div_(b, rounding_mode="floor")
        (x * 3).sum().backward()
        seen.append((x.grad_fn.name(), a.grad.numpy().tolist(), b.grad.numpy().tolist()))
    assert seen[1] == seen[0]


def test_without_a_rounding_mode_an_integer_tensor_is_refused_as_torch():
    messages = []
    for lib in (torch, minitorch2):
        with pytest.raises(RuntimeError) as raised:
            lib.tensor([7, 8]).div_(2)
        messages.append(str(raised.value))
    assert messages[1] == messages[0]
    np.testing.assert_array_equal(minitorch2.tensor([7.0]).div_(2).numpy(), [3.5])
