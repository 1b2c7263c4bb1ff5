"""Hypothesis differential programs through the inductor backend over symbolic sizes (issue 21 item 6).

The random op programs of tests/minitorch2/test_differential.py, written out as straight-line Python, are compiled
once with `minitorch2.compile(backend="inductor", dynamic=True)` and called three times: on the drawn inputs, then
with the leading dim of every full-rank input grown two and three times (broadcast dims of size 1 stay 1). Each call
must match eager in dtype, shape, strides of dims longer than 1 and values, and the input gradients of a random
weighting of the outputs must match eager's. A graph the backend cannot compile over symbols falls back to a compile
per size, so what is checked is that nothing is silently wrong at any size, whichever way the backend takes.

Example counts: a tenth of the hypothesis profile's (20 by default; HYPOTHESIS_PROFILE=deep for the long run).
"""
import numpy as np
from hypothesis import given, note, reject, settings

import frontend
import minitorch2 as mt
from tests.backend.test_differential_inductor import (KNOWN_EAGER_ONLY_ERRORS, ProgramModule, assert_same,
                                                      run_compiled, run_eager, straight_line)
from tests.minitorch2.test_differential import default_dtype, describe, programs

GROWTH = (1, 2, 3)


def grown(arrays, factor):
    """The inputs with their leading dim repeated factor times, for those of the full rank whose leading dim is the
    widest (an input broadcast along it, with a size of 1 there or fewer dims, stays as it is)."""
    rank = max(a.ndim for a in arrays)
    widest = max((a.shape[0] for a in arrays if a.ndim == rank and rank), default=1)
    return [np.concatenate([a] * factor) if rank and a.ndim == rank and a.shape[0] == widest else a for a in arrays]


def check_every_size(arrays, program, requires_grad):
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}")
    module = ProgramModule(program, len(arrays))
    frontend.reset()
    compiled = mt.compile(straight_line(program, len(arrays)), backend="inductor", dynamic=True)
    for factor in GROWTH:
        inputs = grown(arrays, factor)
        try:
            e_inputs, e_outputs, e_loss = run_eager(module, inputs, requires_grad)
        except RuntimeError as error:
            if any(known in str(error) for known in KNOWN_EAGER_ONLY_ERRORS):
                reject()
            continue  # eager rejects this size (a fixed reshape); the frontend's own tests cover the raise
        c_inputs, c_outputs, _ = run_compiled(lambda _module, _inputs: compiled, module, inputs, requires_grad)
        for i, (ours, expected) in enumerate(zip(c_outputs, e_outputs)):
            assert_same(ours, expected, f"x{factor}: value {i + len(arrays)}")
        if e_loss is not None:
            for i, (ours, expected) in enumerate(zip(c_inputs, e_inputs)):
                assert (ours.grad is None) == (expected.grad is None), f"x{factor}: gradient of input {i}"
                if expected.grad is not None:
                    assert_same(ours.grad, expected.grad, f"x{factor}: gradient of input {i}")


@settings(max_examples=max(settings.default.max_examples // 10, 1))
@given(programs("float"))
def test_float_programs_over_symbolic_sizes_match_eager(case):
    arrays, program = case
    if not program:
        reject()
    with default_dtype(next(str(a.dtype) for a in arrays if a.dtype.kind == "f")):
        check_every_size(arrays, program, requires_grad=True)


@settings(max_examples=max(settings.default.max_examples // 10, 1))
@given(programs("int"))
def test_integer_programs_over_symbolic_sizes_match_eager(case):
    arrays, program = case
    if not program:
        reject()
    check_every_size(arrays, program, requires_grad=False)
