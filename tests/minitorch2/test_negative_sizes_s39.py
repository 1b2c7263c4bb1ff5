"""Negative sizes that users pass to factories and resizes: torch's error class and message.

eye(-1), empty_strided with a negative size and resize_(-1) reached numpy and raised its ValueError ("negative
dimensions are not allowed"); ATen raises RuntimeError with its own words for each."""
import pytest
import torch

import minitorch2

CASES = {
    "empty": lambda T: T.empty(-1), "ones": lambda T: T.ones(2, -3), "randn": lambda T: T.randn(-1),
    "rand": lambda T: T.rand(2, -1), "full": lambda T: T.full((-1,), 1.0), "new_zeros": lambda T: T.ones(2).new_zeros(-1),
    "empty_strided": lambda T: T.empty_strided((2, -1), (1, 1)),
    "new_empty_strided": lambda T: T.ones(2).new_empty_strided((-1,), (1,)),
    "eye_n": lambda T: T.eye(-1), "eye_m": lambda T: T.eye(2, -1), "eye_both": lambda T: T.eye(-1, -2),
    "randint": lambda T: T.randint(0, 3, (-1,)), "new_empty": lambda T: T.tensor([1.0]).new_empty((-1,)),
    "repeat": lambda T: T.ones(2).repeat(-1), "resize_": lambda T: T.ones(1).resize_(-1),
    "resize_2d": lambda T: T.ones(1).resize_(2, -5), "zeros": lambda T: T.zeros(-1),
}
MESSAGE_DIFFERS = {"zeros": "torch 2.13's zeros alone says 'zeros: Dimension size must be non-negative.'; ours says "
                            "the other factories' 'Trying to create tensor with negative dimension -1: [-1]'"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=MESSAGE_DIFFERS[n]))
                                  if n in MESSAGE_DIFFERS else n for n in CASES])
def test_negative_sizes_raise_torchs_error(name):
    outcomes = []
    for T in (minitorch2, torch):
        with pytest.raises(Exception) as caught:
            CASES[name](T)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


def test_eye_of_zero_and_of_a_rectangle_are_torchs():
    for n, m in [(0, None), (0, 3), (2, 3), (3, 2)]:
        args = (n,) if m is None else (n, m)
        assert minitorch2.eye(*args).tolist() == torch.eye(*args).tolist()
