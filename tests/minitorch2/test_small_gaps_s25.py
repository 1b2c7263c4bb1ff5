"""Eager gaps seen in session 24, against real torch: binary ops on bool x bool and on integer extremes
(int64 min // -1, division and remainder by zero) give torch's values, or its error class and message."""
import math

import pytest
import torch

import minitorch2

BINARY = ["a // b", "lib.floor_divide(a, b)", "a % b", "lib.remainder(a, b)", "lib.fmod(a, b)",
          "lib.div(a, b, rounding_mode='floor')", "lib.div(a, b, rounding_mode='trunc')", "lib.div(a, b)", "a / b",
          "a + b", "a - b", "a * b", "a ** b", "a & b", "a | b", "a ^ b", "a << b", "a >> b",
          "lib.maximum(a, b)", "lib.minimum(a, b)", "lib.sub(a, b, alpha=2)", "lib.gcd(a, b)", "lib.lcm(a, b)",
          "a // 0", "a % 0", "lib.fmod(a, 0)", "lib.remainder(a, 0)", "lib.floor_divide(a, 0)",
          "a.clone().floor_divide_(b)", "a.clone().remainder_(b)", "a.clone().div_(b, rounding_mode='floor')",
          "-a", "~a", "lib.abs(a)"]

OPERANDS = {
    "bool": lambda lib: (lib.tensor([True, False, True]), lib.tensor([True, True, False])),
    "int64": lambda lib: (lib.tensor([-2 ** 63, 5, -7, 2 ** 63 - 1]), lib.tensor([-1, 0, 2, -1])),
    "int8": lambda lib: (lib.tensor([-128, 5, 7], dtype=lib.int8), lib.tensor([-1, 3, 0], dtype=lib.int8)),
}


def outcome(lib, expression, operands):
    a, b = OPERANDS[operands](lib)
    try:
        result = eval(expression, {"lib": lib, "a": a, "b": b})
        return str(result.dtype), result.tolist()
    except Exception as e:  # (the class and message are what is compared)
        return type(e).__name__, str(e)


@pytest.mark.parametrize("operands", list(OPERANDS))
@pytest.mark.parametrize("expression", BINARY)
def test_binary_op_on_bools_and_integer_extremes_as_torch(expression, operands):
    if operands == "int64" and "trunc" in expression:
        pytest.skip("torch's trunc division of int64 min by -1 dies of SIGFPE; ours wraps as floor does")
    ours, theirs = outcome(minitorch2, expression, operands), outcome(torch, expression, operands)
    assert ours == theirs


def test_int64_min_trunc_divided_by_minus_one_wraps():
    a, b = minitorch2.tensor([-2 ** 63, 7]), minitorch2.tensor([-1, -2])
    assert minitorch2.div(a, b, rounding_mode="trunc").tolist() == [-2 ** 63, -3]


# ---------------------------------------------------------------- channels_last layouts (adaptive pooling's output)
SHAPES = [(2, 3, 1, 1), (2, 1, 4, 4), (1, 3, 4, 4), (2, 3, 1, 5), (2, 3, 4, 1), (2, 3, 4, 5)]
LAYOUTS = {
    "empty": lambda lib, s: lib.empty(s, memory_format=lib.channels_last),
    "empty_like": lambda lib, s: lib.empty_like(lib.zeros(s), memory_format=lib.channels_last),
    "zeros_like": lambda lib, s: lib.zeros_like(lib.zeros(s), memory_format=lib.channels_last),
    "to": lambda lib, s: lib.zeros(s).to(memory_format=lib.channels_last),
    "clone": lambda lib, s: lib.zeros(s).clone(memory_format=lib.channels_last),
    "back_to_contiguous": lambda lib, s: lib.zeros(s).to(memory_format=lib.channels_last).to(
        memory_format=lib.contiguous_format),
    "to_keeps_a_transpose": lambda lib, s: lib.zeros(s).transpose(2, 3).to(memory_format=lib.contiguous_format),
    "pooled_to_one": lambda lib, s: lib.nn.functional.adaptive_avg_pool2d(
        lib.arange(float(math.prod(s))).view(s).to(memory_format=lib.channels_last), 1),
    "pooled_to_one_grad": lambda lib, s: _pooled_grad(lib, s),
}


def _pooled_grad(lib, shape):
    x = lib.arange(float(math.prod(shape))).view(shape).to(memory_format=lib.channels_last).requires_grad_()
    lib.nn.functional.adaptive_avg_pool2d(x, 1).sum().backward()
    return x.grad


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_channels_last_layouts_as_torch(layout, shape):
    ours, theirs = LAYOUTS[layout](minitorch2, shape), LAYOUTS[layout](torch, shape)
    assert (tuple(ours.shape), ours.stride(), ours.tolist()) == (tuple(theirs.shape), theirs.stride(), theirs.tolist()) \
        if layout.startswith("pooled") else (ours.stride() == theirs.stride())


@pytest.mark.parametrize("expression", ["lib.empty(2, 3, memory_format=lib.channels_last)",
                                        "lib.empty_like(lib.zeros(2, 3), memory_format=lib.channels_last)"])
def test_channels_last_of_another_rank_refused_as_torch(expression):
    def outcome(lib):
        try:
            return eval(expression, {"lib": lib}).stride()
        except RuntimeError as e:
            return str(e)

    assert outcome(minitorch2) == outcome(torch)
