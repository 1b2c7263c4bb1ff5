"""frontend.testing plays torch._dynamo.testing for Dynamo's own tests run unchanged (found in session 42: its
test_functions.py reads `torch._dynamo.testing.three`, test_misc.py records graphs with EagerAndRecordGraphs and
compares them through normalize_gm). Each helper gives what torch's gives."""
import numpy as np
import torch
import torch._dynamo.testing as dynamo_testing

import frontend
import frontend.testing as our_testing
import minitorch2


def _program(lib):
    def f(x, y):
        return (x.sin() * y).relu() + 1
    return f


def test_recorded_graphs_normalize_to_torchs():
    printed = []
    for lib, testing, reset in ((torch, dynamo_testing, torch._dynamo.reset), (minitorch2, our_testing, frontend.reset)):
        reset()
        backend = testing.EagerAndRecordGraphs()
        lib.compile(_program(lib), backend=backend)(lib.ones(3), lib.ones(3))
        assert len(backend.graphs) == 1
        printed.append(testing.normalize_gm(backend.graphs[0].print_readable(print_output=False)))
    assert printed[1] == printed[0]


def test_same_and_reduce_to_scalar_loss_answer_as_torchs():
    for lib, testing in ((torch, dynamo_testing), (minitorch2, our_testing)):
        ones = lib.ones(3)
        assert testing.same([ones, 1.0, {"k": (2, ones)}], [ones + 1e-6, 1.0 + 1e-6, {"k": (2, ones)}])
        assert not testing.same(ones, ones + 1)
        assert not testing.same(ones, ones.double())
        assert testing.same(lib.tensor([float("nan")]), lib.tensor([float("nan")]), equal_nan=True)
        assert float(testing.reduce_to_scalar_loss([lib.ones(2), {"a": lib.full((4,), 3.0)}])) == 2.0
        strided = testing.rand_strided((2, 3), (1, 2))
        assert tuple(strided.shape) == (2, 3) and tuple(strided.stride()) == (1, 2)
        assert testing.three == 3


def test_normalize_gm_drops_comments_trailing_spaces_and_blank_runs():
    text = "class G:\n    # File: /a/b.py:3\n    def forward(self, x):   \n\n\n\n        return x\n"
    assert our_testing.normalize_gm(text) == dynamo_testing.normalize_gm(text)
    np.testing.assert_equal(our_testing.normalize_gm(""), dynamo_testing.normalize_gm(""))
