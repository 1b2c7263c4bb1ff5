"""Hypothesis differential fuzzing of partition.min_cut_rematerialization_partition against torch's.

The random float op programs of tests/minitorch2/test_differential.py, drawn,
filtered and written as functions by tests/autograd/aot_fuzz_programs.py (as for
tests/autograd/test_aot_fuzz.py), go through each
library's aot_function. Its partition_fn hook is where the comparison happens:
it receives the joint graph, and partitions it with that library's min-cut
partitioner. The two joint graphs must call the same ops (anything else is an
aot difference, which test_aot_fuzz.py reports), and then the two partitions
must have the signature tests/partition/test_oracle.py compares on its fixed
corpus (tests/partition/helpers.py `signature`): the producers of the saved
values (what the forward returns for the backward) in number and op kind, in
order, and the (placeholders, outputs) counts of the forward and the backward.

Nothing is compiled or run after the partition (the hook stops aot_function):
values and gradients are test_aot_fuzz.py's business.
"""
import difflib

import numpy as np
import pytest
import torch
from functorch import compile as torch_compile
from hypothesis import given, note

import autograd
import minitorch2 as mt
import partition
from tests.autograd.aot_fuzz_programs import float_programs, make_function, returned_values, skip_known_aot_differences
from tests.minitorch2.test_differential import default_dtype, describe

from .helpers import signature

pytestmark = pytest.mark.partition


class _Partitioned(Exception):
    """Raised by the partition hook once it has what the test needs: aot_function stops there."""


def partition_of(lib, arrays, program, returned):
    """(the joint graph's ops, forward GraphModule, backward GraphModule, num_fwd_outputs) of lib's min-cut."""
    if lib is torch:
        aot_function, min_cut = torch_compile.aot_function, torch_compile.min_cut_rematerialization_partition
    else:
        aot_function, min_cut = autograd.aot_function, partition.min_cut_rematerialization_partition
    inputs = []
    for a in arrays:
        t = lib.from_numpy(np.array(a, copy=True))
        inputs.append(t.requires_grad_() if a.dtype.kind == "f" else t)
    box = {}

    def hook(joint, joint_inputs, **kwargs):
        joint_ops = _ops(joint)  # before partitioning: torch's min-cut replaces joint.graph by its CSE'd copy
        fw, bw = min_cut(joint, joint_inputs, **kwargs)
        box.update(joint_ops=joint_ops, fw=fw, bw=bw, n=kwargs["num_fwd_outputs"])
        raise _Partitioned

    try:
        aot_function(make_function(lib, program, returned), fw_compiler=lambda gm, _: gm.forward, partition_fn=hook)(*inputs)
    except _Partitioned:
        pass
    if not box:  # no output needs a gradient: aot compiled an inference graph and never partitioned
        return None
    return box["joint_ops"], box["fw"], box["bw"], box["n"]


def _ops(gm):
    return [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]


def check_program(arrays, program, returned=()):
    returned = returned_values(arrays, program) if returned == () else returned
    try:
        theirs = partition_of(torch, arrays, program, returned)
    except Exception as error:  # torch rejects the program (atan2(bool, x)'s backward negates the bool): no
        with pytest.raises(type(error)):  # partition to compare; ours must reject it with the same error class
            partition_of(mt, arrays, program, returned)
        return
    ours = partition_of(mt, arrays, program, returned)
    assert (ours is None) == (theirs is None), f"partitioned: ours {ours is not None}, torch {theirs is not None}"
    if theirs is None:
        return
    joint_diff = list(difflib.unified_diff(theirs[0], ours[0], "torch", "ours", lineterm="", n=1))
    assert not joint_diff, "joint graphs differ (an aot difference):\n" + "\n".join(joint_diff)
    expected, got = signature(*theirs[1:]), signature(*ours[1:])
    assert got == expected, (f"min-cut partitions differ\n--- torch forward\n{theirs[1].code}\n--- torch backward\n"
                             f"{theirs[2].code}\n--- ours forward\n{ours[1].code}\n--- ours backward\n{ours[2].code}")


# ---------------------------------------------------------------- the property
@given(float_programs())
def test_min_cut_saves_what_torch_saves(case):
    arrays, program = case
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}")
    skip_known_aot_differences(arrays, program)
    with default_dtype(next(str(a.dtype) for a in arrays if a.dtype.kind == "f")):
        check_program(arrays, program)


def test_checker_catches_a_different_cut(monkeypatch):
    """Not vacuous: our min-cut replaced by the default partition (which saves sin and cos where min-cut
    saves only x) fails, on sin(cos(sin(x))) returning only its result."""
    arrays = [np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)]
    program = [("sin", (0,), {}), ("cos", (1,), {}), ("sin", (2,), {})]
    check_program(arrays, program, returned=[3])
    monkeypatch.setattr(partition, "min_cut_rematerialization_partition", partition.default_partition)
    with pytest.raises(AssertionError, match="min-cut partitions differ"):
        check_program(arrays, program, returned=[3])
