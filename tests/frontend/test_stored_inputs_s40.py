"""A tensor input the frame stores (on an object, in a global list, on an autograd.Function's ctx by
save_for_backward) is read from the frame again after the graph, as Dynamo reconstructs a side effect's value from
its source: it is no output of the graph. Printed graphs, values and gradients against torch.compile (session 40).
"""
import numpy as np
import pytest
import torch

import frontend
import minitorch2

from .test_autograd_function_hop import _duplicate_input_program  # (saves its inputs on ctx)

SINK = []


class _Holder:
    pass


def _stores_its_input(lib):
    holder = _Holder()

    def f(x):
        holder.kept = x
        holder.pair = (x, 2)
        SINK.append(x)
        return x.cos()

    return f


@pytest.mark.parametrize("program", [_stores_its_input, _duplicate_input_program],
                         ids=lambda p: p.__name__.strip("_"))
def test_printed_graphs_as_dynamo(program):
    results = []
    for lib in (torch, minitorch2):
        (torch._dynamo if lib is torch else frontend).reset()
        SINK.clear()
        graphs = []
        x = lib.tensor([0.5, 2.0], requires_grad=True)
        out = lib.compile(program(lib), backend=lambda gm, ex: graphs.append(gm) or gm)(x)
        outs = out if isinstance(out, tuple) else (out,)
        sum(o.sum() for o in outs).backward()
        results.append(([gm.code for gm in graphs], [o.tolist() for o in outs], x.grad.tolist(), len(SINK)))
    theirs, ours = results
    assert ours[0] == theirs[0]
    for mine, expected in zip([*ours[1], ours[2]], [*theirs[1], theirs[2]], strict=True):
        np.testing.assert_allclose(mine, expected, rtol=1e-6)
    assert ours[3] == theirs[3]


def test_an_input_stored_and_returned_is_the_callers_object():
    holder = _Holder()

    def f(x):
        holder.kept = x
        SINK.append((x, 1))
        return x + 1

    x = minitorch2.ones(2)
    minitorch2.compile(f, backend="eager")(x)
    assert holder.kept is x and SINK[-1][0] is x
