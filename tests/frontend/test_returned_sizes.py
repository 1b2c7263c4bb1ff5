"""A size computed from a dynamic dimension, returned or passed on at a graph break, stays symbolic: frame counts
against Dynamo 2.13.

Dynamo makes a SymInt the frame computes a graph output, so `return x.shape[0] + 1` with x's dim 0 marked dynamic
compiles once for every row count; `print(x.shape[0] + 1)` passes it across the break as a graph output (the resume
function's int argument then recompiles once, as an automatic dynamic int).
Specializing it instead guarded `(1 + s0) == 5` and recompiled on each new size. Found by the mark_dynamic deep
fuzzer.
"""
import contextlib
import io

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounterWithBackend


def f(x, y):
    return {"out": x + 1, "n": x.shape[0] * 2 + 1, "m": y.shape[0]}


def printing_f(x, y):
    n = x.shape[0] + 1
    print("rows", n)
    return {"out": x * n, "n": n, "m": y.shape[0]}


@pytest.mark.parametrize("fn", [f, printing_f])
@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_a_symbolic_size_compiles_once_as_dynamo(backend, fn):
    results = []
    for lib, dynamo, counter in ((torch, torch._dynamo, torch._dynamo.testing.CompileCounterWithBackend(backend)),
                                 (minitorch2, frontend, CompileCounterWithBackend(backend))):
        dynamo.reset()
        compiled = lib.compile(fn, backend=counter)
        outputs = []
        for rows in (4, 5, 6):
            x, y = lib.ones(rows, 3), lib.ones(2, 3)
            dynamo.mark_dynamic(x, 0)
            with contextlib.redirect_stdout(io.StringIO()):
                out = compiled(x, y)
            outputs.append((out["out"].numpy(), out["n"], out["m"], type(out["n"]).__name__))
        results.append((counter.frame_count, outputs))
    assert results[1][0] == results[0][0] == (1 if fn is f else 3)  # (3: the resume function's int n recompiles
    # once, automatic dynamic)
    for ours, theirs in zip(results[1][1], results[0][1]):
        np.testing.assert_allclose(ours[0], theirs[0])
        assert ours[1:] == theirs[1:]
