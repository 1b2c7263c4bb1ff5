"""The values on the stack at a graph break are guarded, used or not: frame counts against Dynamo 2.13.

Dynamo realizes every value on the stack when it breaks (output_graph._get_stack_values_to_restore), so a tensor
only passed on to the call that breaks still gets its TENSOR_MATCH guard: a new size recompiles the frame. Found by
the mark_dynamic fuzzer (a helper that prints, called with an argument it never reads).
"""
import contextlib
import io

import numpy as np
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

SRC = '''
def helper(a, b):
    print("in helper", a.shape[0])
    return torch.relu(a)
def f(x, y):
    return x * 0.5 + helper(x, y)
'''


def _frames_and_values(lib, dynamo, counter):
    namespace = {"torch": lib}
    exec(compile(SRC, "<break stack guards>", "exec"), namespace)
    dynamo.reset()
    compiled = lib.compile(namespace["f"], backend=counter)
    values = []
    with contextlib.redirect_stdout(io.StringIO()):
        for rows_of_y in (2, 2, 3):
            x = lib.tensor(np.arange(4, dtype="float32").reshape(2, 2) - 1)
            y = lib.tensor(np.ones((rows_of_y, 2), dtype="float32"))
            values.append(compiled(x, y).numpy())
    return counter.frame_count, values


def test_a_tensor_only_passed_to_the_breaking_call_is_guarded_as_dynamo():
    theirs = _frames_and_values(torch, torch._dynamo, torch._dynamo.testing.CompileCounter())
    ours = _frames_and_values(minitorch2, frontend, CompileCounter())
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1])
