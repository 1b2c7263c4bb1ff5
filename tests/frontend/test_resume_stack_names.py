"""A resume function that breaks again must not overwrite its own arguments with the breaking instruction's
results (found by the adversarial fuzzer: a np.float64 breaks `y * a` inside a no_grad block, the resume
function then breaks at `type(k)`, and its result replaced y, so the compiled call returned numpy.float64
where eager and torch.compile return the tensor). Compared with torch.compile."""
import numpy as np
import pytest
import torch

import minitorch2


def _program(lib):
    def f(x, k, a):
        y = x * 2
        with lib.no_grad():
            y = y * a
        return y, type(k).__name__

    def g(x, k, a):
        y = x * a
        z = y + len(str(k))
        return y, z, type(k)

    return f, g


@pytest.mark.parametrize("which", [0, 1])
def test_a_break_in_a_resume_function_keeps_the_values_below_it(which):
    results = []
    for lib, compile_ in ((minitorch2, minitorch2.compile), (torch, torch.compile)):
        compiled = compile_(_program(lib)[which], backend="eager")
        calls = [compiled(lib.ones(2), 2, 2), compiled(lib.ones(2), np.float64(2.5), np.float64(2.5))]
        results.append([[v.numpy().tolist() if hasattr(v, "numpy") else v for v in call] for call in calls])
    assert results[0] == results[1]
