"""What users pass to factories: negative sizes (torch's error class and message), lists of ndarrays (its warning).

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


@pytest.mark.parametrize("statement", ["torch.tensor([[1., 2.], np.ones(2)]); torch.as_tensor([np.ones(2)])",
                                       "torch.tensor([np.float32(1), np.float32(2)]); torch.tensor(np.ones((2, 2)))"])
def test_a_list_of_ndarrays_warns_once_as_torch(statement, tmp_path):
    """torch warns once a process that a tensor made from a list of ndarrays is slow; the script under `run` prints
    what it prints under torch (stderr, at the line of the user's call)."""
    import subprocess
    import sys
    script = tmp_path / "make.py"
    script.write_text(f"import torch, numpy as np\n{statement}\n")
    ours = subprocess.run([sys.executable, "-W", "always", "-m", "minitorch2", "run", str(script)], capture_output=True,
                          text=True)
    theirs = subprocess.run([sys.executable, "-W", "always", str(script)], capture_output=True, text=True)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stderr == theirs.stderr


@pytest.mark.parametrize("make", [lambda np: minitorch2.tensor([np.ones(2), np.ones(2)]),
                                  lambda np: minitorch2.tensor([[np.ones(2)], [np.ones(2)]]),
                                  lambda np: minitorch2.Tensor([np.ones(2)]),
                                  lambda np: minitorch2.as_tensor([np.ones(2), np.ones(2)])])
def test_each_way_of_making_a_tensor_from_ndarrays_warns_at_the_callers_line(make, monkeypatch):
    import warnings

    import numpy as np

    from minitorch2 import _tensor_data
    monkeypatch.setattr(_tensor_data, "_warned_ndarray_items", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make(np)
    assert [w.filename for w in caught] == [__file__]
    assert str(caught[0].message).startswith("Creating a tensor from a list of numpy.ndarrays is extremely slow.")
