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
from .test_dynamo_counts import ARRAYS, _assert_close, _to_np
from .test_dynamo_tests_ported import _build, _names, _run

PORTED = _names(PORTED_SRC)
TORCH_NS, MT_NS = _build(torch, PORTED_SRC), _build(minitorch2, PORTED_SRC)

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {
}


def _param(name):
    return pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_DIFFS[name], strict=True)) \
        if name in KNOWN_DIFFS else name


@pytest.mark.parametrize("name", [_param(n) for n in PORTED])
def test_module_programs_match_dynamo(name):
    calls = [tuple(ARRAYS)] * 2  # the second: a cache hit
    theirs_counts, theirs = _run(torch, TORCH_NS[name], calls)
    ours_counts, ours = _run(minitorch2, MT_NS[name], calls)
    eager = _to_np(MT_NS[name](*[minitorch2.tensor(a) for a in ARRAYS]))
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)
    _assert_close(ours[0], eager)


def test_enough_programs_and_known_diffs_name_them():
    assert len(PORTED) >= 80
    assert set(KNOWN_DIFFS) <= set(PORTED)
