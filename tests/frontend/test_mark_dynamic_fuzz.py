"""Differential fuzzing of mark_dynamic: generated programs with their first argument's dim 0 marked dynamic.

program_gen.programs() writes f(x[, y[, z]]) (loops, branches on shapes and data, helper calls, containers,
graph breaks). Each example runs the same source through minitorch2.compile and torch.compile (backend
"eager", counted) three times over new tensors of different row counts, marking x's dim 0 dynamic before each
call, as a user marks a batch dim. Marks are strict in both: a program that specializes the marked size (a
branch on `x.shape[0] == 3`, a loop over range(x.shape[0])) raises ConstraintViolationError (or Dynamo's
UserError wrapping it); a program that does not compiles one graph for every row count. Per call, both must
raise the same class or both return equal values; and both must compile the same number of frames.
"""
import os

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import frontend
import minitorch2
from frontend.testing import CompileCounterWithBackend

from .program_gen import programs

torch = pytest.importorskip("torch")
import torch._dynamo  # noqa: E402
import torch._dynamo.testing  # noqa: E402


def _calls(lib, dynamo, counter, source, n_args, shapes, seed):
    """Each call's outcome, ("values", arrays) or ("raised", class name), and the frames compiled."""
    namespace = {"torch": lib, "dynamo": dynamo}
    exec(compile(source, "<generated program>", "exec"), namespace)
    dynamo.reset()
    compiled = lib.compile(namespace["f"], backend=counter)
    outcomes = []
    for call, shape in enumerate(shapes):
        rng = np.random.default_rng(seed + call)
        args = [lib.tensor(rng.standard_normal(shape).astype(np.float32)) for _ in range(n_args)]
        dynamo.mark_dynamic(args[0], 0)
        try:
            out = compiled(*args)
        except Exception as e:  # noqa: BLE001 - the class is compared with torch's
            outcomes.append(("raised", type(e).__name__))
            continue
        outcomes.append(("values", _leaves(out)))
    dynamo.reset()
    return outcomes, counter.frame_count


def _leaves(value):
    """The returned values in order, tensors as arrays (dicts by key; the keys compared too)."""
    if isinstance(value, dict):
        return [leaf for key in value for leaf in (key, *_leaves(value[key]))]
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [np.asarray(value.detach().numpy()) if hasattr(value, "detach") else value]


@settings(max_examples=1_000 if os.environ.get("HYPOTHESIS_PROFILE") == "deep" else 40, deadline=None)
@given(programs(max_statements=6), st.lists(st.integers(2, 6), min_size=3, max_size=3), st.integers(1, 4),
       st.integers(0, 2**16))
def test_program_with_a_marked_dim_matches_torch(program, rows, cols, seed):
    source, n_args = program
    note("program:\n" + source)
    shapes = [(n, cols) for n in rows]
    ours, our_frames = _calls(minitorch2, frontend, CompileCounterWithBackend("eager"), source, n_args, shapes, seed)
    theirs, their_frames = _calls(torch, torch._dynamo, torch._dynamo.testing.CompileCounter(), source, n_args,
                                  shapes, seed)
    for call, (mine, reference) in enumerate(zip(ours, theirs)):
        assert mine[0] == reference[0], f"call {call}: minitorch2 {mine}, torch {reference}"
        if mine[0] == "raised":
            assert mine[1] == reference[1], f"call {call}: minitorch2 raised {mine[1]}, torch {reference[1]}"
        else:
            assert len(mine[1]) == len(reference[1]), f"call {call}: {len(mine[1])} values, torch {len(reference[1])}"
            for a, b in zip(mine[1], reference[1]):
                if isinstance(a, np.ndarray):
                    np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5, err_msg=f"call {call}")
                else:
                    assert a == b, f"call {call}: {a!r}, torch {b!r}"
    assert our_frames == their_frames, f"frames: minitorch2 {our_frames}, torch {their_frames}"


# What the fuzzer found, kept as plain tests: a frame whose only work is reading a marked size is still compiled
# (Dynamo counts the size calls before its dead-code pass drops them); the resume functions of one break's two
# branches share what automatic dynamic saw (Dynamo keys its code state by file, line and name); a size found equal
# to another keeps its range and guards; a grad-mode switch undone at once is no graph (Dynamo's cleanup_graph).
FOUND = {
    "shape_read_then_return": "def f(x, y):\n    if x.shape[0] > 1:\n        return y\n    return x\n",
    "shape_read_then_break": "def f(x, y):\n    n = x.shape[0]\n    print('n')\n    return y + n\n",
    "data_branch_then_broadcast": "def f(x, y):\n    if x.sum() > 0:\n        pass\n    return x * 0.5 + y\n",
    # a size found equal to another keeps its guard (before: the size-2 call reused the other branch's entry)
    "branch_on_a_size_then_unified": "def f(x, y):\n    if x.shape[0] > 2:\n        return x + y\n"
                                     "    return x - y\n",
    # a marked size replaced by an intermediate's, which a later guard pins: the marked one is pinned too
    "marked_size_pinned_through_another": "def f(x, y):\n    v = x + 1\n    print('n')\n    w = x * v\n"
                                          "    if w.shape[0] > 2:\n        return w + 1\n    return w - 1\n",
    # a grad-mode block entered and broken in at once: its two switches cancel, leaving no graph to compile
    "no_grad_block_broken_in": "def f(x, y):\n    v = torch.relu(x)\n    dynamo.graph_break()\n"
                               "    with torch.no_grad():\n        dynamo.graph_break()\n        v = torch.relu(y)\n"
                               "    return x\n",
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_found_program_matches_torch(name):
    shapes = [(3, 1), (2, 1), (4, 1), (2, 1), (3, 1)]
    ours = _calls(minitorch2, frontend, CompileCounterWithBackend("eager"), FOUND[name], 2, shapes, seed=0)
    theirs = _calls(torch, torch._dynamo, torch._dynamo.testing.CompileCounter(), FOUND[name], 2, shapes, seed=0)
    assert [kind for kind, _ in ours[0]] == [kind for kind, _ in theirs[0]]
    for (kind, mine), (_, reference) in zip(ours[0], theirs[0]):
        if kind == "values":
            for a, b in zip(mine, reference):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert ours[1] == theirs[1]
