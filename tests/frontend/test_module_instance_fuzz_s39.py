"""Differential fuzzing of compiled module instances: program_gen_modules.py's scenarios, minitorch2 against torch.

Each drawn source is exec'd four times, each in a namespace of its own: torch eager, torch.compile with
torch._dynamo.testing.CompileCounter, minitorch2 compiled with frontend.testing.CompileCounter, and minitorch2
eager. The outputs of every call, the input's gradient, the gradients of every instance's parameters (after one
backward of the outputs' sum of squares) its buffers and attributes must equal torch eager's, compiled or not: ours is never
wrong. frame_count and op_count must equal Dynamo's, except where Dynamo's own values differ from eager's: there
Dynamo shares a graph it should not (an instance hooked or tied where the first was not, docs/architecture.md's
list), and ours recompiling is the right answer; and where a weight is tied in some instances only, which ours guards
and Dynamo does not (the same list): ours may compile more frames there, never fewer.

15 examples by default (about 15 s of CPU); the slow variant draws 50 with up to five instances (about 40 s).
"""
import re

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
from hypothesis import HealthCheck, given, note, settings

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .program_gen_modules import PRELUDE, module_programs

FAST = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
TIED = re.compile(r"\.out\.weight = m\d\.inp\.weight$", re.MULTILINE)


def _run(source, lib, compile):
    namespace = {"torch": lib}
    exec(compile_source(source), namespace)  # noqa: S102 (the generated program)
    # (rows not on one line: BatchNorm of collinear rows is a constant, its gradient rounding noise)
    x = lib.tensor(np.sin(np.arange(12.0) * 1.3).astype(np.float32).reshape(3, 4), requires_grad=True)
    outs, models = namespace["scenario"](compile, x)
    sum((o * o).sum() for o in outs).backward()  # (squared: a plain sum of BatchNorm's outputs has no gradient)
    grads = [[_plain(p.grad) for p in m.parameters()] for m in models]
    state = [[*map(_plain, m.buffers()), _plain(getattr(m, "temp", None)), _simple_attributes(m)] for m in models]
    return [_plain(o) for o in outs], _plain(x.grad), grads, state


def _simple_attributes(model):
    # (torch.compile(model) marks the model `_is_torch_compile`, a private flag ours does not set)
    return [(k, v) for k, v in vars(model).items() if isinstance(v, (int, float, str)) and not k.startswith("_")]


def compile_source(source):
    return compile(source, "<generated program>", "exec")


def _plain(value):
    return None if value is None else np.asarray(value.detach().numpy()).copy()


def _same(ours, theirs):
    if isinstance(theirs, list):
        return isinstance(ours, list) and len(ours) == len(theirs) and all(map(_same, ours, theirs))
    if theirs is None or ours is None:
        return ours is theirs
    if isinstance(theirs, tuple):
        return ours == theirs
    scale = float(np.abs(theirs).max(initial=1.0))  # (an entry near 0 beside large ones carries their rounding)
    return ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=1e-4, atol=2e-5 * scale)


def _compiler(lib, counter):
    def compile(fn, in_place=False):
        return fn.compile(backend=counter) if in_place else lib.compile(fn, backend=counter)
    return compile


def check_module_program(source):
    frontend.reset()
    torch._dynamo.reset()
    ours_counter, theirs_counter = CompileCounter(), torch._dynamo.testing.CompileCounter()
    eager = _run(source, torch, lambda fn, in_place=False: fn)
    dynamo = _run(source, torch, _compiler(torch, theirs_counter))
    ours = _run(source, minitorch2, _compiler(minitorch2, ours_counter))
    ours_eager = _run(source, minitorch2, lambda fn, in_place=False: fn)
    for name, got in (("minitorch2 eager", ours_eager), ("minitorch2 compiled", ours)):
        for part, a, b in zip(("outputs", "x.grad", "parameter grads", "buffers and attributes"), got, eager):
            assert _same(a, b), f"{name}: {part} differ from torch eager's"
    counts, theirs_counts = ((c.frame_count, c.op_count) for c in (ours_counter, theirs_counter))
    if all(map(_same, dynamo, eager)) and not TIED.search(source):
        assert counts == theirs_counts, f"counts {counts} vs Dynamo's {theirs_counts}"
    else:  # Dynamo shared a graph it should not have, or a weight is tied in some instances only (ours guards the
        # tie, docs/architecture.md): ours must have compiled more frames, not fewer
        note(f"counts ours {counts}, Dynamo's {theirs_counts}")
        assert counts[0] >= theirs_counts[0], f"counts {counts} vs Dynamo's {theirs_counts}"
    frontend.reset()
    torch._dynamo.reset()


@FAST
@given(module_programs())
def test_module_instances_match_torch(source):
    note(source)
    check_module_program(source)


@SLOW
@given(module_programs(max_instances=5))
def test_module_instances_match_torch_many(source):
    note(source)
    check_module_program(source)


# ---- what the grammar found, shrunk ------------------------------------------------------------------------------
HOOKED_MODELS_COMPILED = PRELUDE + '''

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.inp(x).tanh()


def scenario(compile, x):
    m0, m1, m2 = (seed(Net(), k) for k in range(3))
    m1.register_forward_hook(lambda mod, args, out: out * 3)
    m2.register_forward_pre_hook(lambda mod, args, kwargs: ((args[0] + 1,), kwargs), with_kwargs=True)
    m2.register_forward_hook(lambda mod, args, out: out.sum(0))
    outs = [compile(m)(x) for m in (m0, m1, m2, m0)]
    return outs, [m0, m1, m2]
'''


def test_compiled_user_models_run_their_hooks_as_frames_apart():
    """torch.compile(model) of a user's module: Dynamo skips Module.__call__'s frame, so forward and each hook are
    frames of their own (forward's graph shared by the three instances, a graph per hook): (4, 5). Ours compiled
    forward and the hooks in one frame, a graph per hooked instance: (3, 9)."""
    check_module_program(HOOKED_MODELS_COMPILED)


HOOKED_MODEL_COMPILED_IN_PLACE = PRELUDE + '''

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.inp(x).tanh()


def scenario(compile, x):
    m0, m1 = seed(Net(), 0), seed(Net(), 1)
    m1.register_forward_hook(lambda mod, args, out: out * 3)
    for m in (m0, m1):
        compile(m, in_place=True)
    return [m0(x), m1(x), m0(x)], [m0, m1]
'''


@pytest.mark.xfail(strict=True, reason="model.compile() of a user's module with a forward hook: Dynamo compiles "
                   "Module._call_impl, a frame it skips, so forward and each hook are frames apart, (2, 3); ours "
                   "(Module.compile, module_more.py) compiles only forward and runs the hooks eagerly, (1, 2). The "
                   "fix needs Module.__call__ to defer to an instance's compiled call (call_with_hooks with the "
                   "compiler, as OptimizedModule does), lines the lesson has no room for today")
def test_models_compiled_in_place_run_their_hooks_as_frames_apart():
    check_module_program(HOOKED_MODEL_COMPILED_IN_PLACE)
