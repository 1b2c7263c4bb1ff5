"""Python attributes on tensors in compiled frames (frontend/variables/tensor_attributes.py) against Dynamo 2.13, in
the manner of Dynamo's test_input_attr_tracking.py: an input tensor given an attribute before the call and read in
the frame (a new value on the next call is seen, an input without it is not given the old one), an attribute written on an input tensor (there after the call),
one written on a tensor made in the frame and returned with it, and one alive at a graph break. Each program runs
under torch.compile and minitorch2.compile on the same calls: values, counts and the attributes left behind match.
"""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

SRC = r'''
def read_input_attribute(x):
    return x * x.y
def write_input_attribute(x):
    x.tag = 5
    return x + 1
def write_returned_attribute(x):
    t = x * 2
    t.scale = 3
    return t
def attribute_alive_at_break(x):
    t = x * 2
    t.scale = 3
    dynamo.graph_break()
    return t * t.scale
def hasattr_of_input_attribute(x):
    return x * 2 if hasattr(x, "y") else x - 1
def input_attribute_missing_is_caught(x):
    try:
        return x * x.nothing
    except AttributeError:
        return x - 1
'''


def _build(lib):
    namespace = {"torch": lib, "dynamo": torch._dynamo if lib is torch else frontend}
    exec(compile(SRC, "<tensor attributes>", "exec"), namespace)
    return namespace


NAMES = ["read_input_attribute", "hasattr_of_input_attribute", "write_input_attribute", "write_returned_attribute", "attribute_alive_at_break",
         "input_attribute_missing_is_caught"]
LIBS = {torch: _build(torch), minitorch2: _build(minitorch2)}


def _run(lib, name):
    """Calls on inputs carrying `y` (its value changes), then one without: values (or the error's class), attributes
    after each call, the counts."""
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    torch._dynamo.reset() if lib is torch else frontend.reset()
    compiled = lib.compile(LIBS[lib][name], backend=counter)
    seen = []
    for y in (np.float32([3, 4]), np.float32([5, 6]), None):  # (the third input has no `y`)
        x = lib.tensor(np.float32([1, 2]))
        if y is not None:
            x.y = lib.tensor(y)
        try:
            out = compiled(x)
        except AttributeError:
            seen.append("AttributeError")
            continue
        seen.append((out.numpy().tolist(), getattr(x, "tag", None), getattr(out, "scale", None)))
    return seen, (counter.frame_count, counter.op_count)


@pytest.mark.parametrize("name", NAMES)
def test_tensor_attributes_match_dynamo(name):
    assert _run(minitorch2, name) == _run(torch, name)
