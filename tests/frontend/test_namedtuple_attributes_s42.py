"""An attribute set on an instance of a namedtuple subclass made in a compiled frame (found in session 42 by running
Dynamo's test_misc.py, test_namedtuple_sourceless_dynamic_attributes): `tup.c = x * 3` was a graph break, and the
tuple rebuilt after it had no `c`, so the frame returned a tuple without the attribute (a silent wrong result) and a
read after the break raised AttributeError. The attribute is now kept with the tracker and set on the rebuilt tuple,
at a break or at the return; one read from outside the frame is read through its source."""
import typing

import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter


class Pair(typing.NamedTuple):
    a: object
    b: object


class TaggedPair(Pair):
    pass


def _returned(lib, x):
    tup = TaggedPair(x + 1, x * 2)
    tup.c = x * 3
    return tup


def _read_after_a_break(lib, x):
    tup = TaggedPair(x + 1, x * 2)
    tup.c = x * 3
    print("", end="")
    return tup.a + tup.c, tup


def _run(lib, program):
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    out = lib.compile(lambda x: program(lib, x), backend=counter)(lib.ones(2))
    return out, (counter.frame_count, counter.op_count)


def test_the_returned_tuple_keeps_the_attribute():
    (theirs, their_counts), (ours, our_counts) = (_run(lib, _returned) for lib in (torch, minitorch2))
    assert type(ours) is TaggedPair and ours.c.tolist() == theirs.c.tolist() == [3.0, 3.0]
    assert ours.a.tolist() == theirs.a.tolist() and our_counts == their_counts


def test_the_attribute_is_read_after_a_graph_break():
    (theirs, their_counts), (ours, our_counts) = (_run(lib, _read_after_a_break) for lib in (torch, minitorch2))
    assert ours[0].tolist() == theirs[0].tolist() == [5.0, 5.0]
    assert ours[1].c.tolist() == [3.0, 3.0] and our_counts == their_counts


def test_a_tuple_from_outside_reads_its_own_attributes():
    def program(lib, tup):
        return tup.a * tup.scale

    results = []
    for lib in (torch, minitorch2):
        tup = TaggedPair(lib.ones(2), lib.ones(2))
        tup.scale = 4
        compiled = lib.compile(lambda t: program(lib, t), backend="eager")
        first = compiled(tup).tolist()
        tup.scale = 5  # (guarded: the new value is seen)
        results.append((first, compiled(tup).tolist()))
    assert results[1] == results[0] == ([4.0, 4.0], [5.0, 5.0])
