"""list.index/count and Size.numel inside a compiled frame fold on the constant sequence as Python calls them.

`xs.index(2, 2)` took only its first argument (the start was dropped: 1 instead of 3, silently) until these calls
were folded by the constant's own method with every argument. Compared with torch.compile: values and frame counts.
"""
import numpy as np
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter


def f(x, xs):
    return x * (xs.index(2, 2) + xs.count(2) + x.shape.numel() + xs.index(3, 0, 3))


def test_sequence_methods_take_all_their_arguments_as_torch():
    results = []
    for lib, dynamo, counter in ((torch, torch._dynamo, torch._dynamo.testing.CompileCounter()),
                                 (minitorch2, frontend, CompileCounter())):
        dynamo.reset()
        out = lib.compile(f, backend=counter)(lib.ones(2, 3), [1, 2, 3, 2])
        results.append((out.numpy(), counter.frame_count))
        dynamo.reset()
    np.testing.assert_allclose(results[1][0], results[0][0])
    assert results[1][0][0, 0] == 3 + 2 + 6 + 2
    assert results[1][1] == results[0][1] == 1
