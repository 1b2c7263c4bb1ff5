"""torch.backends' flags read in a compiled frame, and set by the script between calls (found in session 42).

A flag read in the frame (`if torch.backends.cudnn.benchmark:`) was a constant of the graph with no guard: after the
script changed it, the cached graph still took the old branch, a silent wrong value. Now the flags are read through
their source and guarded, as Dynamo guards them; the flags' objects (torch.backends.cuda.matmul) are user objects.
Each case runs the same calls under torch.compile and minitorch2.compile: every value and the frame count after them
must be Dynamo's.
"""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter


def _benchmark_branch(lib, x):
    return x * 2 if lib.backends.cudnn.benchmark else x - 1


def _tf32_scale(lib, x):
    return x * (3 if lib.backends.cuda.matmul.allow_tf32 else 5)


def _deterministic_or_enabled(lib, x):
    return x + 1 if lib.backends.cudnn.deterministic and lib.backends.cudnn.enabled else x + 2


CASES = {  # program -> (the flag's module path, attribute), the values it takes call by call
    "benchmark_branch": (_benchmark_branch, ("cudnn", "benchmark"), [True, False, True, False]),
    "tf32_scale": (_tf32_scale, ("cuda.matmul", "allow_tf32"), [False, True, True, False]),
    "deterministic_or_enabled": (_deterministic_or_enabled, ("cudnn", "deterministic"), [False, True, False]),
}


def _flag_owner(lib, path):
    owner = lib.backends
    for part in path.split("."):
        owner = getattr(owner, part)
    return owner


def _run(lib, program, flag, settings):
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(lambda x: program(lib, x), backend=counter)
    owner, name = _flag_owner(lib, flag[0]), flag[1]
    saved, values = getattr(owner, name), []
    try:
        for setting in settings:
            setattr(owner, name, setting)
            values.append(compiled(lib.ones(3)).numpy().copy())
    finally:
        setattr(owner, name, saved)
    return counter.frame_count, values


@pytest.mark.parametrize("name", list(CASES))
def test_a_flag_set_between_calls_is_seen_as_dynamo_sees_it(name):
    program, flag, settings = CASES[name]
    theirs_frames, theirs = _run(torch, program, flag, settings)
    ours_frames, ours = _run(minitorch2, program, flag, settings)
    for o, t in zip(ours, theirs):
        np.testing.assert_array_equal(o, t)
    assert ours_frames == theirs_frames
