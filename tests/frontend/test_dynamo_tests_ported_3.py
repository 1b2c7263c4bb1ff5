"""corpus_dynamo_tests_ported_3.py's module and model programs against Dynamo 2.13: values, frame_count, op_count
and graph breaks.

The same checks as test_dynamo_tests_ported.py (whose helpers this reuses): each program runs compiled twice (the
second call a cache hit) on two (3,) float inputs, under torch.compile and minitorch2.compile with a
CompileCounter; values and (frames, ops, breaks) must be Dynamo's, and the compiled value minitorch2's own eager
one. KNOWN_DIFFS names each program that still differs, with the difference (strict xfail: a fix makes it fail
loudly).
"""
import pytest
import torch

import minitorch2

from .corpus_dynamo_tests_ported_3 import PORTED_SRC
from .test_dynamo_tests_ported import _build, _names, check_against_dynamo, params

PORTED = _names(PORTED_SRC)
TORCH_NS, MT_NS = _build(torch, PORTED_SRC), _build(minitorch2, PORTED_SRC)

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {
}


@pytest.mark.parametrize("name", params(PORTED, KNOWN_DIFFS))
def test_module_programs_match_dynamo(name):
    check_against_dynamo(TORCH_NS[name], MT_NS[name])


def test_enough_programs_and_known_diffs_name_them():
    assert len(PORTED) >= 80
    assert set(KNOWN_DIFFS) <= set(PORTED)
