"""Reductions with nothing to average over, and casts of values an integer cannot hold, as torch does them: var/std/
var_mean with as many or fewer elements than the correction divide by max(n - correction, 0) (inf, or nan for 0/0) and
warn in ATen's words; NaN and inf cast to an integer silently (numpy's RuntimeWarnings never reach the user)."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt

CASES = {
    "var of one row": lambda lib, x: x[:1].var(0),
    "std of one column": lambda lib, x: x[:, :1].std(1),
    "var_mean of one row": lambda lib, x: lib.var_mean(x[:1], 0)[0],
    "var, correction above n": lambda lib, x: x.var(1, correction=5),
    "std, correction equal to n": lambda lib, x: x.std(1, correction=4),
    "var of nothing": lambda lib, x: x[:0].var(),
    "std over an empty dim": lambda lib, x: x[:0].std(0),
    "var, correction 0 of one": lambda lib, x: x[:1].var(0, correction=0),
    "nan and inf to int64": lambda lib, x: (x / (x - x)).long(),
    "nan to int32 and back": lambda lib, x: (x * float("nan")).int().float(),
}


def _outcome(lib, case, compiled=False):
    fn = (lambda x: CASES[case](lib, x))
    if compiled:
        fn = mt.compile(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn(lib.tensor([[1.0, 2, 3, 5], [0.5, 0, -1, 2], [4, 4, 4, 4]]))
    return value.numpy(), [(w.category.__name__, str(w.message).split(" (Triggered")[0]) for w in caught]


@pytest.mark.parametrize("case", sorted(CASES))
def test_eager_values_and_warnings_match_torch(case):
    (ours, our_warnings), (theirs, their_warnings) = _outcome(mt, case), _outcome(torch, case)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    assert our_warnings == their_warnings


@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_values_match_torch(case):
    np.testing.assert_array_equal(_outcome(mt, case, compiled=True)[0], _outcome(torch, case)[0])
