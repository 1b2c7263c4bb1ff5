"""A frame long enough that its jumps and constants need EXTENDED_ARG prefixes splits at two graph breaks as Dynamo
splits it: the resume functions map each instruction (prefixes included) back to the original code.

Compared with torch.compile: values and frame counts, for both branches of the int the first break passes on.
"""
import contextlib
import dis
import io

import numpy as np
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

# 260 locals and constants: their indices past 255 take an EXTENDED_ARG prefix
_FIRST, _SECOND = ("\n".join(f"    v{i} = {i}.5" for i in numbers) for numbers in (range(130), range(130, 260)))
_SOURCE = f"""
def f(x, n):
    y = x * 2
{_FIRST}
    print("a", n)
    if n > 3:
        y = y * 3
    z = y.sin()
{_SECOND}
    print("b")
    for i in range(2):
        z = z + i
    return z + y + v0 + v259
"""


def test_a_frame_with_extended_args_resumes_twice_as_dynamo():
    namespace = {}
    exec(compile(_SOURCE, "<extended_args>", "exec"), namespace)
    f = namespace["f"]
    assert any(inst.opname == "EXTENDED_ARG" for inst in dis.get_instructions(f))
    results = []
    for lib, dynamo, counter in ((torch, torch._dynamo, torch._dynamo.testing.CompileCounter()),
                                 (minitorch2, frontend, CompileCounter())):
        dynamo.reset()
        compiled = lib.compile(f, backend=counter)
        with contextlib.redirect_stdout(io.StringIO()):
            outs = [compiled(lib.ones(3), n).numpy() for n in (5, 1)]
        results.append((outs, counter.frame_count))
        dynamo.reset()
    for ours, theirs in zip(results[1][0], results[0][0]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    assert results[1][1] == results[0][1]
