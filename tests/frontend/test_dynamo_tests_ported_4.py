"""The programs of corpus_dynamo_tests_ported_4.py and _4b.py against Dynamo 2.13: values, frames, ops, breaks.

The same checks as the earlier runners (whose helpers this reuses): each PORTED program runs compiled twice (the
second call a cache hit) on two (3,) float inputs under torch.compile and minitorch2.compile with a CompileCounter;
values and (frames, ops, breaks) must be Dynamo's, and the compiled value minitorch2's own eager one. Each RECOMPILE
program runs its sequence of calls (changing dtypes, shapes and constants): the counts after them say how often it
recompiled. KNOWN_DIFFS names each program that still differs, with the difference (strict xfail).
"""
import numpy as np
import pytest
import torch

import minitorch2

from .corpus_dynamo_tests_ported_4 import PORTED_SRC as FIRST_HALF
from .corpus_dynamo_tests_ported_4b import PORTED_SRC as SECOND_HALF, RECOMPILE_SRC
from .test_dynamo_counts import ARRAYS, _assert_close
from .test_dynamo_tests_ported import build_batch, check_against_dynamo, check_batch_is_whole, params
from .test_dynamo_tests_ported_2 import _DType, _run_calls

PORTED, TORCH_NS, MT_NS = build_batch(FIRST_HALF, SECOND_HALF)
RECOMPILED, TORCH_RC, MT_RC = build_batch(RECOMPILE_SRC)

_X3 = ARRAYS[0]
RECOMPILE_CALLS = {
    "rc4_dtype_changes": [(_X3, 2), (_X3.astype("float64"), 2), (_X3.astype("float64"), 2), (_X3, 2)],
    "rc4_shape_changes_three_times": [(_X3, 2), (_X3[:2], 2), (np.ones(5, "float32"), 2), (np.ones(7, "float32"), 2)],
    "rc4_string_constant_changes": [(_X3, "relu"), (_X3, "sin"), (_X3, "rope"), (_X3, "relu")],
    "rc4_list_length_changes": [(_X3, [2]), (_X3, [2, 3]), (_X3, [4, 5]), (_X3, [2])],
    "rc4_dtype_argument": [(_X3, _DType("float64")), (_X3, _DType("float16")), (_X3, _DType("float64"))],
    "rc4_none_then_int": [(_X3, None), (_X3, 2), (_X3, 3), (_X3, None)],
}

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {}


@pytest.mark.parametrize("name", params(PORTED, KNOWN_DIFFS))
def test_counts_breaks_and_values_match_dynamo(name):
    check_against_dynamo(TORCH_NS[name], MT_NS[name])


@pytest.mark.parametrize("name", params(RECOMPILED, KNOWN_DIFFS))
def test_recompiles_match_dynamo(name):
    theirs_counts, theirs = _run_calls(torch, TORCH_RC[name], RECOMPILE_CALLS[name], {})
    ours_counts, ours = _run_calls(minitorch2, MT_RC[name], RECOMPILE_CALLS[name], {})
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)


def test_enough_programs_every_recompile_has_calls_and_known_diffs_name_programs():
    check_batch_is_whole(PORTED, RECOMPILED, RECOMPILE_CALLS, KNOWN_DIFFS)
