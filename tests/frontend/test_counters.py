"""frontend.utils.counters against torch._dynamo.utils.counters: the tallies scripts read after compiling.

Each program runs compiled twice (the second call a cache hit) under both, after counters.clear() and reset(); the
frames translated and compiled without falling back ("frames"), the graphs and their calls ("stats", in Dynamo's key
order: a script printing them prints the same) and the number
of breaks frames were split at ("graph_break", summed: the reasons' words are ours) must be Dynamo's. (No program
prints: under pytest's capture torch's counters also count the capture's own Python frames.)
"""
import pytest
import torch
import torch._dynamo
from torch._dynamo.utils import counters as dynamo_counters

import frontend
import minitorch2
from frontend.utils import counters

SRC = r'''
def one_graph(a):
    return (a + 1).sin() * 2
def _helper(a):
    dynamo.graph_break()
    return a * 3
def break_in_a_helper(a):
    b = a + 1
    return _helper(b) - 1
def break_first(a):
    dynamo.graph_break()
    return a + 1
def break_in_loop(a):
    for _ in range(2):
        a = a + 1
        dynamo.graph_break()
    return a
def no_ops(a):
    return a
def two_breaks(a):
    b = a * 2
    dynamo.graph_break()
    c = b + 1
    dynamo.graph_break()
    return c.cos()
def caught_key_error(a):
    try:
        return {"x": a}["y"]
    except KeyError:
        return a - 1
'''
NAMES = [line[4:line.index("(")] for line in SRC.splitlines()
         if line.startswith("def ") and not line.startswith("def _")]


def _tallies(lib, name):
    tally, dynamo = (dynamo_counters, torch._dynamo) if lib is torch else (counters, frontend)
    namespace = {"torch": lib, "dynamo": dynamo}
    exec(compile(SRC, "<counters>", "exec"), namespace)
    tally.clear()
    dynamo.reset()
    for _ in range(2):
        lib.compile(namespace[name], backend="eager")(lib.ones(3))
    return list(tally["frames"].items()), list(tally["stats"].items()), sum(tally["graph_break"].values())


@pytest.mark.parametrize("name", NAMES)
def test_counters_match_dynamo(name):
    assert _tallies(minitorch2, name) == _tallies(torch, name)


def test_reset_keeps_the_counters_as_torch():
    counters.clear()
    minitorch2.compile(lambda a: a + 1, backend="eager")(minitorch2.ones(2))
    frontend.reset()
    assert counters["frames"]["total"] == 1
