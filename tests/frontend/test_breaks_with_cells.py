"""Graph breaks in frames with free variables, on every Python the frontend supports (3.11-3.13), without torch.

A resume function gets the breaking frame's closure cells (LOAD_CLOSURE, which 3.13 made a pseudo-op spelled
LOAD_FAST), and a break at 3.12's LOAD_SUPER_ATTR in its method form (`super().g(t)`) replays it as an attribute
load with the NULL beside it (storing a NULL crashed 3.12). Both resume instead of running the frame eagerly, as
Dynamo's do; values against the uncompiled call. (`super().g(t)` of a plain method is traced without a break, as
Dynamo's: one frame; the base's g here is marked disable, so the attribute load breaks, and the frame resumes.)
"""
import contextlib
import io

import numpy as np

import frontend
import minitorch2
from frontend.testing import CompileCounter


def _make_scaled(scale):
    def scaled(x):
        y = x * scale
        print("middle")
        return y + scale
    return scaled


class _Base:
    @frontend.disable
    def g(self, t):
        return t + 1


class _Sub(_Base):
    def g(self, t):
        return super().g(t) * 2


def _compiled_frames_and_values(fn):
    frontend.reset()
    counter = CompileCounter()
    x = minitorch2.tensor(np.arange(3, dtype="float32"))
    with contextlib.redirect_stdout(io.StringIO()):
        ours, eager = minitorch2.compile(fn, backend=counter)(x), fn(x)
    np.testing.assert_allclose(ours.numpy(), eager.numpy())
    return counter.frame_count


def test_a_break_in_a_closure_resumes_with_its_cells():
    assert _compiled_frames_and_values(_make_scaled(3.0)) == 2


def test_a_break_at_super_attribute_load_resumes():
    assert _compiled_frames_and_values(_Sub().g) == 1  # the resumed `* 2` (no op before the break), as Dynamo's


class _Plain:
    def g(self, t):
        return t + 1


class _PlainSub(_Plain):
    def g(self, t):
        return super().g(t) * 2


def test_super_of_a_plain_method_is_traced_in_one_frame():
    assert _compiled_frames_and_values(_PlainSub().g) == 1
