"""The programs of corpus_dynamo_tests_ported_11.py and _11b.py against Dynamo 2.13: values, frames, ops, breaks.

The same checks as the earlier runners (whose helpers this reuses): each PORTED program runs compiled twice (the
second call a cache hit) on two (3,) float inputs under torch.compile and minitorch2.compile with a CompileCounter;
values and (frames, ops, breaks) must be Dynamo's, and the compiled value minitorch2's own eager one. Each DYNAMIC
program runs compiled with dynamic=True on inputs of lengths 3, 5, 3 and 8: the counts after them (how often a
length still recompiles) and every value must be Dynamo's. Each RECOMPILE program runs its sequence of calls (ints,
lists whose contents change, sets and dicts whose size changes, an attribute whose type changes, a bool then None,
a global dict the frame writes, a tensor then its transpose, floats then ints, strings in tuples, ints used as
slice ends, range bounds and reshape sizes). KNOWN_DIFFS names each program that still differs,
with the difference (strict xfail).
"""
import types

import numpy as np
import pytest
import torch

import minitorch2

from .corpus_dynamo_tests_ported_11 import PORTED_SRC as FIRST_HALF
from .corpus_dynamo_tests_ported_11b import DYNAMIC_SRC, PORTED_SRC as SECOND_HALF, RECOMPILE_SRC
from .test_dynamo_counts import ARRAYS, _assert_close
from .test_dynamo_tests_ported_9 import _dynamic_run  # (lengths 3, 5, 3, 8; Dynamo's counts beside ours)
from .test_dynamo_tests_ported import (build_batch, check_against_dynamo,
                                       check_batch_is_whole, check_recompiles_against_dynamo, params)

PORTED, TORCH_NS, MT_NS = build_batch(FIRST_HALF, SECOND_HALF)
DYNAMIC, TORCH_DY, MT_DY = build_batch(DYNAMIC_SRC)
RECOMPILED, TORCH_RC, MT_RC = build_batch(RECOMPILE_SRC)

_X3 = ARRAYS[0]
_X3x3 = np.arange(9, dtype="float32").reshape(3, 3) - 4
_X6 = np.arange(6, dtype="float32") - 2
RECOMPILE_CALLS = {
    "rc11_int_changes_each_call": [(_X3, 1), (_X3, 2), (_X3, 3), (_X3, 2)],
    "rc11_list_contents_change": [(_X3, [1, 2]), (_X3, [1, 3]), (_X3, [1, 2]), (_X3, [1, 2, 3])],
    "rc11_set_size_changes": [(_X3, {1}), (_X3, {2}), (_X3, {1, 2})],
    "rc11_dict_keys_change": [(_X3, {"p": 1}), (_X3, {"q": 1}), (_X3, {"p": 1, "q": 2})],
    "rc11_object_attr_type_changes": [(_X3, types.SimpleNamespace(k=2)), (_X3, types.SimpleNamespace(k=2.5)),
                                      (_X3, types.SimpleNamespace(k=2))],
    "rc11_bool_then_none": [(_X3, True), (_X3, False), (_X3, None), (_X3, True)],
    "rc11_global_table_written": [(_X3, 1), (_X3, 1), (_X3, 2)],
    "rc11_contiguous_vs_transposed": [(_X3x3, 2), (_X3x3.T.copy(), 2), (_X3x3, 3)],
    "rc11_float_then_int": [(_X3, 0.5), (_X3, 1.5), (_X3, 2), (_X3, 2.5), (_X3, 3)],
    "rc11_string_in_tuple": [(_X3, ("a", 1)), (_X3, ("b", 1)), (_X3, ("a", 2)), (_X3, ("a", 3))],
    "rc11_int_used_as_slice_end": [(_X3, 1), (_X3, 2), (_X3, 3), (_X3, 2)],
    "rc11_int_as_range_bound": [(_X3, 1), (_X3, 2), (_X3, 3)],
    "rc11_int_in_reshape": [(_X6, 1), (_X6, 2), (_X6, 3), (_X6, 6)],
}

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {
    "dy11_float_of_size_in_math": "math.log(float(a.shape[0])) with dynamic=True: Dynamo records torch.sym_float and "
                                  "math.log of the size as graph nodes before the size is specialized; ours folds "
                                  "them (2 ops a graph, not 4): ours (3, 6, 0), Dynamo (3, 12, 0)",
    "ms11_set_of_tensors": "a set literal of tensors {a, b, a}: Dynamo keys its items by identity and takes len() in "
                           "the graph; ours breaks at BUILD_SET (a tensor is no constant key) and again at len(): "
                           "ours (1, 2, 2), Dynamo (1, 2, 0)",
    "ms11_cmath_sqrt": "cmath.sqrt(-4) of constants: Dynamo does not trace cmath's builtins and breaks there; ours "
                       "folds the call: ours (1, 2, 0), Dynamo (1, 2, 1)",
}


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
