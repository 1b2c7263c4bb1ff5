"""The programs of corpus_dynamo_tests_ported_9.py and _9b.py against Dynamo 2.13: values, frames, ops, breaks.

The same checks as the earlier runners (whose helpers this reuses): each PORTED program runs compiled twice (the
second call a cache hit) on two (3,) float inputs under torch.compile and minitorch2.compile with a CompileCounter;
values and (frames, ops, breaks) must be Dynamo's, and the compiled value minitorch2's own eager one. Each DYNAMIC
program runs compiled with dynamic=True on inputs of lengths 3, 5, 3 and 8 (test_dynamic_shapes' way of running
test_misc): the counts after them (how often a length still recompiles) and every value must be Dynamo's. Each
RECOMPILE program runs its sequence of calls (bools, lists of changing length, objects whose attribute changes,
dtype names, nested tuples, a global dict written by the frame). KNOWN_DIFFS names each program that still differs,
with the difference (strict xfail).
"""
import types

import numpy as np
import pytest
import torch

import minitorch2
from frontend.testing import CompileCounter

from .corpus_dynamo_tests_ported_9 import PORTED_SRC as FIRST_HALF
from .corpus_dynamo_tests_ported_9b import DYNAMIC_SRC, PORTED_SRC as SECOND_HALF, RECOMPILE_SRC
from .test_dynamo_counts import ARRAYS, _assert_close
from .test_dynamo_tests_ported import (_clear_counters, _breaks, build_batch, check_against_dynamo,
                                       check_batch_is_whole, check_recompiles_against_dynamo, params)

PORTED, TORCH_NS, MT_NS = build_batch(FIRST_HALF, SECOND_HALF)
DYNAMIC, TORCH_DY, MT_DY = build_batch(DYNAMIC_SRC)
RECOMPILED, TORCH_RC, MT_RC = build_batch(RECOMPILE_SRC)

_X3 = ARRAYS[0]
RECOMPILE_CALLS = {
    "rc9_bool_from_kwargs": [(_X3, True), (_X3, False), (_X3, True)],
    "rc9_list_length_changes": [(_X3, [1]), (_X3, [1, 2]), (_X3, [3, 4]), (_X3, [1, 2, 3])],
    "rc9_attribute_value_changes": [(_X3, types.SimpleNamespace(k=2)), (_X3, types.SimpleNamespace(k=3)),
                                    (_X3, types.SimpleNamespace(k=2))],
    "rc9_dtype_changes": [(_X3, "float32"), (_X3, "float64"), (_X3, "float32")],
    "rc9_nested_tuple_structure": [(_X3, (1, (2,))), (_X3, (1, (3,))), (_X3, (2, (3,)))],
    "rc9_global_int_changes": [(_X3, 1), (_X3, 2), (_X3, 2)],
}

DYNAMIC_LENGTHS = (3, 5, 3, 8)

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {}


def _dynamic_run(lib, fn):
    _clear_counters(lib)
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(fn, backend=counter, dynamic=True)
    outputs = []
    for n in DYNAMIC_LENGTHS:
        a, b = (np.random.default_rng(seed + n).standard_normal(n).astype("float32") for seed in (1, 2))
        outputs.append(compiled(lib.tensor(a), lib.tensor(b)).detach().numpy())
    return (counter.frame_count, counter.op_count, _breaks(lib)), outputs


@pytest.mark.parametrize("name", params(PORTED, KNOWN_DIFFS))
def test_counts_breaks_and_values_match_dynamo(name):
    check_against_dynamo(TORCH_NS[name], MT_NS[name])


@pytest.mark.parametrize("name", params(DYNAMIC, KNOWN_DIFFS))
def test_dynamic_true_counts_and_values_match_dynamo(name):
    theirs_counts, theirs = _dynamic_run(torch, TORCH_DY[name])
    ours_counts, ours = _dynamic_run(minitorch2, MT_DY[name])
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)


@pytest.mark.parametrize("name", params(RECOMPILED, KNOWN_DIFFS))
def test_recompiles_match_dynamo(name):
    check_recompiles_against_dynamo(TORCH_RC[name], MT_RC[name], RECOMPILE_CALLS[name])


def test_enough_programs_every_recompile_has_calls_and_known_diffs_name_programs():
    check_batch_is_whole(PORTED + DYNAMIC, RECOMPILED, RECOMPILE_CALLS, KNOWN_DIFFS, at_least=150)
