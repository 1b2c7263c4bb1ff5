"""The programs the aot and partition fuzzers share: drawn, filtered and written as functions.

tests/autograd/test_aot_fuzz.py and tests/partition/test_partition_fuzz.py both
take the random float op programs of tests/minitorch2/test_differential.py,
cut to MAX_OPS ops, drop the examples that reach a known difference outside
the aot layer (listed below, each with its reason), and write each program as
a function returning its values that are neither inputs nor views.

Views are returned too, so the fuzzer sees aot make them again outside the
graph (views of inputs, of other outputs, of an intermediate viewed twice).
A program whose every value is an input returns a clone of its last one.
"""
import os

import torch
from hypothesis import assume, note
from hypothesis import strategies as st

from tests.minitorch2.test_differential import OPS_BY_NAME, programs, run

# torch's aot_function takes ~25 ms per op to trace a program (our side ~4 ms), so the default and ci
# profiles keep a prefix of at most 8 ops of each drawn program (a prefix is a program: ops only read
# earlier values); longer runs (deep, `python -m minitorch2 fuzz`) take them whole (up to 15 ops).
MAX_OPS = 8 if os.environ.get("HYPOTHESIS_PROFILE", "default") in ("default", "ci") else 15


def float_programs():
    """test_differential's float programs, cut to at most MAX_OPS ops."""
    return st.tuples(programs("float"), st.integers(1, MAX_OPS)).map(lambda c: (c[0][0], c[0][1][:c[1]]))


# ---------------------------------------------------------------- known differences, filtered out
# Derivative formulas of the runtime (minitorch2/_aten/derivatives_*.py, not the aot layer) that take a
# different branch from ATen's on degenerate shapes. aot traces them faithfully, so its graphs differ from
# torch's there; the examples that reach one are rejected. Each entry: aten op -> (predicate on the op's
# concrete torch arguments, reason). Remove an entry once the formula is fixed.
KNOWN_FORMULA_DIFFERENCES = {}


def _maximum_of_a_view(a, b):
    return a._base is not None or b._base is not None


# Differences found by program op rather than aten op: program op -> (predicate on its concrete torch
# operands, reason).
KNOWN_PROGRAM_DIFFERENCES = {
    # cause not found yet: the same nodes, in another order
    "maximum": (
        _maximum_of_a_view,
        "maximum/minimum of a view (x.view(-1)) and another value computed from the same input, e.g. "
        "maximum(sin(x), x.view(-1)) with sin(x) also returned: the backward runs the view's ViewBackward before "
        "SinBackward, torch's aot after it (same ops, different order; with mul or div in place of maximum "
        "the orders agree)"),
    "minimum": (_maximum_of_a_view, "as maximum"),
}


def _aten_calls(arrays, program):
    """(values, [(str(aten overload), concrete args)]) of torch's eager run of the program, every aten op
    it dispatches recorded."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            calls.append((str(func), args))
            return func(*args, **(kwargs or {}))

    calls = []
    with Recorder():
        _, values = run(torch, arrays, program, requires_grad=False)
    return values, calls


def known_aot_difference(arrays, program):
    """The reason a program reaches a known difference outside the aot layer, or None."""
    values, calls = _aten_calls(arrays, program)
    for name, operands, _ in program:
        if name in KNOWN_PROGRAM_DIFFERENCES:
            applies, reason = KNOWN_PROGRAM_DIFFERENCES[name]
            if applies(*(values[i] for i in operands)):
                return reason
    for name, args in calls:
        if name in KNOWN_FORMULA_DIFFERENCES:
            applies, reason = KNOWN_FORMULA_DIFFERENCES[name]
            if applies(args):
                return reason
    return None


def skip_known_aot_differences(arrays, program):
    reason = known_aot_difference(arrays, program)
    if reason:
        note(f"skipped: {reason}")
    assume(reason is None)


# ---------------------------------------------------------------- the programs as functions
def returned_values(arrays, program):
    """Indices (into the program's values) of what the function returns: no inputs, no repeats; None when
    every computed value is one of those (the function then returns a clone of the last)."""
    inputs, values = run(torch, arrays, program, requires_grad=False)
    chosen, seen = [], set()
    for index, value in enumerate(values[len(inputs):], start=len(inputs)):
        if id(value) not in seen and not any(value is x for x in inputs):
            chosen.append(index)
        seen.add(id(value))
    return chosen or None


def make_function(lib, program, returned):
    def fn(*inputs):
        values = list(inputs)
        for name, operands, params in program:
            values.append(OPS_BY_NAME[name].fn(lib, *(values[i] for i in operands), **params))
        if returned is None:
            return (values[-1].clone(),)
        return tuple(values[i] for i in returned)

    return fn
